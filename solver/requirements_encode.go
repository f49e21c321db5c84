package solver

import (
	"cmp"
	"slices"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// relations encodes what the modules of an encoding say of each other:
// requirements (R2, R3, here), exclusive groups, capabilities and their
// uniqueness (R13, R19, capabilities.go), compound requirements (R24,
// R28, compound.go) and dependency loops (R27, loops.go). It holds the
// encoder it writes to (a pointer back).
type relations struct {
	e *encoder
}

// encodeRequirements adds R2 and R3 for every release of mv.
func (rl relations) encodeRequirements(mv *modVars) {
	e := rl.e
	for _, g := range rl.requirementGroups(mv) {
		d := e.vars(g.dep.Module)
		if d == nil {
			continue // not in the catalog: a static missing-module fact covers it
		}
		f := rl.requirementFact(mv, g)
		// Both lists of runs live while the group's clauses are added: each
		// has a scratch list of its own.
		ivs := rl.satisfyingRuns(d, g, mv.v.m.Reading())
		runs := runsInto(e.runScratch[:0], g.poss)
		for _, run := range runs {
			rl.encodeDependency(f, mv, run, d, &g.dep.Constraint, ivs)
		}
		e.ivScratch, e.runScratch = ivs[:0], runs[:0]
	}
}

// requirementFact is the fact of requirement group g of mv, or nil when
// the encoding keeps no facts. The fact of a compiled group over every
// release is the problem's (compiledRequirementFact).
func (rl relations) requirementFact(mv *modVars, g *reqGroup) *fact {
	e := rl.e
	if e.ranks == nil {
		return nil
	}
	if mv.wholeTable() { // g is the table's own
		f := e.p.compiledRequirementFact(mv.v, g)
		e.ranks[f] = factRank{class: rankModule, name: mv.v.name}
		return f
	}
	f := rl.moduleFact(model.FactModuleRequirement, mv, g.poss)
	f.dep, f.cons = g.dep.Module, &g.dep.Constraint
	return f
}

// requirementGroups are reqGroups' groups of mv's candidates. A module
// whose releases are its own reads them from its compiled table (D227):
// as they are, when every release is a candidate (an explain encoding);
// else each compiled group narrowed to the candidates, in the order
// reqGroups gives: by required module, then by first candidate.
func (rl relations) requirementGroups(mv *modVars) []*reqGroup {
	v := mv.v
	if !v.own {
		return reqGroups(mv)
	}
	if mv.wholeTable() {
		return v.tab.requirements // the positions are the release indices
	}
	n := 0
	for _, g := range v.tab.requirements {
		for _, r := range g.poss {
			if mv.pos[r] >= 0 {
				n++
			}
		}
	}
	// The groups and their positions are cut from one block each: they
	// live until the module's clauses are added, so the encoding's scratch
	// blocks serve every module in turn.
	sc := &rl.e.reqScratch
	groups := sc.groups[:0]
	block := slices.Grow(sc.poss[:0], n) // never grows below: n is exact
	for _, g := range v.tab.requirements {
		at := len(block)
		for _, r := range g.poss {
			if j := mv.pos[r]; j >= 0 {
				block = append(block, j)
			}
		}
		if len(block) > at {
			groups = append(groups, reqGroup{dep: g.dep, poss: block[at:len(block):len(block)], adm: g.adm})
		}
	}
	out := sc.ptrs[:0]
	for i := range groups {
		out = append(out, &groups[i])
	}
	sc.groups, sc.poss, sc.ptrs = groups, block, out
	tie := false
	slices.SortStableFunc(out, func(a, b *reqGroup) int {
		c := cmp.Or(cmp.Compare(a.dep.Module, b.dep.Module), cmp.Compare(a.poss[0], b.poss[0]))
		tie = tie || c == 0
		return c
	})
	if tie {
		// Two texts on one module first met at one release: reqGroups
		// orders them as that release lists them.
		return reqGroups(mv)
	}
	return out
}

// wholeTable reports whether mv's candidates are every release of a
// module whose releases are its own: its positions are then the release
// indices, and its table's compiled groups are its groups as they are.
func (mv *modVars) wholeTable() bool { return mv.v.own && len(mv.dom) == len(mv.v.rels) }

// reqScratch is the block requirementGroups cuts a module's narrowed
// groups from.
type reqScratch struct {
	groups []reqGroup
	poss   []int
	ptrs   []*reqGroup
}

// reqGroups collects, in a fixed order, the requirement texts of mv's
// candidates. A module has a handful of distinct texts, so a linear
// search finds a text's group faster than a map would.
func reqGroups(mv *modVars) []*reqGroup {
	return groupRequirements(mv.v.rels, mv.dom)
}

// satisfyingRuns is runsOf(satisfying) for g's text, in the encoder's
// scratch list, from g's compiled check when d's releases are the ones it
// was made for.
func (rl relations) satisfyingRuns(d *modVars, g *reqGroup, rd model.VersionReading) [][2]int {
	e := rl.e
	out := e.ivScratch[:0]
	a := g.adm
	if a == nil || e.p.in.req.Devel || !d.v.own || d.v.m != a.target {
		return runsInto(out, e.satisfying(d, &g.dep.Constraint, rd))
	}
	ok := a.of(&g.dep.Constraint)
	for j, r := range d.dom {
		if ok[r] {
			out = appendToRuns(out, j)
		}
	}
	return out
}

// encodeDependency says: if mv is at a position in run, then d is on at a
// version that satisfies c; or, when c is optional, d is off or satisfies c.
// ivs are the runs of d's positions that satisfy c.
func (rl relations) encodeDependency(f *fact, mv *modVars, run [2]int, d *modVars, c *model.Constraint, ivs [][2]int) {
	e := rl.e
	// The clauses are built in the encoder's scratch list: add copies
	// them, and a requirement's clauses are most of an encoding's.
	lits := e.appendNotRun(e.scratch[:0], mv, run[0], run[1]) // mv is not in run, or
	if c.Optional {
		lits = append(lits, e.on(d).Not())
	}
	switch len(ivs) {
	case 0:
		e.add(f, lits...)
	case 1:
		low, high := ivs[0][0], ivs[0][1]
		if !(c.Optional && low == 0) {
			lits = append(lits, e.ge(d, low))
			e.add(f, lits...)
		}
		lits = append(e.appendNotRun(lits[:0], mv, run[0], run[1]), e.ge(d, high).Not())
		e.add(f, lits...)
	default:
		for _, iv := range ivs {
			lits = append(lits, rl.interval(d, iv[0], iv[1]))
		}
		e.add(f, lits...)
	}
	e.scratch = lits[:0]
}

// interval returns a literal that implies "d is at a position in [low,
// high)", shared by every requirement that needs it.
func (rl relations) interval(d *modVars, low, high int) z.Lit {
	e := rl.e
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
func (rl relations) moduleFact(kind model.FactKind, mv *modVars, poss []int) *fact {
	f := rl.e.newFact(kind, mv.v, factRank{class: rankModule, name: mv.v.name})
	if f != nil {
		f.rels = make([]int, len(poss))
		for i, j := range poss {
			f.rels[i] = mv.dom[j]
		}
	}
	return f
}

// encodeGroups adds R13, at most one enabled module per exclusive group,
// for the groups of batch's modules.
func (rl relations) encodeGroups(batch []*modVars) {
	e := rl.e
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
		rl.atMostOne(rl.groupFact(model.FactExclusiveGroup, rankGroup, g, members), g, members)
	}
}

// groupFact is the fact of a rule over several modules (R13, R20), or nil
// when the encoding keeps no facts.
func (rl relations) groupFact(kind model.FactKind, class int, group string, members []*modVars) *fact {
	f := rl.e.newFact(kind, nil, factRank{class: class, name: group})
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
// once per encoding.
func (rl relations) atMostOne(f *fact, group string, members []*modVars) {
	e := rl.e
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
