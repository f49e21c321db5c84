package readiness

import (
	"errors"
	"hash/maphash"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

func TestReplaceVersion(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"1.32.1 is greater than or equal to 1.32", "{k} is greater than or equal to 1.32"},
		{"the cluster has 1.32.1.", "the cluster has {k}."},
		{`"toVersion":"1.32.1"`, `"toVersion":"{k}"`},
		{"1.32.10 and 11.32.1 and 1.32.1-rc.1 and 1.32.1.2 and 0.1.32.1", "1.32.10 and 11.32.1 and 1.32.1-rc.1 and 1.32.1.2 and 0.1.32.1"},
		{"1.32.1, 1.32.1", "{k}, {k}"},
	} {
		assert.Equal(t, tc.want, replaceVersion(tc.in, "1.32.1", "{k}"), tc.in)
	}
	assert.Equal(t, "x", replaceVersion("x", "", "{k}"))
}

func platformReq(dkp, kube string) *model.Request {
	req := &model.Request{UpdateAll: true}
	if dkp != "" {
		req.Platform.Deckhouse = model.MustParseVersion(dkp)
	}
	if kube != "" {
		req.Platform.Kubernetes = model.MustParseVersion(kube)
	}
	return req
}

func resolvedTo(versions ...string) Answer {
	res := &model.Result{Status: model.StatusResolved, Stats: model.Stats{SolveMicros: int64(len(versions))}}
	for i, v := range versions {
		res.Modules = append(res.Modules, model.ModuleResult{Name: string(rune('a' + i)), Action: model.ActionUpdate, FromVersion: "1.0.0", ToVersion: v})
	}
	return Answer{Result: res}
}

func blockedBy(kube string, facts ...model.Fact) Answer {
	return Answer{Result: &model.Result{Status: model.StatusUnsatisfiable, Explanation: &model.Explanation{
		Summary: "the request cannot be met: app requires kubernetes < 1.32: the cluster has " + kube, Facts: facts,
	}}}
}

// Groups are exact: answers equal apart from each scenario's own
// platform version texts (and stats) share a group; any other
// difference, a version that is not the scenario's own included, keeps
// them apart.
func TestReadinessGroups(t *testing.T) {
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.72.0"), Kubernetes: model.MustParseVersion("1.30.0")}
	reqs := []*model.Request{
		platformReq("1.73.0", "1.31.0"), platformReq("1.74.0", "1.31.0"), platformReq("1.75.0", "1.31.0"),
		platformReq("1.73.0", "1.32.0"), platformReq("1.74.0", "1.33.0"), platformReq("1.75.0", "1.31.0"),
		{Enable: []string{"x"}},
	}
	kube := model.Fact{Kind: model.FactKubernetesRequirement, Module: "app"}
	answers := []Answer{
		resolvedTo("1.73.0", "2.0.0"), // the built-in module follows DKP
		resolvedTo("1.74.0", "2.0.0"), // equal apart from the DKP version
		resolvedTo("1.74.0", "2.0.0"), // 1.74.0 is not this scenario's DKP version
		blockedBy("1.32.0", kube),     //
		blockedBy("1.33.0", kube),     // equal apart from the Kubernetes version
		{Err: errors.New("bad")},      //
		{Err: errors.New("bad")},      // the same error
	}
	r := New(cluster, reqs, nil)
	var cells []Cell
	for i, a := range answers {
		cells = append(cells, r.Add(i, a)...)
	}
	require.Len(t, cells, len(answers))
	var groups []int
	for i, c := range cells {
		assert.Equal(t, i, c.Index)
		groups = append(groups, c.Group)
	}
	assert.Equal(t, []int{0, 0, 2, 3, 3, 5, 5}, groups)
}

// A blocker is an error when it blocks a scenario at the next minors the
// batch asks about, a warning otherwise; each names the first scenario
// it blocks; cells are held back until every next-minor scenario is in.
func TestReadinessSeverity(t *testing.T) {
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.72.4"), Kubernetes: model.MustParseVersion("1.30.8")}
	reqs := []*model.Request{
		platformReq("1.72.4", "1.33.0"), // later: blocked by app and db
		platformReq("1.72.4", "1.32.0"), // later: blocked by db
		platformReq("1.73.0", "1.31.0"), // the next minors: blocked by app
		platformReq("1.74.0", "1.31.0"), // a later DKP: resolves
		{Enable: []string{"db"}},        // asks about no platform version
	}
	app := model.Fact{Kind: model.FactKubernetesRequirement, Module: "app"}
	db := model.Fact{Kind: model.FactDeckhouseRequirement, Module: "db"}
	dbOff := model.Fact{Kind: model.FactClusterEnabled, Module: "db"}
	answers := []Answer{blockedBy("1.33.0", app, db), blockedBy("1.32.0", db, dbOff), blockedBy("1.31.0", app), resolvedTo("2.0.0"), blockedBy("", dbOff)}
	r := New(cluster, reqs, []string{"deckhouse-requirement"})
	assert.Nil(t, r.Add(0, answers[0]), "held back until the next minors are answered")
	assert.Nil(t, r.Add(1, answers[1]))
	cells := r.Add(2, answers[2])
	require.Len(t, cells, 3)
	cells = append(cells, r.Add(3, answers[3])...)
	cells = append(cells, r.Add(4, answers[4])...)
	require.Len(t, cells, 5)
	errApp := model.Blocker{Module: "app", Severity: model.SeverityError, First: 0}
	warnDB := model.Blocker{Module: "db", Severity: model.SeverityWarning, First: 0, Accepted: true}
	assert.Equal(t, []model.Blocker{errApp, warnDB}, cells[0].Blockers)
	assert.Equal(t, []model.Blocker{warnDB}, cells[1].Blockers, "db's kinds that make it a blocker are all accepted")
	assert.Equal(t, []model.Blocker{errApp}, cells[2].Blockers)
	assert.Empty(t, cells[3].Blockers)
	assert.Empty(t, cells[4].Blockers, "a scenario that asks about no platform version has no R30 blockers")
	assert.False(t, r.Ready(), "the first scenario is blocked by app, which is not accepted")

	r = New(cluster, reqs, []string{"app", "db"})
	for i, a := range answers {
		r.Add(i, a)
	}
	assert.True(t, r.Ready(), "every risk accepted")
}

// Ready counts every unaccepted risk, not only the first scenario's.
func TestReadinessReady(t *testing.T) {
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.72.4"), Kubernetes: model.MustParseVersion("1.30.8")}
	reqs := []*model.Request{platformReq("", "1.31.0"), platformReq("", "1.32.0")}
	app := model.Fact{Kind: model.FactKubernetesRequirement, Module: "app"}
	for _, tc := range []struct {
		name    string
		answers []Answer
		accept  []string
		ready   bool
	}{
		{"all resolve", []Answer{resolvedTo("1.0.0"), resolvedTo("1.0.0")}, nil, true},
		{"a later version blocked", []Answer{resolvedTo("1.0.0"), blockedBy("1.32.0", app)}, nil, false},
		{"its risk accepted", []Answer{resolvedTo("1.0.0"), blockedBy("1.32.0", app)}, []string{"app"}, true},
		{"the first is bad input", []Answer{{Err: errors.New("bad")}, resolvedTo("1.0.0")}, nil, false},
		{"the first blocked without a module", []Answer{blockedBy("1.31.0", model.Fact{Kind: model.FactPreference}), resolvedTo("1.0.0")}, []string{"preference"}, false},
	} {
		r := New(cluster, reqs, tc.accept)
		assert.False(t, r.Ready(), "%s: not before the answers", tc.name)
		for i, a := range tc.answers {
			r.Add(i, a)
		}
		assert.Equal(t, tc.ready, r.Ready(), tc.name)
	}
}

// The next minor of a component is the lowest asked about above the one
// the cluster runs, or the one it runs when none is above it.
func TestNextMinorScenarios(t *testing.T) {
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.72.4"), Kubernetes: model.MustParseVersion("1.30.8")}
	reqs := []*model.Request{
		platformReq("1.72.5", "1.29.0"), platformReq("1.73.9", "1.31.2"), platformReq("1.74.0", "1.31.0"),
		platformReq("1.73.0", "1.33.0"), platformReq("", "1.31.9"), {UpdateAll: true},
	}
	assert.Equal(t, []bool{true, true, false, false, true, false}, nextMinorScenarios(cluster, reqs))
	assert.Equal(t, []bool{true, true}, nextMinorScenarios(cluster, []*model.Request{platformReq("1.72.0", ""), platformReq("1.72.9", "")}),
		"no DKP minor above the running one: the running minor is the next")
}

var testSeed = maphash.MakeSeed()
