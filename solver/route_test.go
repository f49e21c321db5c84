package solver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
)

// R33: the module changes of a route stand before the step that needs
// them, and not before an earlier one (D386, D388).
func TestRouteChangesBeforeTheirStep(t *testing.T) {
	tests := []struct {
		file string
		// changes lists, per step, its changes as "module action from→to".
		changes [][]string
	}{
		{"r33-intermediate-release-bridges", [][]string{{"gateway update 1.0.0→1.5.0"}}},
		{"r33-automatic-update-before-step", [][]string{nil, {"gpu-operator update 1.0.0→1.1.0"}}},
		{"r33-disabled-before-the-step", [][]string{nil, {"l2-load-balancer disable 1.0.0→"}}},
		{"r33-floor-puts-kubernetes-first", [][]string{nil, nil, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			sc, err := catalog.LoadScenario(filepath.Join("..", "testdata", "scenarios", tt.file+".yaml"))
			require.NoError(t, err)
			res, err := Solve(context.Background(), sc.Catalog, sc.Cluster, sc.Request)
			require.NoError(t, err)
			require.Equal(t, model.StatusResolved, res.Status)
			var got [][]string
			for _, st := range res.Route {
				var step []string
				for _, ch := range st.Modules {
					step = append(step, ch.Module+" "+ch.Action.String()+" "+ch.FromVersion+"→"+ch.ToVersion)
				}
				got = append(got, step)
			}
			assert.Equal(t, tt.changes, got)
		})
	}
}

// R33: each step says what it checked: the pair, and on a DKP step the
// release's requirements, a gate the cluster does not decide as assumed.
func TestRouteStepsSayWhatTheyChecked(t *testing.T) {
	sc, err := catalog.LoadScenario(filepath.Join("..", "testdata", "scenarios", "r33-floor-puts-kubernetes-first.yaml"))
	require.NoError(t, err)
	res, err := Solve(context.Background(), sc.Catalog, sc.Cluster, sc.Request)
	require.NoError(t, err)
	require.Len(t, res.Route, 3)
	assert.Equal(t, []string{"DKP 1.73 runs Kubernetes 1.30 (it supports 1.29–1.30)"}, res.Route[0].Requirements)
	assert.Contains(t, strings.Join(res.Route[1].Requirements, "\n"), "k8s: 1.30 (the cluster runs Kubernetes 1.30)")
	assert.Equal(t, "1.73.2", res.Route[0].Deckhouse, "the cluster's own minor keeps its version")
	assert.Equal(t, "1.74", res.Route[1].Deckhouse, "a minor between is named alone")
	assert.Equal(t, "1.75.0", res.Route[2].Deckhouse, "the answer's minor is its version")
}
