package oracle

// Rules on the inputs beside the releases' own: the settings a release
// accepts (R34) and DKP's release data (R31).

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// settingsRefuse reports whether release i of x is one the module would
// move to and whose settings schema refuses the module's settings in the
// cluster (R34). The release a module runs is not checked; a built-in
// module is checked only when the DKP version moves, against the schema
// its list gives for the DKP version it moves to.
func (p *problem) settingsRefuse(x *mod, i int) bool {
	st := p.cluster.Modules[x.name].Settings
	if st == nil {
		return false
	}
	if !x.m.Embedded {
		return i != p.deployed(x) && x.rels[i].CheckSettings(st).Refused != nil
	}
	if p.dkp == nil || (p.cluster.Deckhouse != nil && model.SameVersion(model.Core(p.dkp), model.Core(p.cluster.Deckhouse))) {
		return false
	}
	return (&model.Release{Settings: x.m.SettingsFor(p.dkp)}).CheckSettings(st).Refused != nil
}

// platformRuns reports whether the answer's platform is one DKP runs and
// may move to (R31): its DKP release supports its Kubernetes minor, and
// every DKP release on the way has its Kubernetes floor met.
func (p *problem) platformRuns() bool {
	data := p.cat.PlatformReleases()
	kube := p.req.Platform.Kubernetes
	if kube == nil {
		kube = p.cluster.Kubernetes
	}
	if data == nil || p.dkp == nil || kube == nil {
		return true
	}
	k := model.MinorOf(kube)
	if rel := data.Release(p.dkp); rel != nil {
		if _, ok := rel.Kubernetes[k]; !ok {
			return false
		}
	}
	for _, m := range data.OnTheWay(p.cluster.Deckhouse, p.dkp) {
		r := data[m].Requirements
		if r.K8s != (model.MajorMinor{}) && k.Compare(r.K8s) < 0 {
			return false
		}
		for key, required := range r.Other { // R32: a gate the cluster's facts decide
			g := model.GateFor(key)
			fact, given := p.cluster.Facts[g.Fact]
			if !given || !p.gateRuns(g) {
				continue
			}
			if ok, _ := g.Holds(required, fact); !ok {
				return false
			}
		}
	}
	return true
}

// gateRuns reports whether DKP runs gate g's check: always, unless the
// catalog has the module that registers it and the cluster does not run
// that module.
func (p *problem) gateRuns(g model.Gate) bool {
	if g.Module == "" {
		return true
	}
	m := p.cat.Module(g.Module)
	if m == nil {
		return true
	}
	_, runs := p.cluster.Deployed(m)
	return runs || p.cluster.Modules[g.Module].On()
}

// releaseRefuses reports whether a DKP release on the way refuses release
// i of x (R31): x is in its disabledModules, or built in and in its
// migratedModules, or, on a cluster whose Kubernetes is Automatic, the
// release does not admit its autoK8sVersion.
func (p *problem) releaseRefuses(x *mod, i int) bool {
	data := p.cat.PlatformReleases()
	for _, m := range data.OnTheWay(p.cluster.Deckhouse, p.dkp) {
		r := data[m].Requirements
		if slices.Contains(r.DisabledModules, x.name) || (x.m.Embedded && slices.Contains(r.MigratedModules, x.name)) {
			return true
		}
		if p.cluster.KubernetesAutomatic && r.AutoK8sVersion != (model.MajorMinor{}) {
			reqs := x.rels[i].Requirements
			if x.m.Embedded {
				reqs = x.m.Requirements
			}
			if c := reqs.Kubernetes; c != nil && !c.Allows(r.AutoK8sVersion.Version()) {
				return true
			}
		}
	}
	return false
}
