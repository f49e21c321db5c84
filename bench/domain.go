package bench

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// role is what a request's inputs say about whether a module is on (R8),
// as far as a solver without soft constraints can take it.
type role int

const (
	// roleOff: the module stays off (disabled by the request or the
	// cluster, or off by default and autoEnable is off).
	roleOff role = iota
	// roleMust: some release must be selected (enabled by the request or
	// the cluster, or pinned).
	roleMust
	// roleMay: the module may be enabled when something requires it: on
	// by bundle default, enabled under allowDisable, or autoEnable. These
	// are modsolver's soft intents (R14 levels 2 and 3); deppy has no soft
	// constraints, so for it they are all "may".
	roleMay
)

// domain is what one request lets one module be, read from the inputs
// alone, the way modsolver's static facts read them: the releases no
// edition (R7), prerelease (D1), platform (R4), Experimental stage (R25),
// missing module, channel (R10), stability (R9), update step (R11) or pin
// rule forbids.
type domain struct {
	m *model.Module
	// rels are the module's releases; a built-in module has one, at the
	// effective DKP version, with the module's requirements (R5).
	rels    []*model.Release
	allowed []bool
	role    role
}

// newestAllowed lists the allowed release indices, newest first: the
// candidate order that stands for "prefer the newest" in deppy.
func (d *domain) newestAllowed() []int {
	var out []int
	for i := len(d.rels) - 1; i >= 0; i-- {
		if d.allowed[i] {
			out = append(out, i)
		}
	}
	return out
}

// domains computes and remembers the domain of each module for one
// request.
type domains struct {
	cat        *model.Catalog
	cluster    *model.ClusterState
	req        *model.Request
	dkp, kube  model.Version // effective platform versions (R12)
	sequential bool
	byName     map[string]*domain
}

func newDomains(cat *model.Catalog, cluster *model.ClusterState, req *model.Request) *domains {
	d := &domains{cat: cat, cluster: cluster, req: req, dkp: cluster.Deckhouse, kube: cluster.Kubernetes,
		sequential: req.EffectiveStrategy() == model.StrategySequential, byName: map[string]*domain{}}
	if req.Platform.Deckhouse != nil {
		d.dkp = req.Platform.Deckhouse
	}
	if req.Platform.Kubernetes != nil {
		d.kube = req.Platform.Kubernetes
	}
	return d
}

// of returns the domain of module name, or nil when the catalog has none.
func (ds *domains) of(name string) *domain {
	if d, ok := ds.byName[name]; ok {
		return d
	}
	m := ds.cat.Module(name)
	if m == nil {
		return nil
	}
	d := &domain{m: m, rels: m.Releases}
	if m.Embedded {
		d.rels = []*model.Release{{Version: ds.dkp, Requirements: m.Requirements, Accessibility: m.Accessibility, Stage: m.Stage}}
	}
	d.allowed = make([]bool, len(d.rels))
	ver := ds.versions(m)
	for i, r := range d.rels {
		d.allowed[i] = ds.available(m, r) && ds.stageAllows(r) && ds.platformAllows(r.Requirements) && ds.depsExist(r.Requirements) && ver.allows(i)
	}
	d.role = ds.roleOf(d, ver)
	ds.byName[name] = d
	return d
}

func (ds *domains) available(m *model.Module, r *model.Release) bool {
	ok, _ := m.Access(r).For(ds.cluster.Edition)
	return ok
}

// stageAllows checks R25: an Experimental release only on a cluster that
// allows experimental modules.
func (ds *domains) stageAllows(r *model.Release) bool {
	return r.Stage != model.StageExperimental || ds.cluster.AllowExperimentalModules
}

// confirmsDisable reads R26: the deployed release of m (for a built-in
// module, m itself) asks for confirmation before it is disabled.
func (ds *domains) confirmsDisable(m *model.Module) bool {
	v, deployed := ds.cluster.Deployed(m)
	if !deployed {
		return false
	}
	if m.Embedded {
		return m.Disable.Confirmation
	}
	r := m.Release(v)
	return r != nil && r.Disable.Confirmation
}

// platformAllows checks R4: the DKP version stripped (R6), Kubernetes as is.
func (ds *domains) platformAllows(req model.Requirements) bool {
	return (req.Deckhouse == nil || req.Deckhouse.Allows(model.Core(ds.dkp))) &&
		(req.Kubernetes == nil || req.Kubernetes.Allows(ds.kube))
}

// depsExist is false when a release requires, not optionally, a module
// the catalog does not have.
func (ds *domains) depsExist(req model.Requirements) bool {
	for _, dep := range req.Modules {
		if !dep.Constraint.Optional && ds.cat.Module(dep.Module) == nil {
			return false
		}
	}
	return true
}

// roleOf reads R8 in modsolver's order: the request's disable, pin and
// enable, then the cluster's configuration, then the bundle default and
// autoEnable.
func (ds *domains) roleOf(d *domain, ver versionRules) role {
	m := d.m
	st := ds.cluster.Modules[m.Name]
	switch {
	case slices.Contains(ds.req.Disable, m.Name):
		return roleOff
	case ver.pinned >= 0, slices.Contains(ds.req.Enable, m.Name):
		return roleMust
	case st.On() && ds.req.AllowDisable && !ds.confirmsDisable(m):
		return roleMay
	case st.On():
		return roleMust
	case st.Off():
		return roleOff
	case ds.onByDefault(d, ver), ds.req.AutoEnable:
		return roleMay
	}
	return roleOff
}

// onByDefault reads enabledInBundles of the newest release that may be
// selected in the cluster's edition and by its stage (R7, D58).
func (ds *domains) onByDefault(d *domain, ver versionRules) bool {
	if ds.cluster.Bundle == "" {
		return false
	}
	m := d.m
	for i := len(d.rels) - 1; i >= 0; i-- {
		r := d.rels[i]
		if !ds.available(m, r) || !ds.stageAllows(r) || i > ver.head || (model.IsPrerelease(r.Version) && i != ver.head) {
			continue
		}
		_, bundles := m.Access(r).For(ds.cluster.Edition)
		return slices.Contains(bundles, ds.cluster.Bundle)
	}
	return false
}
