package catalog_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/checker"
	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// TestRealDKPSnapshotControllerJoined: the real tree holds
// snapshot-controller in embedded/ and in external/. It is one module of
// two sources (D350): an EE cluster on bundle Default runs the built-in
// one, and an empty request keeps it there; naming source external moves
// it to external/'s newest release, as a move (R29).
func TestRealDKPSnapshotControllerJoined(t *testing.T) {
	cat, _, err := catalog.Load(shared.Path(t, "data", "dkp"))
	require.NoError(t, err)
	sc := cat.Module("snapshot-controller")
	require.NotNil(t, sc)
	assert.Equal(t, "embedded", sc.BuiltInSource())
	assert.Equal(t, []string{"external", "embedded"}, sc.ModuleSources())
	assert.True(t, sc.CarriedBuiltIn(model.MustParseVersion("1.77.0")), "the tree alone does not say when DKP stops carrying it (D350)")

	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.75.1"), Kubernetes: model.MustParseVersion("1.31.4"),
		Edition: "ee", Bundle: "Default", ReleaseChannel: "stable"}
	for _, tc := range []struct {
		name   string
		req    *model.Request
		action model.Action
		to     string
		source string
		moved  bool
	}{
		{"empty request", &model.Request{}, model.ActionKeep, "1.75.1", "embedded", false},
		{"update all", &model.Request{UpdateAll: true}, model.ActionKeep, "1.75.1", "embedded", false},
		{"moved", &model.Request{Sources: map[string]string{"snapshot-controller": "external"}}, model.ActionInstall, "0.1.20", "external", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := solver.Solve(context.Background(), cat, cluster, tc.req)
			require.NoError(t, err)
			require.Equal(t, model.StatusResolved, res.Status)
			assert.Empty(t, checker.Check(cat, cluster, tc.req, res))
			var got *model.ModuleResult
			for i := range res.Modules {
				if res.Modules[i].Name == "snapshot-controller" {
					got = &res.Modules[i]
				}
			}
			require.NotNil(t, got, "it runs, so the answer lists it")
			assert.Equal(t, tc.action, got.Action)
			assert.Equal(t, tc.to, got.ToVersion)
			assert.Equal(t, "embedded", got.FromSource)
			assert.Equal(t, tc.source, got.ToSource)
			assert.Equal(t, tc.moved, got.Moved)
		})
	}
}

// TestRealDKPPlatformNames: the real tree's platform.yaml lists DKP's
// editions and bundles, against which a cluster state is checked (D351).
func TestRealDKPPlatformNames(t *testing.T) {
	cat, _, err := catalog.Load(shared.Path(t, "data", "dkp"))
	require.NoError(t, err)
	assert.Equal(t, &model.PlatformNames{Editions: []string{"ce", "be", "se", "se-plus", "ee", "fe", "cse"}, Bundles: []string{"Default", "Managed", "Minimal"}}, cat.PlatformNames())
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.75.1"), Kubernetes: model.MustParseVersion("1.31.4"), Edition: "EE", Bundle: "managed"}
	require.NoError(t, cluster.Validate(cat))
	assert.Equal(t, "ee", cluster.Edition)
	assert.Equal(t, "Managed", cluster.Bundle)
	cluster.Edition = "xe"
	err = cluster.Validate(cat)
	require.ErrorIs(t, err, model.ErrInvalidValue)
	assert.ErrorContains(t, err, `cluster.edition: invalid input: invalid value: unknown edition "xe": the catalog's platform data lists ce, be, se, se-plus, ee, fe, cse`)
}
