package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An int flag below its least value is bad command-line input (exit 2),
// worded alike by every command, before the command does anything: the
// panic `catalog check --top -3` gave is the case that found it.
func TestIntFlagsBelowTheirLeast(t *testing.T) {
	const demo = "../../catalog/demo/catalog.yaml"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"catalog", "check", demo, "--kubernetes", "1.31.0", "--deckhouse", "1.74.0", "--top", "-3"}, "--top -3: want n >= 0"},
		{[]string{"catalog", "check", demo, "--kubernetes", "1.31.0", "--deckhouse", "1.74.0", "--workers", "-1"}, "--workers -1: want n >= 0"},
		{[]string{"whatif", "--kubernetes", "1.31.2", "--workers", "-1"}, "--workers -1: want n >= 0"},
		{[]string{"whatif", "--kubernetes", "1.31.2", "--shards", "-2"}, "--shards -2: want n >= 0"},
		{[]string{"bench", "--runs", "0"}, "--runs 0: want n >= 1"},
		{[]string{"bench", "--loops", "-1"}, "--loops -1: want n >= 0"},
		{[]string{"loadtest", "--concurrency", "0"}, "--concurrency 0: want n >= 1"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--max-request-bytes", "0"}, "--max-request-bytes 0: want n >= 1"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--max-inflight", "-1"}, "--max-inflight -1: want n >= 0"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--max-queued", "-2"}, "--max-queued -2: want n >= -1"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--max-inline-catalog-modules", "0"}, "--max-inline-catalog-modules 0: want n >= 1"},
	} {
		r := runCLI(t, tc.args...)
		assert.Equal(t, exitBadInput, r.code, "%v: %s", tc.args, r.errOut)
		assert.Empty(t, r.out, "%v", tc.args)
		assert.Equal(t, "modsolver: bad command line: "+tc.want+"\n", r.errOut, "%v", tc.args)
	}
}

// --top 0 is taken, and prints no reasons.
func TestCheckTopZero(t *testing.T) {
	r := runCLI(t, "catalog", "check", "../../catalog/demo/catalog.yaml", "--kubernetes", "1.30.8", "--deckhouse", "1.72.4", "--top", "0")
	require.NotEqual(t, exitBadInput, r.code, r.errOut)
	assert.Contains(t, r.out, "modules checked")
	assert.NotContains(t, r.out, "Top reasons")
}

// Every int flag of the command line is an intFlag, so that none escapes
// the check: no command defines one with the flag package's own.
func TestEveryIntFlagIsBounded(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	plain := regexp.MustCompile(`\bfs\.(Int|Int64|Uint|Uint64)(Var)?\(`)
	// Flags of other kinds that any value of fits, or whose check bounds
	// them on both sides.
	exempt := []string{
		`"seed"`,                   // any seed generates
		`"max-concurrent-streams"`, // a uint32 for gRPC: serve_prod.go checks 1 to 2^32-1
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		for i, line := range strings.Split(string(data), "\n") {
			if m := plain.FindString(line); m != "" && !slices.ContainsFunc(exempt, func(e string) bool { return strings.Contains(line, e) }) {
				t.Errorf("%s:%d: %s defines a plain int flag; define it with intVar and its least value", file, i+1, m)
			}
		}
	}
}
