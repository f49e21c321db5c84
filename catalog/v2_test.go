package catalog

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// R28: the v2 requirement form in the single-file format, beside the
// legacy form in one catalog.
func TestParseV2Form(t *testing.T) {
	cat, _, err := Parse("c.yaml", []byte(`
modules:
  - name: prometheus
    releases:
      - version: 2.5.0
        requirements: {deckhouse: ">= 1.61", modules: {operator: ">= 0.1.0", test: "> 0.22.1 !optional"}}
      - version: 2.6.0
        requirements:
          deckhouse: {constraint: ">= 1.77"}
          kubernetes: {constraint: ">= 1.30"}
          modules:
            mandatory: [{name: operator}]
            conditional: [{name: test, constraint: "> 0.22.1"}]
            anyOf: [{name: storage, description: a backend, modules: [{name: csi-ceph, constraint: ">= 0.5.0"}, {name: sds}]}]
            noneOf: [{name: legacy, modules: [{name: prometheus-legacy}]}]
  - {name: operator, releases: [{version: 0.1.0}]}
`))
	require.NoError(t, err)
	old, v2 := cat.Module("prometheus").Releases[0], cat.Module("prometheus").Releases[1]
	assert.Equal(t, model.ManifestLegacy, old.Manifest)
	assert.Equal(t, model.ManifestV2, v2.Manifest)
	assert.Equal(t, ">= 1.77", v2.Requirements.Deckhouse.Text)
	assert.Equal(t, ">= 1.30", v2.Requirements.Kubernetes.Text)
	require.Len(t, v2.Requirements.Modules, 2)
	assert.Equal(t, model.Dependency{Module: "operator", Constraint: model.MustParseConstraint(">= 0.0.0")}, v2.Requirements.Modules[0], "mandatory without a constraint: any version (R2)")
	assert.Equal(t, old.Requirements.Modules[1], v2.Requirements.Modules[1], "conditional is R3, as the legacy !optional")
	require.Len(t, v2.Requirements.Compound, 2)
	anyOf := v2.Requirements.Compound[0]
	assert.Equal(t, "anyOf group 'storage': any(csi-ceph >= 0.5.0, sds)", anyOf.String())
	assert.Equal(t, "a backend", anyOf.Group.Description)
	assert.False(t, anyOf.Conflict())
	noneOf := v2.Requirements.Compound[1]
	assert.Equal(t, "noneOf group 'legacy': not(any(prometheus-legacy))", noneOf.String())
	assert.True(t, noneOf.Conflict(), "noneOf is a top-level not (R24)")
}

// R28: mistakes in the v2 form, in the single-file format: DKP's checks
// in DKP's words, and the format's own strictness.
func TestParseV2FormErrors(t *testing.T) {
	release := func(req string) string {
		return "modules:\n  - name: a\n    releases:\n      - version: 1.0.0\n        requirements:\n" + req
	}
	for _, tc := range []struct {
		name, req string
		is        error
		line      int
		text      string
	}{
		{"unknown bucket", "          modules: {mandatory: [], optional: []}\n", ErrUnknownKey, 6, `unknown key "optional" in requirements.modules`},
		{"unknown key in a constraint", "          deckhouse: {constraint: '>= 1', min: '1'}\n", ErrUnknownKey, 6, `"min"`},
		{"unknown key in an entry", "          modules: {mandatory: [{name: b, version: '1'}]}\n", ErrUnknownKey, 6, `"version"`},
		{"platform constraint DKP refuses", "          kubernetes: {constraint: '1.27+'}\n", ErrManifest, 6, `parse kubernetes requirement: improper constraint: "1.27+"`},
		{"deckhouse after kubernetes", "          deckhouse: {constraint: 'x'}\n          kubernetes: {constraint: 'y'}\n", ErrManifest, 7, "parse kubernetes requirement"},
		{"mandatory without a name", "          modules: {mandatory: [{constraint: '1'}]}\n", ErrManifest, 6, "parse mandatory module requirement [0]: name is required"},
		{"mandatory twice", "          modules: {mandatory: [{name: b}, {name: b}]}\n", ErrManifest, 6, "parse mandatory module requirement 'b': listed twice"},
		{"conditional without a constraint", "          modules:\n            conditional:\n              - name: b\n", ErrManifest, 8, "parse conditional module requirement 'b': constraint is required"},
		{"!optional has no meaning in v2", "          modules: {conditional: [{name: b, constraint: '>= 1 !optional'}]}\n", ErrManifest, 6, `improper constraint: ">= 1 !optional"`},
		{"an OLM exclusion is not DKP's grammar", "          modules: {mandatory: [{name: b, constraint: '> 1.0.0 !1.2.1'}]}\n", ErrManifest, 6, "parse mandatory module requirement 'b': improper constraint"},
		{"group without members", "          modules: {noneOf: [{name: g}]}\n", ErrManifest, 6, "parse noneOf group 'g': at least one member is required"},
		{"member without a name", "          modules: {anyOf: [{name: g, modules: [{constraint: '1'}]}]}\n", ErrManifest, 6, "parse anyOf group 'g': member name is required"},
		{"member twice", "          modules: {anyOf: [{name: g, modules: [{name: b}, {name: b}]}]}\n", ErrManifest, 6, "parse anyOf group 'g': duplicate member 'b'"},
		{"bad member constraint", "          modules: {noneOf: [{name: g, modules: [{name: b, constraint: abc}]}]}\n", ErrManifest, 6, `parse noneOf group 'g' member 'b': improper constraint: "abc"`},
		{"conditional and anyOf", "          modules: {conditional: [{name: b, constraint: '1'}], anyOf: [{name: g, modules: [{name: b}]}]}\n", ErrManifest, 6, "module 'b' appears in both conditional and anyOf group 'g'"},
		{"conditional and noneOf", "          modules: {conditional: [{name: b, constraint: '1'}], noneOf: [{name: g, modules: [{name: b}]}]}\n", ErrManifest, 6, "module 'b' appears in both conditional and noneOf group 'g'"},
		{"mandatory and noneOf", "          modules: {mandatory: [{name: b}], noneOf: [{name: g, modules: [{name: b}]}]}\n", ErrManifest, 6, "module 'b' appears in both mandatory and noneOf group 'g'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Parse("c.yaml", []byte(release(tc.req)))
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.is)
			assert.ErrorIs(t, err, model.ErrInvalidInput)
			assert.Contains(t, err.Error(), tc.text)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.line, pe.Line)
			var me *ManifestError
			if errors.As(err, &me) {
				assert.Equal(t, "a", me.Module)
				assert.Equal(t, "1.0.0", me.Release)
			}
		})
	}
}

// R27, D347: a v2 release that names its own module in mandatory or
// conditional is a package DKP never registers: it is set aside with a
// warning in DKP's words, and the rest of the catalog loads. A group that
// names the module is no such cycle; the legacy form stays the model's
// error, and a built-in module that names itself is left out.
func TestParseV2SelfLoopRefused(t *testing.T) {
	cat, rep, err := Parse("c.yaml", []byte(`
modules:
  - name: vault
    channels: {stable: 1.1.0}
    releases:
      - version: 1.1.0
        requirements: {modules: {conditional: [{name: vault, constraint: ">= 1.0"}]}}
      - version: 1.0.0
        requirements:
          modules:
            mandatory: [{name: vault}]
      - version: 0.9.0
        requirements: {modules: {anyOf: [{name: self, modules: [{name: vault}]}]}}
  - name: core
    embedded: true
    requirements: {modules: {mandatory: [{name: core}]}}
  - {name: other, releases: [{version: 1.0.0}]}
  - name: lone
    channels: {stable: 1.0.0}
    releases:
      - {version: 1.0.0, requirements: {modules: {mandatory: [{name: lone}]}}}
      - {version: 1.1.0}
`))
	require.NoError(t, err)
	vault := cat.Module("vault")
	require.Len(t, vault.Releases, 1)
	assert.Equal(t, "0.9.0", model.VersionString(vault.Releases[0].Version), "a group on the module itself is no cycle")
	assert.Equal(t, []model.RefusedRelease{
		{Version: model.MustParseVersion("1.0.0"), Reason: "dependency cycle through: vault"},
		{Version: model.MustParseVersion("1.1.0"), Reason: "dependency cycle through: vault"},
	}, vault.Refusals())
	assert.NotNil(t, vault.RefusedAt(model.MustParseVersion("1.1.0")))
	assert.Equal(t, "0.9.0", model.VersionString(vault.Channels["stable"]), "a channel at a refused release moves to the release below it: the same bound")
	assert.Equal(t, "1.0.0", model.VersionString(cat.Module("lone").Channels["stable"]), "with no release below, the channel stays, and allows none")
	assert.Nil(t, cat.Module("core"), "a built-in module that names itself is left out")
	assert.NotNil(t, cat.Module("other"))
	require.Len(t, rep.Warnings, 4)
	assert.Contains(t, rep.Warnings[3], "module lone: release 1.0.0: dependency cycle through: lone")
	assert.Contains(t, rep.Warnings[0], "c.yaml:6: module vault: release 1.1.0: dependency cycle through: vault; DKP never registers the package")
	assert.Contains(t, rep.Warnings[1], "c.yaml:8: module vault: release 1.0.0: dependency cycle through: vault")
	assert.Contains(t, rep.Warnings[2], "c.yaml:16: module core: dependency cycle through: core; DKP never registers the package, so the built-in module is left out")

	_, _, err = Parse("c.yaml", []byte("modules:\n  - name: a\n    releases:\n      - version: 1.0.0\n        requirements: {modules: {a: '>= 1'}}\n"))
	require.Error(t, err, "the legacy form of the single-file format keeps refusing it")
	assert.ErrorIs(t, err, model.ErrInvalidValue)
	assert.Contains(t, err.Error(), "module a requires itself")

	_, _, err = Parse("c.yaml", []byte("modules:\n  - name: a\n    releases:\n      - {version: 1.0.0, requirements: {modules: {mandatory: [{name: a}]}}}\n      - {version: 1.0.0}\n"))
	require.Error(t, err, "a refused release is still listed twice")
	assert.ErrorIs(t, err, model.ErrDuplicate)
}

// R28: two groups of one bucket may share a member, and two packages may
// both name a group alike; a group of the same name in two releases of
// one module is one requirement per text.
func TestParseV2GroupsAllowed(t *testing.T) {
	cat, _, err := Parse("c.yaml", []byte(`
modules:
  - name: a
    releases:
      - version: 1.0.0
        requirements: {modules: {anyOf: [{name: g1, modules: [{name: c}]}, {name: g2, modules: [{name: c}, {name: d}]}]}}
  - name: b
    releases:
      - version: 1.0.0
        requirements: {modules: {anyOf: [{name: g1, modules: [{name: c}]}]}}
`))
	require.NoError(t, err)
	assert.Len(t, cat.Module("a").Releases[0].Requirements.Compound, 2)
	assert.Len(t, cat.Module("b").Releases[0].Requirements.Compound, 1)
}
