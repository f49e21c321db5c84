package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/randscen"
	"github.com/modsolver/modsolver/solver"
)

// writeFiles writes in's catalog to dir as modsolver's YAML file and as a
// compiled catalog, and returns their paths.
func writeFiles(b *testing.B, in *Instance, dir string) (yamlPath, compiledPath string) {
	b.Helper()
	var yml, compiled bytes.Buffer
	if err := randscen.WriteCatalog(&yml, in.Catalog); err != nil {
		b.Fatal(err)
	}
	if err := catalog.WriteCompiled(&compiled, in.Catalog, nil); err != nil {
		b.Fatal(err)
	}
	yamlPath, compiledPath = filepath.Join(dir, "catalog.yaml"), filepath.Join(dir, "catalog.bin")
	for path, data := range map[string][]byte{yamlPath: yml.Bytes(), compiledPath: compiled.Bytes()} {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return yamlPath, compiledPath
}

// BenchmarkCompiledCatalog times, on the generated M and L catalogs,
// writing a compiled catalog and loading one from disk, alone and then
// compiled for resolution (solver.Compile), against loading the same
// catalog from modsolver's YAML file (DESIGN.md §8: a compiled catalog
// saved to disk loads M in ≤ 50 ms). file-bytes is the file's size.
func BenchmarkCompiledCatalog(b *testing.B) {
	for _, size := range []Size{SizeM, SizeL} {
		b.Run(size.Name, func(b *testing.B) { benchmarkCompiled(b, Generate(size, 1)) })
	}
}

func benchmarkCompiled(b *testing.B, in *Instance) {
	yamlPath, compiledPath := writeFiles(b, in, b.TempDir())
	reportSize := func(b *testing.B, path string) {
		info, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(info.Size()), "file-bytes")
	}
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			var out bytes.Buffer
			if err := catalog.WriteCompiled(&out, in.Catalog, nil); err != nil {
				b.Fatal(err)
			}
		}
		reportSize(b, compiledPath)
	})
	b.Run("load-compiled", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := catalog.Load(compiledPath); err != nil {
				b.Fatal(err)
			}
		}
		reportSize(b, compiledPath)
	})
	b.Run("load-compiled+compile", func(b *testing.B) {
		for b.Loop() {
			cat, _, err := catalog.Load(compiledPath)
			if err == nil {
				_, err = solver.Compile(cat)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load-yaml", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := catalog.Load(yamlPath); err != nil {
				b.Fatal(err)
			}
		}
		reportSize(b, yamlPath)
	})
}
