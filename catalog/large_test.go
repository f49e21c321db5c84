package catalog

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helmIndexOf is a Helm index of n charts, one version each: a mapping
// of n keys.
func helmIndexOf(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nentries:\n")
	for i := range n {
		fmt.Fprintf(&b, "  c%06d:\n  - {name: c%06d, version: 1.0.%d, description: a chart, urls: [x]}\n", i, i, i%7)
	}
	return b.String()
}

// fileListOf is a single-file catalog of one module with n releases in
// one list, each release a mapping three levels down.
func fileListOf(n int) string {
	var b strings.Builder
	b.WriteString("modules:\n  - name: a\n    releases:\n")
	for i := range n {
		fmt.Fprintf(&b, "      - {version: %d.%d.%d, requirements: {deckhouse: '>= 1.%d'}}\n", i/10000, i/100%100, i%100, i%40)
	}
	return b.String()
}

// A Helm index of 100,000 charts (a mapping of 100,000 keys) and a
// catalog of 100,000 releases in one list load whole, each in a few
// seconds at most even under the race detector, and a chart listed twice
// among 100,000 is named with both its lines, as yaml names it (D200,
// D322). The time per entry is measured by BenchmarkLargeCatalogs.
func TestLargeCatalogs(t *testing.T) {
	if testing.Short() {
		t.Skip("loads catalogs of 100,000 entries")
	}
	const n = 100_000
	start := time.Now()
	index := helmIndexOf(n)
	cat, _, err := ParseFormat("index.yaml", []byte(index), FormatHelmIndex)
	require.NoError(t, err)
	assert.Equal(t, n, cat.Len())

	_, _, err = ParseFormat("index.yaml", []byte(index+"  c000007:\n  - {name: c000007, version: 2.0.0}\n"), FormatHelmIndex)
	var pe *ParseError
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, 2*n+3, pe.Line)
	assert.ErrorContains(t, err, `mapping key "c000007" already defined at line 17`)

	cat, _, err = Parse("list.yaml", []byte(fileListOf(n)))
	require.NoError(t, err)
	assert.Equal(t, n, cat.ReleaseCount())
	assert.Less(t, time.Since(start), 2*time.Minute, "linear, not quadratic, in the number of entries")
}

// BenchmarkLargeCatalogs measures loading a Helm index of n charts and a
// catalog of n releases in one list: the time per entry stays flat as n
// grows tenfold (linear).
func BenchmarkLargeCatalogs(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		index, list := []byte(helmIndexOf(n)), []byte(fileListOf(n))
		b.Run(fmt.Sprintf("helm-charts-%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := ParseFormat("index.yaml", index, FormatHelmIndex); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entry")
		})
		b.Run(fmt.Sprintf("file-releases-%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Parse("list.yaml", list); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entry")
		})
	}
}
