package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func loadtestCmd(t *testing.T, args ...string) (code int, out, errOut string) {
	t.Helper()
	return runCommand(t, "loadtest", args...)
}

// loadJSON is loadtest --json, with the keys it must have.
type loadJSON struct {
	Requests      *int     `json:"requests"`
	Errors        *int     `json:"errors"`
	RPS           *float64 `json:"rps"`
	P50Ms         *float64 `json:"p50Ms"`
	P90Ms         *float64 `json:"p90Ms"`
	P99Ms         *float64 `json:"p99Ms"`
	MaxMs         *float64 `json:"maxMs"`
	CPUMsPerReq   *float64 `json:"cpuMsPerRequest"`
	Concurrency   *int     `json:"concurrency"`
	Resolved      *int     `json:"resolved"`
	Unsatisfiable *int     `json:"unsatisfiable"`
}

func decodeLoad(t *testing.T, out string) loadJSON {
	t.Helper()
	var doc loadJSON
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	for name, v := range map[string]any{"requests": doc.Requests, "errors": doc.Errors, "rps": doc.RPS, "p50Ms": doc.P50Ms, "p90Ms": doc.P90Ms,
		"p99Ms": doc.P99Ms, "maxMs": doc.MaxMs, "concurrency": doc.Concurrency, "resolved": doc.Resolved, "unsatisfiable": doc.Unsatisfiable} {
		require.NotNil(t, v, "key %s", name)
	}
	return doc
}

// The default run serves a generated S catalog in-process and every call
// is answered.
func TestLoadtestJSON(t *testing.T) {
	code, out, errOut := loadtestCmd(t, "--duration", "300ms", "--warmup", "0s", "--json")
	require.Equal(t, exitResolved, code, errOut)
	doc := decodeLoad(t, out)
	assert.Positive(t, *doc.Requests)
	assert.Zero(t, *doc.Errors)
	assert.Positive(t, *doc.RPS)
	assert.Equal(t, *doc.Requests, *doc.Resolved+*doc.Unsatisfiable, "every answer has a status")
	assert.LessOrEqual(t, *doc.P50Ms, *doc.P99Ms)
	assert.LessOrEqual(t, *doc.P99Ms, *doc.MaxMs)
	require.NotNil(t, doc.CPUMsPerReq, "Linux reports the process's CPU time")
	assert.Positive(t, *doc.CPUMsPerReq)
}

func TestLoadtestTable(t *testing.T) {
	code, out, errOut := loadtestCmd(t, "--size", "12x4", "--seed", "3", "--concurrency", "2", "--duration", "100ms", "--warmup", "0s")
	require.Equal(t, exitResolved, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3, out)
	assert.Regexp(t, `^in-process server on 127\.0\.0\.1:\d+, 12x4 \(12 modules × 4 releases, seed 3\), update-all and install-one; concurrency 2,`, lines[0])
	assert.Regexp(t, `^REQUESTS\s+ERRORS\s+REQ/S\s+P50 MS\s+P90 MS\s+P99 MS\s+MAX MS\s+CPU MS/REQ\s+STATUSES$`, lines[1])
	assert.Regexp(t, `^[1-9]\d*\s+0\s+\d+\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+resolved \d+, unsatisfiable \d+$`, lines[2])
}

// With --addr it drives a running serve with the demo request.
func TestLoadtestAddr(t *testing.T) {
	s := startServe(t, "--listen", "127.0.0.1:0")
	code, out, errOut := loadtestCmd(t, "--addr", s.addr, "--concurrency", "2", "--duration", "100ms", "--warmup", "0s", "--json")
	require.Equal(t, exitResolved, code, errOut)
	doc := decodeLoad(t, out)
	assert.Positive(t, *doc.Requests)
	assert.Zero(t, *doc.Errors)
	assert.Equal(t, *doc.Requests, *doc.Resolved, "the demo request resolves")
}

// A server that cannot be reached means the run could not complete.
func TestLoadtestUnreachable(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := lis.Addr().String()
	require.NoError(t, lis.Close()) // nothing listens there any more
	code, out, errOut := loadtestCmd(t, "--addr", addr, "--duration", "100ms", "--warmup", "0s")
	assert.Equal(t, exitNoAnswer, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "modsolver: first call to "+addr+":")
}

func TestLoadtestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--concurrency", "0"},
		{"--duration", "0s"},
		{"--warmup", "-1s"},
		{"--size", "huge"},
		{"--addr", "127.0.0.1:1", "--size", "M"},
		{"--addr", "127.0.0.1:1", "--seed", "2"},
		{"--nope"},
		{"extra"},
	} {
		code, out, errOut := loadtestCmd(t, args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", args, errOut)
		assert.Empty(t, out, "%v", args)
		assert.NotEmpty(t, errOut, "%v", args)
	}
}

func TestLoadtestHelp(t *testing.T) {
	code, out, _ := loadtestCmd(t, "--help")
	require.Equal(t, exitResolved, code)
	for _, want := range []string{"share this machine's cores", "catalog.DemoState", "--addr", "-concurrency", "-duration", "-warmup", "-json", "-cpuprofile", "CPU MS/REQ", "Exit codes"} {
		assert.Contains(t, out, want)
	}
}

// --cpuprofile writes a profile of the run; a path that cannot be
// written fails before the run.
func TestLoadtestCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	code, _, errOut := loadtestCmd(t, "--size", "12x4", "--concurrency", "2", "--duration", "100ms", "--warmup", "0s", "--cpuprofile", path)
	require.Equal(t, exitResolved, code, errOut)
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Positive(t, info.Size())

	code, out, errOut := loadtestCmd(t, "--size", "12x4", "--duration", "100ms", "--cpuprofile", filepath.Join(t.TempDir(), "no", "cpu.prof"))
	assert.Equal(t, exitNoAnswer, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "--cpuprofile")
}
