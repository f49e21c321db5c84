//go:build unix

package loadgen

import (
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The process's CPU time grows while it works.
func TestLoadProcessCPU(t *testing.T) {
	before, ok := ProcessCPU()
	require.True(t, ok)
	sum := sha256.Sum256(nil)
	for range 200_000 {
		sum = sha256.Sum256(sum[:])
	}
	after, ok := ProcessCPU()
	require.True(t, ok)
	assert.Greater(t, after, before, "hashing %x took no CPU time", sum[:4])
}
