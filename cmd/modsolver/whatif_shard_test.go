package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"

	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// matrix9 is a readiness matrix of nine scenarios, which four shards do
// not split evenly.
var matrix9 = []string{"--deckhouse", "1.72.0,1.73.0,1.74.0", "--kubernetes", "1.29.0,1.31.0,1.32.0", "--no-timing"}

func shardRuns(t *testing.T, n int, args ...string) string {
	t.Helper()
	var all strings.Builder
	for i := range n {
		code, out, errOut := whatif(t, append(append([]string{}, args...), "--shard", fmt.Sprintf("%d/%d", i, n))...)
		require.Equal(t, exitResolved, code, errOut)
		all.WriteString(out)
	}
	return all.String()
}

// withoutReadiness is a whole batch's JSON lines without each result's
// group and blockers, which a shard cannot see (D193); the test checks
// that the whole batch has them.
func withoutReadiness(t *testing.T, jsonl string) string {
	t.Helper()
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(jsonl, "\n"), "\n") {
		var r modsolverv1.WhatIfResult
		require.NoError(t, protojson.Unmarshal([]byte(line), &r))
		require.NotNil(t, r.Group, "the whole batch says each result's group")
		r.Group, r.Blockers = nil, nil
		data, err := server.MarshalJSON(&r)
		require.NoError(t, err)
		var compact bytes.Buffer
		require.NoError(t, json.Compact(&compact, data))
		out.Write(compact.Bytes())
		out.WriteByte('\n')
	}
	return out.String()
}

func TestWhatIfShardsConcatenate(t *testing.T) {
	jsonl := append(append([]string{}, matrix9...), "-o", "jsonl")
	code, whole, errOut := whatif(t, jsonl...)
	require.Equal(t, exitUnsatisfiable, code, errOut)
	whole = withoutReadiness(t, whole)
	lines := strings.Split(strings.TrimSuffix(whole, "\n"), "\n")
	require.Len(t, lines, 9)
	for i, line := range lines {
		var r modsolverv1.WhatIfResult
		require.NoError(t, protojson.Unmarshal([]byte(line), &r), "each line is a WhatIfResult")
		assert.Equal(t, uint32(i), r.GetIndex(), "indices count in the whole batch")
	}
	for _, n := range []int{1, 2, 4, 12} {
		assert.Equal(t, whole, shardRuns(t, n, jsonl...), "-o jsonl over %d shards", n)
	}
	assert.Equal(t, whole, shardRuns(t, 4, append(jsonl, "--workers", "1")...), "the number of workers does not show")

	table := shardRuns(t, 1, matrix9...)
	assert.NotContains(t, table, "DKP \\ KUBERNETES", "a sharded table has no grid")
	assert.Contains(t, table, "deckhouse 1.74.0, kubernetes 1.32.0: ")
	assert.Equal(t, table, shardRuns(t, 4, matrix9...), "-o table over 4 shards")
}

func TestWhatIfShardFromIndexedJob(t *testing.T) {
	jsonl := append(append([]string{}, matrix9...), "-o", "jsonl")
	_, whole, _ := whatif(t, jsonl...)
	whole = withoutReadiness(t, whole)
	var all strings.Builder
	t.Setenv(envShards, "4")
	for i := range 4 {
		t.Setenv(envShardIndex, fmt.Sprint(i))
		code, out, errOut := whatif(t, jsonl...)
		require.Equal(t, exitResolved, code, errOut)
		all.WriteString(out)
	}
	assert.Equal(t, whole, all.String())

	t.Setenv(envShards, "")
	code, _, errOut := whatif(t, jsonl...)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, envShards, "an index without a total is refused")
	code, out, errOut := whatif(t, append(jsonl, "--shards", "9")...)
	require.Equal(t, exitResolved, code, errOut)
	assert.Equal(t, 1, strings.Count(out, "\n"), "--shards gives the total")
}

func TestShardFlags(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		name   string
		flags  shardFlags
		getenv func(string) string
		want   *shard
		bad    bool
	}{
		{"none", shardFlags{}, env(), nil, false},
		{"flag", shardFlags{spec: "2/4"}, env(), &shard{2, 4}, false},
		{"flag wins", shardFlags{spec: "0/2"}, env(envShardIndex, "3", envShards, "4"), &shard{0, 2}, false},
		{"env", shardFlags{}, env(envShardIndex, "3", envShards, "4"), &shard{3, 4}, false},
		{"env and --shards", shardFlags{shards: 8}, env(envShardIndex, "5", envShards, "4"), &shard{5, 8}, false},
		{"index without total", shardFlags{}, env(envShardIndex, "1"), nil, true},
		{"--shards alone", shardFlags{shards: 4}, env(), nil, true},
		{"index out of range", shardFlags{spec: "4/4"}, env(), nil, true},
		{"negative", shardFlags{spec: "-1/4"}, env(), nil, true},
		{"zero shards", shardFlags{spec: "0/0"}, env(), nil, true},
		{"not a number", shardFlags{}, env(envShardIndex, "x", envShards, "4"), nil, true},
		{"bad total", shardFlags{}, env(envShardIndex, "0", envShards, "four"), nil, true},
		{"no slash", shardFlags{spec: "1"}, env(), nil, true},
	}
	for _, tc := range tests {
		got, err := tc.flags.resolve(tc.getenv)
		if tc.bad {
			assert.ErrorIs(t, err, errUsage, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
}

func TestShardBounds(t *testing.T) {
	for _, total := range []int{0, 1, 7, 9, 100} {
		for _, n := range []int{1, 3, 4, 12} {
			next := 0
			for i := range n {
				lo, hi := (&shard{i, n}).bounds(total)
				assert.Equal(t, next, lo, "shards are contiguous")
				assert.LessOrEqual(t, hi-lo, total/n+1, "shards are even")
				next = hi
			}
			assert.Equal(t, total, next, "the shards cover the batch")
		}
	}
}

func TestWhatIfJSONTakesNoShard(t *testing.T) {
	code, _, errOut := whatif(t, append(append([]string{}, matrix9...), "-o", "json", "--shard", "0/2")...)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "-o jsonl")
}
