//go:build libsolv

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --vs libsolv adds modsolver's time with report: changes and libsolv's
// solve and pipeline times, each answer checked.
func TestBenchVsLibsolv(t *testing.T) {
	code, out, errOut := benchCmd(t, "--size", "20x5", "--runs", "1", "--cases", "update-all,install-one,whatif-1000", "--vs", "libsolv", "--json")
	require.Equal(t, exitResolved, code, errOut)
	var doc struct {
		Results []struct {
			benchRow
			ModsolverChangesMs *float64 `json:"modsolverChangesMs"`
			LibsolvSolveMs     *float64 `json:"libsolvSolveMs"`
			LibsolvMs          *float64 `json:"libsolvMs"`
			LibsolvRebuiltMs   *float64 `json:"libsolvRebuiltMs"`
			LibsolvPoolMs      *float64 `json:"libsolvPoolMs"`
			LibsolvSolvBytes   int64    `json:"libsolvSolvBytes"`
			LibsolvSkipped     string   `json:"libsolvSkipped"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Results, 3)
	for _, r := range doc.Results[:2] {
		assert.Equal(t, "ok", *r.Checked, *r.Case)
		for name, v := range map[string]*float64{"modsolverChangesMs": r.ModsolverChangesMs, "libsolvSolveMs": r.LibsolvSolveMs, "libsolvMs": r.LibsolvMs,
			"libsolvRebuiltMs": r.LibsolvRebuiltMs, "libsolvPoolMs": r.LibsolvPoolMs} {
			if assert.NotNil(t, v, "%s: %s", *r.Case, name) {
				assert.Positive(t, *v, "%s: %s", *r.Case, name)
			}
		}
		assert.Greater(t, *r.LibsolvMs, *r.LibsolvSolveMs, "the pipeline includes the solve")
		assert.Positive(t, r.LibsolvSolvBytes, "%s: the held pool's .solv repo", *r.Case)
		assert.Nil(t, r.DeppyMs)
	}
	batch := doc.Results[2]
	assert.Nil(t, batch.LibsolvMs)
	assert.Contains(t, batch.LibsolvSkipped, "what-if")

	code, out, errOut = benchCmd(t, "--size", "12x4", "--runs", "1", "--cases", "update-all", "--vs", "deppy,libsolv")
	require.Equal(t, exitResolved, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3, out)
	assert.Regexp(t, `^CASE\s+SIZE\s+MODSOLVER MS\s+DEPPY MS\s+RATIO\s+CHANGES MS\s+LIBSOLV SOLVE MS\s+LIBSOLV MS\s+LIBSOLV REBUILT MS\s+VARIABLES\s+CLAUSES\s+PEAK MIB\s+CHECKED$`, lines[1])
	assert.Regexp(t, `^update-all\s+12x4(\s+[0-9.]+){2}\s+[0-9.]+×(\s+[0-9.]+){4}\s+\d+\s+\d+\s+[0-9.]+\s+ok$`, lines[2])
}
