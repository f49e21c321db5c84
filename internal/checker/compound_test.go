package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

func TestCheckCompound(t *testing.T) {
	atLeast2 := model.MustParseConstraint(">= 2.0.0")
	need := model.CompoundRequirement{Predicate: &model.Predicate{Op: model.PredicateModule, Module: "lib", Version: &atLeast2}}
	refuse := model.CompoundRequirement{Predicate: &model.Predicate{Op: model.PredicateNot, Operands: []*model.Predicate{{Op: model.PredicateModule, Module: "old"}}}}
	rel := func(v string, cs ...model.CompoundRequirement) *model.Release {
		return &model.Release{Version: model.MustParseVersion(v), Requirements: model.Requirements{Compound: cs}}
	}
	cat, err := model.NewCatalog([]*model.Module{
		{Name: "app", Releases: []*model.Release{rel("1.0.0", need, refuse)}},
		{Name: "lib", Releases: []*model.Release{rel("1.0.0"), rel("2.0.0")}},
		{Name: "old", Releases: []*model.Release{rel("1.0.0")}},
	})
	require.NoError(t, err)
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.74.0"), Kubernetes: model.MustParseVersion("1.31.0"), Modules: map[string]model.ModuleState{}}
	answer := func(lib string, old bool) *model.Result {
		res := &model.Result{Status: model.StatusResolved, Modules: []model.ModuleResult{
			{Name: "app", Action: model.ActionInstall, ToVersion: "1.0.0"},
			{Name: "lib", Action: model.ActionInstall, ToVersion: lib},
		}}
		if old {
			res.Modules = append(res.Modules, model.ModuleResult{Name: "old", Action: model.ActionInstall, ToVersion: "1.0.0"})
		}
		for _, m := range res.Modules {
			res.Plan = append([]model.PlanStep{{Module: m.Name, Action: m.Action, ToVersion: m.ToVersion}}, res.Plan...)
		}
		return res
	}
	rules := func(vs []Violation) []string {
		var out []string
		for _, v := range vs {
			if v.Rule == "R24" {
				out = append(out, v.Message)
			}
		}
		return out
	}
	req := &model.Request{Enable: []string{"app", "lib", "old"}}
	assert.Empty(t, rules(Check(cat, cluster, req, answer("2.0.0", false))))
	assert.Equal(t, []string{"requires another enabled module whose release matches lib >= 2.0.0, and none does"}, rules(Check(cat, cluster, req, answer("1.0.0", false))))
	assert.Equal(t, []string{"conflicts with old, whose release matches old"}, rules(Check(cat, cluster, req, answer("2.0.0", true))))
}
