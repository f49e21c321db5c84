package solver_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/checker"
	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// Cancellation (DESIGN §4, §6): a context ends a solve. Solve checks the
// context before every gini call and gives each call a budget that does
// not outlast the deadline, so it stops soon after the context ends. It
// never returns a partial answer: either the error of the context (and a
// nil result) or the complete answer.

// hardProblem generates modules × releases modules, all enabled at their
// oldest release, chained by requirements: release j of m(i) requires
// m(i+1) >= 1.(j/2), and, optionally, m(i+2) <= 1.(releases-j). The
// optional requirement stops modules two apart from both being new, so
// the R14 optimisation and the R17 questions need thousands of solves.
// Under strategy direct with updateAll, 300 × 30 takes several seconds on
// two cores when left to finish (about 11 s measured here).
func hardProblem(t *testing.T, modules, releases int) (*model.Catalog, *model.ClusterState, *model.Request) {
	t.Helper()
	name := func(i int) string { return fmt.Sprintf("m%03d", i) }
	mods := make([]*model.Module, 0, modules)
	states := make(map[string]model.ModuleState, modules)
	for i := range modules {
		m := &model.Module{Name: name(i)}
		for j := range releases {
			r := &model.Release{Version: model.MustParseVersion(fmt.Sprintf("1.%d.0", j))}
			if i+1 < modules {
				r.Requirements.Modules = append(r.Requirements.Modules, model.Dependency{
					Module: name(i + 1), Constraint: model.MustParseConstraint(fmt.Sprintf(">= 1.%d", j/2)),
				})
			}
			if i+2 < modules {
				r.Requirements.Modules = append(r.Requirements.Modules, model.Dependency{
					Module: name(i + 2), Constraint: model.MustParseConstraint(fmt.Sprintf("<= 1.%d !optional", releases-j)),
				})
			}
			m.Releases = append(m.Releases, r)
		}
		mods = append(mods, m)
		states[m.Name] = fixture.Enabled("1.0.0")
	}
	cat, err := model.NewCatalog(mods)
	require.NoError(t, err)
	return cat, fixture.Cluster(states), &model.Request{UpdateAll: true, Strategy: model.StrategyDirect}
}

func TestSolveWithCancelledContext(t *testing.T) {
	cat, cluster, req := hardProblem(t, 20, 5)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	res, err := solver.Solve(ctx, cat, cluster, req)
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.Canceled), "want context.Canceled, got %v", err)
	assert.False(t, errors.Is(err, model.ErrInvalidInput), "cancellation is not bad input")
	assert.Nil(t, res)
	assert.Less(t, time.Since(start), time.Second)
}

func TestSolveWithExpiredDeadline(t *testing.T) {
	cat, cluster, req := hardProblem(t, 20, 5)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	res, err := solver.Solve(ctx, cat, cluster, req)
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "want context.DeadlineExceeded, got %v", err)
	assert.Nil(t, res)
}

// The deadline passes while the solver works: Solve returns the context's
// error promptly, not a partial answer.
func TestSolveDeadlineDuringLargeProblem(t *testing.T) {
	cat, cluster, req := hardProblem(t, 300, 30)
	for _, tc := range []struct {
		name string
		opts []solver.Option
	}{
		{name: "with held-back reasons"},
		{name: "answer only", opts: []solver.Option{solver.WithoutHeldBack(), solver.WithoutSuggestions()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const budget = 150 * time.Millisecond
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			defer cancel()
			deadline, _ := ctx.Deadline()
			res, err := solver.Solve(ctx, cat, cluster, req, tc.opts...)
			late := time.Since(deadline)
			assert.Less(t, late, 2*time.Second, "Solve returned %v after the deadline", late)
			require.Error(t, err, "the problem takes far longer than %v; Solve must not finish in time", budget)
			assert.True(t, errors.Is(err, context.DeadlineExceeded), "want context.DeadlineExceeded, got %v", err)
			assert.False(t, errors.Is(err, model.ErrInvalidInput))
			assert.Nil(t, res, "no partial answer")
		})
	}
}

// Cancelling from another goroutine stops a running solve.
func TestSolveCancelledWhileRunning(t *testing.T) {
	cat, cluster, req := hardProblem(t, 300, 30)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const after = 100 * time.Millisecond
	timer := time.AfterFunc(after, cancel)
	defer timer.Stop()
	start := time.Now()
	res, err := solver.Solve(ctx, cat, cluster, req)
	assert.Less(t, time.Since(start), after+2*time.Second)
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.Canceled), "want context.Canceled, got %v", err)
	assert.Nil(t, res)
}

// A deadline that does not pass leaves the answer complete and correct.
func TestSolveWithinDeadlineIsComplete(t *testing.T) {
	cat, cluster, req := hardProblem(t, 12, 6)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := solver.Solve(ctx, cat, cluster, req)
	require.NoError(t, err)
	require.Equal(t, model.StatusResolved, res.Status)
	assert.Len(t, res.Modules, 12)
	assert.Len(t, res.Plan, 12)
	assert.Empty(t, checker.Check(cat, cluster, req, res))

	plain, err := solver.Solve(context.Background(), cat, cluster, req)
	require.NoError(t, err)
	plain.Stats.SolveMicros, res.Stats.SolveMicros = 0, 0
	assert.Equal(t, plain, res, "a deadline that does not pass changes nothing")
}

// Encode reports the size Solve's answer reports, and refuses bad input.
func TestEncodeMatchesSolveStats(t *testing.T) {
	cat, err := catalog.Demo()
	require.NoError(t, err)
	cluster, req, err := catalog.DemoState()
	require.NoError(t, err)
	st, err := solver.Encode(cat, cluster, req)
	require.NoError(t, err)
	res, err := solver.Solve(context.Background(), cat, cluster, req)
	require.NoError(t, err)
	assert.LessOrEqual(t, st.Clauses, res.Stats.Clauses, "optimisation may add clauses")
	assert.Positive(t, st.Clauses)
	assert.LessOrEqual(t, st.Variables, res.Stats.Variables, "optimisation adds counters")
	assert.Positive(t, st.Variables)
	_, err = solver.Encode(cat, cluster, &model.Request{Enable: []string{"no-such-module"}})
	assert.ErrorIs(t, err, model.ErrInvalidInput)
}
