package solver

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
)

// TestExplanationsAreMinimal proves R16 and D19 for every unsatisfiable
// scenario: the facts an answer lists are, on their own, unsatisfiable,
// and removing any one of them makes the problem satisfiable. The proof
// runs on a fresh explain encoding, with the answer's facts found again
// by what they say, so it does not trust the code that chose them.
func TestExplanationsAreMinimal(t *testing.T) {
	checked := 0
	for _, sc := range scenariotest.All(t, "..") {
		res, err := Solve(context.Background(), sc.Catalog, sc.Cluster, sc.Request)
		require.NoError(t, err, sc.File)
		if res.Status != model.StatusUnsatisfiable {
			continue
		}
		checked++
		t.Run(sc.Name(), func(t *testing.T) { checkMinimal(t, sc.Scenario, res) })
	}
	assert.Positive(t, checked, "no unsatisfiable scenario was checked")
}

func checkMinimal(t *testing.T, sc *catalog.Scenario, res *model.Result) {
	ctx := context.Background()
	if f := res.Explanation.Facts; len(f) == 1 && f[0].Kind == model.FactPlatformRoute {
		// R33: a target no route reaches is refused after the answer is
		// found, with the one fact of the route (route.go).
		cfg := newSettings([]Option{WithoutHeldBack(), WithoutSuggestions(), statusOnly()})
		resolved, err := newTestSession(ctx, cfg, compiledFor(sc.Catalog), sc.Cluster, sc.Request).run() // the answer before its route
		require.NoError(t, err)
		assert.Equal(t, model.StatusResolved, resolved.Status, "without its route the request resolves")
		return
	}
	if f := res.Explanation.Facts; len(f) == 1 && (f[0].Kind == model.FactPlatformKubernetes || f[0].Kind == model.FactPlatformGate) {
		// R31, R32: a platform DKP does not run or move to is decided
		// before any encoding, one fact that is a core by itself.
		dkp, kube := orElse(sc.Request.Platform.Deckhouse, sc.Cluster.Deckhouse), orElse(sc.Request.Platform.Kubernetes, sc.Cluster.Kubernetes)
		got, _ := platformFact(sc.Catalog.PlatformReleases(), sc.Cluster, dkp, kube)
		if got == nil {
			got, _ = gateFact(sc.Catalog, sc.Cluster, dkp)
		}
		require.NotNil(t, got)
		assert.Equal(t, f[0], *got)
		return
	}
	s := newAnswering(&session{ctx: ctx, p: newProblem(compiledFor(sc.Catalog), sc.Cluster, sc.Request)}, nil)
	x := s.explainer()
	var core []*fact
	for _, want := range res.Explanation.Facts {
		i := slices.IndexFunc(x.inputFacts(), func(f *fact) bool { return reflect.DeepEqual(wording{p: s.p}.toModel(f), want) })
		require.GreaterOrEqual(t, i, 0, "the answer's fact %q is not one of the problem's facts", want.Message)
		core = append(core, x.inputFacts()[i])
	}
	ok, err := x.e.solve(ctx, x.assume(nil, core))
	require.NoError(t, err)
	require.False(t, ok, "the answer's facts alone must be unsatisfiable")
	for i, f := range core {
		ok, err := x.e.solve(ctx, x.assume(nil, slices.Delete(slices.Clone(core), i, i+1)))
		require.NoError(t, err)
		assert.True(t, ok, "without %q the rest must be satisfiable (the set is not minimal)", wording{p: s.p}.toModel(f).Message)
	}
}
