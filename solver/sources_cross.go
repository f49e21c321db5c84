package solver

import (
	"cmp"
	"slices"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// R23's tie among sources of equal priority counts every requirement met
// from another source than the requiring release's own (D181): module
// requirements (R2, R3, sources_encode.go's requiredFrom and requiring), and
// here capability requirements (R19) and compound requirements (R24), as
// OLM's preference for the dependent's own catalog counts GVKs and
// constraints as well as packages. A capability or compound requirement
// is met across sources by each other enabled module from another source
// whose selected release provides the capability or satisfies the
// predicate (R20 leaves one provider of a capability; a conflict, a
// top-level not, is met by nobody and never counts). Each requirement of
// a release counts on its own, so a release that needs two capabilities
// of one module from another source counts two.

// crossKey is one capability or compound requirement a release may carry.
type crossKey struct {
	kind model.FactKind
	text string // the capability, or the compound requirement's text
	pred *model.Predicate
}

// crossKeys lists the capability and compound requirements of release r,
// each once, in kind then text order.
func crossKeys(r *model.Release) []crossKey {
	var out []crossKey
	for _, c := range r.Requirements.Capabilities {
		out = append(out, crossKey{kind: model.FactCapabilityRequirement, text: c})
	}
	for _, c := range r.Requirements.Compound {
		if !c.Conflict() {
			out = append(out, crossKey{kind: model.FactCompoundRequirement, text: c.String(), pred: c.Target()})
		}
	}
	slices.SortFunc(out, compareCrossKeys)
	return slices.CompactFunc(out, func(a, b crossKey) bool { return compareCrossKeys(a, b) == 0 })
}

func compareCrossKeys(a, b crossKey) int {
	return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.text, b.text))
}

// meets reports whether release rb of module b meets requirement k of a
// release of module a.
func (so sourcing) meets(k crossKey, a, b *view, rb *model.Release) bool {
	if k.pred == nil {
		_, ok := slices.BinarySearch(rb.Provides, k.text)
		return ok
	}
	return k.pred.Holds(b.name, rb.Version, rb.Provides, readingFor(a, b), so.e.p.in.req.Devel)
}

// metAcross lists, one group per requirement, the clauses "a is not at
// its release that carries the requirement, or b is not at a release
// that meets it": a's releases are those inA admits, b's those inB
// admits (their sources differ).
func (so sourcing) metAcross(a, b *modVars, inA, inB func(*modVars, int) bool, reqs requirementFacts) [][]crossClause {
	type id struct {
		kind model.FactKind
		text string
	}
	byKey := map[id][]crossClause{}
	var keys []id
	for j, r := range a.dom {
		if !inA(a, r) {
			continue
		}
		rel := a.v.rels[r]
		for _, k := range crossKeys(rel) {
			f, ok := reqs.of(reqKey{a.v, r, k.kind, k.text})
			if !ok {
				continue
			}
			var poss []int
			for jb, rb := range b.dom {
				if inB(b, rb) && so.meets(k, a.v, b.v, b.v.rels[rb]) {
					poss = append(poss, jb)
				}
			}
			for _, run := range runsOf(poss) {
				key := id{k.kind, k.text}
				if _, seen := byKey[key]; !seen {
					keys = append(keys, key)
				}
				byKey[key] = append(byKey[key], crossClause{f, append(so.notExact(a, j), so.e.notRun(b, run[0], run[1])...)})
			}
		}
	}
	slices.SortFunc(keys, func(x, y id) int { return cmp.Or(cmp.Compare(x.kind, y.kind), cmp.Compare(x.text, y.text)) })
	out := make([][]crossClause, len(keys))
	for i, k := range keys {
		out[i] = byKey[k]
	}
	return out
}

// capabilityAndCompoundCross adds to out the literals of the capability
// and compound requirements between mv from source s and d, both ways.
func (so sourcing) capabilityAndCompoundCross(out []z.Lit, mv, d *modVars, s string, reqs requirementFacts) []z.Lit {
	from := func(x *modVars, r int) bool { return x.v.sourceOf(r) == s }
	other := func(x *modVars, r int) bool { return x.v.sourceOf(r) != s }
	for _, clauses := range so.metAcross(d, mv, other, from, reqs) {
		out = so.appendCross(out, clauses)
	}
	for _, clauses := range so.metAcross(mv, d, from, other, reqs) {
		out = so.appendCross(out, clauses)
	}
	return out
}
