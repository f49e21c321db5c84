package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// walkerSeeds are catalogs and clusters that take the walker's less
// common paths: repeated keys, nulls, keys that are not strings, type
// errors, merge keys, aliases and tags.
var walkerSeeds = []string{
	"modules: [{name: a, releases: [{version: 1.0.0}]}]\n",
	"modules:\n  - name: a\n    name: b\n    weight: 1\n    weight: 2\n",
	"modules: [{name: a, weight: 1, name: b, weight: 2}]\n",
	"modules: [{name: a, channels: {s: 1.0.0, b: 1.0.0, b: 2.0.0, s: 3.0.0}}]\n",
	"modules: [~, {name: a}, null]\n",
	"modules: [{name: a, releases: [~, {version: 1.0.0, provides: [x, ~, y]}]}]\n",
	"modules: [{name: a, channels: {~: 1.0.0, 1: 2.0.0, true: 3.0.0}}]\n",
	"modules: [{name: a, weight: heavy}]\n",
	"modules: [{name: [a]}]\n",
	"modules: {a: b}\n",
	"modules: [{name: a, releases: {version: 1}}]\n",
	"modules: [{? [a]: b}]\n",
	"base: &b {name: a, weight: 3}\nmodules: [{<<: *b, name: c}]\n",
	"modules: [&m {name: a}, *m]\n",
	"modules: [{name: !!str 1, weight: !!int 2, embedded: !!bool true}]\n",
	"modules: [{name: !!binary YQ==}]\n",
	"modules: [{name: a, releases: [{version: 1.0.0, requirements: {deckhouse: {constraint: '>= 1.60'}, modules: {b: '>= 1'}}}]}]\n",
	"modules: [{name: a, releases: [{version: 1.0.0, requirements: {modules: {mandatory: [{name: b}], b: c}}}]}]\n",
	"modules: [{name: a, releases: [{version: 1.0.0, requirements: {compound: [{any: [{module: b}, ~]}]}}]}]\n",
	"modules: [{name: a, accessibility: {editions: {ee: {available: maybe}}}}]\n",
	"deckhouse: 1.70.0\nkubernetes: 1.30.0\nmodules: {a: {enabled: true}, b: ~, a: {enabled: false}}\n",
	"deckhouse: 1.70.0\nmodules: {a: {enabled: yes}, b: {enabled: []}}\n",
}

// The walker decodes, and refuses, as yaml does: the same values, and the
// same first error.
func TestWalkerMatchesYAML(t *testing.T) {
	for _, s := range walkerSeeds {
		checkWalker(t, s)
	}
}

func FuzzWalker(f *testing.F) {
	for _, s := range walkerSeeds {
		f.Add(s)
	}
	f.Fuzz(checkWalker)
}

func checkWalker(t *testing.T, text string) {
	node, err := parseNode("f.yaml", []byte(text))
	if err != nil {
		return
	}
	for _, large := range []int{0, largeMapping} {
		compareWalker(t, text, node, large, &fileCatalog{}, &fileCatalog{})
		compareWalker(t, text, node, large, &fileCluster{}, &fileCluster{})
	}
}

// compareWalker decodes node into viaYAML with yaml and into walked with
// the walker, and compares.
func compareWalker[T any](t *testing.T, text string, node *yaml.Node, large int, viaYAML, walked *T) {
	yamlErr := node.Decode(viaYAML)
	walkErr := walker{large: large}.decode(node, walked)
	require.Equal(t, yamlErr == nil, walkErr == nil, "%q: %v / %v", text, yamlErr, walkErr)
	if yamlErr != nil {
		assert.Equal(t, syntaxError("f", yamlErr).Error(), syntaxError("f", walkErr).Error(), "%q", text)
		return
	}
	assert.Equal(t, viaYAML, walked, "%q", text)
}
