package randscen

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// sourceStream is mixed into the seed of the stream that draws sources
// (R23), so that drawing them leaves every other draw of a seed as it was
// before the generator knew R23: the cluster and the request are drawn
// from the first source's catalog, and the sources' part of them comes
// from this stream afterwards.
const sourceStream = 0x5223_50c5

// sourceNames are the two sources a scenario may draw on.
var sourceNames = []string{"main", "extra"}

// secondSource draws now and then a second source: a small catalog that
// lists some of first's modules (never a built-in one) with releases of
// their own, some versions shared with first, and priorities equal or
// not. It returns nil for a scenario of one catalog.
func (g *gen) secondSource(first *model.Catalog) []model.Source {
	if g.srng == nil || g.srng.Float64() >= 0.3 {
		return nil
	}
	main, compound, groups, versions, loops := g.rng, g.crng, g.grng, g.versions, g.loops
	g.rng, g.crng, g.grng = g.srng, g.srng, g.srng // every draw below comes from the source stream
	g.loops = g.loopRule()                         // but the loop rule's (R27)
	defer func() { g.rng, g.crng, g.grng, g.versions, g.loops = main, compound, groups, versions, loops }()
	g.versions = map[string][]string{}
	for k, v := range versions {
		g.versions[k] = v
	}
	var mods []*model.Module
	for _, m := range first.Modules() {
		if m.Embedded {
			if sm := g.builtInListed(m); sm != nil {
				mods = append(mods, sm)
			}
			continue
		}
		if !g.chance(0.6) {
			continue
		}
		vs := g.pickN(finalPool, 1+g.rng.IntN(3))
		if g.chance(0.5) { // a version the first source lists too
			vs = append(vs, model.VersionString(m.Releases[g.rng.IntN(len(m.Releases))].Version))
		}
		slices.SortFunc(vs, func(a, b string) int {
			return model.MustParseVersion(a).Compare(model.MustParseVersion(b))
		})
		g.versions[m.Name] = slices.Compact(vs)
		sm := g.module(m.Name)
		sm.ExclusiveGroup = m.ExclusiveGroup // a module's group is one across sources
		mods = append(mods, sm)
	}
	if len(mods) == 0 {
		return nil
	}
	cat, err := model.NewCatalog(mods)
	if err != nil {
		return nil
	}
	prio := []int{0, 0}
	if !g.chance(0.4) {
		prio = []int{g.rng.IntN(3) * 5, g.rng.IntN(3) * 5}
	}
	return []model.Source{
		{Name: sourceNames[0], Priority: prio[0], Catalog: first},
		{Name: sourceNames[1], Priority: prio[1], Catalog: cat},
	}
}

// placeSources draws the sources' part of the cluster and the request:
// now and then the source a deployed module came from, and a source the
// request fixes for a module (a move when it is deployed elsewhere).
func (g *gen) placeSources(cat *model.Catalog, cluster *model.ClusterState, req *model.Request) {
	rng := g.srng
	for _, name := range cluster.ModuleNames() {
		s := cluster.Modules[name]
		m := cat.Module(name)
		if m == nil || s.Version == nil || m.Embedded || rng.Float64() >= 0.5 {
			continue
		}
		srcs := m.ModuleSources()
		s.Source = srcs[rng.IntN(len(srcs))]
		cluster.Modules[name] = s
	}
	if rng.Float64() < 0.35 {
		m := cat.Module(g.names[rng.IntN(len(g.names))])
		if srcs := m.ModuleSources(); !m.Embedded && len(srcs) > 0 {
			req.Sources = map[string]string{m.Name: srcs[rng.IntN(len(srcs))]}
		}
	}
}

// builtInStream separates the draws of built-in modules listed in the
// second source (R29) from the others, so that older seeds keep theirs.
const builtInStream = 0x6275696c74 // "built"

// builtInListed draws now and then a second source's own module for the
// built-in module m: releases of its own, as DKP's modules that leave the
// platform for a module source have (R29). It returns nil when m stays
// only built in.
func (g *gen) builtInListed(m *model.Module) *model.Module {
	if g.brng.Float64() >= 0.4 {
		return nil
	}
	rng, crng, grng := g.rng, g.crng, g.grng
	g.rng, g.crng, g.grng = g.brng, g.brng, g.brng
	g.embedded[m.Name] = false
	defer func() { g.rng, g.crng, g.grng, g.embedded[m.Name] = rng, crng, grng, true }()
	vs := g.pickN(finalPool, 1+g.rng.IntN(3))
	slices.SortFunc(vs, func(a, b string) int {
		return model.MustParseVersion(a).Compare(model.MustParseVersion(b))
	})
	g.versions[m.Name] = slices.Compact(vs)
	sm := g.module(m.Name)
	sm.ExclusiveGroup = m.ExclusiveGroup
	return sm
}
