package checker

import (
	"cmp"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// This file builds tiny catalogs, cluster states and answers by hand, so
// that each test case reads as the situation it describes.

type relOpt func(*model.Release)

func release(version string, opts ...relOpt) *model.Release {
	r := &model.Release{Version: model.MustParseVersion(version)}
	for _, o := range opts {
		o(r)
	}
	return r
}

func needs(module, constraint string) relOpt {
	return func(r *model.Release) {
		r.Requirements.Modules = append(r.Requirements.Modules, model.Dependency{Module: module, Constraint: model.MustParseConstraint(constraint)})
	}
}

func needsDeckhouse(constraint string) relOpt {
	return func(r *model.Release) {
		c := model.MustParseConstraint(constraint)
		r.Requirements.Deckhouse = &c
	}
}

func needsKubernetes(constraint string) relOpt {
	return func(r *model.Release) {
		c := model.MustParseConstraint(constraint)
		r.Requirements.Kubernetes = &c
	}
}

func jump(from, to string) relOpt {
	return func(r *model.Release) {
		f, err := model.ParseMajorMinor(from)
		if err != nil {
			panic(err)
		}
		t, err := model.ParseMajorMinor(to)
		if err != nil {
			panic(err)
		}
		r.UpdateRules = append(r.UpdateRules, model.UpdateRule{From: f, To: t})
	}
}

// onlyIn makes a release available in the given editions only.
func onlyIn(editions ...string) relOpt {
	return func(r *model.Release) {
		no, yes := false, true
		acc := &model.Accessibility{Editions: map[string]model.EditionAccess{model.DefaultEdition: {Available: &no}}}
		for _, e := range editions {
			acc.Editions[e] = model.EditionAccess{Available: &yes}
		}
		r.Accessibility = acc
	}
}

type modOpt func(*model.Module)

func module(name string, opts ...modOpt) *model.Module {
	m := &model.Module{Name: name}
	for _, o := range opts {
		o(m)
	}
	return m
}

func versions(vs ...string) modOpt {
	return func(m *model.Module) {
		for _, v := range vs {
			m.Releases = append(m.Releases, release(v))
		}
	}
}

func releases(rs ...*model.Release) modOpt {
	return func(m *model.Module) { m.Releases = append(m.Releases, rs...) }
}

func builtIn() modOpt { return func(m *model.Module) { m.Embedded = true } }

func group(g string) modOpt { return func(m *model.Module) { m.ExclusiveGroup = g } }

// channels takes pairs: channel, version.
func channels(pairs ...string) modOpt {
	return func(m *model.Module) {
		m.Channels = map[string]model.Version{}
		for i := 0; i < len(pairs); i += 2 {
			m.Channels[pairs[i]] = model.MustParseVersion(pairs[i+1])
		}
	}
}

// bundles makes a module available everywhere and on in these bundles.
func bundles(names ...string) modOpt {
	return func(m *model.Module) {
		yes := true
		m.Accessibility = &model.Accessibility{Editions: map[string]model.EditionAccess{
			model.DefaultEdition: {Available: &yes, EnabledInBundles: names},
		}}
	}
}

func newCatalog(t *testing.T, mods ...*model.Module) *model.Catalog {
	t.Helper()
	cat, err := model.NewCatalog(mods)
	require.NoError(t, err)
	return cat
}

// promModules is the catalog most cases share: prometheus needs
// operator-prometheus, and its newer release optionally needs test.
func promModules() []*model.Module {
	return []*model.Module{
		module("operator-prometheus", versions("0.4.0", "0.5.0")),
		module("prometheus", releases(
			release("2.0.0", needs("operator-prometheus", ">= 0.0.0")),
			release("2.1.0", needs("operator-prometheus", ">= 0.5.0"), needs("test", ">= 1.0.0 !optional"), needsDeckhouse(">= 1.70")),
		)),
		module("test", versions("0.9.0", "1.0.0")),
	}
}

func cniModules() []*model.Module {
	return []*model.Module{
		module("cni-cilium", group("cni"), versions("1.0.0")),
		module("cni-flannel", group("cni"), versions("1.0.0")),
	}
}

func demoModule(opts ...modOpt) []*model.Module {
	return []*model.Module{module("demo", opts...)}
}

type clusterOpt func(*model.ClusterState)

func cluster(mods map[string]model.ModuleState, opts ...clusterOpt) *model.ClusterState {
	c := &model.ClusterState{
		Deckhouse:  model.MustParseVersion("1.73.0"),
		Kubernetes: model.MustParseVersion("1.29.6"),
		Edition:    "ce",
		Bundle:     "Default",
		Modules:    mods,
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

func releaseChannel(ch string) clusterOpt {
	return func(c *model.ClusterState) { c.ReleaseChannel = ch }
}

func deckhouse(v string) clusterOpt {
	return func(c *model.ClusterState) { c.Deckhouse = model.MustParseVersion(v) }
}

// enabled is enabled: true at version; "" means not yet deployed (D8).
func enabled(version string) model.ModuleState {
	yes := true
	s := model.ModuleState{Enabled: &yes}
	if version != "" {
		s.Version = model.MustParseVersion(version)
	}
	return s
}

func disabled() model.ModuleState {
	no := false
	return model.ModuleState{Enabled: &no}
}

func pins(pairs ...string) map[string]model.Version {
	out := map[string]model.Version{}
	for i := 0; i < len(pairs); i += 2 {
		out[pairs[i]] = model.MustParseVersion(pairs[i+1])
	}
	return out
}

func keep(name, v string) model.ModuleResult {
	return model.ModuleResult{Name: name, Action: model.ActionKeep, FromVersion: v, ToVersion: v}
}

func install(name, v string) model.ModuleResult {
	return model.ModuleResult{Name: name, Action: model.ActionInstall, ToVersion: v}
}

func update(name, from, to string) model.ModuleResult {
	return model.ModuleResult{Name: name, Action: model.ActionUpdate, FromVersion: from, ToVersion: to}
}

func downgrade(name, from, to string) model.ModuleResult {
	return model.ModuleResult{Name: name, Action: model.ActionDowngrade, FromVersion: from, ToVersion: to}
}

func disable(name, from string) model.ModuleResult {
	return model.ModuleResult{Name: name, Action: model.ActionDisable, FromVersion: from}
}

func absent(name string) model.ModuleResult {
	return model.ModuleResult{Name: name, Action: model.ActionAbsent}
}

// resolved lists the modules sorted by name and plans them in the order
// given, leaving out the absent ones.
func resolved(mods ...model.ModuleResult) *model.Result {
	res := &model.Result{Status: model.StatusResolved}
	for _, m := range mods {
		if m.Action != model.ActionAbsent {
			res.Plan = append(res.Plan, model.PlanStep{Module: m.Name, Action: m.Action, FromVersion: m.FromVersion, ToVersion: m.ToVersion})
		}
	}
	res.Modules = slices.SortedFunc(slices.Values(mods), func(a, b model.ModuleResult) int { return cmp.Compare(a.Name, b.Name) })
	return res
}

// edited returns res after change, for breaking an otherwise valid answer.
func edited(res *model.Result, change func(*model.Result)) *model.Result {
	change(res)
	return res
}

func unsatisfiable(e *model.Explanation, mods ...model.ModuleResult) *model.Result {
	return &model.Result{Status: model.StatusUnsatisfiable, Explanation: e, Modules: mods}
}

func explanation(facts ...model.Fact) *model.Explanation {
	return &model.Explanation{Summary: "requirements are not satisfied", Facts: facts}
}

var kubeFact = model.Fact{
	Kind:    model.FactKubernetesRequirement,
	Module:  "demo",
	Message: "requirements are not satisfied: current kubernetes version is not suitable: 1.29.6 is less than 1.30",
}

func rulesOf(vs []Violation) []string {
	out := []string{}
	for _, v := range vs {
		out = append(out, v.Rule)
	}
	return out
}
