package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/loadgen"
	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
)

// fileLoadSize is the generated catalog of DESIGN.md §8's loading target
// for the single-file format: 842 modules, 42 of them built in, so
// 16,000 releases.
var fileLoadSize = Size{Name: "842x20", Modules: 842, Releases: 20}

// BenchmarkLoad times catalog.Load, format detection included, on the
// catalogs of DESIGN.md §8's loading targets: a generated single-file
// catalog of 16,000 releases, Bitnami's Helm index and OLM's bundle dump
// (the last two skipped when ../shared/data is absent).
// Besides the time on the clock it reports the CPU time per load
// (cpu-ms/op), the garbage collector's included, which a shared machine
// disturbs less. docs/performance.md ("Loading catalogs") has the figures.
func BenchmarkLoad(b *testing.B) {
	var file bytes.Buffer
	if err := WriteCatalogFile(&file, Generate(fileLoadSize, 1).Catalog); err != nil {
		b.Fatal(err)
	}
	generated := filepath.Join(b.TempDir(), "generated.yaml")
	if err := os.WriteFile(generated, file.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("file-16k", func(b *testing.B) { benchmarkLoad(b, generated) })
	b.Run("helm-bitnami", func(b *testing.B) {
		benchmarkLoad(b, shared.Path(b, "data", "helm", "bitnami-index.yaml"))
	})
	b.Run("olm-bundles", func(b *testing.B) {
		benchmarkLoad(b, shared.Path(b, "data", "olm", "community-operators-prod-bundles.json"))
	})
}

func benchmarkLoad(b *testing.B, file string) {
	info, err := os.Stat(file)
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(info.Size())
	b.ReportAllocs()
	cpu, measured := loadgen.ProcessCPU()
	for b.Loop() {
		if _, _, err := catalog.Load(file); err != nil {
			b.Fatal(err)
		}
	}
	if end, ok := loadgen.ProcessCPU(); ok && measured {
		b.ReportMetric(float64((end-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}

// The written catalog reads back as the generated one: the same modules,
// releases and requirements.
func TestWriteCatalogFile(t *testing.T) {
	want := Generate(SizeS, 3).Catalog
	var file bytes.Buffer
	require.NoError(t, WriteCatalogFile(&file, want))
	got, _, err := catalog.Parse("generated.yaml", file.Bytes())
	require.NoError(t, err)
	require.Equal(t, want.Len(), got.Len())
	assert.Equal(t, want.ReleaseCount(), got.ReleaseCount())
	for _, m := range want.Modules() {
		g := got.Module(m.Name)
		require.NotNil(t, g, m.Name)
		assert.Equal(t, m.Embedded, g.Embedded, m.Name)
		assert.Equal(t, m.Weight, g.Weight, m.Name)
		assert.Equal(t, len(m.Channels), len(g.Channels), m.Name)
		assert.Equal(t, requirementTexts(&m.Requirements), requirementTexts(&g.Requirements), m.Name)
		for i, r := range m.Releases {
			assert.Equal(t, r.Version.String(), g.Releases[i].Version.String())
			assert.Equal(t, requirementTexts(&r.Requirements), requirementTexts(&g.Releases[i].Requirements), "%s %s", m.Name, r.Version)
			assert.Equal(t, r.UpdateRules, g.Releases[i].UpdateRules)
		}
	}
}

func requirementTexts(r *model.Requirements) []string {
	var out []string
	if r.Deckhouse != nil {
		out = append(out, "deckhouse "+r.Deckhouse.Text)
	}
	if r.Kubernetes != nil {
		out = append(out, "kubernetes "+r.Kubernetes.Text)
	}
	for _, d := range r.Modules {
		out = append(out, d.Module+" "+d.Constraint.Text)
	}
	return out
}
