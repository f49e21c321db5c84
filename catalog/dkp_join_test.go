package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// joinTree is a DKP tree that holds snap both built in and external, and
// csi only external.
var joinTree = map[string]string{
	"embedded/snap/module.yaml":        "name: snap\nweight: 37\naccessibility: {editions: {_default: {available: true, enabledInBundles: [Default]}}}\n",
	"embedded/core/module.yaml":        "name: core\nrequirements: {modules: {snap: '>= 0.0.0'}}\naccessibility: {editions: {_default: {available: true, enabledInBundles: [Default]}}}\n",
	"external/snap/v0.1.0/module.yaml": "name: snap\nweight: 40\n",
	"external/snap/v0.2.0/module.yaml": "name: snap\nweight: 40\n",
	"external/csi/v1.0.0/module.yaml":  "name: csi\nrequirements: {modules: {snap: '>= 0.1.0'}}\n",
}

// TestLoadDirBuiltInAndExternal: a module in both embedded/ and
// external/ of one tree is one module of two sources, named after the
// folders, which R29 reads as a module built in in one source and listed
// in another (D350); the catalog stays a single one.
func TestLoadDirBuiltInAndExternal(t *testing.T) {
	cat, rep, err := LoadDir(writeTree(t, joinTree))
	require.NoError(t, err)
	assert.Empty(t, cat.Sources(), "a single catalog: only snap names sources")
	snap := cat.Module("snap")
	require.NotNil(t, snap)
	assert.False(t, snap.Embedded)
	assert.True(t, snap.MayBeBuiltIn())
	assert.Equal(t, "embedded", snap.BuiltInSource())
	assert.Equal(t, []string{"external", "embedded"}, snap.ModuleSources(), "external/ first: a version names its release (D75)")
	assert.Equal(t, "external", snap.MovedTo())
	builtIn := snap.ForSource("embedded")
	require.NotNil(t, builtIn)
	assert.True(t, builtIn.Embedded)
	assert.Equal(t, 37, builtIn.Weight)
	_, bundles := builtIn.Accessibility.For("ee")
	assert.Equal(t, []string{"Default"}, bundles)
	ext := snap.ForSource("external")
	require.Len(t, ext.Releases, 2)
	for _, r := range snap.Releases {
		assert.Equal(t, "external", r.Source)
	}
	assert.Empty(t, cat.Module("csi").ModuleSources())
	assert.True(t, cat.Module("core").Embedded)
	assert.Contains(t, rep.Summary(), "module snap is both built in and external: a cluster that runs it runs the built-in one, until the request moves it to source external (R29)")
	assert.Equal(t, 1, rep.Embedded, "core; snap is counted once, as a module of releases")

	// A cluster that runs snap by its bundle default runs the built-in one.
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.75.1"), Kubernetes: model.MustParseVersion("1.31.4"), Edition: "ee", Bundle: "Default"}
	v, on := cluster.Deployed(snap)
	assert.True(t, on)
	assert.Equal(t, "1.75.1", model.VersionString(v))
	assert.Equal(t, "embedded", cluster.DeployedSource(snap))
}

// TestDKPPlatformNames: a tree's platform.yaml names its editions and
// bundles (D351); a tree without one, or one that lists none, names none;
// one that cannot be read says so and loads.
func TestDKPPlatformNames(t *testing.T) {
	mod := "name: a\n"
	cat, _, err := LoadDir(writeTree(t, map[string]string{"embedded/a/module.yaml": mod, "platform.yaml": "editions: [ce, ee]\nbundles: [Default]\n"}))
	require.NoError(t, err)
	assert.Equal(t, &model.PlatformNames{Editions: []string{"ce", "ee"}, Bundles: []string{"Default"}}, cat.PlatformNames())

	cat, _, err = LoadDir(writeTree(t, map[string]string{"embedded/a/module.yaml": mod}))
	require.NoError(t, err)
	assert.Nil(t, cat.PlatformNames())

	cat, _, err = LoadDir(writeTree(t, map[string]string{"embedded/a/module.yaml": mod, "platform.yaml": "deckhouse: {newestReleased: '1.77'}\n"}))
	require.NoError(t, err)
	assert.Nil(t, cat.PlatformNames(), "platform data without editions or bundles")

	cat, rep, err := LoadDir(writeTree(t, map[string]string{"embedded/a/module.yaml": mod, "platform.yaml": "editions: {ee: yes}\n"}))
	require.NoError(t, err)
	assert.Nil(t, cat.PlatformNames())
	assert.Contains(t, rep.Summary(), "editions and bundles are not checked")
}
