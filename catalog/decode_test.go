package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
)

// The walker decodes as yaml does: every scenario, walked at every
// mapping (large 0), decodes into the same catalog, cluster and request
// values as yaml's own decoder gives (D200).
func TestWalkerDecodesAsYAML(t *testing.T) {
	dirs := []string{filepath.Join("..", "testdata", "scenarios")}
	t.Run("shared", func(t *testing.T) { dirs = append(dirs, shared.Path(t, "scenarios")) })
	checked := 0
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		require.NoError(t, err)
		for _, file := range files {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			node, err := parseNode(file, data)
			require.NoError(t, err)
			var viaYAML, walked fileScenario
			yamlErr := node.Decode(&viaYAML)
			walkErr := walker{large: 0}.decode(node, &walked)
			require.Equal(t, yamlErr == nil, walkErr == nil, "%s: %v / %v", file, yamlErr, walkErr)
			if viaYAML.Catalog.Kind != 0 {
				var a, b fileCatalog
				require.Equal(t, viaYAML.Catalog.Decode(&a) == nil, walker{large: 0}.decode(&walked.Catalog, &b) == nil, file)
				assert.Equal(t, a, b, file)
			}
			if viaYAML.Cluster.Kind != 0 {
				var a, b fileCluster
				require.Equal(t, viaYAML.Cluster.Decode(&a) == nil, walker{large: 0}.decode(&walked.Cluster, &b) == nil, file)
				assert.Equal(t, a, b, file)
			}
			assert.Equal(t, viaYAML.Expect, walked.Expect, file)
			checked++
		}
	}
	assert.Positive(t, checked)
}

// A cluster of 100,000 module entries and a catalog of 100,000 releases in
// one list read whole, and a repeated key among 100,000 is named with
// both its lines, as yaml names it (D200). Their time is measured by
// BenchmarkLargeInputs, not here.
func TestLargeInputs(t *testing.T) {
	const n = 100_000
	var b strings.Builder
	b.WriteString("deckhouse: 1.73.3\nkubernetes: 1.31.2\nmodules:\n")
	for i := range n {
		fmt.Fprintf(&b, "  m%06d: {enabled: false}\n", i)
	}
	c, err := ParseCluster("big.yaml", []byte(b.String()))
	require.NoError(t, err)
	assert.Len(t, c.Modules, n)

	b.WriteString("  m000007: {enabled: true}\n")
	_, err = ParseCluster("big.yaml", []byte(b.String()))
	var pe *ParseError
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, n+4, pe.Line)
	assert.ErrorContains(t, err, `mapping key "m000007" already defined at line 11`)

	var rels strings.Builder
	rels.WriteString("modules:\n  - name: a\n    releases:\n")
	for i := range n {
		fmt.Fprintf(&rels, "      - {version: %d.%d.%d}\n", i/10000, i/100%100, i%100)
	}
	cat, _, err := Parse("big-list.yaml", []byte(rels.String()))
	require.NoError(t, err)
	assert.Equal(t, n, cat.ReleaseCount())

	var unknown strings.Builder
	unknown.WriteString("deckhouse: 1.73.3\nkubernetes: 1.31.2\nmodules:\n")
	for i := range 1000 {
		fmt.Fprintf(&unknown, "  m%06d: {enabled: false}\n", i)
	}
	unknown.WriteString("  x: {enabled: false, colour: blue}\n")
	_, err = ParseCluster("strict.yaml", []byte(unknown.String()))
	require.ErrorIs(t, err, ErrUnknownKey, "strictness holds in a large mapping")
}

// BenchmarkLargeInputs measures reading a cluster of n module entries:
// time per entry stays flat as n grows (linear), where yaml's decoder
// alone grows with n (quadratic).
func BenchmarkLargeInputs(b *testing.B) {
	for _, n := range []int{10_000, 40_000, 100_000} {
		var s strings.Builder
		s.WriteString("deckhouse: 1.73.3\nkubernetes: 1.31.2\nmodules:\n")
		for i := range n {
			fmt.Fprintf(&s, "  m%06d: {enabled: false}\n", i)
		}
		data := []byte(s.String())
		b.Run(fmt.Sprintf("cluster-%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := ParseCluster("big.yaml", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
