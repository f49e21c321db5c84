package solver

import (
	"context"
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
func (p *problem) addReleaseFacts(v *view) {
	if len(p.way) == 0 {
		return
	}
	data := p.cat.PlatformReleases()
	every := func(int, *model.Release) bool { return true }
	forbidListed := func(key string, list func(model.ReleaseRequirements) []string) {
		for _, m := range p.way {
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
	if !p.cluster.KubernetesAutomatic {
		return
	}
	for _, m := range p.way {
		auto := data[m].Requirements.AutoK8sVersion
		if auto == (model.MajorMinor{}) {
			continue
		}
		kube := auto.Version()
		rels := v.where(func(_ int, r *model.Release) bool {
			c := r.Requirements.Kubernetes
			return c != nil && !p.allows(c, kube)
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

// platformKubernetesMessage words a platform-kubernetes fact of p's
// platform; the answer's own is worded where it is made (platformFact),
// with the minors DKP supports.
func (p *problem) platformKubernetesMessage(*fact) string {
	return fmt.Sprintf("DKP %s does not run Kubernetes %s", model.MinorOf(p.deckhouse), model.MinorOf(p.kubernetes))
}

// platformRefusal answers a request whose platform DKP does not run, or
// whose Kubernetes is below the floor of a DKP release on the way (R31),
// with that one fact and the changes that fix it, each verified by
// solving; nil when the platform is one DKP runs, or the catalog carries
// no release data.
func (c *Compiled) platformRefusal(ctx context.Context, cfg settings, cluster *model.ClusterState, req *model.Request) (*model.Result, error) {
	data := c.cat.PlatformReleases()
	dkp, kube := orElse(req.Platform.Deckhouse, cluster.Deckhouse), orElse(req.Platform.Kubernetes, cluster.Kubernetes)
	if data == nil || dkp == nil || kube == nil {
		return nil, nil
	}
	f, changes := platformFact(data, cluster, dkp, kube)
	if f == nil {
		f, changes = gateFact(c.cat, cluster, dkp) // R32
	}
	if f == nil {
		return nil, nil
	}
	res := oneFactRefusal(f)
	if cfg.suggest {
		sugs, err := c.verifiedChanges(ctx, cluster, req, changes, len(changes))
		if err != nil {
			return nil, err
		}
		res.Explanation.Suggestions = sugs
	}
	return res, nil
}

// oneFactRefusal is the unsatisfiable answer whose explanation is one
// fact, made before or after any encoding: a platform DKP does not run
// (R31), a gate the cluster fails (R32), a route that does not pass (R33).
func oneFactRefusal(f *model.Fact) *model.Result {
	return &model.Result{Status: model.StatusUnsatisfiable,
		Explanation: &model.Explanation{Summary: "the request cannot be met: " + f.Message, Facts: []model.Fact{*f}, Steps: model.Derive([]model.Fact{*f})}}
}

// verifiedChanges is the suggestions of changes, in order, that make req
// resolve on cluster, each verified by solving with it (its route
// included, R33), at most most of them; a change that is itself bad
// input is no suggestion.
func (c *Compiled) verifiedChanges(ctx context.Context, cluster *model.ClusterState, req *model.Request, changes []change, most int) ([]model.Suggestion, error) {
	var out []model.Suggestion
	for _, ch := range changes {
		if len(out) >= most {
			break
		}
		c2, r2 := copyState(cluster), req.Clone()
		ch.apply(c2, r2)
		res, err := c.Solve(ctx, c2, r2, WithoutHeldBack(), WithoutSuggestions(), statusOnly(), feasibleOnly())
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		if res.Status == model.StatusResolved {
			out = append(out, ch.sug)
		}
	}
	return out, nil
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

// kubernetesStatusWarning says that the answer runs a Kubernetes minor
// its DKP release marks preview or end-of-life (R31); false otherwise.
func (p *problem) kubernetesStatusWarning() (model.Warning, bool) {
	rel := p.cat.PlatformReleases().Release(p.deckhouse)
	if rel == nil || p.kubernetes == nil {
		return model.Warning{}, false
	}
	status := rel.Kubernetes[model.MinorOf(p.kubernetes)]
	if !status.Warns() {
		return model.Warning{}, false
	}
	return model.Warning{Kind: model.WarningKubernetesStatus, Version: model.MinorOf(p.kubernetes).String(),
		Message: fmt.Sprintf("Kubernetes %s is %s in DKP %s", model.MinorOf(p.kubernetes), status, model.MinorOf(p.deckhouse))}, true
}

// answerWarnings are the warnings of an answer beyond its releases' own:
// what the modules' settings mean (R34) and a preview or end-of-life
// Kubernetes minor (R31).
func (p *problem) answerWarnings(outs []*outcome) []model.Warning {
	out := p.settingsWarnings(outs)
	if w, ok := p.kubernetesStatusWarning(); ok {
		out = append(out, w)
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

// assumptions lists the gates on the way the answer could not decide
// (R32).
func (p *problem) assumptions() []model.Assumption {
	if p.cat.PlatformReleases() == nil {
		return nil
	}
	var out []model.Assumption
	for _, g := range gatesOnTheWay(p.cat, p.cluster, p.deckhouse) {
		if g.decided {
			continue
		}
		subject := "DKP " + g.minor.String()
		out = append(out, model.Assumption{Gate: g.gate.Key, Subject: subject, Needs: g.gate.Needs,
			Message: fmt.Sprintf("assumed: %s requires %s: %s, which the cluster state does not decide; give %s", subject, g.gate.Key, g.required, g.gate.Needs)})
	}
	return out
}

// platformGateMessage words a platform-gate fact of p's platform; the
// answer's own is worded where it is made (gateFact), with the fact.
func (p *problem) platformGateMessage(*fact) string {
	return fmt.Sprintf("DKP %s has a requirement the cluster's facts do not meet", model.MinorOf(p.deckhouse))
}
