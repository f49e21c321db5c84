package model

import (
	"fmt"
	"slices"
)

// GroupKind is the bucket of a DKP v2 module group (R28): anyOf or noneOf.
type GroupKind int

const (
	GroupUnspecified GroupKind = iota
	// GroupAnyOf needs at least one member enabled at a version its own
	// constraint admits.
	GroupAnyOf
	// GroupNoneOf forbids every member inside its range (no constraint:
	// at any version).
	GroupNoneOf
)

// groupKinds is the table of group kinds: the key DKP's package.yaml
// writes each under, the predicate root the group is written as (a
// noneOf is a conflict, a top-level not of the anyOf form), and the word
// DKP's scheduler says of a group that does not hold.
var groupKinds = map[GroupKind]struct {
	key      string
	conflict bool
	outcome  string
}{
	GroupAnyOf:  {"anyOf", false, "unmet"},
	GroupNoneOf: {"noneOf", true, "violated"},
}

// GroupKinds lists the group kinds in the order DKP's manifest writes them.
var GroupKinds = []GroupKind{GroupAnyOf, GroupNoneOf}

func (k GroupKind) String() string {
	if d, ok := groupKinds[k]; ok {
		return d.key
	}
	return "unspecified"
}

// Outcome is the word DKP's scheduler says of a group of kind k that does
// not hold: "unmet" for anyOf, "violated" for noneOf.
func (k GroupKind) Outcome() string { return groupKinds[k].outcome }

// Group is the DKP v2 group a compound requirement was written as (R28):
// its bucket, its name (unique per bucket in one manifest) and its
// optional description. The members are the requirement's predicate.
type Group struct {
	Kind        GroupKind
	Name        string
	Description string
}

// NewGroup makes the compound requirement a DKP v2 group stands for: an
// anyOf group is an any over its members' module atoms, which some other
// enabled module's release must satisfy; a noneOf group is a top-level
// not of the same any, a conflict (R24). members are module atoms.
func NewGroup(kind GroupKind, name, description string, members []*Predicate) CompoundRequirement {
	pred := &Predicate{Op: PredicateAny, Operands: members}
	if groupKinds[kind].conflict {
		pred = &Predicate{Op: PredicateNot, Operands: []*Predicate{pred}}
	}
	return CompoundRequirement{Predicate: pred, Group: &Group{Kind: kind, Name: name, Description: description}}
}

// Members returns the module atoms of a group requirement, in canonical
// order once the catalog is built; nil for any other requirement.
func (c CompoundRequirement) Members() []*Predicate {
	if c.Group == nil {
		return nil
	}
	return c.Target().Operands
}

// MemberNames returns the names of a group's members, sorted, as DKP's
// scheduler lists them.
func (c CompoundRequirement) MemberNames() []string {
	var out []string
	for _, m := range c.Members() {
		out = append(out, m.Module)
	}
	slices.Sort(out)
	return out
}

// validateGroup checks that a group requirement has the shape NewGroup
// gives it: a known kind, a name, and an any of module atoms (under a
// not for noneOf).
func (c CompoundRequirement) validateGroup(field Path) InputErrors {
	g := c.Group
	d, ok := groupKinds[g.Kind]
	switch {
	case !ok:
		return InputErrors{fieldErr(field, ErrInvalidValue, "group kind %d is neither anyOf nor noneOf", g.Kind)}
	case g.Name == "":
		return InputErrors{fieldErr(field, ErrMissingField, "%s group: name is required", d.key)}
	case c.Predicate == nil || c.Conflict() != d.conflict:
		return InputErrors{fieldErr(field, ErrInvalidValue, "%s group '%s' is not written as %s", d.key, g.Name, groupShape(d.conflict))}
	}
	t := c.Target()
	if t.Op != PredicateAny || len(t.Operands) == 0 {
		return InputErrors{fieldErr(field, ErrInvalidValue, "%s group '%s': at least one member is required", d.key, g.Name)}
	}
	for _, m := range t.Operands {
		if m.Op != PredicateModule {
			return InputErrors{fieldErr(field, ErrInvalidValue, "%s group '%s': a member is a module, not %s", d.key, g.Name, m.Op)}
		}
	}
	return nil
}

func groupShape(conflict bool) string {
	if conflict {
		return "not(any(members))"
	}
	return "any(members)"
}

// groupText is the prefix a group requirement's String carries, so that
// two groups with the same members but different names or buckets stay
// apart.
func (g *Group) text() string {
	return fmt.Sprintf("%s group '%s': ", g.Kind, g.Name)
}
