package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// An interrupt (SIGINT and SIGTERM end the command's context) stops a
// command that is still reading its inputs, and says so: it does not wait
// for a large cluster file to be read first.
func TestResolveInterruptedWhileReading(t *testing.T) {
	var b strings.Builder
	b.WriteString("deckhouse: 1.73.3\nkubernetes: 1.31.2\nmodules:\n")
	for i := range 50_000 {
		fmt.Fprintf(&b, "  m%06d: {enabled: false}\n", i)
	}
	cluster := writeTemp(t, "cluster.yaml", b.String())
	cat := writeTemp(t, "catalog.yaml", "modules:\n  - {name: a, releases: [{version: 1.0.0}]}\n")
	req := writeTemp(t, "request.yaml", "enable: [a]\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as main does on SIGINT
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"resolve", "--catalog", cat, "--cluster", cluster, "--request", req}, &out, &errOut)
	assert.Equal(t, exitNoAnswer, code)
	assert.Contains(t, errOut.String(), "interrupted while reading the inputs")
	assert.Empty(t, out.String())
}

// An answer that an interrupt or the deadline cut off says which, and what
// was going on.
func TestNoAnswerSaysWhy(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	err := noAnswer(canceled, time.Minute, "resolving the request", canceled.Err())
	assert.EqualError(t, err, "interrupted while resolving the request: context canceled")
	assert.ErrorIs(t, err, context.Canceled)

	expired, stop := context.WithTimeout(context.Background(), -time.Second)
	defer stop()
	err = noAnswer(expired, 2*time.Second, "answering the batch", expired.Err())
	assert.EqualError(t, err, "no answer within --timeout 2s: context deadline exceeded")
	assert.Equal(t, exitNoAnswer, fail(io.Discard, err))
}
