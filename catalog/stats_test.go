package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConstraintForm(t *testing.T) {
	tests := map[string]string{
		">= 0.0.0": "any", ">= 0": "any", "!optional": "any", "*": "any", ">=0.0.0-0": "any",
		"0.6.0": "exact", "=1.2.3": "exact", "v1.2.3": "exact", "1.0.0-rc.1": "exact",
		">=1.12.2": "comparison", "<v1.2.3": "comparison", ">2.0.0 !optional": "comparison",
		">=0.0.27 <=0.1.3": "range", ">= 1.61, < 1.70": "range",
		">=1.2.x <1.3.0": "x-wildcard", "2.x.x": "x-wildcard", "16.X.X": "x-wildcard", "1.4.x": "x-wildcard",
		"^1.8.0-0": "caret", "~ 8.10.11": "tilde", "~7.17.1": "tilde",
		"1.0.0 - 2.0.0": "hyphen", "1.2.3 || 2.x": "or", "> 1.0.0 !1.2.1": "exclusion",
	}
	for text, want := range tests {
		assert.Equal(t, want, ConstraintForm(text), text)
	}
}

func TestNewStats(t *testing.T) {
	cat, rep, err := Parse("c.yaml", []byte(`modules:
  - name: a
    channels: {stable: 1.1.0, fast: 1.1.0}
    defaultChannel: stable
    releases:
      - version: 1.0.0
        provides: [g/v1/A]
        requirements: {kubernetes: ">= 1.28", modules: {b: ">= 1.0", gone: "1.x"}}
      - version: 1.1.0
        provides: [g/v1/A]
        replaces: 1.0.0
        skips: [0.9.0]
        skipRange: "<1.1.0"
        requirements: {capabilities: [g/v1/B], platform: {openshift: ">= 4.12"}, modules: {b: "!optional"}}
  - name: b
    releases: [{version: 1.0.0, provides: [g/v1/A, g/v1/B]}]
`))
	require.NoError(t, err)
	s := NewStats(cat, rep)
	assert.Equal(t, 2, s.Modules)
	assert.Equal(t, 3, s.Releases)
	assert.Equal(t, 2, s.Channels)
	assert.Equal(t, 2, s.RequiredDependencies)
	assert.Equal(t, 1, s.OptionalDependencies)
	assert.Equal(t, 1, s.DependenciesOutside)
	assert.Equal(t, 1, s.RequiredCapabilities)
	assert.Equal(t, 2, s.ProvidedCapabilities)
	assert.Equal(t, 1, s.SharedCapabilities, "g/v1/A is provided by a and b")
	assert.Equal(t, []int{1, 1, 1, 1}, []int{s.Replaces, s.Skips, s.SkipRanges, s.ModulesWithGraph})
	assert.Equal(t, map[string]int{"kubernetes": 1, "openshift": 1}, s.PlatformRequirements)
	assert.Equal(t, map[string]int{"comparison": 1, "x-wildcard": 1, "any": 1}, s.DependencyForms)
}
