package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/internal/shared"
)

// permutations is how many shuffled copies of each scenario are compared.
const permutations = 4

// TestPermutedInputsGiveIdenticalBytes checks R15: the same inputs in any
// order, with any YAML key order, give byte-identical output. Every
// scenario is shuffled (modules, releases, requirement keys, request
// lists, map keys) with fixed seeds and resolved again.
func TestPermutedInputsGiveIdenticalBytes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "scenarios", "*.yaml"))
	require.NoError(t, err)
	if dir, err := sharedScenarios(t); err == nil {
		more, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		files = append(files, more...)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want := resolveJSON(t, file)
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			for seed := range uint64(permutations) {
				shuffled := filepath.Join(t.TempDir(), filepath.Base(file))
				writeShuffled(t, data, seed, filepath.Dir(file), shuffled)
				got := resolveJSON(t, shuffled)
				require.Equal(t, string(want), string(got), "seed %d changed the output", seed)
			}
		})
	}
}

// sharedScenarios finds ../shared/scenarios, skipping a sub-test notice
// only through shared.Dir's own rules.
func sharedScenarios(t *testing.T) (string, error) {
	var dir string
	ok := t.Run("shared", func(t *testing.T) { dir = shared.Path(t, "scenarios") })
	if !ok || dir == "" {
		return "", os.ErrNotExist
	}
	return dir, nil
}

// resolveJSON runs a scenario through the CLI. A bad-input scenario must
// stay bad input; its message names a line, which shuffling moves.
func resolveJSON(t *testing.T, file string) []byte {
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"resolve", "--scenario", file, "-o", "json", "--no-timing"}, &out, &errOut)
	if code == exitBadInput {
		return []byte("bad input")
	}
	require.Contains(t, []int{exitResolved, exitUnsatisfiable}, code, errOut.String())
	return withoutOrigins(t, out.Bytes())
}

// withoutInputFiles drops the file and line of each origin of a fact of
// the request or the cluster state from a JSON answer, keeping its field.
func withoutInputFiles(t *testing.T, data []byte) []byte {
	return editJSON(t, data, func(m map[string]any) {
		if o, ok := m["origin"].(map[string]any); ok {
			if f, _ := o["field"].(string); strings.HasPrefix(f, "request.") || strings.HasPrefix(f, "cluster.") {
				delete(o, "file")
				delete(o, "line")
			}
		}
	})
}

// withoutOrigins drops each fact's origin from a JSON answer: it names
// the file, the line and the list position a fact was read from, which
// shuffling moves by design (DESIGN.md §3); all else must stay.
func withoutOrigins(t *testing.T, data []byte) []byte {
	return editJSON(t, data, func(m map[string]any) { delete(m, "origin") })
}

// editJSON applies edit to every object of a JSON document, outermost
// first, and returns the document indented.
func editJSON(t *testing.T, data []byte, edit func(map[string]any)) []byte {
	var doc any
	require.NoError(t, json.Unmarshal(data, &doc))
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			edit(v)
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	out, err := json.MarshalIndent(doc, "", "  ")
	require.NoError(t, err)
	return out
}

// writeShuffled writes data with every mapping and sequence shuffled,
// except the expect section, which the resolver does not read. A relative
// catalogFile, of the scenario or of one of its catalogs, is made
// absolute against dir, the original's folder.
func writeShuffled(t *testing.T, data []byte, seed uint64, dir, path string) {
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal(data, &doc))
	top := doc.Content[0]
	absolute := func(m *yaml.Node) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == "catalogFile" {
				abs, err := filepath.Abs(filepath.Join(dir, m.Content[i+1].Value))
				require.NoError(t, err)
				m.Content[i+1].Value = abs
			}
		}
	}
	absolute(top)
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "catalogs" {
			for _, c := range top.Content[i+1].Content {
				absolute(c)
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	shuffle(doc.Content[0], rng)
	out, err := yaml.Marshal(&doc)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, out, 0o644))
}

func shuffle(n *yaml.Node, rng *rand.Rand) {
	switch n.Kind {
	case yaml.MappingNode:
		pairs := len(n.Content) / 2
		rng.Shuffle(pairs, func(i, j int) {
			n.Content[2*i], n.Content[2*j] = n.Content[2*j], n.Content[2*i]
			n.Content[2*i+1], n.Content[2*j+1] = n.Content[2*j+1], n.Content[2*i+1]
		})
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value != "expect" {
				shuffle(n.Content[i+1], rng)
			}
		}
	case yaml.SequenceNode:
		rng.Shuffle(len(n.Content), func(i, j int) { n.Content[i], n.Content[j] = n.Content[j], n.Content[i] })
		for _, c := range n.Content {
			shuffle(c, rng)
		}
	}
}
