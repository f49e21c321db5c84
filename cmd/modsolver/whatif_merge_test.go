package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/modsolver/modsolver/internal/shared"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// mergeFormats are the outputs merge prints as the whole run prints them.
var mergeFormats = []string{"table", "json", "jsonl", "html", "sarif"}

// mergeBatch is a free-form batch with every kind of answer: resolved
// (twice alike, one group), unsatisfiable, blocked platform questions
// (R30), a scenario bad input once it meets the catalog and one bad as
// written (D368).
const mergeBatch = `scenarios:
  - name: enable console
    request: {enable: [console]}
  - name: enable observability
    request: {enable: [observability]}
  - name: kubernetes 1.32
    request: {updateAll: true, platform: {kubernetes: 1.32.1}}
  - name: enable a module that does not exist
    request: {enable: [nope]}
  - name: pin a bad version
    request: {pin: {prometheus: "not a version"}}
  - name: enable console again
    request: {enable: [console]}
  - name: deckhouse 1.73
    request: {updateAll: true, platform: {deckhouse: 1.73.0}}
`

// shardFiles runs the batch of args as n shards, -o jsonl, and writes
// each shard's lines to a file of its own.
func shardFiles(t *testing.T, n int, args ...string) []string {
	t.Helper()
	dir := t.TempDir()
	files := make([]string, n)
	for i := range n {
		r := runCLI(t, append(append([]string{"whatif"}, args...), "-o", "jsonl", "--shard", fmt.Sprintf("%d/%d", i, n))...)
		require.Contains(t, []int{exitResolved, exitBadInput}, r.code, r.errOut)
		files[i] = filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", i))
		require.NoError(t, os.WriteFile(files[i], []byte(r.out), 0o600))
	}
	return files
}

// merge runs whatif merge on files with args.
func merge(t *testing.T, files []string, args ...string) cliResult {
	t.Helper()
	return runCLI(t, append(append([]string{"whatif", "merge"}, args...), files...)...)
}

// withoutProgress leaves out the progress lines a run longer than a
// second prints on stderr, which merge, solving nothing, never does.
func withoutProgress(errOut string) string {
	var keep []string
	for _, line := range strings.SplitAfter(errOut, "\n") {
		if !strings.HasPrefix(line, "whatif: ") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "")
}

// assertMergeIsWhole checks, for every output format, that merging the
// shards' files prints what the unsharded run prints, byte for byte, on
// stdout and stderr, with its exit status; it returns the whole run's
// JSON lines.
func assertMergeIsWhole(t *testing.T, files []string, args ...string) string {
	t.Helper()
	var jsonl string
	for _, format := range mergeFormats {
		with := append(append([]string{}, args...), "-o", format)
		whole := runCLI(t, append([]string{"whatif"}, with...)...)
		merged := merge(t, files, with...)
		assert.Equal(t, whole.code, merged.code, "-o %s: the exit status: %s", format, merged.errOut)
		assert.Equal(t, whole.out, merged.out, "-o %s", format)
		assert.Equal(t, withoutProgress(whole.errOut), merged.errOut, "-o %s: stderr", format)
		if format == "jsonl" {
			jsonl = whole.out
		}
	}
	return jsonl
}

// assertRoundTrip checks that each answer of the JSON lines, read back
// into model values, converts to the same response: merge's reading
// loses nothing that whatif prints.
func assertRoundTrip(t *testing.T, jsonl string) {
	t.Helper()
	n := 0
	for _, line := range strings.Split(strings.TrimSuffix(jsonl, "\n"), "\n") {
		var r modsolverv1.WhatIfResult
		require.NoError(t, protojson.Unmarshal([]byte(line), &r))
		if r.GetResponse() == nil {
			continue
		}
		res, err := server.ResultFromProto(r.GetResponse())
		require.NoError(t, err)
		assert.True(t, proto.Equal(r.GetResponse(), server.Response(res)), "scenario %d (%s) reads back as it was", r.GetIndex(), r.GetName())
		n++
	}
	assert.Positive(t, n)
}

func TestWhatIfMergeMatrix(t *testing.T) {
	files := shardFiles(t, 3, matrix9...)
	jsonl := assertMergeIsWhole(t, files, matrix9...)
	assertRoundTrip(t, jsonl)
	assert.Contains(t, jsonl, `"blockers":[`, "the batch has blockers for merge to class")

	// One file with every shard's lines, in any order, on standard input.
	var all strings.Builder
	for _, file := range []string{files[2], files[0], files[1]} {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		all.Write(data)
	}
	withStdin(t, writeTemp(t, "all.jsonl", all.String()))
	merged := merge(t, []string{"-"}, append(matrix9, "-o", "jsonl")...)
	require.Equal(t, exitUnsatisfiable, merged.code, merged.errOut)
	assert.Equal(t, jsonl, merged.out)
}

func TestWhatIfMergeScenarios(t *testing.T) {
	args := []string{"--scenarios", writeTemp(t, "batch.yaml", mergeBatch), "--no-timing"}
	files := shardFiles(t, 3, args...)
	jsonl := assertMergeIsWhole(t, files, args...)
	assertRoundTrip(t, jsonl)
	merged := merge(t, files, args...)
	assert.Equal(t, exitBadInput, merged.code, "a scenario is bad input, as in the whole run (D368)")
	assert.Contains(t, merged.errOut, `"enable a module that does not exist" (`, "stderr places the bad scenario as whatif does")
	assert.Contains(t, merged.out, "enable console; enable console again: ok", "equal answers form one group")
}

// The shards ran without --accept: merge's --accept classes the blockers,
// and its exit status is the whole run's with it.
func TestWhatIfMergeAccept(t *testing.T) {
	batch := []string{"--deckhouse", "1.72.4,1.73.0", "--kubernetes", "1.31.2,1.32.1", "--no-timing"}
	files := shardFiles(t, 2, batch...)
	assertMergeIsWhole(t, files, append(batch, "--accept", "csi-ceph")...)
	assert.Equal(t, exitResolved, merge(t, files, append(batch, "--accept", "csi-ceph")...).code)
	assert.Equal(t, exitUnsatisfiable, merge(t, files, batch...).code)
}

// Shards that kept their stats merge into the whole run's output under
// --no-timing; without it their stats stay.
func TestWhatIfMergeTiming(t *testing.T) {
	batch := []string{"--deckhouse", "1.72.4,1.73.0", "--kubernetes", "1.31.2,1.32.1"}
	files := shardFiles(t, 2, batch...)
	whole := runCLI(t, append([]string{"whatif"}, append(batch, "--no-timing", "-o", "json")...)...)
	merged := merge(t, files, append(batch, "--no-timing", "-o", "json")...)
	assert.Equal(t, whole.out, merged.out)
	assert.Contains(t, merge(t, files, append(batch, "-o", "json")...).out, `"solveMicros"`)
}

// In a pod of the Indexed Job, merge still reads the whole batch.
func TestWhatIfMergeIgnoresJobIndex(t *testing.T) {
	files := shardFiles(t, 3, matrix9...)
	want := runCLI(t, append([]string{"whatif"}, matrix9...)...)
	t.Setenv(envShardIndex, "1")
	t.Setenv(envShards, "3")
	merged := merge(t, files, matrix9...)
	assert.Equal(t, want.out, merged.out)
}

func TestWhatIfMergeOnDKP(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	batch := []string{"--catalog", dkp, "--cluster", "../../docs/examples/kubectl/cluster-default.yaml", "--edition", "ee",
		"--deckhouse", "1.73.0,1.74.0,1.75.0", "--kubernetes", "1.30.0,1.31.2,1.32.1", "--no-timing"}
	files := shardFiles(t, 3, batch...)
	jsonl := assertMergeIsWhole(t, files, batch...)
	assertRoundTrip(t, jsonl)
	table := merge(t, files, batch...)
	assert.Contains(t, table.out, "warning: kubernetes 1.30.0 is a minor below", "the batch's warnings, which no line carries (D396)")
	assert.Contains(t, table.out, "built in: ", "built-in modules that move with DKP, which the catalog tells")
}

func TestWhatIfMergeBadLines(t *testing.T) {
	files := shardFiles(t, 3, matrix9...)
	read := func(file string) string {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		return string(data)
	}
	firstLine := strings.SplitAfter(read(files[0]), "\n")[0]
	var reindexed modsolverv1.WhatIfResult
	require.NoError(t, protojson.Unmarshal([]byte(firstLine), &reindexed))
	reindexed.Index = 99
	beyond, err := protojson.Marshal(&reindexed)
	require.NoError(t, err)

	tests := []struct {
		name  string
		files []string
		args  []string // besides matrix9's
		want  []string
	}{
		{"stderr mixed in", []string{files[0], writeTemp(t, "s1.jsonl", read(files[1])+"modsolver: warning: x\n"), files[2]}, nil,
			[]string{"s1.jsonl:4: invalid input: not a what-if result: want one WhatIfResult a line"}},
		{"unknown field", []string{writeTemp(t, "s.jsonl", `{"index": 0, "nmae": "x"}`+"\n")}, nil, []string{"s.jsonl:1:", "not a what-if result", "nmae"}},
		{"no answer", []string{writeTemp(t, "s.jsonl", "\n"+`{"index": 0, "name": "deckhouse 1.72.0, kubernetes 1.29.0"}`+"\n")}, nil,
			[]string{"s.jsonl:2:", "neither a response nor an error"}},
		{"index beyond", []string{writeTemp(t, "s.jsonl", string(beyond)+"\n")}, nil, []string{"scenario index 99, but the batch the flags give has 9 scenarios"}},
		{"other flags", files, []string{"--deckhouse", "1.72.0,1.73.0,1.75.0"},
			[]string{"shard-2.jsonl:1:", `not a scenario of this batch: scenario 6 is "deckhouse 1.74.0, kubernetes 1.29.0" here, but "deckhouse 1.75.0, kubernetes 1.29.0"`, "less --shard"}},
		{"shard twice", []string{files[0], files[1], files[0], files[2]}, nil, []string{"shard-0.jsonl:1: invalid input: duplicate: scenario 0", "is also at " + files[0] + ":1"}},
		{"shard missing", []string{files[0], files[2]}, nil, []string{"scenarios missing: 3–5 of the batch's 9"}},
		{"shards missing", []string{files[1]}, nil, []string{"scenarios missing: 0–2, 6–8 of the batch's 9"}},
		{"no file", nil, nil, []string{"give the shards' JSON lines"}},
		{"stdin twice", []string{"-", "-"}, nil, []string{"standard input is read once"}},
		{"no such file", []string{"no/such.jsonl"}, nil, []string{"no/such.jsonl"}},
	}
	for _, tc := range tests {
		r := merge(t, tc.files, append(append([]string{}, matrix9...), tc.args...)...)
		assert.Equal(t, exitBadInput, r.code, tc.name)
		assert.Empty(t, r.out, tc.name)
		for _, want := range tc.want {
			assert.Contains(t, r.errOut, want, tc.name)
		}
	}
}

// A scenarios file changed after the shards ran is not their batch.
func TestWhatIfMergeChangedScenarios(t *testing.T) {
	file := writeTemp(t, "batch.yaml", "scenarios:\n  - name: a\n    request: {enable: [console]}\n  - name: b\n    request: {pin: {prometheus: \"1.0.0\"}}\n")
	files := shardFiles(t, 2, "--scenarios", file, "--no-timing")
	require.NoError(t, os.WriteFile(file, []byte("scenarios:\n  - name: a\n    request: {enable: [console]}\n  - name: b\n    request: {pin: {prometheus: \"x\"}}\n"), 0o600))
	r := merge(t, files, "--scenarios", file)
	assert.Equal(t, exitBadInput, r.code)
	assert.Contains(t, r.errOut, `shard-1.jsonl:1: invalid input: not a scenario of this batch: scenario 1 ("b")`)
}

func TestWhatIfMergeUsage(t *testing.T) {
	r := runCLI(t, "whatif", "merge", "--help")
	assert.Equal(t, exitResolved, r.code)
	assert.Contains(t, r.out, "Usage:\n  modsolver whatif merge [the batch's flags]")
	assert.Contains(t, r.out, "-no-timing")
	assert.NotContains(t, r.out, "\n  -shard", "merge reads the whole batch: no --shard flag")
	r = runCLI(t, "help", "whatif")
	assert.Contains(t, r.out, "modsolver whatif merge")
	r = merge(t, []string{"x.jsonl"}, append(matrix9, "--shard", "0/2")...)
	assert.Equal(t, exitBadInput, r.code)
}
