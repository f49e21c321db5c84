package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

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
