package catalog

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// TestImportersSetReading: every importer reads versions as its
// ecosystem does (R6) and names that ecosystem: Helm by Masterminds'
// rules, OLM and KUDO with a prerelease as any other version
// (TestFileVersionsKey covers modsolver's own format).
func TestImportersSetReading(t *testing.T) {
	kudo, _, err := Load(filepath.Join("..", "testdata", "catalogs", "kudo-small"))
	require.NoError(t, err)
	helm, _, err := Load(filepath.Join("..", "testdata", "catalogs", "helm-argo-index.yaml"))
	require.NoError(t, err)
	dump, _ := loadDump(t, olmObj{"a": dumpPkg("stable", map[string]string{"stable": "1.0.0"})}, dumpBundle("a", "1.0.0", nil))
	fbc, _ := loadFBC(t, fbcPkgObj("a", "stable"), fbcChanObj("a", "stable", olmObj{"name": "a.v1.0.0"}), fbcBundleObj("a", "1.0.0"))
	tests := []struct {
		name    string
		cat     *model.Catalog
		reading model.VersionReading
		eco     model.Ecosystem
	}{
		{"helm", helm, model.ReadingSemver, model.EcosystemHelm},
		{"kudo", kudo, model.ReadingBlang, model.EcosystemKUDO},
		{"olm dump", dump, model.ReadingBlang, model.EcosystemOLM},
		{"olm fbc", fbc, model.ReadingBlang, model.EcosystemOLM},
	}
	for _, tc := range tests {
		require.NotZero(t, tc.cat.Len(), tc.name)
		for _, m := range tc.cat.Modules() {
			assert.Equal(t, tc.reading, m.Reading(), "%s: %s", tc.name, m.Name)
			assert.Equal(t, tc.eco, m.Ecosystem, "%s: %s", tc.name, m.Name)
		}
	}
}

// TestFileVersionsKey: the single-file format's versions key sets every
// module's reading; an unknown one is a load error naming the key.
func TestFileVersionsKey(t *testing.T) {
	read := func(text string) (*model.Catalog, error) {
		var node yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(text), &node))
		cat, _, err := parseFile("c.yaml", &node)
		return cat, err
	}
	for text, want := range map[string]model.VersionReading{
		"modules: [{name: a, releases: [{version: 1.0.0}]}]":                   model.ReadingDKP,
		"versions: dkp\nmodules: [{name: a, releases: [{version: 1.0.0}]}]":    model.ReadingDKP,
		"versions: semver\nmodules: [{name: a, releases: [{version: 1.0.0}]}]": model.ReadingSemver,
		"versions: blang\nmodules: [{name: a, releases: [{version: 1.0.0}]}]":  model.ReadingBlang,
	} {
		cat, err := read(text)
		require.NoError(t, err, text)
		assert.Equal(t, want, cat.Module("a").Reading(), text)
	}
	_, err := read("versions: npm\nmodules: [{name: a, releases: [{version: 1.0.0}]}]")
	require.ErrorIs(t, err, model.ErrInvalidValue)
	assert.ErrorContains(t, err, "versions")
}
