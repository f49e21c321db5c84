package model

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func compoundModule(c CompoundRequirement) *Module {
	return &Module{Name: "a", Releases: []*Release{{Version: MustParseVersion("1.0.0"), Requirements: Requirements{Compound: []CompoundRequirement{c}}}}}
}

func TestCompoundValidation(t *testing.T) {
	mod := func(name string) *Predicate { return &Predicate{Op: PredicateModule, Module: name} }
	optional := MustParseConstraint(">= 1 !optional")
	for _, tc := range []struct {
		name     string
		pred     *Predicate
		sentinel error
	}{
		{"no predicate", nil, ErrMissingField},
		{"empty any", &Predicate{Op: PredicateAny}, ErrMissingField},
		{"empty all", &Predicate{Op: PredicateAll}, ErrMissingField},
		{"atom without a module", mod(""), ErrMissingField},
		{"atom without a capability", &Predicate{Op: PredicateCapability}, ErrMissingField},
		{"not over two", &Predicate{Op: PredicateNot, Operands: []*Predicate{mod("b"), mod("c")}}, ErrInvalidValue},
		{"optional version", &Predicate{Op: PredicateModule, Module: "b", Version: &optional}, ErrInvalidValue},
		{"unknown kind", &Predicate{Op: 99}, ErrInvalidValue},
		{"nested empty all", &Predicate{Op: PredicateAny, Operands: []*Predicate{{Op: PredicateAll}}}, ErrMissingField},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCatalog([]*Module{compoundModule(CompoundRequirement{Predicate: tc.pred})})
			require.Error(t, err)
			assert.True(t, errors.Is(err, tc.sentinel), "%v", err)
			var fe *FieldError
			require.True(t, errors.As(err, &fe))
			assert.Equal(t, Field("modules").Key("a").Field("releases").Item("1.0.0").Field("requirements", "compound").Index(0), fe.Path[:7])
		})
	}
}

func TestCompoundHoldsAndCanonicalOrder(t *testing.T) {
	gt := MustParseConstraint("> 3.1.0")
	all := &Predicate{Op: PredicateAll, Operands: []*Predicate{
		{Op: PredicateModule, Module: "etcd", Version: &gt},
		{Op: PredicateCapability, Capability: "e.io/v1/E"},
	}}
	cat, err := NewCatalog([]*Module{compoundModule(CompoundRequirement{Predicate: all, Message: "m"})})
	require.NoError(t, err)
	c := cat.Module("a").Releases[0].Requirements.Compound[0]
	assert.Equal(t, `all(capability e.io/v1/E, etcd > 3.1.0) ("m")`, c.String(), "operands sorted by text (R15)")
	assert.False(t, c.Conflict())
	assert.True(t, all.Holds("etcd", MustParseVersion("3.2.0-rc.1"), []string{"e.io/v1/E"}, ReadingDKP, false), "prerelease stripped (R6)")
	assert.False(t, all.Holds("etcd", MustParseVersion("3.0.0"), []string{"e.io/v1/E"}, ReadingDKP, false))
	assert.False(t, all.Holds("etcd", MustParseVersion("3.2.0"), nil, ReadingDKP, false))

	not := CompoundRequirement{Predicate: &Predicate{Op: PredicateNot, Operands: []*Predicate{{Op: PredicateModule, Module: "x"}}}}
	assert.True(t, not.Conflict())
	assert.Equal(t, "x", not.Target().String())
	mods, caps, bounded := (&Predicate{Op: PredicateAny, Operands: []*Predicate{{Op: PredicateModule, Module: "x"}, not.Predicate}}).Names()
	assert.Equal(t, []string{"x"}, mods, "a not names nothing that bounds it")
	assert.Empty(t, caps)
	assert.False(t, bounded, "a not inside an any admits any module")
	_, _, bounded = all.Names()
	assert.True(t, bounded)
}
