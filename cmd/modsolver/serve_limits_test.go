package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestByteSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "1048576": 1 << 20, "512Mi": 512 << 20, "2Gi": 2 << 30, "64KiB": 64 << 10, "1Ti": 1 << 40} {
		var b byteSize
		require.NoError(t, b.Set(in), in)
		assert.Equal(t, want, int64(b), in)
	}
	for _, in := range []string{"", "-1", "1.5Gi", "12MB", "Mi", "99999999999Ti"} {
		var b byteSize
		assert.Error(t, b.Set(in), in)
	}
	for n, want := range map[byteSize]string{0: "0", 512 << 20: "512Mi", 1<<30 + 1: "1073741825", 3 << 10: "3Ki"} {
		assert.Equal(t, want, n.String())
	}
}

func TestServeLimitFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		mention string
	}{
		{[]string{"--max-inflight", "-1"}, "--max-inflight"},
		{[]string{"--max-queued", "-2"}, "--max-queued"},
		{[]string{"--queue-timeout", "0s"}, "--queue-timeout"},
		{[]string{"--max-inline-catalog-bytes", "0"}, "--max-inline-catalog-bytes"},
		{[]string{"--max-inline-catalog-modules", "0"}, "--max-inline-catalog-modules"},
		{[]string{"--max-request-memory", "lots"}, "512Mi"},
	} {
		r := runCLI(t, append([]string{"serve", "--listen", "127.0.0.1:0"}, tc.args...)...)
		assert.Equal(t, exitBadInput, r.code, r.errOut)
		assert.Contains(t, r.errOut, tc.mention)
	}
	help := runCLI(t, "serve", "--help").out
	for _, want := range []string{"--max-inflight", "--max-queued", "--queue-timeout", "--max-request-memory", "--max-inline-catalog-bytes", "--max-inline-catalog-modules", "RESOURCE_EXHAUSTED", "RetryInfo"} {
		assert.Contains(t, help, want)
	}
}
