package model

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFactKindReadsEveryKind(t *testing.T) {
	for _, k := range FactKinds() {
		got, ok := ParseFactKind(k.String())
		assert.True(t, ok, "%s", k)
		assert.Equal(t, k, got)
	}
	_, ok := ParseFactKind("unspecified")
	assert.False(t, ok)
}

func TestSeverityNames(t *testing.T) {
	assert.Equal(t, "error", SeverityError.String())
	assert.Equal(t, "warning", SeverityWarning.String())
	assert.Equal(t, "unspecified", SeverityUnspecified.String())
}

func TestValidateAccept(t *testing.T) {
	cat, err := NewCatalog([]*Module{{Name: "app", Releases: []*Release{{Version: MustParseVersion("1.0.0")}}}})
	require.NoError(t, err)
	require.NoError(t, ValidateAccept(cat, Field("accept"), []string{"app", "kubernetes-requirement"}))
	err = ValidateAccept(cat, Field("accept"), []string{"app", "ap"})
	require.ErrorIs(t, err, ErrUnknownModule)
	var fe *FieldError
	require.True(t, errors.As(err, &fe))
	assert.Equal(t, Field("accept").Index(1), fe.Path)
}

func TestBlockingKinds(t *testing.T) {
	e := &Explanation{Facts: []Fact{
		{Kind: FactKubernetesRequirement, Module: "app"}, {Kind: FactClusterEnabled, Module: "app"}, {Kind: FactChannelHead, Module: "db"},
	}}
	assert.Equal(t, []string{"app"}, e.Blockers())
	assert.Equal(t, []FactKind{FactKubernetesRequirement}, e.BlockingKinds("app"))
	assert.Empty(t, e.BlockingKinds("db"), "db is no blocker: none of its facts is about the platform")
	e = &Explanation{Facts: []Fact{{Kind: FactExperimental, Module: "app"}, {Kind: FactClusterEnabled, Module: "app"}}}
	assert.Equal(t, []FactKind{FactExperimental, FactClusterEnabled}, e.BlockingKinds("app"), "no platform fact: all of the module's")
}
