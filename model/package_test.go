package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// R28, D131: an Application is never required; a requirement or a group
// that names one is a load error.
func TestApplicationIsNoDependency(t *testing.T) {
	app := &Module{Name: "redis", Type: PackageApplication, Releases: []*Release{{Version: MustParseVersion("1.0.0")}}}
	for name, req := range map[string]Requirements{
		"mandatory": {Modules: []Dependency{{Module: "redis", Constraint: MustParseConstraint(">= 1")}}},
		"anyOf":     {Compound: []CompoundRequirement{NewGroup(GroupAnyOf, "g", "", []*Predicate{{Op: PredicateModule, Module: "redis"}})}},
	} {
		user := &Module{Name: "user", Releases: []*Release{{Version: MustParseVersion("1.0.0"), Requirements: req}}}
		_, err := NewCatalog([]*Module{app, user})
		require.Error(t, err, name)
		assert.ErrorIs(t, err, ErrInvalidValue, name)
		assert.Contains(t, err.Error(), "module user requires redis, which is an Application", name)
	}
}

func TestPackageTypes(t *testing.T) {
	for text, want := range map[string]PackageType{"": PackageModule, "Module": PackageModule, " application ": PackageApplication} {
		got, err := ParsePackageType(text)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	_, err := ParsePackageType("Library")
	assert.ErrorIs(t, err, ErrInvalidValue)
	assert.Equal(t, "Application", PackageApplication.String())
}

// R28: a group requirement must have the shape NewGroup gives it.
func TestGroupValidation(t *testing.T) {
	atom := func(name string) *Predicate { return &Predicate{Op: PredicateModule, Module: name} }
	good := NewGroup(GroupNoneOf, "g", "", []*Predicate{atom("b")})
	for name, c := range map[string]CompoundRequirement{
		"no name":      NewGroup(GroupAnyOf, "", "", []*Predicate{atom("b")}),
		"unknown kind": NewGroup(GroupKind(7), "g", "", []*Predicate{atom("b")}),
		"not a not":    {Predicate: good.Target(), Group: good.Group},
		"capability":   NewGroup(GroupAnyOf, "g", "", []*Predicate{{Op: PredicateCapability, Capability: "x"}}),
		"anyOf as not": {Predicate: good.Predicate, Group: &Group{Kind: GroupAnyOf, Name: "g"}},
	} {
		_, err := NewCatalog([]*Module{compoundModule(c)})
		assert.ErrorIs(t, err, ErrInvalidInput, name)
	}
	cat, err := NewCatalog([]*Module{compoundModule(NewGroup(GroupAnyOf, "g", "", []*Predicate{atom("c"), atom("b")}))})
	require.NoError(t, err)
	c := cat.Module("a").Releases[0].Requirements.Compound[0]
	assert.Equal(t, []string{"b", "c"}, c.MemberNames())
	assert.Equal(t, "b", c.Members()[0].Module, "members in canonical order")
	assert.Nil(t, CompoundRequirement{Predicate: atom("b")}.Members())
	for _, k := range GroupKinds {
		assert.NotEqual(t, "unspecified", k.String())
		assert.NotEmpty(t, k.Outcome())
	}
}
