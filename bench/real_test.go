package bench

import (
	"context"
	"fmt"
	"path/filepath"
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

// TestWhatIfMatchesSolveOnRealDKP asks the real DKP tree, on each of the
// docs' kubectl dumps, about every DKP minor from 1.66 to 1.78 with every
// Kubernetes minor from 1.27 to 1.33, and compares each answer of the
// what-if batch with Solve's for the request alone, with held-back
// reasons and without: the random scenarios' check (solver's
// TestWhatIfMatchesSolveOnRandomScenarios) on DKP's own release data,
// settings schemas and bundles.
func TestWhatIfMatchesSolveOnRealDKP(t *testing.T) {
	cat, _, err := catalog.Load(shared.Path(t, "data", "dkp"))
	require.NoError(t, err)
	var reqs []*model.Request
	for d := 66; d <= 78; d++ {
		for k := 27; k <= 33; k++ {
			for _, patch := range []int{0, 3} {
				reqs = append(reqs, &model.Request{UpdateAll: true, Platform: model.Platform{
					Deckhouse:  model.MustParseVersion(fmt.Sprintf("1.%d.%d", d, patch)),
					Kubernetes: model.MustParseVersion(fmt.Sprintf("1.%d.%d", k, 2*patch)),
				}})
			}
		}
	}
	for _, file := range []string{"cluster-default.yaml", "dump.yaml", "settings.yaml"} {
		dump, err := catalog.LoadKubectl(filepath.Join("..", "docs", "examples", "kubectl", file))
		require.NoError(t, err)
		cluster, err := dump.State(cat, &model.ClusterState{Kubernetes: model.MustParseVersion("1.31.14"), Edition: "ee"}, catalog.FactNames{})
		require.NoError(t, err, file)
		statuses := map[model.Status]int{}
		for _, opts := range [][]solver.Option{nil, {solver.WithoutHeldBack()}} {
			err = solver.WhatIf(context.Background(), cat, cluster, reqs, func(i int, a solver.Answer) error {
				want, wantErr := solver.Solve(context.Background(), cat, cluster, reqs[i], opts...)
				require.Equal(t, wantErr, a.Err, "%s: %+v", file, reqs[i].Platform)
				if wantErr == nil {
					statuses[want.Status]++
					want.Stats, a.Result.Stats = model.Stats{}, model.Stats{}
					assert.Equal(t, want, a.Result, "%s: %+v", file, reqs[i].Platform)
				}
				return nil
			}, opts...)
			require.NoError(t, err)
		}
		assert.Positive(t, statuses[model.StatusResolved], file)
		assert.Positive(t, statuses[model.StatusUnsatisfiable], file)
	}
}
