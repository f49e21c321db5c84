package solver

import (
	"fmt"
	"maps"

	"github.com/modsolver/modsolver/model"
)

// DKP's own release data (R31, R32), as refusals and suggestions read
// it: a platform DKP does not run or a gate the cluster fails, answered
// with one fact and the verified changes that lift it.

// oneFactRefusal is the unsatisfiable answer whose explanation is one
// fact, made before or after any encoding: a platform DKP does not run
// (R31), a gate the cluster fails (R32), a route that does not pass (R33).
func oneFactRefusal(f *model.Fact) *model.Result {
	return &model.Result{Status: model.StatusUnsatisfiable,
		Explanation: &model.Explanation{Summary: "the request cannot be met: " + f.Message, Facts: []model.Fact{*f}, Steps: model.Derive([]model.Fact{*f})}}
}

// platformFact is the fact that the platform (dkp, kube) breaks, with the
// changes that may fix it, or nil.
func platformFact(data model.PlatformReleases, cluster *model.ClusterState, dkp, kube model.Version) (*model.Fact, []change) {
	k := model.MinorOf(kube)
	if rel := data.Release(dkp); rel != nil {
		if _, ok := rel.Kubernetes[k]; !ok {
			d := model.MinorOf(dkp)
			f := &model.Fact{Kind: model.FactPlatformKubernetes, Version: model.VersionString(dkp), Subject: model.PlatformKubernetes,
				Message: fmt.Sprintf("DKP %s supports Kubernetes %s; %s is not among them", d, rel.SupportedText(), model.VersionString(kube))}
			return f, supportedPairChanges(data, rel, d, k)
		}
	}
	for _, m := range data.OnTheWay(cluster.Deckhouse, dkp) {
		floor := data[m].Requirements.K8s
		if floor == (model.MajorMinor{}) || k.Compare(floor) >= 0 {
			continue
		}
		f := &model.Fact{Kind: model.FactPlatformKubernetes, Version: m.String(), Subject: model.PlatformKubernetes,
			Message: fmt.Sprintf("DKP %s requires Kubernetes %s or newer before it moves to %s (its release requirement k8s); the cluster runs %s", m, floor, m, model.VersionString(kube))}
		return f, []change{kubernetesChange(floor.Version())}
	}
	return nil, nil
}

// supportedPairChanges are the changes that make a pair DKP runs: the
// Kubernetes minors rel supports nearest to k, and the first DKP minor
// from d on that supports k.
func supportedPairChanges(data model.PlatformReleases, rel *model.PlatformRelease, d, k model.MajorMinor) []change {
	var out []change
	supported := rel.Supported()
	var below, above *model.MajorMinor
	for i := range supported {
		if supported[i].Compare(k) < 0 {
			below = &supported[i]
		} else if above == nil {
			above = &supported[i]
		}
	}
	if dm, ok := data.FirstSupporting(d, k); ok {
		out = append(out, deckhouseChange(dm.Version()))
	}
	for _, m := range []*model.MajorMinor{below, above} {
		if m != nil {
			out = append(out, kubernetesChange(m.Version()))
		}
	}
	return out
}

// kubernetesChange runs Kubernetes v instead.
func kubernetesChange(v model.Version) change {
	return change{
		sug: model.Suggestion{Kind: model.SuggestUpgradeKubernetes, Version: v.String(),
			Message: fmt.Sprintf("run Kubernetes %s instead", model.MinorOf(v))},
		apply: func(_ *model.ClusterState, r *model.Request) { r.Platform.Kubernetes = v },
	}
}

// deckhouseChange runs DKP v instead.
func deckhouseChange(v model.Version) change {
	return change{
		sug: model.Suggestion{Kind: model.SuggestUpgradeDeckhouse, Version: v.String(),
			Message: fmt.Sprintf("upgrade DKP to %s, which supports it", model.MinorOf(v))},
		apply: func(_ *model.ClusterState, r *model.Request) { r.Platform.Deckhouse = v },
	}
}

// gateFact is the fact of the first gate on the way the cluster's facts
// fail, with the change that meets it, or nil.
func gateFact(cat *model.Catalog, cluster *model.ClusterState, dkp model.Version) (*model.Fact, []change) {
	for _, g := range gatesOnTheWay(cat, cluster, dkp) {
		if !g.decided {
			continue
		}
		ok, err := g.gate.Holds(g.required, g.fact)
		if ok {
			continue
		}
		why := fmt.Sprintf("the cluster's %s is %s", g.gate.Fact, g.fact)
		if err != nil {
			why = fmt.Sprintf("the cluster's %s, %q, cannot be read: %v", g.gate.Fact, g.fact, err)
		}
		f := &model.Fact{Kind: model.FactPlatformGate, Version: g.minor.String(), Subject: model.PlatformDeckhouse,
			Message: fmt.Sprintf("DKP %s requires %s: %s before it moves to %s (its release requirement); %s", g.minor, g.gate.Key, g.required, g.minor, why)}
		key, required := g.gate.Fact, g.required
		fix := change{
			sug: model.Suggestion{Kind: model.SuggestUpgradePlatform,
				Message: fmt.Sprintf("upgrade the cluster so that it meets %s: %s (%s)", g.gate.Key, required, g.gate.Needs)},
			apply: func(c *model.ClusterState, _ *model.Request) {
				c.Facts = maps.Clone(c.Facts)
				c.Facts[key] = required
			},
		}
		if key == "containerdV1NodesPresent" {
			fix.apply = func(c *model.ClusterState, _ *model.Request) {
				c.Facts = maps.Clone(c.Facts)
				c.Facts[key] = "false"
			}
		}
		return f, []change{fix}
	}
	return nil, nil
}
