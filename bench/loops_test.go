package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/checker"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// R27: the loops WithLoops adds are loops the catalog refuses, the
// cluster stays consistent, and update-all meets them: some module stays
// below its head with a loop as the reason, and the answer checks.
func TestWithLoopsAddsRefusedLoops(t *testing.T) {
	in, err := Generate(SizeS, 1).WithLoops(5, model.LoopsRefuse)
	require.NoError(t, err)
	loops, err := solver.DependencyLoops(in.Catalog)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(loops), 5)
	res, err := solver.Solve(context.Background(), in.Catalog, in.Cluster, in.UpdateAll())
	require.NoError(t, err)
	require.Equal(t, model.StatusResolved, res.Status)
	assert.Empty(t, checker.Check(in.Catalog, in.Cluster, in.UpdateAll(), res))
	held := 0
	for _, m := range res.Modules {
		if strings.Contains(m.HeldBack, "dependency cycle through") {
			held++
		}
	}
	assert.Positive(t, held, "update-all meets a loop")

	allowed, err := Generate(SizeS, 1).WithLoops(5, model.LoopsAllow)
	require.NoError(t, err)
	loops, err = solver.DependencyLoops(allowed.Catalog)
	require.NoError(t, err)
	assert.Empty(t, loops, "the same loops, allowed")

	_, err = Generate(Size{Name: "2x1", Modules: 2, Releases: 1}, 1).WithLoops(3, model.LoopsRefuse)
	assert.ErrorIs(t, err, model.ErrInvalidInput, "a catalog too small for the loops asked")
}
