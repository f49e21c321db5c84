//go:build !libsolv

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Without the build tag, --vs libsolv is a usage error that says how to
// build a binary with libsolv.
func TestBenchLibsolvNotBuilt(t *testing.T) {
	code, out, errOut := benchCmd(t, "--size", "10x3", "--runs", "1", "--vs", "libsolv")
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "built without libsolv")
	assert.Contains(t, errOut, "make bench")
	assert.Contains(t, errOut, "-tags libsolv")
}
