package oracle

import "github.com/modsolver/modsolver/model"

// compoundHolds applies R24 literally to one compound requirement of
// module i's selected release: some other enabled module's selected
// release satisfies the predicate; for a top-level not, none satisfies
// its operand.
func (p *problem) compoundHolds(i int, c model.CompoundRequirement, sel []int) bool {
	pred, conflict := c.Predicate, false
	if pred.Op == model.PredicateNot {
		pred, conflict = pred.Operands[0], true
	}
	for j, x := range p.mods {
		if j == i || sel[j] < 0 {
			continue
		}
		if rel := x.rels[sel[j]]; p.satisfies(p.mods[i], pred, x, rel) {
			return !conflict
		}
	}
	return conflict
}

// satisfies evaluates a predicate on release rel of module, by its
// definition in DESIGN.md R24; writer is the module whose release holds
// the predicate, whose reading applies (R6).
func (p *problem) satisfies(writer *mod, pred *model.Predicate, x *mod, rel *model.Release) bool {
	module := x.name
	switch pred.Op {
	case model.PredicateModule:
		return module == pred.Module && (pred.Version == nil || p.inRange(writer, pred.Version, x, rel.Version))
	case model.PredicateCapability:
		for _, c := range rel.Provides {
			if c == pred.Capability {
				return true
			}
		}
		return false
	case model.PredicateAll:
		for _, o := range pred.Operands {
			if !p.satisfies(writer, o, x, rel) {
				return false
			}
		}
		return true
	case model.PredicateAny:
		for _, o := range pred.Operands {
			if p.satisfies(writer, o, x, rel) {
				return true
			}
		}
		return false
	case model.PredicateNot:
		return !p.satisfies(writer, pred.Operands[0], x, rel)
	}
	panic("internal error: unknown predicate kind")
}
