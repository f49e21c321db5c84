package solver

import (
	"fmt"
	"maps"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// DKP's own release data (R31).
//
// Where the catalog carries it, the platform the answer runs must be a
// place DKP runs: the DKP release supports the Kubernetes minor, and
// every DKP release the answer moves through (each minor above the
// cluster's, up to the answer's) has its release.yaml requirements met.
// The pair and the Kubernetes floor (k8s) are about the platform alone,
// so they are decided before any encoding (platformRefusal): a request
// that breaks one is unsatisfiable with that one fact, a minimal core by
// itself. The requirements on modules are static facts of the modules
// they name (addReleaseFacts): disabledModules forbids every release of
// the module, migratedModules every release of a module only the
// platform carries, and autoK8sVersion, on a cluster whose Kubernetes is
// Automatic, the releases that do not admit the Kubernetes minor DKP
// moves it to. Each is a condition of any route; the route one minor at
// a time (R33, route.go) places them at their steps, and the keys that
// need the live cluster (R32) are decided below from the cluster's facts
// or listed as assumptions.

// releaseReq is what a platform-release fact says: which DKP release
// requires it and by which key of its release.yaml.
type releaseReq struct {
	minor model.MajorMinor
	key   string
	// value is the requirement's value where the message names it: the
	// Kubernetes minor of autoK8sVersion.
	value model.MajorMinor
}

// addReleaseFacts forbids the releases of v that a DKP release on the way
// (p.way) refuses (R31): one fact per key, from the first release that
// sets it.
func (rf ruleFacts) addReleaseFacts(v *view, mode readMode) {
	p := rf.p
	if len(p.in.way) == 0 {
		return
	}
	data := p.in.cat.PlatformReleases()
	every := func(int, *model.Release) bool { return true }
	forbidListed := func(key string, list func(model.ReleaseRequirements) []string) {
		for _, m := range p.in.way {
			if slices.Contains(list(data[m].Requirements), v.name) {
				p.forbid(v, model.FactPlatformRelease, v.where(every), factShape{platform: &releaseReq{minor: m, key: key}})
				return
			}
		}
	}
	forbidListed("disabledModules", func(r model.ReleaseRequirements) []string { return r.DisabledModules })
	if v.m.Embedded { // a module a source serves is what migratedModules asks for
		forbidListed("migratedModules", func(r model.ReleaseRequirements) []string { return r.MigratedModules })
	}
	if !p.in.cluster.KubernetesAutomatic {
		return
	}
	for _, m := range p.in.way {
		auto := data[m].Requirements.AutoK8sVersion
		if auto == (model.MajorMinor{}) {
			continue
		}
		kube := auto.Version()
		rels := v.where(func(_ int, r *model.Release) bool {
			c := r.Requirements.Kubernetes
			return c != nil && !p.allows(c, kube, mode)
		})
		if len(rels) > 0 {
			p.forbid(v, model.FactPlatformRelease, rels, factShape{platform: &releaseReq{minor: m, key: "autoK8sVersion", value: auto}})
			return
		}
	}
}

// platformReleaseMessage renders a FactPlatformRelease fact.
func platformReleaseMessage(f *fact) string {
	r := f.platform
	switch r.key {
	case "disabledModules":
		return fmt.Sprintf("DKP %s requires %s to be disabled before it moves to %s (its release requirement disabledModules)", r.minor, f.v.name, r.minor)
	case "migratedModules":
		return fmt.Sprintf("DKP %s no longer carries %s built in, and no source of the catalog serves it (its release requirement migratedModules)", r.minor, f.v.name)
	}
	return fmt.Sprintf("DKP %s moves a cluster on kubernetesVersion: Automatic to Kubernetes %s, which %s %s does not admit (its release requirement autoK8sVersion)",
		r.minor, r.value, f.v.name, releasesText(f.v, f.rels))
}

// platformReleaseSubject is the key of release.yaml a fact is about.
func platformReleaseSubject(f *fact) string { return f.platform.key }

// kubernetesStatusWarning says that the answer runs a Kubernetes minor
// its DKP release marks preview or end-of-life (R31); false otherwise.
func (in *inputs) kubernetesStatusWarning() (model.Warning, bool) {
	rel := in.cat.PlatformReleases().Release(in.deckhouse)
	if rel == nil || in.kubernetes == nil {
		return model.Warning{}, false
	}
	status := rel.Kubernetes[model.MinorOf(in.kubernetes)]
	if !status.Warns() {
		return model.Warning{}, false
	}
	return model.Warning{Kind: model.WarningKubernetesStatus, Version: model.MinorOf(in.kubernetes).String(),
		Message: fmt.Sprintf("Kubernetes %s is %s in DKP %s", model.MinorOf(in.kubernetes), status, model.MinorOf(in.deckhouse))}, true
}

// assumptions lists the gates on the way the answer could not decide
// (R32).
func (in *inputs) assumptions() []model.Assumption {
	if in.cat.PlatformReleases() == nil {
		return nil
	}
	var out []model.Assumption
	for _, g := range gatesOnTheWay(in.cat, in.cluster, in.deckhouse) {
		if g.decided {
			continue
		}
		subject := "DKP " + g.minor.String()
		out = append(out, model.Assumption{Gate: g.gate.Key, Subject: subject, Needs: g.gate.Needs,
			Message: fmt.Sprintf("assumed: %s requires %s: %s, which the cluster state does not decide; give %s", subject, g.gate.Key, g.required, g.gate.Needs)})
	}
	return out
}

// gatesOnTheWay lists the gates that apply to a move from the cluster's
// DKP to dkp (R32): every release.yaml key of a release on the way that
// the inputs do not decide, in minor order, then key order; a gate whose
// registering module the catalog has, but the cluster does not run, does
// not apply (DKP evaluates its checks with the modules it runs before the
// move).
func gatesOnTheWay(cat *model.Catalog, cluster *model.ClusterState, dkp model.Version) []gateState {
	data := cat.PlatformReleases()
	var out []gateState
	for _, m := range data.OnTheWay(cluster.Deckhouse, dkp) {
		other := data[m].Requirements.Other
		for _, key := range slices.Sorted(maps.Keys(other)) {
			g := model.GateFor(key)
			if g.Module != "" {
				if mod := cat.Module(g.Module); mod != nil {
					if _, runs := cluster.Deployed(mod); !runs && !cluster.Modules[g.Module].On() {
						continue
					}
				}
			}
			fact, decided := cluster.Facts[g.Fact]
			out = append(out, gateState{minor: m, gate: g, required: other[key], fact: fact, decided: decided})
		}
	}
	return out
}

// gateState is where one gate of a DKP release on the way stands (R32).
type gateState struct {
	minor    model.MajorMinor
	gate     model.Gate
	required string
	// fact is the cluster's value; decided says the cluster gave one.
	fact    string
	decided bool
}
