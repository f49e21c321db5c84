package oracle

// The route one minor at a time (R33), by enumeration: a platform answer
// that moves a minor up stands only if some walk of the grid, one minor
// of DKP or Kubernetes at a time, passes only pairs DKP runs (with each
// DKP release's Kubernetes floor met when DKP moves to it), and every
// module the cluster runs at a release of its own can pass each point:
// its release admits the point, or it changes before the step to one
// above it, up to the answer's, that admits the point it leaves and the
// point it reaches, or, when the answer turns it off, is turned off.

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// routeExists reports whether the answer best has a route (R33).
func (p *problem) routeExists(best []int) bool {
	data := p.cat.PlatformReleases()
	if data == nil || p.cluster.Deckhouse == nil || p.cluster.Kubernetes == nil || p.dkp == nil || p.kube == nil {
		return true
	}
	from := [2]model.MajorMinor{model.MinorOf(p.cluster.Deckhouse), model.MinorOf(p.cluster.Kubernetes)}
	to := [2]model.MajorMinor{model.MinorOf(p.dkp), model.MinorOf(p.kube)}
	if to[0].Compare(from[0]) < 0 || to[1].Compare(from[1]) < 0 || to == from {
		return true
	}
	var known []model.MajorMinor
	for m := range data {
		known = append(known, m)
	}
	ds := stepsBetween(from[0], to[0], known)
	ks := stepsBetween(from[1], to[1], nil)
	runs := func(d, k model.MajorMinor) bool {
		rel := data[d]
		if rel == nil {
			return true
		}
		_, ok := rel.Kubernetes[k]
		return ok
	}
	var walk func(path [][2]model.MajorMinor, i, j int) bool
	walk = func(path [][2]model.MajorMinor, i, j int) bool {
		at := path[len(path)-1]
		if i == len(ds) && j == len(ks) {
			return p.modulesPass(path, best)
		}
		if i < len(ds) {
			d := ds[i]
			floor := model.MajorMinor{}
			if rel := data[d]; rel != nil {
				floor = rel.Requirements.K8s
			}
			if runs(d, at[1]) && at[1].Compare(floor) >= 0 && walk(append(slices.Clip(path), [2]model.MajorMinor{d, at[1]}), i+1, j) {
				return true
			}
		}
		if j < len(ks) {
			k := ks[j]
			if runs(at[0], k) && walk(append(slices.Clip(path), [2]model.MajorMinor{at[0], k}), i, j+1) {
				return true
			}
		}
		return false
	}
	return walk([][2]model.MajorMinor{from}, 0, 0)
}

// stepsBetween lists the minors above from up to to: each of the same
// major, else the known ones between and to.
func stepsBetween(from, to model.MajorMinor, known []model.MajorMinor) []model.MajorMinor {
	var out []model.MajorMinor
	if from == to {
		return nil
	}
	if from.Major == to.Major {
		for m := from.Minor + 1; m <= to.Minor; m++ {
			out = append(out, model.MajorMinor{Major: to.Major, Minor: m})
		}
		return out
	}
	for _, m := range known {
		if m.Compare(from) > 0 && m.Compare(to) < 0 {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, model.MajorMinor.Compare)
	return append(out, to)
}

// modulesPass reports whether every module the cluster runs at a release
// of its own can pass each point of path (path[0] is the cluster's).
func (p *problem) modulesPass(path [][2]model.MajorMinor, best []int) bool {
	data := p.cat.PlatformReleases()
	version := func(m model.MajorMinor, answer, cluster model.Version) model.Version {
		if m == model.MinorOf(answer) {
			return answer
		}
		if m == model.MinorOf(cluster) {
			return cluster
		}
		return m.Version()
	}
	for i, x := range p.mods {
		v, on := p.cluster.Deployed(x.m)
		if !on {
			continue
		}
		// one that runs built in moves with DKP, and may only be turned off
		builtIn := x.m.Embedded || (x.m.BuiltInSource() != "" && p.cluster.DeployedSource(x.m) == x.m.BuiltInSource())
		var final model.Version // nil: off in the answer
		if best[i] >= 0 {
			final = x.rels[best[i]].Version
		}
		admits := func(w model.Version, at [2]model.MajorMinor, stepped bool) bool {
			rel := data[at[0]]
			if stepped && rel != nil && slices.Contains(rel.Requirements.DisabledModules, x.name) {
				return false
			}
			if stepped && rel != nil && builtIn && w == v && slices.Contains(rel.Requirements.MigratedModules, x.name) {
				return false // still built in where DKP no longer carries it
			}
			r := x.m.Release(w)
			if r == nil {
				return true
			}
			dkp, kube := version(at[0], p.dkp, p.cluster.Deckhouse), version(at[1], p.kube, p.cluster.Kubernetes)
			if c := r.Requirements.Deckhouse; c != nil && !c.Allows(model.Core(dkp)) {
				return false
			}
			if c := r.Requirements.Kubernetes; c != nil && !c.Allows(kube) {
				return false
			}
			if stepped && rel != nil {
				auto := rel.Requirements.AutoK8sVersion
				if c := r.Requirements.Kubernetes; p.cluster.KubernetesAutomatic && auto != (model.MajorMinor{}) && c != nil && !c.Allows(auto.Version()) {
					return false
				}
			}
			return true
		}
		// reach holds the versions the module may run at the current
		// point; off is a state of its own.
		reach, off := []model.Version{v}, false
		for s := 1; s < len(path) && !off; s++ {
			stepped := path[s][0] != path[s-1][0]
			var next []model.Version
			for _, w := range reach {
				if admits(w, path[s], stepped) {
					next = append(next, w)
				}
				if builtIn && w == v && final != nil && !x.m.Embedded && x.m.Release(final) != nil &&
					admits(final, path[s-1], false) && admits(final, path[s], stepped) {
					next = append(next, final) // it moves to a source (R29)
				}
				for _, r := range x.m.Releases {
					u := r.Version
					if final == nil || builtIn || u.Compare(w) <= 0 || u.Compare(final) > 0 || (model.IsPrerelease(u) && !model.SameVersion(u, final)) {
						continue
					}
					if admits(u, path[s-1], false) && admits(u, path[s], stepped) {
						next = append(next, u)
					}
				}
			}
			if final == nil && len(next) == 0 {
				off = true // turned off before the step
				continue
			}
			if len(next) == 0 {
				return false
			}
			reach = next
		}
	}
	return true
}
