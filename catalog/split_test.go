package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/internal/shared"
)

// sameTree reports where two node trees differ in anything but comments,
// or "" when they do not.
func sameTree(a, b *yaml.Node) string {
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) {
		return fmt.Sprintf("line %d col %d (%q) / line %d col %d (%q)", a.Line, a.Column, a.Value, b.Line, b.Column, b.Value)
	}
	for i := range a.Content {
		if d := sameTree(a.Content[i], b.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

// Parsed in parts, a file gives the tree it gives parsed whole, every
// node on its line and column; and the large real catalogs are parsed in
// parts (D324).
func TestParseSplitMatchesWhole(t *testing.T) {
	files := map[string]bool{} // file: must split
	t.Run("shared", func(t *testing.T) {
		files[shared.Path(t, "data", "helm", "bitnami-index.yaml")] = true
		files[shared.Path(t, "data", "helm", "grafana-index.yaml")] = false
		scenarios, err := filepath.Glob(shared.Path(t, "scenarios", "*.yaml"))
		require.NoError(t, err)
		for _, f := range scenarios {
			files[f] = false
		}
	})
	local, err := filepath.Glob(filepath.Join("..", "testdata", "scenarios", "*.yaml"))
	require.NoError(t, err)
	for _, f := range local {
		files[f] = false
	}
	for file, mustSplit := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		checkSplit(t, file, data, mustSplit)
	}
	checkSplit(t, "list", []byte(fileListOf(1000)), true)
	checkSplit(t, "index", []byte(helmIndexOf(1000)), true)
}

func checkSplit(t *testing.T, name string, data []byte, mustSplit bool) {
	t.Helper()
	whole, wholeErr := parseDoc(data)
	for _, parts := range []int{2, 3, 7} {
		split, ok := parseSplit(data, parts, 1)
		if mustSplit {
			require.True(t, ok, "%s is parsed in %d parts", name, parts)
		}
		if !ok {
			continue
		}
		require.NoError(t, wholeErr, "%s: split where the whole does not parse", name)
		assert.Empty(t, sameTree(whole, split), "%s in %d parts", name, parts)
	}
}

var splitSeeds = []string{
	"a: 1\nentries:\n  x:\n  - {name: x, version: 1.0.0}\n  y:\n  - name: y\n    version: '2.0'\nb: 2\n",
	"modules:\n- name: a\n  releases: [{version: 1.0.0}]\n- name: b\n  description: |\n    text\n  x: y\n- name: c\n",
	"modules:\n  - name: a\n  - name: b\n    text: 'it''s'\n  - name: c\n    text: \"q\\\"\"\n",
	"entries:\n  a: &x [1]\n  b: *x\n  c: !!str 3\n",
	"entries:\n  a: 'open\n  b: close'\n",
	"entries:\n  a: [1,\n  2]\n  b: 3\n",
	"entries:\n  a: plain\n   more\n  b: x # c\n# top\n  c: d\n",
	"entries:\n  a: 1\n  a: 2\n",
	"entries:\n  a: 1\n - b\n",
	"x: 1\nentries:\n\n  a: b\n\n  c: d\nentries:\n  e: f\n",
}

func FuzzParseSplit(f *testing.F) {
	for _, s := range splitSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		whole, wholeErr := parseDoc([]byte(s))
		for _, parts := range []int{2, 3} {
			split, ok := parseSplit([]byte(s), parts, 1)
			if !ok {
				continue
			}
			if wholeErr != nil {
				t.Fatalf("%q: split parses, the whole does not: %v", s, wholeErr)
			}
			if d := sameTree(whole, split); d != "" {
				t.Fatalf("%q in %d parts: %s", s, parts, d)
			}
		}
	})
}
