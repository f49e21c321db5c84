package randscen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/oracle"
	"github.com/modsolver/modsolver/internal/randscen"
	"github.com/modsolver/modsolver/model"
)

// TestGenerateIsDeterministic: a seed always gives the same scenario.
func TestGenerateIsDeterministic(t *testing.T) {
	for seed := range uint64(50) {
		assert.Equal(t, write(t, randscen.Generate(seed)), write(t, randscen.Generate(seed)), "seed %d", seed)
	}
}

// TestWriteRoundTrip: a written scenario loads back, through the same
// loader as every scenario file, to a problem with the same answer, and
// writes out the same again.
func TestWriteRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for seed := range uint64(300) {
		sc := randscen.Generate(seed)
		text := write(t, sc)
		file := filepath.Join(dir, "s.yaml")
		require.NoError(t, os.WriteFile(file, text, 0o644))
		back, err := catalog.LoadScenario(file)
		require.NoError(t, err, "seed %d:\n%s", seed, text)
		loaded := &randscen.Scenario{Seed: seed, Catalog: back.Catalog, Cluster: back.Cluster, Request: back.Request}
		assert.Equal(t, string(text), string(write(t, loaded)), "seed %d", seed)
		want, err := oracle.Solve(sc.Catalog, sc.Cluster, sc.Request, oracle.NamedFirst)
		require.NoError(t, err)
		got, err := oracle.Solve(loaded.Catalog, loaded.Cluster, loaded.Request, oracle.NamedFirst)
		require.NoError(t, err)
		assert.Equal(t, want.Selected, got.Selected, "seed %d", seed)
	}
}

func write(t *testing.T, sc *randscen.Scenario) []byte {
	var buf bytes.Buffer
	require.NoError(t, randscen.Write(&buf, sc, randscen.File{Name: "s", Description: "d", Expect: randscen.Expect{Status: "resolved"}}))
	return buf.Bytes()
}

// TestGeneratesGroups: the generator draws DKP v2 groups of both kinds
// (R28), which TestWriteRoundTrip then writes in the v2 form.
func TestGeneratesGroups(t *testing.T) {
	kinds := map[model.GroupKind]int{}
	for seed := range uint64(300) {
		for _, m := range randscen.Generate(seed).Catalog.Modules() {
			for _, r := range m.Releases {
				for _, c := range r.Requirements.Compound {
					if c.Group != nil {
						kinds[c.Group.Kind]++
					}
				}
			}
		}
	}
	assert.Greater(t, kinds[model.GroupAnyOf], 20)
	assert.Greater(t, kinds[model.GroupNoneOf], 5)
}
