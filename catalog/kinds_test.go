package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// A file that is well-formed YAML or JSON but holds a list or a single
// value where its format has a mapping says so in the format's words,
// naming the file, not Go's names for the types it is read into, and not
// as a syntax error.
func TestWrongKindInPlainWords(t *testing.T) {
	tests := []struct {
		name  string
		parse func(string, []byte) error
		text  string
		line  int
		says  string
	}{
		{"a catalog that is a list", parseCatalogErr, `[{"name": "a"}]`, 1, "a catalog is a mapping with `modules:`, not a list"},
		{"a catalog that is a value", parseCatalogErr, "catalog\n", 1, "a catalog is a mapping with `modules:`, not a single value"},
		{"a cluster state that is a list", parseClusterErr, "- deckhouse: 1.72.4\n", 1, "a cluster state is a mapping with `deckhouse:`, `kubernetes:` and `modules:`, not a list"},
		{"a request that is a list", parseRequestErr, `["console"]`, 1, "a request is a mapping with `enable:`"},
		{"a catalog given as the cluster", parseClusterErr, "deckhouse: 1.72.4\nmodules:\n  - name: a\n", 3, "modules: want a mapping, not a list"},
		{"a module that is a value", parseCatalogErr, "modules:\n  - a\n", 2, "an item of modules: want a mapping, not a single value"},
		{"a release that is a value", parseCatalogErr, "modules:\n  - name: a\n    releases: [1.0.0]\n", 3, "an item of releases: want a mapping, not a single value"},
		{"pins that are a list", parseRequestErr, "pin: [a]\n", 1, "pin: want a mapping, not a list"},
		{"a version that is a mapping", parseRequestErr, "platform:\n  kubernetes: {v: 1}\n", 2, "kubernetes: want a single value, not a mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.parse("f.yaml", []byte(tt.text))
			require.ErrorIs(t, err, ErrWrongKind)
			require.ErrorIs(t, err, model.ErrInvalidInput)
			assert.NotErrorIs(t, err, ErrSyntax)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "f.yaml", pe.File)
			assert.Equal(t, tt.line, pe.Line)
			assert.Contains(t, err.Error(), tt.says)
			assert.NotContains(t, err.Error(), "unmarshal")
			assert.NotContains(t, err.Error(), "catalog.")
		})
	}
}

// A list where the format has a mapping is still taken where a type reads
// more than one kind (a DKP v2 requirement's buckets), and a null is no
// value at all.
func TestWrongKindLeavesWhatFits(t *testing.T) {
	_, err := ParseRequest("f.yaml", []byte("enable:\npin:\n"))
	assert.NoError(t, err)
	_, err = ParseCluster("f.yaml", []byte("modules: {a: {enabled: true, settings: {x: [1, 2]}}}\n"))
	assert.NoError(t, err)
}

// Auto-detection names a catalog that is a list as one, rather than as a
// format it cannot tell.
func TestDetectAList(t *testing.T) {
	for _, text := range []string{`[{"name": "a"}]`, "- name: a\n", "# a list\n- name: a\n"} {
		_, err := Detect("c.json", []byte(text))
		require.ErrorIs(t, err, ErrWrongKind, text)
		assert.Contains(t, err.Error(), "c.json: ", text)
		assert.Contains(t, err.Error(), "not a list", text)
	}
}

// An empty request file is the empty request, as {} is; an empty cluster
// state is called empty, not a syntax error.
func TestEmptyFiles(t *testing.T) {
	for _, text := range []string{"", "\n  \n", "# nothing yet\n"} {
		req, err := ParseRequest("r.yaml", []byte(text))
		require.NoError(t, err, "%q", text)
		assert.Equal(t, &model.Request{}, req)
		_, err = ParseCluster("c.yaml", []byte(text))
		require.ErrorIs(t, err, ErrEmptyFile, "%q", text)
		assert.NotErrorIs(t, err, ErrSyntax)
		assert.Equal(t, "c.yaml: invalid input: the file is empty", err.Error())
	}
}

func parseCatalogErr(name string, data []byte) error {
	_, _, err := Parse(name, data)
	return err
}
