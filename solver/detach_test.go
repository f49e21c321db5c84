package solver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/internal/randscen"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
)

// detachCatalog: a needs b >= 1.1; c and d are unrelated to both; the
// request installs e, which needs d.
func detachCatalog(t *testing.T) *model.Catalog {
	t.Helper()
	cat, err := model.NewCatalog([]*model.Module{
		fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("b", ">= 1.1")), fixture.Release("1.1.0", fixture.Needs("b", ">= 1.1")))),
		fixture.Module("b", fixture.Versions("1.0.0", "1.1.0", "1.2.0")),
		fixture.Module("c", fixture.Versions("1.0.0", "2.0.0")),
		fixture.Module("d", fixture.Versions("1.0.0", "1.1.0")),
		fixture.Module("e", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("d", ">= 1.0")))),
	})
	require.NoError(t, err)
	return cat
}

// D39: kept modules that share nothing with the request are left out of
// the encoding and still reported as kept, with their held-back reason.
func TestDetachKeepsUnrelatedModules(t *testing.T) {
	cat := detachCatalog(t)
	cluster := fixture.Cluster(map[string]model.ModuleState{
		"a": fixture.Enabled("1.0.0"), "b": fixture.Enabled("1.1.0"), "c": fixture.Enabled("1.0.0"), "d": fixture.Enabled("1.0.0"),
	})
	req := &model.Request{Enable: []string{"e"}}
	p := newProblem(compiledFor(cat), cluster, req)
	encode, detached := detacher{p}.detach(p.closure(false))
	assert.Equal(t, []string{"d", "e"}, viewNames(encode), "d is required by e, which may change")
	assert.Equal(t, []string{"a", "b", "c"}, viewNames(detached))

	res, err := Solve(context.Background(), cat, cluster, req)
	require.NoError(t, err)
	require.Equal(t, model.StatusResolved, res.Status)
	actions := map[string]model.Action{}
	for _, m := range res.Modules {
		actions[m.Name] = m.Action
		if m.Name == "c" {
			assert.Contains(t, m.HeldBack, "not in the request's update set")
		}
	}
	assert.Equal(t, map[string]model.Action{"a": model.ActionKeep, "b": model.ActionKeep, "c": model.ActionKeep, "d": model.ActionKeep, "e": model.ActionInstall}, actions)
	assert.Len(t, res.Plan, 5, "kept modules are in the plan too")
}

// When the kept modules break a rule among themselves, nothing is
// detached, so the answer is the full encoding's: unsatisfiable, and
// explained by the broken requirement.
func TestDetachFallsBackOnInconsistentCluster(t *testing.T) {
	cat := detachCatalog(t)
	cluster := fixture.Cluster(map[string]model.ModuleState{
		"a": fixture.Enabled("1.0.0"), "b": fixture.Enabled("1.0.0"), "d": fixture.Enabled("1.0.0"),
	})
	req := &model.Request{Enable: []string{"e"}}
	p := newProblem(compiledFor(cat), cluster, req)
	closure := p.closure(false)
	encode, detached := detacher{p}.detach(closure)
	assert.Empty(t, detached)
	assert.Len(t, encode, len(closure))

	res, err := Solve(context.Background(), cat, cluster, req)
	require.NoError(t, err)
	require.Equal(t, model.StatusUnsatisfiable, res.Status)
	found := false
	for _, f := range res.Explanation.Facts {
		found = found || strings.Contains(f.Message, "requires b >= 1.1")
	}
	assert.True(t, found, "facts: %+v", res.Explanation.Facts)
}

// A request that updates the platform's DKP version keeps built-in modules
// in the encoding: their version is the candidate (R5).
func TestDetachKeepsBuiltInOnDKPUpgrade(t *testing.T) {
	cat, err := model.NewCatalog([]*model.Module{fixture.Module("core", fixture.BuiltIn()), fixture.Module("x", fixture.Versions("1.0.0"))})
	require.NoError(t, err)
	cluster := fixture.Cluster(map[string]model.ModuleState{"core": fixture.Enabled("")})
	p := newProblem(compiledFor(cat), cluster, &model.Request{Enable: []string{"x"}, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}})
	assert.False(t, detacher{p}.frozen(p.view("core")))
	p = newProblem(compiledFor(cat), cluster, &model.Request{Enable: []string{"x"}})
	assert.True(t, detacher{p}.frozen(p.view("core")))
}

// Detaching changes no answer: on random scenarios (the oracle's) and on
// every scenario file, the answer with frozen modules detached is the one
// the full encoding gives.
func TestDetachChangesNoAnswer(t *testing.T) {
	ctx := context.Background()
	detachedSome := 0
	check := func(name string, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) {
		if validate(cat, cluster, req) != nil {
			return
		}
		c := compiledFor(cat)
		p := newProblem(c, cluster, req)
		if _, detached := (detacher{p}).detach(p.closure(false)); len(detached) > 0 {
			detachedSome++
		}
		want, err := c.Solve(ctx, cluster, req)
		require.NoError(t, err, name)
		s := newTestSession(ctx, newSettings(nil), c, cluster, req)
		s.p.hooks.keepFrozen = true
		got, err := s.run()
		require.NoError(t, err, name)
		got, err = c.addRoute(ctx, c, newSettings(nil), cluster, req, got) // R33, as Solve adds it
		require.NoError(t, err, name)
		want.Stats, got.Stats = model.Stats{}, model.Stats{}
		assert.Equal(t, want, got, name)
	}
	for seed := uint64(1); seed <= 1000; seed++ {
		sc := randscen.Generate(seed)
		check(fmt.Sprintf("seed %d", seed), sc.Catalog, sc.Cluster, sc.Request)
	}
	for _, sc := range scenariotest.All(t, "..") {
		check(sc.File, sc.Catalog, sc.Cluster, sc.Request)
	}
	t.Logf("%d requests detach modules", detachedSome)
	assert.Greater(t, detachedSome, 20, "the scenarios detach modules")
}
