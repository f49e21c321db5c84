package solver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/internal/randscen"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
)

// hub needs every one of deps at 2.0.0, and the cluster runs each at
// 1.0.0, outside the request's update set: the fix updates all of them.
func hubProblem(t *testing.T, deps ...string) (*model.Catalog, *model.ClusterState, *model.Request) {
	var needs []fixture.ReleaseOption
	mods := []*model.Module{}
	state := map[string]model.ModuleState{}
	for _, d := range deps {
		needs = append(needs, fixture.Needs(d, ">= 2.0.0"))
		mods = append(mods, fixture.Module(d, fixture.Versions("1.0.0", "2.0.0")))
		state[d] = fixture.Enabled("1.0.0")
	}
	mods = append(mods, fixture.Module("hub", fixture.Releases(fixture.Release("1.0.0", needs...))))
	cat, err := model.NewCatalog(mods)
	require.NoError(t, err)
	return cat, fixture.Cluster(state), &model.Request{Enable: []string{"hub"}, Strategy: model.StrategyDirect}
}

// A combined suggestion carries its parts as data: each a single change
// of its own kind, module and version, in the order the message names.
func TestCombinedSuggestionCarriesItsParts(t *testing.T) {
	cat, cluster, req := hubProblem(t, "auth", "rate-limit")
	res, err := Solve(context.Background(), cat, cluster, req)
	require.NoError(t, err)
	require.Equal(t, model.StatusUnsatisfiable, res.Status)
	require.Len(t, res.Explanation.Suggestions, 1)
	sug := res.Explanation.Suggestions[0]
	assert.Equal(t, model.SuggestCombined, sug.Kind)
	require.Len(t, sug.Changes, 2)
	var msgs []string
	for _, part := range sug.Changes {
		assert.Equal(t, model.SuggestUpdateModule, part.Kind)
		assert.Equal(t, "2.0.0", part.Version)
		assert.Empty(t, part.Changes, "a part is a single change")
		msgs = append(msgs, part.Message)
	}
	assert.ElementsMatch(t, []string{"auth", "rate-limit"}, []string{sug.Changes[0].Module, sug.Changes[1].Module})
	assert.Equal(t, strings.Join(msgs, " and "), sug.Message)
}

// Three changes are found when no pair works, and no set is offered
// when four are needed: the search stops at three, within its bound.
func TestCombinedSearchStopsAtThree(t *testing.T) {
	for _, n := range []int{3, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			deps := []string{"a", "b", "c", "d"}[:n]
			cat, cluster, req := hubProblem(t, deps...)
			s := newTestSession(context.Background(), newSettings([]Option{WithoutSuggestions(), WithoutHeldBack()}), compiledFor(cat), cluster, req)
			res, err := s.run()
			require.NoError(t, err)
			require.Equal(t, model.StatusUnsatisfiable, res.Status)
			ss := newSetSearch(s.suggesting)
			found, err := ss.run(s.core)
			require.NoError(t, err)
			assert.LessOrEqual(t, ss.trials, maxSetTrials+maxSetSize, "the search is bounded")
			assert.LessOrEqual(t, ss.relaxations, maxRelaxations)
			if n > maxSetSize {
				assert.Empty(t, found)
				return
			}
			require.Len(t, found, 1)
			assert.Len(t, found[0].Changes, n)
		})
	}
}

// Every combined suggestion of every scenario is verified as a whole and
// is minimal: with all its parts the request resolves, and without any
// one of them it does not.
func TestCombinedSuggestionsAreMinimal(t *testing.T) {
	checked := 0
	for _, sc := range scenariotest.All(t, "..") {
		if sc.Request == nil || sc.Expect.Error {
			continue
		}
		checked += checkCombined(t, sc.Catalog, sc.Cluster, sc.Request, sc.Name())
	}
	assert.Positive(t, checked, "some scenario has a combined suggestion")
}

// On random scenarios too.
func TestCombinedSuggestionsAreMinimalRandom(t *testing.T) {
	checked := 0
	for seed := uint64(1); seed <= 1500; seed++ {
		sc := randscen.Generate(seed)
		checked += checkCombined(t, sc.Catalog, sc.Cluster, sc.Request, fmt.Sprintf("seed %d", seed))
	}
	t.Logf("%d combined suggestions checked", checked)
	assert.Positive(t, checked)
}

// checkCombined solves req and checks each combined suggestion of the
// answer: two to three parts, offered only where no single change is,
// resolving with all its parts and not without any one. It returns how
// many it checked: those whose parts it can make from their data alone.
func checkCombined(t *testing.T, cat *model.Catalog, cluster *model.ClusterState, req *model.Request, where string) int {
	res, err := Solve(context.Background(), cat, cluster, req, WithoutHeldBack())
	if err != nil || res.Status != model.StatusUnsatisfiable {
		return 0
	}
	checked := 0
	sugs := res.Explanation.Suggestions
	for _, sug := range sugs {
		if sug.Kind != model.SuggestCombined {
			continue
		}
		assert.False(t, slices.ContainsFunc(sugs, func(s model.Suggestion) bool { return s.Kind != model.SuggestCombined }),
			"%s: sets only where no single change works", where)
		assert.True(t, len(sug.Changes) >= 2 && len(sug.Changes) <= maxSetSize, "%s: %s", where, sug.Message)
		status, ok := statusWith(t, cat, cluster, req, sug.Changes)
		if !ok {
			continue // a part this test cannot make from its data alone
		}
		checked++
		assert.Equal(t, model.StatusResolved, status, "%s: %s", where, sug.Message)
		for i := range sug.Changes {
			status, _ := statusWith(t, cat, cluster, req, slices.Delete(slices.Clone(sug.Changes), i, i+1))
			assert.NotEqual(t, model.StatusResolved, status, "%s: %s works without %q", where, sug.Message, sug.Changes[i].Message)
		}
	}
	return checked
}

// statusWith solves req with the changes of parts made, read from their
// data alone (kind, module, version), and returns the status, or false
// for a part it cannot read from its data.
func statusWith(t *testing.T, cat *model.Catalog, cluster *model.ClusterState, req *model.Request, parts []model.Suggestion) (model.Status, bool) {
	res, err, ok := solveWith(cat, cluster, req, parts)
	if !ok {
		return 0, false
	}
	require.NoError(t, err)
	return res.Status, true
}

// solveWith solves req with the changes of parts made, as statusWith
// does, and returns the answer or the error; ok is false for a part it
// cannot read from its data.
func solveWith(cat *model.Catalog, cluster *model.ClusterState, req *model.Request, parts []model.Suggestion) (*model.Result, error, bool) {
	cluster, req = cluster.Clone(), req.Clone()
	for _, p := range parts {
		switch p.Kind {
		case model.SuggestUpdateModule:
			req.Update = append(req.Update, p.Module)
		case model.SuggestUpgradeKubernetes:
			req.Platform.Kubernetes = model.MustParseVersion(p.Version)
		case model.SuggestUpgradeDeckhouse:
			req.Platform.Deckhouse = model.MustParseVersion(p.Version)
		case model.SuggestPinModule:
			if req.Pin == nil {
				req.Pin = map[string]model.Version{}
			}
			req.Pin[p.Module] = model.MustParseVersion(p.Version)
		case model.SuggestEnableModule:
			req.Disable = slices.DeleteFunc(req.Disable, func(n string) bool { return n == p.Module })
			req.Enable = append(req.Enable, p.Module)
		case model.SuggestDisableModule:
			req.Enable = slices.DeleteFunc(req.Enable, func(n string) bool { return n == p.Module })
			delete(req.Pin, p.Module)
			req.Disable = append(req.Disable, p.Module)
		case model.SuggestAllowExperimental:
			cluster.AllowExperimentalModules = true
		case model.SuggestDirectStrategy:
			req.Strategy = model.StrategyDirect
		case model.SuggestAutoEnable:
			req.AutoEnable = true
		default:
			return nil, nil, false
		}
	}
	res, err := Solve(context.Background(), cat, cluster, req, WithoutHeldBack(), WithoutSuggestions())
	return res, err, true
}

// A downgrade question lowers a platform component below what the
// cluster runs; no upgrade of that component answers it.
func TestLowers(t *testing.T) {
	v := model.MustParseVersion
	assert.True(t, lowers(v("3.0.0"), v("2.0.0")))
	assert.False(t, lowers(v("2.0.0"), v("3.0.0")))
	assert.False(t, lowers(v("2.0.0"), v("2.0.0")))
	assert.False(t, lowers(nil, v("2.0.0")), "a cluster that runs no such component")
	assert.False(t, lowers(v("2.0.0"), nil), "no question about it")
}

// Where only a downgrade fixes a request, the answer pins the module to
// the nearest release below the deployed one; where an update fixes it,
// no downgrade is offered.
func TestDowngradeOnlyWhereNothingElseWorks(t *testing.T) {
	cat, err := model.NewCatalog([]*model.Module{
		fixture.Module("app", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("lib", "< 2.0.0")))),
		fixture.Module("lib", fixture.Versions("1.0.0", "1.5.0", "2.0.0")),
	})
	require.NoError(t, err)
	cluster := fixture.Cluster(map[string]model.ModuleState{"lib": fixture.Enabled("2.0.0")})
	res, err := Solve(context.Background(), cat, cluster, &model.Request{Enable: []string{"app"}})
	require.NoError(t, err)
	require.Equal(t, model.StatusUnsatisfiable, res.Status)
	var msgs []string
	for _, s := range res.Explanation.Suggestions {
		msgs = append(msgs, s.Message)
	}
	assert.Contains(t, msgs, "pin lib to 1.5.0 (request.pin)")

	cat, err = model.NewCatalog([]*model.Module{
		fixture.Module("app", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("lib", ">= 1.5.0")))),
		fixture.Module("lib", fixture.Versions("1.0.0", "1.2.0", "1.5.0")),
	})
	require.NoError(t, err)
	cluster = fixture.Cluster(map[string]model.ModuleState{"lib": fixture.Enabled("1.2.0")})
	res, err = Solve(context.Background(), cat, cluster, &model.Request{Enable: []string{"app"}})
	require.NoError(t, err)
	require.Equal(t, model.StatusUnsatisfiable, res.Status)
	for _, s := range res.Explanation.Suggestions {
		assert.NotEqual(t, model.SuggestPinModule, s.Kind, "an update works, so no downgrade: %s", s.Message)
	}
	assert.NotEmpty(t, res.Explanation.Suggestions)
}
