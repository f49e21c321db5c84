package solver

import (
	"cmp"
	"slices"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// capGroup is one capability that some of mv's candidates require, with
// their positions.
type capGroup struct {
	capability string
	poss       []int
}

// encodeCapabilities adds R19 for every candidate of mv: a required
// capability is provided by the selected release of some enabled module.
func (rl relations) encodeCapabilities(mv *modVars) {
	e := rl.e
	for _, g := range capabilityGroups(mv) {
		providers := e.p.in.cat.Providers(g.capability)
		if len(providers) == 0 {
			continue // a static missing-capability fact covers it
		}
		f := rl.moduleFact(model.FactCapabilityRequirement, mv, g.poss)
		if f != nil {
			f.dep = g.capability
		}
		var provided []z.Lit
		for _, name := range providers {
			if d := e.vars(name); d != nil {
				for _, iv := range runsOf(providing(d, g.capability)) {
					provided = append(provided, rl.interval(d, iv[0], iv[1]))
				}
			}
		}
		for _, run := range runsOf(g.poss) {
			e.add(f, append(e.notRun(mv, run[0], run[1]), provided...)...)
		}
	}
}

// capabilityGroups collects the capabilities mv's candidates require, in
// name order.
func capabilityGroups(mv *modVars) []*capGroup {
	byCap := map[string]*capGroup{}
	var out []*capGroup
	for j, r := range mv.dom {
		for _, c := range mv.v.rels[r].Requirements.Capabilities {
			g := byCap[c]
			if g == nil {
				g = &capGroup{capability: c}
				byCap[c] = g
				out = append(out, g)
			}
			g.poss = append(g.poss, j)
		}
	}
	slices.SortFunc(out, func(a, b *capGroup) int { return cmp.Compare(a.capability, b.capability) })
	return out
}

// providing returns the positions of d whose release provides capability.
func providing(d *modVars, capability string) []int {
	var out []int
	for j, r := range d.dom {
		if _, ok := slices.BinarySearch(d.v.rels[r].Provides, capability); ok {
			out = append(out, j)
		}
	}
	return out
}

// encodeUniqueness adds R20, no two enabled modules provide the same
// capability, as OLM requires of the APIs (GVKs) operators own, for the
// capabilities batch's modules provide.
func (rl relations) encodeUniqueness(batch []*modVars) {
	e := rl.e
	for _, c := range rl.sharedCapabilities(batch) {
		var members []*modVars
		var lits []z.Lit
		for _, name := range e.p.in.cat.Providers(c) {
			d := e.vars(name)
			if d == nil {
				continue
			}
			if ps := providing(d, c); len(ps) > 0 {
				members = append(members, d)
				lits = append(lits, rl.provides(d, ps))
			}
		}
		if len(members) < 2 {
			continue
		}
		f := rl.groupFact(model.FactCapabilityConflict, rankUniqueness, c, members)
		for i, a := range lits {
			for _, b := range lits[i+1:] {
				e.add(f, a.Not(), b.Not())
			}
		}
	}
}

// sharedCapabilities lists, sorted, the capabilities that a module of
// batch provides and more than one module provides in the catalog, and
// whose uniqueness is not encoded yet.
func (rl relations) sharedCapabilities(batch []*modVars) []string {
	e := rl.e
	var out []string
	for _, mv := range batch {
		for _, r := range mv.dom {
			for _, c := range mv.v.rels[r].Provides {
				if len(e.p.in.cat.Providers(c)) > 1 && !e.across.capabilities[c] {
					e.across.capabilities[c] = true
					out = append(out, c)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// provides returns a literal that holds when d's selected release is at one
// of positions ps: "on" itself when every candidate provides.
func (rl relations) provides(d *modVars, ps []int) z.Lit {
	e := rl.e
	if len(ps) == len(d.dom) {
		return e.on(d)
	}
	y := e.g.Lit()
	for _, iv := range runsOf(ps) {
		e.add(nil, append(e.notRun(d, iv[0], iv[1]), y)...)
	}
	return y
}
