package report

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// withoutOrigin lists the kinds of fact that stand on no input a file or
// a field holds: modsolver's own rules (a preference, a loop, a group of
// several modules, a source) and DKP's release data (D421).
var withoutOrigin = map[model.FactKind]bool{
	model.FactPreference: true, model.FactDependencyLoop: true, model.FactExclusiveGroup: true,
	model.FactCapabilityConflict: true, model.FactSource: true, model.FactNotEnabled: true,
	model.FactChannelHead: true, model.FactPlatformKubernetes: true, model.FactPlatformGate: true,
	model.FactPlatformRelease: true, model.FactPlatformRoute: true,
}

// Every fact of every unsatisfiable scenario that a catalog, the cluster
// state or the request holds says where it was read from, and where the
// facts chain, the steps number only facts of the explanation (issue 31,
// D420, D421).
func TestExplanationsHaveOriginsAndSteps(t *testing.T) {
	facts, chained := 0, 0
	for _, sc := range scenariotest.All(t, "../..") {
		res, err := solver.Solve(context.Background(), sc.Catalog, sc.Cluster, sc.Request)
		require.NoError(t, err, sc.File)
		if res.Status != model.StatusUnsatisfiable {
			continue
		}
		e := res.Explanation
		for _, f := range e.Facts {
			if withoutOrigin[f.Kind] || f.Module == "" {
				continue
			}
			facts++
			assert.False(t, f.Origin.IsZero(), "%s: %q [%s] says no origin", sc.File, f.Message, f.Kind)
			if f.Origin.File != "" {
				assert.Positive(t, f.Origin.Line, "%s: %q names %s without a line", sc.File, f.Message, f.Origin.File)
			}
		}
		require.NotEmpty(t, e.Steps, "%s: no steps", sc.File)
		assert.Contains(t, e.Steps[len(e.Steps)-1].Conclusion, "the request cannot be met", sc.File)
		if model.Chains(e.Steps) {
			chained++
		}
		for i, st := range e.Steps {
			for _, n := range st.Facts {
				assert.True(t, n >= 1 && n <= len(e.Facts), "%s: step %d names fact %d of %d", sc.File, i+1, n, len(e.Facts))
			}
			assert.True(t, st.After >= 0 && st.After <= i, "%s: step %d goes on from step %d", sc.File, i+1, st.After)
		}
	}
	assert.Positive(t, facts)
	assert.Positive(t, chained)
	t.Logf("%d facts with origins; steps in every explanation, %d of them chains of two links or more", facts, chained)
}
