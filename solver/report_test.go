package solver

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/checker"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
)

// TestReportChangesMatchesAll checks, on every scenario, that an answer
// with report: changes is the full answer with the unchanged modules left
// out: the same changing modules, the kept ones counted, and the plan's
// changing steps in an order that keeps every dependency first.
func TestReportChangesMatchesAll(t *testing.T) {
	for _, sc := range scenariotest.All(t, "..") {
		t.Run(sc.Name(), func(t *testing.T) { checkReportChanges(t, sc.Catalog, sc.Cluster, sc.Request) })
	}
}

func checkReportChanges(t *testing.T, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) {
	all := req.Clone()
	all.Report = model.ReportAll
	changes := req.Clone()
	changes.Report = model.ReportChanges
	full, err := Solve(context.Background(), cat, cluster, all)
	require.NoError(t, err)
	got, err := Solve(context.Background(), cat, cluster, changes)
	require.NoError(t, err)
	require.Equal(t, full.Status, got.Status)
	var want []model.ModuleResult
	kept := 0
	for _, r := range full.Modules {
		if r.Action.Changes() {
			want = append(want, r)
		}
		if r.Action == model.ActionKeep {
			kept++
		}
	}
	assert.Equal(t, want, got.Modules)
	assert.Equal(t, kept, got.Stats.Unchanged)
	assert.Zero(t, full.Stats.Unchanged)
	assert.Equal(t, full.Explanation, got.Explanation)
	var wantSteps []string
	for _, s := range full.Plan {
		if s.Action.Changes() {
			wantSteps = append(wantSteps, s.Module)
		}
	}
	gotSteps := make([]string, len(got.Plan))
	for i, s := range got.Plan {
		gotSteps[i] = s.Module
	}
	assert.ElementsMatch(t, wantSteps, gotSteps)
	assert.Empty(t, checker.Check(cat, cluster, changes, got))
}
