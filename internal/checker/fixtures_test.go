package checker

import (
	"cmp"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/model"
)

// This file builds the catalogs many cases share and the answers by hand,
// so that each test case reads as the situation it describes. Modules,
// releases and cluster states come from internal/fixture.

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
		fixture.Module("operator-prometheus", fixture.Versions("0.4.0", "0.5.0")),
		fixture.Module("prometheus", fixture.Releases(
			fixture.Release("2.0.0", fixture.Needs("operator-prometheus", ">= 0.0.0")),
			fixture.Release("2.1.0", fixture.Needs("operator-prometheus", ">= 0.5.0"), fixture.Needs("test", ">= 1.0.0 !optional"), fixture.NeedsDeckhouse(">= 1.70")),
		)),
		fixture.Module("test", fixture.Versions("0.9.0", "1.0.0")),
	}
}

func cniModules() []*model.Module {
	return []*model.Module{
		fixture.Module("cni-cilium", fixture.Group("cni"), fixture.Versions("1.0.0")),
		fixture.Module("cni-flannel", fixture.Group("cni"), fixture.Versions("1.0.0")),
	}
}

func demoModule(opts ...fixture.ModuleOption) []*model.Module {
	return []*model.Module{fixture.Module("demo", opts...)}
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
