package randscen

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// cluster draws a cluster state. Deployed versions are drawn without
// regard to requirements, so that some states are inconsistent: a module
// running a release that its dependencies, the platform or the edition
// no longer allow.
func (g *gen) cluster(cat *model.Catalog) *model.ClusterState {
	c := &model.ClusterState{
		Deckhouse:  model.MustParseVersion(g.pick(dkpPool)),
		Kubernetes: model.MustParseVersion(g.pick(kubePool)),
		Edition:    g.pick([]string{"ce", "ee"}),
		Bundle:     g.pick([]string{"Default", "Default", "Minimal", ""}),
		Modules:    map[string]model.ModuleState{},
	}
	if g.chance(0.6) {
		c.ReleaseChannel = g.pick(model.Channels)
	}
	c.AllowExperimentalModules = g.chance(0.4) // R25
	if g.chance(0.3) {
		g.components = map[string]string{"openshift": g.pick(openshift[:2])}
		c.Platform = map[string]model.Version{"openshift": model.MustParseVersion(g.components["openshift"])}
	}
	for _, m := range cat.Modules() {
		if s, ok := g.moduleState(m); ok {
			c.Modules[m.Name] = s
		}
	}
	return c
}

// moduleState draws one module's configuration, or false for none.
func (g *gen) moduleState(m *model.Module) (model.ModuleState, bool) {
	on, off := true, false
	var s model.ModuleState
	switch x := g.rng.Float64(); {
	case x < 0.35:
		return s, false
	case x < 0.55:
		s.Enabled = &off
	case x < 0.62 || m.Embedded:
		s.Enabled = &on // D8: wanted, not yet deployed; a built-in module runs at the DKP version
	default:
		s.Enabled = &on
		s.Version = m.Releases[g.rng.IntN(len(m.Releases))].Version
		if g.chance(0.08) {
			// A version the catalog no longer lists (D73): catalogs prune old tags.
			mm := model.MinorOf(s.Version)
			s.Version = model.MustParseVersion(fmt.Sprintf("%d.%d.97", mm.Major, mm.Minor))
		}
	}
	if !m.Embedded && g.chance(0.15) {
		s.Channel = g.pick(model.Channels)
	}
	return s, true
}

// request draws a request of every kind the model has; most draws combine
// a few of them.
func (g *gen) request(cat *model.Catalog, cluster *model.ClusterState) *model.Request {
	r := &model.Request{}
	names := g.names
	if g.chance(0.5) {
		r.Enable = g.pickN(names, 1+g.rng.IntN(2))
	}
	if g.chance(0.2) {
		r.Disable = without(g.pickN(names, 1), r.Enable)
	}
	if g.chance(0.4) {
		r.Update = g.pickN(names, 1+g.rng.IntN(2))
	}
	r.UpdateAll = g.chance(0.2)
	if g.chance(0.15) {
		g.pin(r, cat)
	}
	if g.chance(0.25) {
		g.platform(r)
	}
	if g.chance(0.2) {
		r.Strategy = model.StrategyDirect
	}
	r.AllowDisable = g.chance(0.3)
	r.AutoEnable = g.chance(0.35)
	r.Devel = g.drawDevel()
	shuffle(g.rng, r.Enable)
	shuffle(g.rng, r.Update)
	return r
}

// pin pins one module with releases that the request does not disable.
func (g *gen) pin(r *model.Request, cat *model.Catalog) {
	m := cat.Module(g.pick(g.names))
	if m.Embedded || slices.Contains(r.Disable, m.Name) {
		return
	}
	r.Pin = map[string]model.Version{m.Name: m.Releases[g.rng.IntN(len(m.Releases))].Version}
}

// platform draws candidate platform versions (R12, R22).
func (g *gen) platform(r *model.Request) {
	if g.chance(0.7) {
		r.Platform.Deckhouse = model.MustParseVersion(g.pick(dkpPool))
	}
	if g.chance(0.5) {
		r.Platform.Kubernetes = model.MustParseVersion(g.pick(kubePool))
	}
	if g.components != nil && g.chance(0.5) {
		r.Platform.Components = map[string]model.Version{"openshift": model.MustParseVersion(g.pick(openshift))}
	}
}

func without(xs, drop []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(drop, x) {
			out = append(out, x)
		}
	}
	return out
}

// shuffle reorders xs: the answer must not depend on the order (R15).
func shuffle(rng *rand.Rand, xs []string) {
	rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
}
