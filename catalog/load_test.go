package catalog

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

const validCatalog = `
modules:
  - name: prometheus
    weight: 300
    accessibility: {editions: {_default: {available: true, enabledInBundles: [Default]}, ce: {available: false}}}
    channels: {stable: 2.3.0, alpha: "2.5"}
    releases:
      - version: v2.3.0
        requirements:
          deckhouse: ">= 1.61"
          kubernetes: ">= 1.28"
          modules: {operator-prometheus: ">= 0.0.0", test: ">v0.22.1 !optional"}
      - version: "2.5"
        update: {versions: [{from: "1.67", to: "1.75"}]}
  - name: operator-prometheus
    embedded: true
    requirements: {kubernetes: ">= 1.27"}
`

func TestParseCatalog(t *testing.T) {
	cat, rep, err := Parse("c.yaml", []byte(validCatalog))
	require.NoError(t, err)
	assert.Equal(t, 2, rep.Modules)
	assert.Equal(t, 1, rep.Embedded)
	assert.Equal(t, 2, rep.Releases)

	p := cat.Module("prometheus")
	require.NotNil(t, p)
	assert.Equal(t, 300, p.Weight)
	require.Len(t, p.Releases, 2)
	assert.Equal(t, "2.3.0", p.Releases[0].Version.String(), "D3: canonical version text")
	assert.Equal(t, "2.5.0", p.Releases[1].Version.String(), `"2.5" is read as text, not as a float`)
	assert.Equal(t, "2.5.0", p.Channels["alpha"].String())
	deps := p.Releases[0].Requirements.Modules
	require.Len(t, deps, 2)
	assert.Equal(t, "operator-prometheus", deps[0].Module, "dependencies are sorted by name")
	assert.True(t, deps[1].Constraint.Optional)
	assert.Equal(t, []model.UpdateRule{{From: model.MajorMinor{Major: 1, Minor: 67}, To: model.MajorMinor{Major: 1, Minor: 75}}}, p.Releases[1].UpdateRules)
	available, _ := p.Accessibility.For("ce")
	assert.False(t, available, "R7: ce says not available")
	available, bundles := p.Accessibility.For("ee")
	assert.True(t, available)
	assert.Equal(t, []string{"Default"}, bundles)

	op := cat.Module("operator-prometheus")
	assert.True(t, op.Embedded)
	assert.Equal(t, model.DefaultWeight, op.Weight, "D6")
	require.NotNil(t, op.Requirements.Kubernetes)
}

func TestParseCatalogJSON(t *testing.T) {
	cat, _, err := Parse("c.json", []byte(`{"modules": [{"name": "a", "releases": [{"version": "1.0.0", "requirements": {"modules": {"b": "~1.2"}}}]}, {"name": "b", "releases": [{"version": "1.2.3"}]}]}`))
	require.NoError(t, err)
	assert.Equal(t, 2, cat.Len())
}

func TestParseCatalogErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		is   error
		line int
	}{
		{"unknown module key", "modules:\n  - name: a\n    wieght: 3\n", ErrUnknownKey, 3},
		{"unknown release key", "modules:\n  - name: a\n    releases:\n      - version: 1.0.0\n        requires: {}\n", ErrUnknownKey, 5},
		{"unknown requirement key", "modules:\n  - name: a\n    releases:\n      - version: 1.0.0\n        requirements: {user-authz: '>= 0.0.0'}\n", ErrUnknownKey, 5},
		{"unknown top key", "modules: []\nchannels: {}\n", ErrUnknownKey, 2},
		{"bad yaml", "modules: [\n", ErrSyntax, 0},
		{"wrong type", "modules:\n  - name: a\n    weight: heavy\n", ErrSyntax, 3},
		{"empty file", "", ErrEmptyFile, 0},
		{"two documents", "modules: []\n---\nmodules: []\n", ErrSyntax, 0},
		{"bad version", "modules:\n  - name: a\n    releases:\n      - version: 0.2.3.1\n", model.ErrInvalidVersion, 4},
		{"no name", "modules:\n  - releases: []\n", model.ErrMissingField, 2},
		{"duplicate module", "modules:\n  - name: a\n  - name: a\n", model.ErrDuplicate, 0},
		{"default channel not among the channels (D32)", "modules:\n  - name: a\n    releases: [{version: 1.0.0}]\n    channels: {nightly: 1.0.0}\n    defaultChannel: stable\n", model.ErrInvalidValue, 0},
		{"bad skipRange (R21)", "modules:\n  - name: a\n    releases:\n      - version: 1.0.0\n        skipRange: '>>1'\n", model.ErrInvalidConstraint, 0},
		{"bad from-to", "modules:\n  - name: a\n    releases:\n      - version: 1.0.0\n        update: {versions: [{from: x, to: '1.0'}]}\n", model.ErrInvalidInput, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse("c.yaml", []byte(tt.text))
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.is)
			assert.ErrorIs(t, err, model.ErrInvalidInput, "every load error is bad input")
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "c.yaml", pe.File)
			if tt.line > 0 {
				assert.Equal(t, tt.line, pe.Line)
			}
		})
	}
}

// R6: a bad constraint names the file, the module, the release and the text.
func TestParseCatalogConstraintError(t *testing.T) {
	tests := []struct {
		name, text, module, release, field, constraint string
		is                                             error
	}{
		{"invalid", "modules:\n  - name: a\n    releases:\n      - version: 1.2.0\n        requirements: {modules: {b: '>= banana'}}\n", "a", "1.2.0", "modules.b", ">= banana", model.ErrInvalidConstraint},
		{"empty", "modules:\n  - name: a\n    releases:\n      - version: 1.2.0\n        requirements: {deckhouse: ''}\n", "a", "1.2.0", "deckhouse", "", model.ErrEmptyConstraint},
		{"built-in", "modules:\n  - name: a\n    embedded: true\n    requirements: {kubernetes: '>= 1.x.y.z'}\n", "a", "", "kubernetes", ">= 1.x.y.z", model.ErrInvalidConstraint},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Parse("c.yaml", []byte(tt.text))
			var ce *model.ConstraintError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, "c.yaml", ce.File)
			assert.Equal(t, tt.module, ce.Module)
			assert.Equal(t, tt.release, ce.Release)
			assert.Equal(t, tt.field, ce.Field)
			assert.Equal(t, tt.constraint, ce.Text)
			assert.ErrorIs(t, err, tt.is)
		})
	}
}

func TestLoadMissing(t *testing.T) {
	_, _, err := Load("no/such/catalog.yaml")
	assert.ErrorIs(t, err, model.ErrInvalidInput)
}

func TestReportSummary(t *testing.T) {
	rep := &Report{Source: "x", Format: FormatDKP, Modules: 2, Releases: 3}
	rep.skip("x/a/v1", "tag %q is not a semantic version", "v1.2.3.4")
	rep.warn("w %d", 1)
	s := rep.Summary()
	assert.Contains(t, s, "2 modules")
	assert.Contains(t, s, "x/a/v1: tag \"v1.2.3.4\" is not a semantic version")
	assert.Contains(t, s, "w 1")
	assert.False(t, errors.Is(nil, ErrSyntax))
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, text string
		want       Format
	}{
		{"modsolver yaml", "modules:\n  - name: a\n", FormatFile},
		{"modsolver json", `{"modules": []}`, FormatFile},
		{"helm index", "apiVersion: v1\nentries:\n  a: []\n", FormatHelmIndex},
		{"olm fbc", "{\"schema\": \"olm.package\", \"name\": \"a\"}\n{\"schema\": \"olm.bundle\"}\n", FormatOLMFBC},
		{"olm bundles", `{"packages": {}, "bundles": []}`, FormatOLMBundles},
	}
	for _, tt := range tests {
		got, err := Detect("c", []byte(tt.text))
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
	for _, text := range []string{"modules: []\nentries: {}\n", "name: a\n", `{"name": "a"}`, "{not json"} {
		_, err := Detect("c", []byte(text))
		assert.ErrorIs(t, err, model.ErrInvalidInput, text)
	}
}

// TestEmptyFileSaysEmpty: an empty catalog file, or one of white space,
// is called empty whether its format is detected or named, not a format
// that cannot be told.
func TestEmptyFileSaysEmpty(t *testing.T) {
	for _, text := range []string{"", " \n\t\n"} {
		_, err := Detect("c.yaml", []byte(text))
		require.ErrorIs(t, err, ErrEmptyFile)
		assert.Equal(t, "c.yaml: invalid input: the file is empty", err.Error())
		for _, f := range []Format{"", FormatFile, FormatHelmIndex, FormatOLMFBC} {
			_, _, err := ParseFormat("c.yaml", []byte(text), f)
			assert.ErrorIs(t, err, ErrEmptyFile, f)
			assert.NotContains(t, err.Error(), "cannot tell", f)
		}
	}
}

// A format named on the command line wins over detection, and a wrong one
// is an input error, not a panic.
func TestLoadFormatNamed(t *testing.T) {
	dir := writeTree(t, map[string]string{"c.yaml": "modules:\n  - name: a\n    releases: [{version: 1.0.0}]\n"})
	path := filepath.Join(dir, "c.yaml")
	cat, rep, err := LoadFormat(path, FormatFile)
	require.NoError(t, err)
	assert.Equal(t, 1, cat.Len())
	assert.Equal(t, FormatFile, rep.Format)
	for _, f := range []Format{FormatHelmIndex, FormatOLMFBC, FormatOLMBundles, FormatDKP} {
		_, _, err := LoadFormat(path, f)
		assert.ErrorIs(t, err, model.ErrInvalidInput, f)
	}
	_, _, err = LoadFormat(dir, FormatHelmIndex)
	assert.ErrorIs(t, err, model.ErrInvalidInput, "a directory is DKP's layout")
	_, err = ParseFormatName("rpm")
	assert.ErrorIs(t, err, model.ErrInvalidInput)
}
