package solver

import (
	"cmp"
	"slices"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// reqGroup is one requirement text on one module, with the candidate
// positions of the releases that carry it (D20).
type reqGroup struct {
	dep  model.Dependency
	poss []int
}

// encodeRequirements adds R2 and R3 for every release of mv.
func (e *encoder) encodeRequirements(mv *modVars) {
	for _, g := range requirementGroups(mv) {
		d := e.vars(g.dep.Module)
		if d == nil {
			continue // not in the catalog: a static missing-module fact covers it
		}
		f := e.moduleFact(model.FactModuleRequirement, mv, g.poss)
		if f != nil {
			f.dep, f.cons = g.dep.Module, &g.dep.Constraint
		}
		for _, run := range runsOf(g.poss) {
			e.encodeDependency(f, mv, run, d, &g.dep.Constraint)
		}
	}
}

// requirementGroups collects, in a fixed order, the requirement texts of
// mv's candidates. A module has a handful of distinct texts, so a linear
// search finds a text's group faster than a map would.
func requirementGroups(mv *modVars) []*reqGroup {
	var out []*reqGroup
	for j, r := range mv.dom {
		for _, d := range mv.v.rels[r].Requirements.Modules {
			i := slices.IndexFunc(out, func(g *reqGroup) bool {
				return g.dep.Module == d.Module && g.dep.Constraint.Text == d.Constraint.Text
			})
			if i < 0 {
				i = len(out)
				out = append(out, &reqGroup{dep: d})
			}
			out[i].poss = append(out[i].poss, j)
		}
	}
	slices.SortStableFunc(out, func(a, b *reqGroup) int { return cmp.Compare(a.dep.Module, b.dep.Module) })
	return out
}

// encodeDependency says: if mv is at a position in run, then d is on at a
// version that satisfies c; or, when c is optional, d is off or satisfies c.
func (e *encoder) encodeDependency(f *fact, mv *modVars, run [2]int, d *modVars, c *model.Constraint) {
	base := e.notRun(mv, run[0], run[1])
	if c.Optional {
		base = append(base, e.on(d).Not())
	}
	ivs := runsOf(e.satisfying(d, c, mv.v.m.Reading()))
	switch len(ivs) {
	case 0:
		e.add(f, base...)
	case 1:
		low, high := ivs[0][0], ivs[0][1]
		if !(c.Optional && low == 0) {
			e.add(f, append(base, e.ge(d, low))...)
		}
		e.add(f, append(e.notRun(mv, run[0], run[1]), e.ge(d, high).Not())...)
	default:
		lits := base
		for _, iv := range ivs {
			lits = append(lits, e.interval(d, iv[0], iv[1]))
		}
		e.add(f, lits...)
	}
}

// interval returns a literal that implies "d is at a position in [low,
// high)", shared by every requirement that needs it.
func (e *encoder) interval(d *modVars, low, high int) z.Lit {
	k := ivKey{d, low, high}
	if y, ok := e.ivCache[k]; ok {
		return y
	}
	y := e.g.Lit()
	e.add(nil, y.Not(), e.ge(d, low))
	e.add(nil, y.Not(), e.ge(d, high).Not())
	e.ivCache[k] = y
	return y
}

// moduleFact makes the fact of a rule of mv's candidates at positions
// poss, or returns nil when the encoding keeps no facts.
func (e *encoder) moduleFact(kind model.FactKind, mv *modVars, poss []int) *fact {
	f := e.newFact(kind, mv.v, factRank{class: rankModule, name: mv.v.name})
	if f != nil {
		for _, j := range poss {
			f.rels = append(f.rels, mv.dom[j])
		}
	}
	return f
}

// encodeGroups adds R13, at most one enabled module per exclusive group,
// for the groups of batch's modules.
func (e *encoder) encodeGroups(batch []*modVars) {
	var names []string
	for _, mv := range batch {
		g := mv.v.m.ExclusiveGroup
		if g != "" && !e.across.groups[g] {
			e.across.groups[g] = true
			names = append(names, g)
		}
	}
	if len(names) == 0 {
		return
	}
	byGroup := map[string][]*modVars{}
	for _, v := range e.universe {
		if g := v.m.ExclusiveGroup; g != "" && e.across.groups[g] {
			if mv := e.vars(v.name); mv != nil && (e.guard.keepsFacts() || len(mv.dom) > 0) {
				byGroup[g] = append(byGroup[g], mv)
			}
		}
	}
	slices.Sort(names)
	for _, g := range names {
		members := byGroup[g]
		if len(members) < 2 {
			continue
		}
		e.atMostOne(e.groupFact(model.FactExclusiveGroup, rankGroup, g, members), g, members)
	}
}

// groupFact is the fact of a rule over several modules (R13, R20), or nil
// when the encoding keeps no facts.
func (e *encoder) groupFact(kind model.FactKind, class int, group string, members []*modVars) *fact {
	f := e.newFact(kind, nil, factRank{class: class, name: group})
	if f == nil {
		return nil
	}
	f.group = group
	for _, mv := range members {
		f.members = append(f.members, mv.v)
	}
	return f
}

// atMostOne adds a sequential at-most-one constraint over the members'
// "on" literals, guarded by f. The chain literals of a group are made
// once per encoding, so that a shared encoding reuses them (whatif.go).
func (e *encoder) atMostOne(f *fact, group string, members []*modVars) {
	if len(members) <= 6 {
		for i, a := range members {
			for _, b := range members[i+1:] {
				e.add(f, e.on(a).Not(), e.on(b).Not())
			}
		}
		return
	}
	key := group
	for _, mv := range members {
		key += "\x00" + mv.v.name
	}
	chain, made := e.chains[key]
	if !made {
		prev := e.on(members[0])
		for _, mv := range members[1:] {
			next := e.g.Lit()
			e.add(nil, prev.Not(), next)
			e.add(nil, e.on(mv).Not(), next)
			chain = append(chain, prev)
			prev = next
		}
		e.chains[key] = chain
	}
	for i, mv := range members[1:] {
		e.add(f, chain[i].Not(), e.on(mv).Not())
	}
}
