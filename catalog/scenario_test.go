package catalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

const scenarioText = `
name: s
description: d
rules: [R2]
catalog:
  modules:
    - name: a
      releases: [{version: 1.0.0}]
cluster: {deckhouse: 1.70.0, kubernetes: 1.30.0}
request: {enable: [a]}
expect:
  status: resolved
  modules:
    a: {action: install, version: 1.0.0, heldBackMentions: [x], path: [1.0.0]}
  planOrder: [a]
  explanation: {mentions: [m], notMentions: [n], maxFacts: 2}
`

func TestLoadScenario(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, os.WriteFile(path, []byte(scenarioText), 0o644))
	sc, err := LoadScenario(path)
	require.NoError(t, err)
	assert.Equal(t, "s", sc.Name)
	assert.Equal(t, []string{"R2"}, sc.Rules)
	assert.Equal(t, 1, sc.Catalog.Len())
	assert.Equal(t, []string{"a"}, sc.Request.Enable)
	assert.Equal(t, "1.70.0", sc.Cluster.Deckhouse.String())
	assert.Equal(t, ModuleExpectation{Action: "install", Version: "1.0.0", HeldBackMentions: []string{"x"}, Path: []string{"1.0.0"}}, sc.Expect.Modules["a"])
	assert.Equal(t, 2, sc.Expect.Explanation.MaxFacts)
}

func TestLoadScenarioCatalogFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "cats"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cats", "c.yaml"), []byte("modules: [{name: a}]\n"), 0o644))
	path := filepath.Join(dir, "s.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: s\ncatalogFile: cats/c.yaml\ncluster: {deckhouse: 1.70.0, kubernetes: 1.30.0}\nexpect: {status: resolved}\n"), 0o644))
	sc, err := LoadScenario(path)
	require.NoError(t, err)
	assert.Equal(t, 1, sc.Catalog.Len(), "catalogFile is relative to the scenario")
	assert.NotNil(t, sc.Request, "a missing request is the empty request")
}

func TestLoadScenarioErrors(t *testing.T) {
	tests := []struct {
		name, text string
		is         error
		partial    bool
	}{
		{"unknown key", "name: s\nexpected: {}\n", ErrUnknownKey, false},
		{"unknown expect key", "name: s\nexpect: {stauts: resolved}\n", ErrUnknownKey, false},
		{"no catalog", "name: s\ncluster: {}\nexpect: {error: true}\n", model.ErrMissingField, true},
		{"both catalogs", "name: s\ncatalog: {modules: []}\ncatalogFile: x\ncluster: {}\n", model.ErrInvalidInput, true},
		{"bad inline catalog", "name: s\ncatalog: {modules: [{name: a, releases: [{version: 1.0.0, requirements: {deckhouse: '>> 1'}}]}]}\ncluster: {}\nexpect: {error: true, errorMentions: [a]}\n", model.ErrInvalidConstraint, true},
		{"unknown key in inline cluster", "name: s\ncatalog: {modules: []}\ncluster: {edtion: ee}\n", ErrUnknownKey, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.yaml")
			require.NoError(t, os.WriteFile(path, []byte(tt.text), 0o644))
			sc, err := LoadScenario(path)
			assert.ErrorIs(t, err, tt.is)
			if tt.partial {
				require.NotNil(t, sc, "a well-formed scenario comes back with its expectations")
				assert.Equal(t, "s", sc.Name)
			} else {
				assert.Nil(t, sc)
			}
		})
	}
}

func TestRelativeTo(t *testing.T) {
	assert.Equal(t, filepath.Join("a", "b", "c.yaml"), relativeTo(filepath.Join("a", "s.yaml"), filepath.Join("b", "c.yaml")))
	abs := filepath.Join(t.TempDir(), "c.yaml")
	assert.Equal(t, abs, relativeTo(filepath.Join("a", "s.yaml"), abs), "an absolute catalogFile stays as it is")
}
