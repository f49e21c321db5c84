package bench

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// The cluster built on an imported catalog is consistent: an empty
// request resolves on it and keeps every module, and the spare module
// installs.
func TestImportedCluster(t *testing.T) {
	cat, _, err := catalog.Load(shared.Path(t, "data", "olm", "community-operators-prod-fbc-v4.21.json"))
	require.NoError(t, err)
	cluster, spare, err := ImportedCluster(context.Background(), cat)
	require.NoError(t, err)
	assert.Greater(t, len(cluster.Modules), cat.Len()/2, "most modules install")
	require.NotEmpty(t, spare)
	assert.False(t, cluster.Modules[spare].Configured())

	res, err := solver.Solve(context.Background(), cat, cluster, &model.Request{})
	require.NoError(t, err)
	require.Equal(t, model.StatusResolved, res.Status)
	for _, m := range res.Modules {
		assert.Equal(t, model.ActionKeep, m.Action, m.Name)
	}

	again, spareAgain, err := ImportedCluster(context.Background(), cat)
	require.NoError(t, err)
	assert.Equal(t, cluster, again, "the cluster depends on the catalog alone")
	assert.Equal(t, spare, spareAgain)
}

func TestRunCatalogImported(t *testing.T) {
	cat, _, err := catalog.Load(shared.Path(t, "data", "olm", "community-operators-prod-fbc-v4.21.json"))
	require.NoError(t, err)
	outs, err := RunCatalog(context.Background(), "fbc", cat, WithRuns(1), WithDeppy(0))
	require.NoError(t, err)
	require.Len(t, outs, 2)
	for _, o := range outs {
		assert.Empty(t, o.ModsolverViolations, o.Case)
		assert.False(t, o.DeppyRan, "deppy does not translate capabilities")
	}
}
