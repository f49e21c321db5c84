package solver

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
)

// TestWhatIfMatchesSolve checks that every answer of a what-if batch is
// the answer Solve gives for that request alone, on every scenario: the
// scenario's request, and the same request on a few candidate platforms.
func TestWhatIfMatchesSolve(t *testing.T) {
	for _, sc := range scenariotest.All(t, "..") {
		t.Run(sc.Name(), func(t *testing.T) { checkWhatIf(t, sc.Scenario) })
	}
}

func checkWhatIf(t *testing.T, sc *catalog.Scenario) {
	reqs := []*model.Request{sc.Request}
	for _, k := range []string{"1.29.0", "1.31.0", "1.33.0"} {
		r := sc.Request.Clone()
		r.Platform.Kubernetes = model.MustParseVersion(k)
		reqs = append(reqs, r)
	}
	next := 0
	err := WhatIf(context.Background(), sc.Catalog, sc.Cluster, reqs, func(i int, a Answer) error {
		assert.Equal(t, next, i, "answers come in request order")
		next++
		want, wantErr := Solve(context.Background(), sc.Catalog, sc.Cluster, reqs[i])
		require.Equal(t, wantErr, a.Err)
		if wantErr == nil {
			// Stats describe the work: a class member carries its class's.
			want.Stats, a.Result.Stats = model.Stats{}, model.Stats{}
			assert.Equal(t, want, a.Result, "scenario %d", i)
		}
		return nil
	}, WithWorkers(3))
	require.NoError(t, err)
	assert.Equal(t, len(reqs), next)
}

func TestWhatIfStops(t *testing.T) {
	cat, err := model.NewCatalog([]*model.Module{{Name: "a", Releases: []*model.Release{{Version: model.MustParseVersion("1.0.0")}}}})
	require.NoError(t, err)
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.73.0"), Kubernetes: model.MustParseVersion("1.30.0")}
	reqs := make([]*model.Request, 50)
	for i := range reqs {
		reqs[i] = &model.Request{Enable: []string{"a"}}
	}
	reqs[1] = &model.Request{Enable: []string{"nope"}}

	t.Run("bad input is an answer, and the batch goes on", func(t *testing.T) {
		n := 0
		require.NoError(t, WhatIf(context.Background(), cat, cluster, reqs, func(i int, a Answer) error {
			if i == 1 {
				assert.ErrorIs(t, a.Err, model.ErrUnknownModule)
			} else {
				assert.Equal(t, model.StatusResolved, a.Result.Status)
			}
			n++
			return nil
		}))
		assert.Equal(t, len(reqs), n)
	})
	t.Run("an emit error stops the batch", func(t *testing.T) {
		stop := errors.New("stop")
		n := 0
		err := WhatIf(context.Background(), cat, cluster, reqs, func(int, Answer) error { n++; return stop })
		assert.ErrorIs(t, err, stop)
		assert.Equal(t, 1, n)
	})
	t.Run("a cancelled context stops the batch", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := WhatIf(ctx, cat, cluster, reqs, func(int, Answer) error { return nil })
		assert.ErrorIs(t, err, context.Canceled)
	})
	t.Run("an empty batch", func(t *testing.T) {
		assert.NoError(t, WhatIf(context.Background(), cat, cluster, nil, func(int, Answer) error { t.Fatal("no answers"); return nil }))
	})
}

// TestWhatIfManyRequestsOneWorker answers a varied batch on the demo
// catalog with one worker, which answers every class in turn, and
// compares each answer with Solve's.
func TestWhatIfManyRequestsOneWorker(t *testing.T) {
	cat, err := catalog.Demo()
	require.NoError(t, err)
	cluster, base, err := catalog.DemoState()
	require.NoError(t, err)
	reqs := []*model.Request{base, {}, {UpdateAll: true}, {UpdateAll: true, Strategy: model.StrategyDirect}}
	for _, m := range cat.Modules() {
		reqs = append(reqs, &model.Request{Enable: []string{m.Name}}, &model.Request{Disable: []string{m.Name}, AllowDisable: true})
		if len(m.Releases) > 0 {
			reqs = append(reqs, &model.Request{Pin: map[string]model.Version{m.Name: m.Releases[0].Version}, AutoEnable: true})
		}
	}
	for _, d := range []string{"1.71.0", "1.73.0", "1.75.0"} {
		for _, k := range []string{"1.29.0", "1.31.0", "1.32.0"} {
			reqs = append(reqs, &model.Request{UpdateAll: true, Platform: model.Platform{Deckhouse: model.MustParseVersion(d), Kubernetes: model.MustParseVersion(k)}})
		}
	}
	statuses := map[model.Status]int{}
	errs := 0
	err = WhatIf(context.Background(), cat, cluster, reqs, func(i int, a Answer) error {
		want, wantErr := Solve(context.Background(), cat, cluster, reqs[i])
		if wantErr != nil {
			assert.Equal(t, wantErr.Error(), a.Err.Error())
			errs++
			return nil
		}
		require.NoError(t, a.Err, "request %d", i)
		want.Stats, a.Result.Stats = model.Stats{}, model.Stats{}
		assert.Equal(t, want, a.Result, "request %d: %+v", i, reqs[i])
		statuses[want.Status]++
		return nil
	}, WithWorkers(1))
	require.NoError(t, err)
	assert.Positive(t, statuses[model.StatusResolved])
	assert.Positive(t, statuses[model.StatusUnsatisfiable], "the batch must hold unsatisfiable requests too")
	t.Logf("%d requests: %v, %d bad input", len(reqs), statuses, errs)
}

// A class's first request is resolved as Solve resolves it (D436): the
// answers are Solve's, stats included but for the time.
func TestWhatIfStatsAreSolves(t *testing.T) {
	var mods []*model.Module
	for m := 0; m < 30; m++ {
		mod := &model.Module{Name: fmt.Sprintf("m%02d", m)}
		for r := 0; r < 60; r++ {
			rel := &model.Release{Version: model.MustParseVersion(fmt.Sprintf("1.%d.0", r))}
			if m > 0 && r%7 == 3 {
				c := model.MustParseConstraint(fmt.Sprintf(">= 1.%d", r/2))
				rel.Requirements.Modules = []model.Dependency{{Module: fmt.Sprintf("m%02d", m-1), Constraint: c}}
			}
			if r%11 == 5 {
				c := model.MustParseConstraint("< 1.31")
				rel.Requirements.Kubernetes = &c
			}
			mod.Releases = append(mod.Releases, rel)
		}
		mods = append(mods, mod)
	}
	cat, err := model.NewCatalog(mods)
	require.NoError(t, err)
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.74.0"), Kubernetes: model.MustParseVersion("1.30.0"), Modules: map[string]model.ModuleState{}}
	on := true
	for _, m := range mods[:20] {
		cluster.Modules[m.Name] = model.ModuleState{Enabled: &on, Version: m.Releases[10].Version}
	}
	var reqs []*model.Request
	for _, k := range []string{"1.30.0", "1.31.0", "1.32.0"} {
		reqs = append(reqs, &model.Request{UpdateAll: true, Platform: model.Platform{Kubernetes: model.MustParseVersion(k)}}, &model.Request{Enable: []string{"m25"}, AutoEnable: true})
	}
	err = WhatIf(context.Background(), cat, cluster, reqs, func(i int, a Answer) error {
		want, wantErr := Solve(context.Background(), cat, cluster, reqs[i])
		require.Equal(t, wantErr, a.Err)
		want.Stats.SolveMicros, a.Result.Stats.SolveMicros = 0, 0
		// Solve answers an enable on the state memo, whose views are
		// fewer (D225, D428): only the estimate counts them.
		want.Stats.MemoryBytes, a.Result.Stats.MemoryBytes = 0, 0
		assert.Equal(t, want, a.Result, "scenario %d", i)
		return nil
	}, WithWorkers(2))
	require.NoError(t, err)
}

// A requirement on a built-in module, whose version is the request's DKP
// version, is each request's own: an unsatisfiable request on DKP 1.66.3
// once made the next request, on 1.68.0, unsatisfiable too.
func TestWhatIfBuiltInRequirementPerRequest(t *testing.T) {
	cat, err := model.NewCatalog([]*model.Module{
		{Name: "ingress-nginx", Embedded: true},
		{Name: "hello-world", Releases: []*model.Release{{Version: model.MustParseVersion("1.0.0"),
			Requirements: model.Requirements{Modules: []model.Dependency{{Module: "ingress-nginx", Constraint: model.MustParseConstraint("> 1.67.0")}}}}}},
	})
	require.NoError(t, err)
	on := true
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.66.3"), Kubernetes: model.MustParseVersion("1.29.6"),
		Modules: map[string]model.ModuleState{"ingress-nginx": {Enabled: &on}}}
	var reqs []*model.Request
	for _, dkp := range []string{"1.66.3", "1.68.0", "1.66.0", "1.69.1"} {
		reqs = append(reqs, &model.Request{Enable: []string{"hello-world"}, Platform: model.Platform{Deckhouse: model.MustParseVersion(dkp)}})
	}
	statuses := []model.Status{model.StatusUnsatisfiable, model.StatusResolved, model.StatusUnsatisfiable, model.StatusResolved}
	err = WhatIf(context.Background(), cat, cluster, reqs, func(i int, a Answer) error {
		require.NoError(t, a.Err, "request %d", i)
		assert.Equal(t, statuses[i], a.Result.Status, "request %d", i)
		return nil
	}, WithWorkers(1))
	require.NoError(t, err)
}

// A batch holds each answer until every answer before it is handed out.
// A request rendered from its class's first answer shares that answer's
// lists until then, with a patch of what differs: the built-in module,
// whose version is the request's DKP version (D432). Once handed out, the
// answer is the one Solve gives, and lists it does not change stay shared.
func TestWhatIfClassMemberHoldsAPatch(t *testing.T) {
	var mods []*model.Module
	for m := range 6 {
		mod := &model.Module{Name: fmt.Sprintf("m%d", m)}
		for r := range 4 {
			mod.Releases = append(mod.Releases, &model.Release{Version: model.MustParseVersion(fmt.Sprintf("1.%d.0", r))})
		}
		mods = append(mods, mod)
	}
	mods = append(mods, &model.Module{Name: "z-built-in", Embedded: true})
	cat, err := model.NewCatalog(mods)
	require.NoError(t, err)
	c, err := Compile(cat)
	require.NoError(t, err)
	on := true
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.74.0"), Kubernetes: model.MustParseVersion("1.30.0"), Modules: map[string]model.ModuleState{
		"z-built-in": {Enabled: &on},
	}}
	for _, m := range mods[:6] {
		cluster.Modules[m.Name] = model.ModuleState{Enabled: &on, Version: m.Releases[1].Version}
	}
	at := func(dkp string) *model.Request {
		return &model.Request{UpdateAll: true, Platform: model.Platform{Deckhouse: model.MustParseVersion(dkp)}}
	}
	ctx := context.Background()
	cfg := newSettings([]Option{WithoutHeldBack()})
	s := newAnswering(newSession(ctx, cfg, c, cluster, at("1.74.1"), memoUse{}), c)
	first, err := s.run()
	require.NoError(t, err)
	out, patch, err := s.rerender(at("1.74.2"), first)
	require.NoError(t, err)
	require.NotNil(t, patch)
	assert.Same(t, &first.Modules[0], &out.Modules[0], "a member copied its class's lists before it was handed out")
	assert.Len(t, patch.modules, 1, "the patch holds the built-in module alone")

	var answers []*model.Result
	reqs := []*model.Request{at("1.74.1"), at("1.74.2"), at("1.74.3")}
	err = WhatIf(ctx, cat, cluster, reqs, func(i int, a Answer) error {
		want, err := Solve(ctx, cat, cluster, reqs[i], WithoutHeldBack())
		require.NoError(t, err)
		want.Stats, a.Result.Stats = model.Stats{}, model.Stats{}
		assert.Equal(t, want, a.Result, "scenario %d", i)
		answers = append(answers, a.Result)
		return nil
	}, WithoutHeldBack(), WithWorkers(1))
	require.NoError(t, err)
	require.Len(t, answers, 3)
	assert.NotSame(t, &answers[0].Modules[0], &answers[1].Modules[0], "the built-in module's entry differs, so the list is the member's own")
}
