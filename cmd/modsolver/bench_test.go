package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
)

func benchCmd(t *testing.T, args ...string) (code int, out, errOut string) {
	t.Helper()
	return runCommand(t, "bench", args...)
}

// benchRow is one row of bench --json, with the keys it must have.
type benchRow struct {
	Case        *string  `json:"case"`
	Size        *string  `json:"size"`
	ModsolverMs *float64 `json:"modsolverMs"`
	DeppyMs     *float64 `json:"deppyMs"`
	Ratio       *float64 `json:"ratio"`
	Variables   *int     `json:"variables"`
	Clauses     *int     `json:"clauses"`
	PeakMiB     *float64 `json:"peakMiB"`
	Checked     *string  `json:"checked"`
}

func TestBenchJSON(t *testing.T) {
	code, out, errOut := benchCmd(t, "--size", "20x5", "--runs", "1", "--vs", "deppy", "--json")
	require.Equal(t, exitResolved, code, errOut)
	var doc struct {
		Results []benchRow `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	var cases []string
	for _, r := range doc.Results {
		require.NotNil(t, r.Case)
		cases = append(cases, *r.Case)
		require.NotNil(t, r.Size)
		assert.Equal(t, "20x5", *r.Size)
		if *r.Case == "compile" {
			// Compiling has no deppy counterpart and no encoding.
			require.NotNil(t, r.ModsolverMs)
			assert.GreaterOrEqual(t, *r.ModsolverMs, 0.0)
			assert.Nil(t, r.DeppyMs)
			assert.Nil(t, r.Ratio)
			require.NotNil(t, r.PeakMiB)
			assert.Positive(t, *r.PeakMiB)
			continue
		}
		for name, v := range map[string]*float64{"modsolverMs": r.ModsolverMs, "deppyMs": r.DeppyMs, "ratio": r.Ratio, "peakMiB": r.PeakMiB} {
			if assert.NotNil(t, v, "%s: %s", *r.Case, name) {
				assert.Positive(t, *v, "%s: %s", *r.Case, name)
			}
		}
		require.NotNil(t, r.Variables)
		require.NotNil(t, r.Clauses)
		assert.Positive(t, *r.Variables, *r.Case)
		require.NotNil(t, r.Checked)
		assert.Equal(t, "ok", *r.Checked, "%s: every answer passes its check", *r.Case)
	}
	assert.Equal(t, []string{"compile", "update-all", "install-one", "install-one-changes", "platform-upgrade", "unsatisfiable",
		"unsatisfiable-suggest", "unsatisfiable-combined", "whatif-1000"}, cases)
}

func TestBenchTable(t *testing.T) {
	code, out, errOut := benchCmd(t, "--size", "12x4", "--runs", "1", "--cases", "update-all,unsatisfiable")
	require.Equal(t, exitResolved, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4, out)
	assert.Contains(t, lines[0], "median of 1 runs")
	assert.Regexp(t, `^CASE\s+SIZE\s+MODSOLVER MS\s+DEPPY MS\s+RATIO\s+VARIABLES\s+CLAUSES\s+PEAK MIB\s+CHECKED$`, lines[1])
	assert.Regexp(t, `^update-all\s+12x4\s+[0-9.]+\s+-\s+-\s+\d+\s+\d+\s+[0-9.]+\s+ok$`, lines[2])
	assert.Regexp(t, `^unsatisfiable\s+12x4\s`, lines[3])
}

// A run over its cap is a timeout, with how far a batch got; it is not a
// failed check.
func TestBenchTimeouts(t *testing.T) {
	code, out, errOut := benchCmd(t, "--size", "12x4", "--runs", "1", "--cases", "whatif-1000", "--timeout", "1ms")
	require.Equal(t, exitResolved, code, errOut)
	assert.Regexp(t, `whatif-1000\s+12x4\s+timeout \(\d+/1000\)\s+-\s+-\s+0\s+0\s+[0-9.]+\s+-\n`, out)

	code, out, errOut = benchCmd(t, "--size", "12x4", "--runs", "1", "--cases", "whatif-1000", "--vs", "deppy", "--deppy-timeout", "1ms")
	require.Equal(t, exitResolved, code, errOut)
	assert.Regexp(t, `whatif-1000\s+12x4\s+[0-9.]+\s+timeout \(\d+/1000\)\s+-\s+`, out)
}

func TestBenchOnDKP(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	code, out, errOut := benchCmd(t, "--cases", "resolve-dkp", "--catalog", dkp, "--runs", "1", "--vs", "deppy-pruned", "--json")
	require.Equal(t, exitResolved, code, errOut)
	var doc struct {
		Results []benchRow `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Results, 2)
	assert.Equal(t, "resolve-dkp", *doc.Results[0].Case)
	assert.Equal(t, "ok", *doc.Results[0].Checked)
	// R33: the route of a platform upgrade five DKP minors up, its answer
	// checked as every other (the checker holds its route).
	assert.Equal(t, "route-dkp", *doc.Results[1].Case)
	assert.Equal(t, "ok", *doc.Results[1].Checked)
}

func TestBenchBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown size", []string{"--size", "XL"}, `size "XL"`},
		{"unknown case", []string{"--cases", "update-all,nope"}, `unknown case "nope"`},
		{"resolve-dkp without a catalog", []string{"--cases", "resolve-dkp"}, "needs --catalog"},
		{"unknown peer", []string{"--vs", "olm"}, `--vs "olm"`},
		{"deppy twice", []string{"--vs", "deppy,deppy-pruned"}, "name each peer once"},
		{"no runs", []string{"--runs", "0"}, "--runs 0"},
		{"no time", []string{"--timeout", "0s"}, "--timeout 0s"},
		{"stray argument", []string{"S"}, `unexpected argument "S"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := benchCmd(t, tt.args...)
			assert.Equal(t, exitBadInput, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tt.want)
		})
	}
}

func TestBenchHelp(t *testing.T) {
	code, out, _ := benchCmd(t, "--help")
	require.Equal(t, exitResolved, code)
	for _, s := range []string{"--vs deppy", "--vs libsolv", "LIBSOLV MS", "CHANGES MS", "whatif-1000", "PEAK MIB", "-deppy-timeout", "Exit codes"} {
		assert.Contains(t, out, s)
	}
	var o, e bytes.Buffer
	require.Equal(t, exitResolved, run(context.Background(), []string{"help"}, &o, &e))
	assert.Contains(t, o.String(), "bench     measure modsolver")
}
