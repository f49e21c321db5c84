package catalog

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
)

// TestStagesInFile covers the single-file keys of R25 and R26, on a
// release and on a built-in module.
func TestStagesInFile(t *testing.T) {
	cat, _, err := Parse("c.yaml", []byte(`
modules:
  - name: registry
    embedded: true
    stage: Preview
    disable: {confirmation: true, message: "stops image pulls"}
  - name: lab
    releases:
      - {version: 0.1.0}
      - {version: 0.2.0, stage: Experimental}
      - {version: 0.3.0, stage: deprecated, disable: {confirmation: true, message: m}}
`))
	require.NoError(t, err)
	reg := cat.Module("registry")
	assert.Equal(t, model.StagePreview, reg.StageOf(nil))
	assert.Equal(t, model.Disable{Confirmation: true, Message: "stops image pulls"}, reg.DisableOf(nil))
	lab := cat.Module("lab")
	assert.Equal(t, model.StageGeneralAvailability, lab.StageOf(lab.Releases[0]), "absent is General Availability")
	assert.Equal(t, model.StageExperimental, lab.StageOf(lab.Releases[1]))
	assert.Equal(t, model.StageDeprecated, lab.StageOf(lab.Releases[2]), "case does not matter")
	assert.True(t, lab.DisableOf(lab.Releases[2]).Confirmation)
}

func TestStageErrors(t *testing.T) {
	for name, doc := range map[string]string{
		"unknown stage":          "modules: [{name: a, releases: [{version: 1.0.0, stage: Beta}]}]",
		"module stage":           "modules: [{name: a, stage: Experimental, releases: [{version: 1.0.0}]}]",
		"unknown disable key":    "modules: [{name: a, releases: [{version: 1.0.0, disable: {confirm: true}}]}]",
		"unknown built-in stage": "modules: [{name: a, embedded: true, stage: GA}]",
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := Parse("c.yaml", []byte(doc))
			require.Error(t, err)
			assert.True(t, errors.Is(err, model.ErrInvalidInput), "%v", err)
			var pe *ParseError
			assert.True(t, errors.As(err, &pe), "names the file: %v", err)
		})
	}
}

func TestStagesInDKPTree(t *testing.T) {
	root := writeTree(t, map[string]string{
		"embedded/deckhouse/module.yaml":  "name: deckhouse\nstage: \"General Availability\"\ndisable:\n  confirmation: true\n  message: \"stops DKP\"\n",
		"external/lab/v0.1.0/module.yaml": "name: lab\nstage: Experimental\n",
		"external/lab/v0.2.0/module.yaml": "name: lab\nstage: Deprecated\n",
		"external/bad/v0.1.0/module.yaml": "name: bad\nstage: Alpha\n",
	})
	cat, rep, err := Load(root)
	require.NoError(t, err, "DKP publishes any stage text, and so a DKP tree loads (D134)")
	assert.Equal(t, model.StageGeneralAvailability, cat.Module("bad").Releases[0].Stage, "an unknown stage gates nothing")
	require.Len(t, rep.Warnings, 2, "the stage, and the built-in module with no bundle default (D129)")
	assert.Contains(t, rep.Warnings[0], "bad/v0.1.0/module.yaml")
	assert.Contains(t, rep.Warnings[0], `stage "Alpha"`)
	assert.Contains(t, rep.Warnings[1], "records no bundle default")

	root = writeTree(t, map[string]string{
		"embedded/deckhouse/module.yaml":  "name: deckhouse\ndisable:\n  confirmation: true\n  message: \"stops DKP\"\n",
		"external/lab/v0.1.0/module.yaml": "name: lab\nstage: Experimental\n",
		"external/lab/v0.2.0/module.yaml": "name: lab\nstage: Deprecated\n",
	})
	cat, _, err = Load(root)
	require.NoError(t, err)
	assert.Equal(t, model.Disable{Confirmation: true, Message: "stops DKP"}, cat.Module("deckhouse").Disable)
	lab := cat.Module("lab")
	assert.Equal(t, model.StageExperimental, lab.Releases[0].Stage)
	assert.Equal(t, model.StageDeprecated, lab.Releases[1].Stage)
}

// TestStagesReal reads the stages of the real DKP tree.
func TestStagesReal(t *testing.T) {
	cat, rep, err := Load(shared.Path(t, "data", "dkp"))
	require.NoError(t, err)
	sf := cat.Module("storage-foundation")
	for v, want := range map[string]model.Stage{"0.1.1": model.StageGeneralAvailability, "0.1.2": model.StageExperimental, "0.1.3": model.StageExperimental} {
		assert.Equal(t, want, sf.Release(model.MustParseVersion(v)).Stage, v)
	}
	for _, name := range []string{"deckhouse", "registry"} {
		assert.True(t, cat.Module(name).Disable.Confirmation, "%s asks for confirmation (R26)", name)
		assert.NotEmpty(t, cat.Module(name).Disable.Message)
	}
	st := NewStats(cat, rep)
	assert.Equal(t, 10, st.Stages["Experimental"])
	assert.Equal(t, 2, st.DisableConfirmations)
	total := 0
	for _, n := range st.Stages {
		total += n
	}
	assert.Equal(t, st.Releases+st.BuiltIn, total, "every release, and every built-in module, has one stage")
}

func TestHelmDeprecated(t *testing.T) {
	cat, rep, err := ParseFormat("index.yaml", []byte(`
apiVersion: v1
entries:
  old:
    - {name: old, version: 1.0.0, deprecated: true}
    - {name: old, version: 0.9.0}
`), FormatHelmIndex)
	require.NoError(t, err)
	old := cat.Module("old")
	assert.Equal(t, model.StageGeneralAvailability, old.Releases[0].Stage)
	assert.Equal(t, model.StageDeprecated, old.Releases[1].Stage)
	assert.Equal(t, 1, rep.Counts[helmDeprecated])
}

// TestOLMFBCDeprecations covers D55: a package, a bundle, and a release
// every channel listing it deprecates.
func TestOLMFBCDeprecations(t *testing.T) {
	dep := func(pkg string, refs ...olmObj) olmObj {
		entries := make([]olmObj, len(refs))
		for i, r := range refs {
			entries[i] = olmObj{"reference": r, "message": "deprecated"}
		}
		return olmObj{"schema": "olm.deprecations", "package": pkg, "entries": entries}
	}
	cat, rep := loadFBC(t,
		fbcPkgObj("a", "stable"),
		fbcChanObj("a", "stable", olmObj{"name": "a.v1.0.0"}, olmObj{"name": "a.v1.1.0", "replaces": "a.v1.0.0"}),
		fbcChanObj("a", "legacy", olmObj{"name": "a.v0.9.0"}, olmObj{"name": "a.v1.0.0", "replaces": "a.v0.9.0"}),
		fbcBundleObj("a", "0.9.0"), fbcBundleObj("a", "1.0.0"), fbcBundleObj("a", "1.1.0"), fbcBundleObj("a", "1.2.0"),
		fbcPkgObj("b", "stable"),
		fbcChanObj("b", "stable", olmObj{"name": "b.v1.0.0"}),
		fbcBundleObj("b", "1.0.0"),
		dep("a", olmObj{"schema": "olm.channel", "name": "legacy"}, olmObj{"schema": "olm.bundle", "name": "a.v1.1.0"}),
		dep("b", olmObj{"schema": "olm.package"}),
	)
	stage := func(pkg, v string) model.Stage { return olmRelease(t, cat, pkg, v).Stage }
	assert.Equal(t, model.StageDeprecated, stage("a", "0.9.0"), "listed only by a deprecated channel")
	assert.Equal(t, model.StageGeneralAvailability, stage("a", "1.0.0"), "a live channel lists it too")
	assert.Equal(t, model.StageDeprecated, stage("a", "1.1.0"), "a deprecated bundle")
	assert.Equal(t, model.StageGeneralAvailability, stage("a", "1.2.0"), "no channel lists it")
	assert.Equal(t, model.StageDeprecated, stage("b", "1.0.0"), "a deprecated package")
	assert.Equal(t, 3, rep.Counts[olmDeprecated])
}
