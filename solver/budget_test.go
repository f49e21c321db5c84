package solver_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// The memory limit (WithMemoryLimit) stops a resolution whose estimated
// encoding size passes it, with a *model.MemoryLimitError; within the
// limit the answer is the one without a limit, and its stats report the
// estimate.

func TestMemoryLimit(t *testing.T) {
	cat, err := catalog.Demo()
	require.NoError(t, err)
	resolvable, req, err := catalog.DemoState()
	require.NoError(t, err)
	unsat, unsatReq, err := catalog.DemoUnsatisfiable()
	require.NoError(t, err)
	ctx := context.Background()

	for _, tc := range []struct {
		name    string
		cluster *model.ClusterState
		req     *model.Request
		status  model.Status
	}{
		{"resolved", resolvable, req, model.StatusResolved},
		{"unsatisfiable, with the explain encoding", unsat, unsatReq, model.StatusUnsatisfiable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			free, err := solver.Solve(ctx, cat, tc.cluster, tc.req, solver.WithoutSuggestions())
			require.NoError(t, err)
			require.Equal(t, tc.status, free.Status)
			used := free.Stats.MemoryBytes
			assert.Greater(t, used, int64(96<<10), "at least one encoder is counted")
			assert.Less(t, used, int64(64<<20), "the demo catalog is small")

			// The estimate only grows, so a limit of exactly the final
			// estimate is enough, and the answer is the same.
			fits, err := solver.Solve(ctx, cat, tc.cluster, tc.req, solver.WithoutSuggestions(), solver.WithMemoryLimit(used))
			require.NoError(t, err)
			fits.Stats.SolveMicros, free.Stats.SolveMicros = 0, 0
			assert.Equal(t, free, fits)

			res, err := solver.Solve(ctx, cat, tc.cluster, tc.req, solver.WithoutSuggestions(), solver.WithMemoryLimit(used-1))
			assert.Nil(t, res)
			require.ErrorIs(t, err, model.ErrTooLarge)
			assert.NotErrorIs(t, err, model.ErrInvalidInput, "too large is not bad input")
			var mle *model.MemoryLimitError
			require.ErrorAs(t, err, &mle)
			assert.Equal(t, used-1, mle.Limit)
			assert.Greater(t, mle.Estimate, mle.Limit)
			assert.Positive(t, mle.Variables)
			assert.Contains(t, err.Error(), "more memory than the limit")
		})
	}
	t.Run("suggestions are checked within what is left", func(t *testing.T) {
		full, err := solver.Solve(ctx, cat, unsat, unsatReq)
		require.NoError(t, err)
		require.NotEmpty(t, full.Explanation.Suggestions)
		_, err = solver.Solve(ctx, cat, unsat, unsatReq, solver.WithMemoryLimit(full.Stats.MemoryBytes+1))
		assert.ErrorIs(t, err, model.ErrTooLarge, "a check of a suggestion needs memory of its own")
		_, err = solver.Solve(ctx, cat, unsat, unsatReq, solver.WithMemoryLimit(64<<20))
		assert.NoError(t, err)
	})
}

func TestMemoryLimitStopsWhatIf(t *testing.T) {
	cat, err := catalog.Demo()
	require.NoError(t, err)
	cluster, req, err := catalog.DemoState()
	require.NoError(t, err)
	reqs := []*model.Request{req, req, req}
	for _, workers := range []int{1, 2} {
		err := solver.WhatIf(context.Background(), cat, cluster, reqs, func(_ int, a solver.Answer) error { return a.Err },
			solver.WithWorkers(workers), solver.WithMemoryLimit(100<<10))
		var mle *model.MemoryLimitError
		assert.True(t, errors.As(err, &mle), "workers=%d: %v", workers, err)
	}
}

func TestEncodeReportsMemory(t *testing.T) {
	cat, err := catalog.Demo()
	require.NoError(t, err)
	cluster, req, err := catalog.DemoState()
	require.NoError(t, err)
	st, err := solver.Encode(cat, cluster, req)
	require.NoError(t, err)
	assert.Greater(t, st.MemoryBytes, int64(96<<10))
}
