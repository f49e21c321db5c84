package solver

import (
	"cmp"
	"slices"
	"sync/atomic"

	"github.com/modsolver/modsolver/model"
)

// reqGroup is one requirement text on one module, with the candidate
// positions of the releases that carry it (D20), and, for a module whose
// releases are its own, the compiled check of which releases of the
// required module satisfy it (D227).
type reqGroup struct {
	dep  *model.Dependency // the first release's, as the catalog holds it
	poss []int
	adm  *admitted
	// at is poss as a set, for a compiled group (local questions read it).
	at relSet
}

// groupRequirements groups the requirement texts of the releases at dom,
// with their positions in dom, by required module and first position.
func groupRequirements(rels []*model.Release, dom []int) []*reqGroup {
	var out []*reqGroup
	for j, r := range dom {
		deps := rels[r].Requirements.Modules
		for k := range deps {
			d := &deps[k]
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

// admitted is which releases of a required module satisfy one
// requirement text of a module, read as that module reads versions,
// without the request's devel: made once per catalog, when first asked.
type admitted struct {
	target *model.Module
	rd     model.VersionReading
	ok     atomic.Pointer[admittedReleases]
}

// admittedReleases are the releases a requirement admits, as a list of
// flags and as a set.
type admittedReleases struct {
	ok  []bool
	set relSet
}

func (a *admitted) of(c *model.Constraint) []bool { return a.releases(c).ok }

func (a *admitted) releases(c *model.Constraint) *admittedReleases {
	if ok := a.ok.Load(); ok != nil {
		return ok
	}
	n := len(a.target.Releases)
	ok := &admittedReleases{ok: make([]bool, n), set: make(relSet, words(n))}
	for i, r := range a.target.Releases {
		if ok.ok[i] = a.rd.Admits(c, r.Version, false); ok.ok[i] {
			ok.set.add(i)
		}
	}
	a.ok.Store(ok) // sessions that race make the same lists
	return ok
}

// compileRequirements groups the requirement texts of m's releases over
// all of them, at the indices every (requirementGroups), each with its
// compiled check.
func compileRequirements(cat *model.Catalog, m *model.Module, every []int) []*reqGroup {
	groups := groupRequirements(m.Releases, every)
	for _, g := range groups {
		g.at = relSet(nil).with(g.poss, len(m.Releases))
		if target := cat.Module(g.dep.Module); target != nil && !target.Embedded {
			g.adm = &admitted{target: target, rd: m.Reading()}
		}
	}
	return groups
}
