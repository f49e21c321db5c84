package oracle

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// placeSource reads R23 (D75, D76) for x before anything else. In a
// catalog of several sources, a deployed module stays in the source it
// was deployed from (the cluster's source, else the first in source order
// that lists its version, else the first that holds it), unless
// request.sources moves it; request.sources fixes the source of any other
// module too. A fixed module of several sources sees only its source's
// own module. A module of several sources that is not fixed is free: each
// (source, release) pair is a candidate, and levels 3a and 5a choose. A
// single catalog names sources only for a module it holds under sources
// of its own (D350), which is read the same way.
func (p *problem) placeSource(x *mod) {
	m := x.m
	if !p.sourced(m) {
		return
	}
	if v, ok := p.cluster.Deployed(m); ok && !m.Embedded {
		x.from = p.deployedSource(m, v)
	}
	x.to = x.from
	if s := p.req.Sources[m.Name]; s != "" {
		x.to = s
	}
	if x.to == "" {
		x.to = m.BuiltInSource() // R29: built in, unless moved out
	}
	if b := m.BuiltInSource(); b != "" && x.to == b && p.req.Sources[m.Name] == "" && !m.CarriedOnTheWay(p.cat.PlatformReleases(), p.cluster.Deckhouse, p.dkp) {
		x.to = m.MovedTo() // D161: the DKP version no longer carries it
	}
	x.moved = x.from != "" && x.to != x.from
	x.leftPlatform = x.moved && x.from == m.BuiltInSource()
	switch {
	case x.to == "" && len(m.ModuleSources()) > 1:
		x.free = true
	case x.to == "":
		x.to = m.Source
	default:
		x.m = m.ForSource(x.to)
		x.rels = x.m.Releases
	}
}

// sourced reports whether m comes from a source: every module of a
// merged catalog, and a module a single catalog holds under sources of
// its own (D350).
func (p *problem) sourced(m *model.Module) bool {
	return len(p.cat.Sources()) > 0 || len(m.ModuleSources()) > 1
}

// deployedSource is D75, read on its own: the cluster's source, else the
// first source in source order that lists version v, else the first that
// holds m.
func (p *problem) deployedSource(m *model.Module, v model.Version) string {
	if s := p.cluster.Modules[m.Name].Source; s != "" {
		return s
	}
	if b := m.BuiltInSource(); b != "" && p.cluster.Modules[m.Name].Version == nil {
		return b // R29: a module that names no version runs built in
	}
	srcs := m.ModuleSources()
	for _, s := range srcs {
		for _, r := range m.ForSource(s).Releases {
			if model.SameVersion(r.Version, v) {
				return s
			}
		}
	}
	if len(srcs) == 0 {
		return ""
	}
	return srcs[0]
}

// runningRelease is the release x runs, deployed release index dep of
// its view (or -1 when the view has none): on a move, the release of the
// source it was deployed from, which is the one whose declarations (R26)
// hold; a version its source does not list is a release with no
// requirements (D73).
func (p *problem) runningRelease(x *mod, dep int) *model.Release {
	v, _ := p.cluster.Deployed(x.m)
	if x.moved {
		if fm := p.cat.Module(x.name).ForSource(x.from); fm != nil {
			if r := fm.Release(v); r != nil {
				return r
			}
		}
		return &model.Release{Version: v, Source: x.from}
	}
	return x.rels[dep]
}

// sourceModule is the module whose channels, steps and accessibility
// apply to release r of x (R23): the release's own source's for a free
// module, else x's.
func (p *problem) sourceModule(x *mod, r *model.Release) *model.Module {
	if x.free {
		if sm := x.m.ForSource(r.Source); sm != nil {
			return sm
		}
	}
	return x.m
}

// preferSources is levels 3a and 5a (R23, D77): for each module of mods
// in order, free and with options in several sources, it keeps the
// assignments that take it from the source R23 prefers. That is the
// highest-priority source that can serve it among set; among several of
// that priority, the one with the fewest requirements met across sources
// (the least any assignment of set reaches with the module from it), then
// the first by name; and the assignments kept are those with the module
// from that source and no more such requirements. A module no source can
// serve is left to the version level.
func (p *problem) preferSources(mods []int, set [][]int) [][]int {
	for _, i := range mods {
		x := p.mods[i]
		if !x.free {
			continue
		}
		var srcs []string // in source order: priority descending, then name
		for _, s := range x.m.ModuleSources() {
			if slices.ContainsFunc(x.options, func(o int) bool { return o >= 0 && x.rels[o].Source == s }) {
				srcs = append(srcs, s)
			}
		}
		if len(srcs) < 2 {
			continue
		}
		serves := map[string]bool{}
		for _, sel := range set {
			if sel[i] >= 0 {
				serves[x.rels[sel[i]].Source] = true
			}
		}
		var tier []string
		prio := 0
		for _, s := range srcs {
			info, _ := p.cat.Source(s)
			if len(tier) > 0 && info.Priority != prio {
				break
			}
			if serves[s] {
				tier, prio = append(tier, s), info.Priority
			}
		}
		if len(tier) == 0 {
			continue
		}
		best, bestCost := tier[0], -1
		if len(tier) > 1 {
			names := slices.Clone(tier)
			slices.Sort(names)
			for _, s := range names {
				cost := -1
				for _, sel := range set {
					if sel[i] >= 0 && x.rels[sel[i]].Source == s {
						if c := p.crossSource(i, sel); cost < 0 || c < cost {
							cost = c
						}
					}
				}
				if bestCost < 0 || cost < bestCost {
					best, bestCost = s, cost
				}
			}
		}
		// The preference chooses where the module comes from, not
		// whether it is on (D123): off stays for the levels that decide
		// that (2, 4 and 5, D41).
		set = slices.DeleteFunc(set, func(sel []int) bool {
			return sel[i] >= 0 && (x.rels[sel[i]].Source != best || (bestCost >= 0 && p.crossSource(i, sel) > bestCost))
		})
	}
	return set
}

// crossSource counts the requirements between module i and the other
// enabled modules of sel that are met from another source than the
// requiring release's own, in both directions: i's release requiring an
// enabled module of another source, and an enabled module's release of
// another source requiring i. Every kind counts (D181): a module
// requirement (R2, R3) on the other module; a capability requirement
// (R19) the other module's release provides; a compound requirement
// (R24, not a conflict) the other module's release satisfies. Each
// requirement counts once per module that meets it.
func (p *problem) crossSource(i int, sel []int) int {
	x := p.mods[i]
	own := x.rels[sel[i]]
	n := 0
	for j, d := range p.mods {
		if j == i || sel[j] < 0 {
			continue
		}
		r := d.rels[sel[j]]
		if r.Source == own.Source {
			continue
		}
		n += p.metBy(d, r, x, own) + p.metBy(x, own, d, r)
	}
	return n
}

// metBy counts the requirements of release r of module a that release rb
// of module b meets: a module requirement on b, each capability
// requirement rb provides, each distinct compound requirement (by its
// text) rb satisfies.
func (p *problem) metBy(a *mod, r *model.Release, b *mod, rb *model.Release) int {
	n := 0
	if requires(r, b.name) {
		n++
	}
	for _, c := range slices.Compact(slices.Clone(r.Requirements.Capabilities)) {
		if slices.Contains(rb.Provides, c) {
			n++
		}
	}
	seen := map[string]bool{}
	for _, c := range r.Requirements.Compound {
		if c.Conflict() || seen[c.String()] {
			continue
		}
		seen[c.String()] = true
		if p.satisfies(a, c.Predicate, b, rb) {
			n++
		}
	}
	return n
}

func requires(r *model.Release, module string) bool {
	return slices.ContainsFunc(r.Requirements.Modules, func(d model.Dependency) bool { return d.Module == module })
}
