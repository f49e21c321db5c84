package checker

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// checkCompound checks R24 in the state after: each compound requirement
// of an enabled module's selected release is met by the selected release
// of some other enabled module, and each conflict (a top-level not) by
// none. The predicate is read here, node by node, not through the model's
// evaluation, so that a slip there is caught.
func (c *checker) checkCompound() {
	for _, name := range c.enabledNames() {
		m := c.module(name) // R23: the release of the source the answer takes it from
		for _, req := range requirementsOf(m, c.selectedRelease(m)).Compound {
			conflict, target := splitNot(req.Predicate)
			satisfiers := c.satisfiers(name, target)
			switch {
			case req.Group != nil:
				c.checkGroup(name, req.Group, conflict, target, satisfiers)
			case conflict && len(satisfiers) > 0:
				c.add("R24", name, "conflicts with %s, whose release matches %s", satisfiers[0], target)
			case !conflict && len(satisfiers) == 0:
				c.add("R24", name, "requires another enabled module whose release matches %s, and none does", target)
			}
		}
	}
}

// checkGroup checks one DKP v2 group (R28) of name's selected release,
// read from the group's own kind rather than from the predicate's root:
// an anyOf group needs a satisfier, a noneOf group none.
func (c *checker) checkGroup(name string, g *model.Group, conflict bool, target *model.Predicate, satisfiers []string) {
	switch {
	case (g.Kind == model.GroupNoneOf) != conflict:
		c.add("R28", name, "%s group '%s' is written as %s", g.Kind, g.Name, target)
	case g.Kind == model.GroupAnyOf && len(satisfiers) == 0:
		c.add("R28", name, "anyOf group '%s' unmet: no enabled module matches %s", g.Name, target)
	case g.Kind == model.GroupNoneOf && len(satisfiers) > 0:
		c.add("R28", name, "noneOf group '%s' violated: forbidden modules installed: %v", g.Name, satisfiers)
	}
}

// splitNot reads a top-level not as a conflict over its operand.
func splitNot(p *model.Predicate) (conflict bool, target *model.Predicate) {
	if p.Op == model.PredicateNot && len(p.Operands) == 1 {
		return true, p.Operands[0]
	}
	return false, p
}

// satisfiers lists, in name order, the enabled modules other than name
// whose selected release matches target.
func (c *checker) satisfiers(name string, target *model.Predicate) []string {
	var out []string
	for _, other := range c.enabledNames() {
		if other == name {
			continue
		}
		v, _ := c.versionAfter(other)
		var provides []string
		if rel := c.selectedRelease(c.module(other)); rel != nil {
			provides = rel.Provides
		}
		if v != nil && c.matches(c.module(name), target, other, v, provides) {
			out = append(out, other)
		}
	}
	return out
}

// matches evaluates a predicate on the release of module at version v
// that provides provides. Versions are read as writer, the module whose
// release holds the predicate, reads them (R6).
func (c *checker) matches(writer *model.Module, p *model.Predicate, module string, v model.Version, provides []string) bool {
	switch p.Op {
	case model.PredicateModule:
		if p.Module != module {
			return false
		}
		return p.Version == nil || c.admits(writer, p.Version, module, v)
	case model.PredicateCapability:
		return slices.Contains(provides, p.Capability)
	case model.PredicateNot:
		return !c.matches(writer, p.Operands[0], module, v, provides)
	case model.PredicateAll:
		return !slices.ContainsFunc(p.Operands, func(o *model.Predicate) bool { return !c.matches(writer, o, module, v, provides) })
	case model.PredicateAny:
		return slices.ContainsFunc(p.Operands, func(o *model.Predicate) bool { return c.matches(writer, o, module, v, provides) })
	}
	return false
}

// compoundDeps lists the enabled modules that meet a compound requirement
// of name's selected release, which the plan puts first (R18).
func (c *checker) compoundDeps(name string) []string {
	m := c.module(name)
	var out []string
	for _, req := range requirementsOf(m, c.selectedRelease(m)).Compound {
		if conflict, target := splitNot(req.Predicate); !conflict {
			out = append(out, c.satisfiers(name, target)...)
		}
	}
	return out
}
