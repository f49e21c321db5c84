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

// R28: the checker reads DKP v2 groups by their kind.
func TestCheckGroups(t *testing.T) {
	atom := func(name, c string) *model.Predicate {
		p := &model.Predicate{Op: model.PredicateModule, Module: name}
		if c != "" {
			v := model.MustParseConstraint(c)
			p.Version = &v
		}
		return p
	}
	anyOf := model.NewGroup(model.GroupAnyOf, "storage", "", []*model.Predicate{atom("csi", ">= 0.5.0"), atom("sds", "")})
	noneOf := model.NewGroup(model.GroupNoneOf, "legacy", "", []*model.Predicate{atom("proxy", "< 1.0.0")})
	rel := func(v string, cs ...model.CompoundRequirement) *model.Release {
		return &model.Release{Version: model.MustParseVersion(v), Requirements: model.Requirements{Compound: cs}}
	}
	cat, err := model.NewCatalog([]*model.Module{
		{Name: "app", Releases: []*model.Release{rel("1.0.0", anyOf, noneOf)}},
		{Name: "csi", Releases: []*model.Release{rel("0.4.0"), rel("0.5.0")}},
		{Name: "proxy", Releases: []*model.Release{rel("0.9.0"), rel("1.1.0")}},
	})
	require.NoError(t, err)
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.77.0"), Kubernetes: model.MustParseVersion("1.31.0"), Modules: map[string]model.ModuleState{}}
	answer := func(csi, proxy string) *model.Result {
		res := &model.Result{Status: model.StatusResolved}
		for _, m := range []model.ModuleResult{{Name: "csi", ToVersion: csi}, {Name: "proxy", ToVersion: proxy}, {Name: "app", ToVersion: "1.0.0"}} {
			m.Action = model.ActionInstall
			res.Modules = append(res.Modules, m)
			res.Plan = append(res.Plan, model.PlanStep{Module: m.Name, Action: m.Action, ToVersion: m.ToVersion})
		}
		return res
	}
	r28 := func(vs []Violation) []string {
		var out []string
		for _, v := range vs {
			if v.Rule == "R28" {
				out = append(out, v.Message)
			}
		}
		return out
	}
	req := &model.Request{Enable: []string{"app", "csi", "proxy"}}
	assert.Empty(t, r28(Check(cat, cluster, req, answer("0.5.0", "1.1.0"))))
	assert.Equal(t, []string{"anyOf group 'storage' unmet: no enabled module matches any(csi >= 0.5.0, sds)"}, r28(Check(cat, cluster, req, answer("0.4.0", "1.1.0"))))
	assert.Equal(t, []string{"noneOf group 'legacy' violated: forbidden modules installed: [proxy]"}, r28(Check(cat, cluster, req, answer("0.5.0", "0.9.0"))))
}
