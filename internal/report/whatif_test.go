package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// Every fact kind names its module among the blockers when it is the only
// fact; the kinds about a platform version (DKP, Kubernetes and the other
// components of R22) name theirs ahead of the rest.
func TestBlockersEveryKind(t *testing.T) {
	for _, kind := range model.FactKinds() {
		alone := &model.Explanation{Facts: []model.Fact{{Kind: kind, Module: "m"}}}
		assert.Equal(t, []string{"m"}, alone.Blockers(), "%s alone", kind)

		mixed := &model.Explanation{Facts: []model.Fact{
			{Kind: model.FactClusterEnabled, Module: "other"},
			{Kind: kind, Module: "m"},
			{Kind: model.FactModuleRequirement, Module: "z", Requires: "m"},
		}}
		want := []string{"m", "other", "z"}
		if (model.Fact{Kind: kind}).AboutPlatform() {
			want = []string{"m"}
		}
		assert.Equal(t, want, mixed.Blockers(), "%s among others", kind)
	}
}

// An R22 platform fact counts as much as a DKP or Kubernetes one.
func TestBlockersPlatformComponent(t *testing.T) {
	e := &model.Explanation{Facts: []model.Fact{
		{Kind: model.FactKubernetesRequirement, Module: "app", Constraint: "< 1.32"},
		{Kind: model.FactModuleRequirement, Module: "app", Requires: "operator"},
		{Kind: model.FactPlatformRequirement, Module: "operator", Constraint: ">= 0.17", Requires: "kudo"},
		{Kind: model.FactClusterEnabled, Module: "app"},
		{Kind: model.FactKubernetesRequirement, Module: "app", Constraint: "< 1.33"},
	}}
	assert.Equal(t, []string{"app", "operator"}, e.Blockers())
}

func matrixCatalog(t *testing.T) *model.Catalog {
	t.Helper()
	cat, err := model.NewCatalog([]*model.Module{
		{Name: "app", Releases: []*model.Release{{Version: model.MustParseVersion("1.0.0")}, {Version: model.MustParseVersion("1.1.0")}}},
		{Name: "prometheus", Embedded: true},
	})
	require.NoError(t, err)
	return cat
}

func blocked(facts ...model.Fact) *model.Result {
	return &model.Result{Status: model.StatusUnsatisfiable, Explanation: &model.Explanation{
		Summary: "the request cannot be met", Facts: facts,
		Suggestions: []model.Suggestion{{Message: "disable module app"}},
	}}
}

func twoByTwo() *Matrix {
	v := model.MustParseVersion
	return &Matrix{Deckhouse: []model.Version{v("1.73.0"), v("1.74.0")}, Kubernetes: []model.Version{v("1.31.0"), v("1.32.0")}}
}

func TestMatrixRequests(t *testing.T) {
	base := &model.Request{UpdateAll: true, Enable: []string{"app"}}
	names, reqs := twoByTwo().Requests(base)
	assert.Equal(t, []string{
		"deckhouse 1.73.0, kubernetes 1.31.0", "deckhouse 1.73.0, kubernetes 1.32.0",
		"deckhouse 1.74.0, kubernetes 1.31.0", "deckhouse 1.74.0, kubernetes 1.32.0",
	}, names)
	require.Len(t, reqs, 4)
	assert.Equal(t, "1.74.0", model.VersionString(reqs[2].Platform.Deckhouse))
	assert.Equal(t, "1.32.0", model.VersionString(reqs[3].Platform.Kubernetes))
	reqs[0].Enable[0] = "changed"
	assert.Equal(t, "app", base.Enable[0], "each scenario has its own copy of the base request")
}

// TestMatrixWithoutDKP: a cluster whose catalog needs no DKP version has
// none, and the matrix names its scenarios by Kubernetes alone (D142).
func TestMatrixWithoutDKP(t *testing.T) {
	v := model.MustParseVersion
	m := &Matrix{Deckhouse: []model.Version{nil}, Kubernetes: []model.Version{v("1.31.0")}}
	names, reqs := m.Requests(&model.Request{})
	assert.Equal(t, []string{"kubernetes 1.31.0"}, names)
	assert.Nil(t, reqs[0].Platform.Deckhouse)
}

func TestWhatIfGrid(t *testing.T) {
	updated := &model.Result{Status: model.StatusResolved, Modules: []model.ModuleResult{
		{Name: "app", Action: model.ActionUpdate, FromVersion: "1.0.0", ToVersion: "1.1.0"},
		{Name: "prometheus", Action: model.ActionUpdate, FromVersion: "1.73.0", ToVersion: "1.74.0"},
	}}
	kept := &model.Result{Status: model.StatusResolved, Modules: []model.ModuleResult{{Name: "app", Action: model.ActionKeep, FromVersion: "1.0.0", ToVersion: "1.0.0"}}}
	kube := blocked(model.Fact{Kind: model.FactKubernetesRequirement, Module: "app"}, model.Fact{Kind: model.FactClusterEnabled, Module: "app"})
	b := &WhatIf{Catalog: matrixCatalog(t), Matrix: twoByTwo(), Scenarios: []Scenario{
		{Name: "a", Result: kept}, {Name: "b", Result: kube, Group: 1, Blockers: []model.Blocker{{Module: "app", Severity: model.SeverityWarning, First: 1}}},
		{Name: "c", Result: updated, Group: 2}, {Name: "d", Result: kube, Group: 1, Blockers: []model.Blocker{{Module: "app", Severity: model.SeverityWarning, First: 1, Accepted: true}}},
	}}
	var out bytes.Buffer
	require.NoError(t, b.Table(&out))
	assert.Equal(t, `DKP \ KUBERNETES  1.31.0             1.32.0
1.73.0            A ok               B blocked: app (warning)
1.74.0            C ok, 1 to update  B blocked: app (warning, accepted)

A: deckhouse 1.73.0 × kubernetes 1.31.0: ok
B: deckhouse 1.73.0, 1.74.0 × kubernetes 1.32.0: blocked
  app: warning, blocks from b
  the request cannot be met
  suggestion: disable module app
C: deckhouse 1.74.0 × kubernetes 1.31.0: ok, 1 to update
  app update: 1.0.0 → 1.1.0
  built in: 1 module moves with DKP 1.73.0 → 1.74.0
`, out.String(), "a built-in module follows the platform and is no update; a group is reported once")

	b.Scenarios = []Scenario{{Name: "a", Result: kept}, {Name: "b", Result: kept}, {Name: "c", Result: updated, Group: 2}, {Name: "d", Problem: `request.pin["app"]: invalid input`, Group: 3}}
	out.Reset()
	require.NoError(t, b.Table(&out))
	assert.Contains(t, out.String(), "\nA: deckhouse 1.73.0 × kubernetes 1.31.0, 1.32.0: ok\n")
	assert.Contains(t, out.String(), "\nC: deckhouse 1.74.0 × kubernetes 1.32.0: bad input: request.pin[\"app\"]: invalid input\n")
	assert.Contains(t, out.String(), "1.74.0            B ok, 1 to update  C error\n")

	b.Scenarios = []Scenario{{Name: "a", Result: kept}, {Name: "b", Result: kept, Group: 1}, {Name: "c", Result: kept}, {Name: "d", Result: kept, Group: 1}}
	out.Reset()
	require.NoError(t, b.Table(&out))
	assert.Contains(t, out.String(), "\nA: deckhouse 1.73.0, 1.74.0 × kubernetes 1.31.0: ok\nB: deckhouse 1.73.0, 1.74.0 × kubernetes 1.32.0: ok")

	b.Scenarios = []Scenario{{Name: "a", Result: kept}, {Name: "b", Result: kept}, {Name: "c", Result: kept}, {Name: "d", Result: kept, Group: 3}}
	out.Reset()
	require.NoError(t, b.Table(&out))
	assert.Contains(t, out.String(), "\nA: deckhouse 1.73.0 × kubernetes 1.31.0, 1.32.0; deckhouse 1.74.0 × kubernetes 1.31.0: ok", "rows with other columns are named apart")
}

func TestGroupLetter(t *testing.T) {
	assert.Equal(t, []string{"A", "Z", "AA", "AZ", "BA"}, []string{groupLetter(0), groupLetter(25), groupLetter(26), groupLetter(51), groupLetter(52)})
}

// A matrix blocked everywhere by the same facts, none about a platform
// version, says so once; a shard of it (no matrix) prints every cell.
func TestWhatIfCommonBlock(t *testing.T) {
	same := blocked(model.Fact{Kind: model.FactExperimental, Module: "app"})
	cells := []Scenario{{Name: "a", Result: same}, {Name: "b", Result: same, Group: 1}, {Name: "c", Result: same, Group: 2}, {Name: "d", Result: same, Group: 3}}
	var out bytes.Buffer
	require.NoError(t, (&WhatIf{Catalog: matrixCatalog(t), Matrix: twoByTwo(), Scenarios: cells}).Table(&out))
	assert.Equal(t, `every scenario is blocked for one reason that no platform version changes (2 DKP × 2 Kubernetes versions):
  the request cannot be met
  suggestion: disable module app
`, out.String())

	out.Reset()
	require.NoError(t, (&WhatIf{Catalog: matrixCatalog(t), Scenarios: cells}).Table(&out))
	assert.Equal(t, 4, bytes.Count(out.Bytes(), []byte(": blocked\n")))

	platform := blocked(model.Fact{Kind: model.FactPlatformRequirement, Module: "app", Requires: "kudo"})
	out.Reset()
	require.NoError(t, (&WhatIf{Catalog: matrixCatalog(t), Matrix: twoByTwo(), Scenarios: []Scenario{
		{Name: "a", Result: platform}, {Name: "b", Result: platform}, {Name: "c", Result: platform}, {Name: "d", Result: platform},
	}}).Table(&out))
	assert.Contains(t, out.String(), "blocked: app", "a platform component's requirement is about the platform: the grid stays")
}

func TestUpdates(t *testing.T) {
	res := &model.Result{Modules: []model.ModuleResult{
		{Name: "app", Action: model.ActionInstall, ToVersion: "1.1.0"},
		{Name: "gone", Action: model.ActionDisable, FromVersion: "2.0.0"},
		{Name: "old", Action: model.ActionDowngrade, FromVersion: "2.0.0", ToVersion: "1.9.0"},
		{Name: "prometheus", Action: model.ActionDisable},
		{Name: "same", Action: model.ActionKeep, FromVersion: "1.0.0", ToVersion: "1.0.0"},
	}}
	assert.Equal(t, []string{
		"app install: - → 1.1.0", "gone disable: 2.0.0", "old downgrade: 2.0.0 → 1.9.0", "prometheus disable: -",
	}, Updates(matrixCatalog(t), res), "a built-in module that is disabled is a change")
}

// The page is self-contained: no script, nothing fetched; its texts are
// escaped; each cell is coloured by its outcome and links to its group.
func TestWhatIfHTML(t *testing.T) {
	updated := &model.Result{Status: model.StatusResolved, Modules: []model.ModuleResult{{Name: "app", Action: model.ActionUpdate, FromVersion: "1.0.0", ToVersion: "1.1.0"}},
		Plan: []model.PlanStep{{Module: "app", Action: model.ActionUpdate, FromVersion: "1.0.0", ToVersion: "1.1.0"}, {Module: "prometheus", Action: model.ActionUpdate, FromVersion: "1.73.0", ToVersion: "1.74.0"}}}
	kube := blocked(model.Fact{Kind: model.FactKubernetesRequirement, Module: "app", Message: "app requires kubernetes < 1.32 <b>"})
	b := &WhatIf{Catalog: matrixCatalog(t), Matrix: twoByTwo(), Scenarios: []Scenario{
		{Name: "a", Result: updated}, {Name: "b", Result: kube, Group: 1, Blockers: []model.Blocker{{Module: "app", Severity: model.SeverityError, First: 1}}},
		{Name: "c", Result: updated}, {Name: "d", Result: kube, Group: 3, Blockers: []model.Blocker{{Module: "app", Severity: model.SeverityWarning, First: 1, Accepted: true}}},
	}}
	var out bytes.Buffer
	require.NoError(t, b.HTML(&out))
	page := out.String()
	for _, outside := range []string{"<script", "http://", "https://", "src=", "@import", "url("} {
		assert.NotContains(t, page, outside, "the page is self-contained")
	}
	assert.Contains(t, page, "app requires kubernetes &lt; 1.32 &lt;b&gt;", "texts are escaped")
	assert.Equal(t, 4, strings.Count(page, `<td class="cell `))
	assert.Contains(t, page, `<td class="cell updates" data-group="A" title="a"><a href="#group-A">`)
	assert.Contains(t, page, `<td class="cell error" data-group="B" title="b">`)
	assert.Contains(t, page, `<td class="cell accepted" data-group="C" title="d">`)
	assert.Equal(t, 3, strings.Count(page, `<article class="group `), "one section per group")
	assert.Contains(t, page, `<span class="badge accepted">warning, accepted</span> <b>app</b> blocks from b`)
	assert.Contains(t, page, `<li class="mono">app update: 1.0.0 → 1.1.0</li></ol>`, "the plan leaves out built-in modules, which follow the platform")

	b.Matrix = nil
	out.Reset()
	require.NoError(t, b.HTML(&out))
	assert.Contains(t, out.String(), `<table class="list">`, "free-form scenarios are listed")
	assert.Contains(t, out.String(), `<tr><th scope="row">d</th><td class="cell accepted" data-group="C">`)
}

func TestOutcomeClass(t *testing.T) {
	kube := blocked(model.Fact{Kind: model.FactKubernetesRequirement, Module: "app"})
	warn, err := model.Blocker{Module: "a", Severity: model.SeverityWarning}, model.Blocker{Module: "b", Severity: model.SeverityError}
	acc := model.Blocker{Module: "c", Severity: model.SeverityError, Accepted: true}
	for _, tc := range []struct {
		s    Scenario
		want string
	}{
		{Scenario{Problem: "bad"}, "bad"},
		{Scenario{Result: &model.Result{Status: model.StatusResolved}}, "ready"},
		{Scenario{Result: kube}, "error"},
		{Scenario{Result: kube, Blockers: []model.Blocker{warn, acc}}, "warning"},
		{Scenario{Result: kube, Blockers: []model.Blocker{acc, warn, err}}, "error"},
		{Scenario{Result: kube, Blockers: []model.Blocker{err, warn}}, "error"},
		{Scenario{Result: kube, Blockers: []model.Blocker{acc}}, "accepted"},
	} {
		assert.Equal(t, tc.want, outcomeClass(matrixCatalog(t), tc.s), "%+v", tc.s.Blockers)
	}
}

// Free-form scenarios with the same answer are reported once, under
// their names.
func TestWhatIfFreeFormGroups(t *testing.T) {
	kept := &model.Result{Status: model.StatusResolved}
	kube := blocked(model.Fact{Kind: model.FactKubernetesRequirement, Module: "app"})
	b := &WhatIf{Catalog: matrixCatalog(t), Scenarios: []Scenario{
		{Name: "enable x", Result: kept}, {Name: "k8s 1.32", Result: kube, Group: 1}, {Name: "k8s 1.33", Result: kube, Group: 1},
	}}
	var out bytes.Buffer
	require.NoError(t, b.Table(&out))
	assert.Equal(t, `enable x: ok
k8s 1.32; k8s 1.33: blocked
  the request cannot be met
  suggestion: disable module app
`, out.String())
}

// TestOutcomeCountsByKind: a cell counts installs apart from updates, so
// "ok, 4 to update" never stands for two installs and two updates.
func TestOutcomeCountsByKind(t *testing.T) {
	res := &model.Result{Status: model.StatusResolved, Modules: []model.ModuleResult{
		{Name: "app", Action: model.ActionInstall, ToVersion: "1.1.0"},
		{Name: "b", Action: model.ActionUpdate, FromVersion: "1.0.0", ToVersion: "1.1.0"},
		{Name: "c", Action: model.ActionInstall, ToVersion: "2.0.0"},
		{Name: "d", Action: model.ActionUpdate, FromVersion: "1.0.0", ToVersion: "1.2.0"},
		{Name: "e", Action: model.ActionDisable, FromVersion: "1.0.0"},
		{Name: "prometheus", Action: model.ActionUpdate, FromVersion: "1.73.0", ToVersion: "1.74.0"},
	}}
	b := &WhatIf{Catalog: matrixCatalog(t), Scenarios: []Scenario{{Name: "s", Result: res}}}
	assert.Equal(t, "ok, 2 to install, 2 to update, 1 to disable", b.outcome(b.Scenarios[0]))
	var out bytes.Buffer
	require.NoError(t, b.Table(&out))
	assert.True(t, strings.HasPrefix(out.String(), "s: ok, 2 to install, 2 to update, 1 to disable\n  app install: - → 1.1.0\n"), out.String())
}

// R33: the grid marks the cluster's own cell, says where a cell is a
// downgrade, and each group its route, with the changes a step needs;
// the batch's warnings come first.
func TestWhatIfGridRoutes(t *testing.T) {
	v := model.MustParseVersion
	own := &model.Result{Status: model.StatusResolved}
	routed := &model.Result{Status: model.StatusResolved, Route: []model.RouteStep{
		{Deckhouse: "1.74", Kubernetes: "1.31.0"},
		{Deckhouse: "1.74", Kubernetes: "1.32.0", Modules: []model.PlanStep{{Module: "app", Action: model.ActionUpdate, FromVersion: "1.0.0", ToVersion: "1.1.0"}}},
	}}
	m := &Matrix{Deckhouse: []model.Version{v("1.73.0"), v("1.74.0")}, Kubernetes: []model.Version{v("1.30.0"), v("1.31.0")},
		Cluster: model.Platform{Deckhouse: v("1.73.0"), Kubernetes: v("1.31.0")}}
	b := &WhatIf{Catalog: matrixCatalog(t), Matrix: m, Warnings: []string{"kubernetes 1.30.0 is a minor below the cluster's 1.31.0"}, Scenarios: []Scenario{
		{Name: "a", Result: own}, {Name: "b", Result: own}, {Name: "c", Result: own, Group: 0}, {Name: "d", Result: routed, Group: 3},
	}}
	var out bytes.Buffer
	require.NoError(t, b.Table(&out))
	text := out.String()
	assert.True(t, strings.HasPrefix(text, "warning: kubernetes 1.30.0 is a minor below the cluster's 1.31.0\n"), text)
	assert.Contains(t, text, "1.73.0            A ok, downgrade  * A ok")
	assert.Contains(t, text, "* the cluster's own platform; every other cell is reached by the route its group lists")
	assert.Contains(t, text, "B ok, 2 steps")
	assert.Contains(t, text, "  route: 1.74/1.31 → 1.74/1.32\n  before 1.74/1.32: app update: 1.0.0 → 1.1.0\n")
}
