package solver

import (
	"slices"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// Several sources (R23), as the encoder writes them: a literal per source
// a module may come from, the requirements met across sources that R23's
// tie counts, and the source preferences an explanation names.

// sourcing encodes several sources (R23): the literals of each source
// (here) and the requirements met across sources (sources_cross.go). It
// holds the encoder it writes to (a pointer back).
type sourcing struct {
	e *encoder
}

// sources lists the sources of mv's candidates, in source order.
func (so sourcing) sources(mv *modVars) []string {
	var out []string
	for _, s := range mv.v.m.ModuleSources() {
		if slices.ContainsFunc(mv.dom, func(r int) bool { return mv.v.sourceOf(r) == s }) {
			out = append(out, s)
		}
	}
	return out
}

// otherSources returns "mv is not from s" for each source s of srcs but
// keep: mv is off, or on from keep.
func (so sourcing) otherSources(mv *modVars, srcs []string, keep string) []z.Lit {
	var out []z.Lit
	for _, s := range srcs {
		if s != keep {
			out = append(out, so.sourceLit(mv, s).Not())
		}
	}
	return out
}

// notExact returns the clause "mv is not at position j": ¬ge(j), or
// ge(j+1) unless j is the last position.
func (so sourcing) notExact(mv *modVars, j int) []z.Lit {
	out := []z.Lit{mv.ge[j].Not()}
	if j+1 < len(mv.ge) {
		out = append(out, mv.ge[j+1])
	}
	return out
}

type sourceKey struct {
	mv  *modVars
	src string
}

// sourceLit returns the literal "mv is on at a release of source s".
func (so sourcing) sourceLit(mv *modVars, s string) z.Lit {
	e := so.e
	key := sourceKey{mv, s}
	if l, ok := e.srcLits[key]; ok {
		return l
	}
	x := e.g.Lit()
	if len(mv.ge) > 0 {
		e.add(nil, x.Not(), mv.ge[0])
	} else {
		e.add(nil, x.Not())
	}
	for j, r := range mv.dom {
		if mv.v.sourceOf(r) == s {
			e.add(nil, append(so.notExact(mv, j), x)...)
		} else {
			e.add(nil, append(so.notExact(mv, j), x.Not())...)
		}
	}
	if e.srcLits == nil {
		e.srcLits = map[sourceKey]z.Lit{}
	}
	e.srcLits[key] = x
	return x
}

// crossLits returns, for mv taken from source s, one literal per
// requirement between mv and another module (module, capability and
// compound requirements, D181) that, if true, is met across sources (R23's "fewest requirements met from another source than the
// requiring release's own"): each is implied by such a requirement, so
// minimising their count counts them exactly. Both directions count, each
// with its own literal, so that a pair that requires each other counts
// twice: d's selected release from another source requiring mv, and mv's
// selected release requiring d, met by d from another source.
//
// On the explain encoding, reqs gives each clause the requirement fact it
// reads, so that an explanation that counts a requirement names it; the
// fast encoding passes nil, and the clauses are hard.
func (so sourcing) crossLits(mv *modVars, s string, reqs requirementFacts) []z.Lit {
	var out []z.Lit
	for _, d := range so.e.mods {
		if d == mv {
			continue
		}
		out = so.appendCross(out, so.requiredFrom(d, mv, s, reqs))
		out = so.appendCross(out, so.requiring(mv, d, s, reqs))
		out = so.capabilityAndCompoundCross(out, mv, d, s, reqs) // D181
	}
	return out
}

// crossClause is a clause of crossLits, under the fact of the requirement
// it reads (nil: hard).
type crossClause struct {
	f    *fact
	lits []z.Lit
}

// requiredFrom lists the clauses "mv is not from source s, or d is not at
// a release of another source than s that requires mv". The first part
// keeps them true while mv is off, so that a bound on them, which level
// 5a commits, leaves off free (D123).
func (so sourcing) requiredFrom(d, mv *modVars, s string, reqs requirementFacts) []crossClause {
	var clauses []crossClause
	for j, r := range d.dom {
		if d.v.sourceOf(r) != s && requires(d.v.rels[r], mv.v.name) {
			f, ok := reqs.of(reqKey{d.v, r, model.FactModuleRequirement, mv.v.name})
			if !ok {
				continue
			}
			lits := append(so.notExact(d, j), so.sourceLit(mv, s).Not())
			clauses = append(clauses, crossClause{f, lits})
		}
	}
	return clauses
}

// requiring lists the clauses "mv is not at a release of s that requires
// d, or d is not from source t", for each other source t of d.
func (so sourcing) requiring(mv, d *modVars, s string, reqs requirementFacts) []crossClause {
	var clauses []crossClause
	for _, t := range so.sources(d) {
		if t == s {
			continue
		}
		for j, r := range mv.dom {
			if mv.v.sourceOf(r) == s && requires(mv.v.rels[r], d.v.name) {
				f, ok := reqs.of(reqKey{mv.v, r, model.FactModuleRequirement, d.v.name})
				if !ok {
					continue
				}
				lits := append(so.notExact(mv, j), so.sourceLit(d, t).Not())
				clauses = append(clauses, crossClause{f, lits})
			}
		}
	}
	return clauses
}

// appendCross adds to out a fresh literal that each clause, when false,
// makes true; none when there is no clause.
func (so sourcing) appendCross(out []z.Lit, clauses []crossClause) []z.Lit {
	e := so.e
	if len(clauses) == 0 {
		return out
	}
	y := e.g.Lit()
	for _, c := range clauses {
		e.add(c.f, append(c.lits, y)...)
	}
	return append(out, y)
}

// reqKey names a requirement of release rel of v: of kind module
// requirement on module dep, capability requirement on capability dep,
// or compound requirement whose text is dep.
type reqKey struct {
	v    *view
	rel  int
	kind model.FactKind
	dep  string
}

// requirementFacts finds the module-requirement fact of a release's
// requirement on a module.
type requirementFacts map[reqKey]*fact

// of returns the fact of requirement k, and whether the requirement
// counts: on the fast encoding (nil) every requirement counts, as a hard
// clause; on an explain encoding only one it holds as a fact. A cone
// (D124) holds no fact of a module it does not cover yet, and a
// requirement it does not hold meets nothing across sources (an
// unguarded clause for it would bind more than the whole closure does).
func (reqs requirementFacts) of(k reqKey) (*fact, bool) {
	if reqs == nil {
		return nil, true
	}
	f := reqs[k]
	return f, f != nil
}

func requires(r *model.Release, dep string) bool {
	return slices.ContainsFunc(r.Requirements.Modules, func(d model.Dependency) bool { return d.Module == dep })
}
