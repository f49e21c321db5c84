package solver_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/bench"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// An answer's modules rendered in two halves side by side, each half on
// its own goroutine with the problem's caches only read, and a closure's
// views filtered so, give the answer of one after another: the same
// texts, in the same order. Under -race (make test) it also checks that
// the halves share nothing they write.
func TestRenderSharedByGoroutines(t *testing.T) {
	ctx := context.Background()
	in := bench.Generate(bench.SizeS, 1)
	for _, req := range []*model.Request{in.UpdateAll(), in.PlatformUpgrade()} {
		want, err := solver.Solve(ctx, in.Catalog, in.Cluster, req, solver.WithSideBySideFrom(0))
		require.NoError(t, err)
		got, err := solver.Solve(ctx, in.Catalog, in.Cluster, req, solver.WithSideBySideFrom(8))
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(got.Modules), 64, "too few modules to render side by side")
		want.Stats, got.Stats = model.Stats{}, model.Stats{}
		assert.Equal(t, want, got)
		held := 0
		for _, m := range got.Modules {
			if m.HeldBack != "" {
				held++
			}
		}
		assert.Greater(t, held, 10, "too few held-back reasons to compare")
	}
}
