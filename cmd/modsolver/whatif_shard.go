package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/modsolver/modsolver/readiness"
	"github.com/modsolver/modsolver/server"
)

// Sharding a what-if batch over the pods of an Indexed Job (DESIGN.md §9):
// shard i of n answers the i-th of n contiguous slices of the scenarios,
// so that the shards' outputs, concatenated in index order, are byte for
// byte the output of one run (docs/decisions.md D53).

// Environment variables that --shard and --shards default from.
const (
	envShardIndex = "JOB_COMPLETION_INDEX" // set by Kubernetes in an Indexed Job
	envShards     = "MODSOLVER_SHARDS"
)

const shardUsage = `Sharding: --shard i/n answers the i-th of n contiguous slices of the
scenarios, i from 0. In an Indexed Job, i defaults from JOB_COMPLETION_INDEX
and n from --shards or MODSOLVER_SHARDS. The shards' outputs, concatenated
in index order, equal the whole run byte for byte:
  -o jsonl  one result per line, its index counted in the whole batch, so
            the shards concatenate to the output of the unsharded run;
  -o table  in shard mode, the lines of each scenario without the grid
            (a grid needs every cell), so the shards concatenate to the
            output of --shard 0/1.
-o json is one document and takes no --shard. Add --no-timing.
whatif merge, given the batch's flags and the shards' -o jsonl files,
prints the whole batch as one run prints it: the grid, the groups, the
blockers and the exit status, in any -o ('modsolver whatif merge --help').
`

// shard is a slice of a batch: index i of n.
type shard struct {
	index, count int
}

// shardFlags are --shard and --shards, as given.
type shardFlags struct {
	spec   string
	shards int
}

func (s *shardFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.spec, "shard", "", "answer only shard `i/n` of the scenarios (default: from "+envShardIndex+" and --shards)")
	intVar(fs, &s.shards, "shards", 0, 0, "`number` of shards, with "+envShardIndex+" (default: "+envShards+")")
}

// resolve returns the shard to answer, or nil for the whole batch.
// getenv is os.Getenv outside tests.
func (s shardFlags) resolve(getenv func(string) string) (*shard, error) {
	if s.spec != "" {
		return parseShard(s.spec)
	}
	index := getenv(envShardIndex)
	count := s.shards
	if count == 0 && getenv(envShards) != "" {
		n, err := strconv.Atoi(getenv(envShards))
		if err != nil {
			return nil, fmt.Errorf("%w: %s=%q: want a number", errUsage, envShards, getenv(envShards))
		}
		count = n
	}
	switch {
	case index == "" && s.shards != 0:
		return nil, fmt.Errorf("%w: --shards needs --shard or %s", errUsage, envShardIndex)
	case index == "":
		return nil, nil
	case count == 0:
		return nil, fmt.Errorf("%w: %s is set: give the number of shards with --shards or %s", errUsage, envShardIndex, envShards)
	}
	return parseShard(index + "/" + strconv.Itoa(count))
}

func parseShard(spec string) (*shard, error) {
	is, ns, ok := strings.Cut(spec, "/")
	i, errI := strconv.Atoi(is)
	n, errN := strconv.Atoi(ns)
	if !ok || errI != nil || errN != nil || n < 1 || i < 0 || i >= n {
		return nil, fmt.Errorf("%w: shard %q: want i/n with 0 <= i < n", errUsage, spec)
	}
	return &shard{index: i, count: n}, nil
}

// bounds returns the scenarios [lo, hi) of a batch of total.
func (s *shard) bounds(total int) (lo, hi int) {
	return s.index * total / s.count, (s.index + 1) * total / s.count
}

// applyShard keeps the scenarios of sh; the grid cannot be printed from
// a part of its cells, so a sharded batch prints none.
func (b *batch) applyShard(sh *shard) {
	if sh == nil {
		return
	}
	lo, hi := sh.bounds(len(b.scenarios))
	b.scenarios = b.scenarios[lo:hi]
	b.offset, b.sharded = lo, true
	b.matrix = nil
	if lo > 0 {
		b.warnings = nil // the batch's warnings are the first shard's to say, once
	}
}

// printJSONLines prints one WhatIfResult per line, compact, with its
// index in the whole batch.
func (b *batch) printJSONLines(out io.Writer, cells []readiness.Cell) error {
	var line bytes.Buffer
	for i, c := range cells {
		data, err := server.MarshalJSON(b.whatIfResult(i, c))
		if err != nil {
			return err
		}
		line.Reset()
		if err := json.Compact(&line, data); err != nil {
			return err
		}
		line.WriteByte('\n')
		if _, err := out.Write(line.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
