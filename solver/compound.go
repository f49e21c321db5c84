package solver

import (
	"slices"
	"strings"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// Compound requirements (R24) on the order encoding. A predicate speaks
// of one release, so whether a release satisfies it is known before
// solving: for each candidate module d the releases of d that satisfy it
// are a union of intervals of d's sorted candidates, and "d's selected
// release satisfies P" is the OR of a few interval literals. A
// requirement is then one clause per run of the requiring releases: not
// at those releases, or some candidate module other than the requiring
// one at a satisfying release. A conflict (a top-level not) forbids each
// candidate's satisfying intervals alongside the requiring releases.

// compoundGroup is one compound requirement of a module, with the
// candidate positions of the releases that carry it (D20).
type compoundGroup struct {
	req  model.CompoundRequirement
	text string
	poss []int
}

// compoundGroups collects the compound requirements of mv's candidates,
// in text order.
func compoundGroups(mv *modVars) []*compoundGroup {
	var out []*compoundGroup
	for j, r := range mv.dom {
		for _, c := range mv.v.rels[r].Requirements.Compound {
			text := c.String()
			i := slices.IndexFunc(out, func(g *compoundGroup) bool { return g.text == text })
			if i < 0 {
				i = len(out)
				out = append(out, &compoundGroup{req: c, text: text})
			}
			out[i].poss = append(out[i].poss, j)
		}
	}
	slices.SortStableFunc(out, func(a, b *compoundGroup) int { return strings.Compare(a.text, b.text) })
	return out
}

// compoundCandidate is a module other than the requiring one with the
// positions of its releases that satisfy a compound predicate.
type compoundCandidate struct {
	d    *modVars
	poss []int
}

// encodeCompound adds R24 for every candidate of mv.
func (rl relations) encodeCompound(mv *modVars) {
	e := rl.e
	for _, g := range compoundGroups(mv) {
		cands := rl.compoundCandidates(mv, g.req)
		kind := model.FactCompoundRequirement
		if g.req.Conflict() {
			kind = model.FactCompoundConflict
		}
		f := rl.moduleFact(kind, mv, g.poss)
		if f != nil {
			f.compound = &g.req
			for _, c := range cands {
				f.members = append(f.members, c.d.v)
			}
		}
		for _, run := range runsOf(g.poss) {
			if g.req.Conflict() {
				rl.encodeConflict(f, mv, run, cands)
				continue
			}
			lits := e.notRun(mv, run[0], run[1])
			for _, c := range cands {
				lits = append(lits, rl.compoundLits(c)...)
			}
			e.add(f, lits...)
		}
	}
}

// encodeConflict says: if mv is at a position in run, no candidate is at
// a position that satisfies the conflict's predicate.
func (rl relations) encodeConflict(f *fact, mv *modVars, run [2]int, cands []compoundCandidate) {
	e := rl.e
	for _, c := range cands {
		for _, iv := range runsOf(c.poss) {
			e.add(f, append(e.notRun(mv, run[0], run[1]), e.notRun(c.d, iv[0], iv[1])...)...)
		}
	}
}

// compoundCandidates lists, in name order, the encoded modules other than
// mv that have a candidate release satisfying req's target.
func (rl relations) compoundCandidates(mv *modVars, req model.CompoundRequirement) []compoundCandidate {
	target := req.Target()
	var out []compoundCandidate
	for _, d := range rl.compoundScope(target) {
		if d == mv {
			continue
		}
		var poss []int
		for j, r := range d.dom {
			rel := d.v.rels[r]
			if target.Holds(d.v.name, rel.Version, rel.Provides, readingFor(mv.v, d.v), rl.e.p.in.req.Devel) {
				poss = append(poss, j)
			}
		}
		if len(poss) > 0 {
			out = append(out, compoundCandidate{d: d, poss: poss})
		}
	}
	return out
}

// compoundScope lists, in name order, the encoded modules that may
// satisfy target: those its atoms name or whose releases provide a
// capability it names, or every encoded module when its atoms do not
// bound it.
func (rl relations) compoundScope(target *model.Predicate) []*modVars {
	e := rl.e
	names, bounded := e.p.compoundModules(target)
	if !bounded {
		names = nil
		for _, v := range e.universe {
			names = append(names, v.name)
		}
	}
	var out []*modVars
	for _, name := range names {
		if d := e.vars(name); d != nil {
			out = append(out, d)
		}
	}
	return out
}

// compoundLits returns literals whose OR says that c's module is at a
// satisfying position, one per interval.
func (rl relations) compoundLits(c compoundCandidate) []z.Lit {
	var out []z.Lit
	for _, iv := range runsOf(c.poss) {
		out = append(out, rl.interval(c.d, iv[0], iv[1]))
	}
	return out
}
