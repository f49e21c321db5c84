package solver

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/model"
)

func withStage(s model.Stage) fixture.ReleaseOption { return func(r *model.Release) { r.Stage = s } }

// TestExperimentalOnly names the modules that only their stage keeps off:
// not one with a General Availability release, nor one whose Experimental
// release another fact forbids as well.
func TestExperimentalOnly(t *testing.T) {
	exp := withStage(model.StageExperimental)
	cat, err := model.NewCatalog([]*model.Module{
		fixture.Module("lab", fixture.Releases(fixture.Release("0.1.0", exp), fixture.Release("0.2.0", exp))),
		fixture.Module("mixed", fixture.Releases(fixture.Release("0.1.0"), fixture.Release("0.2.0", exp))),
		fixture.Module("kube", fixture.Releases(fixture.Release("0.1.0", exp, fixture.NeedsKubernetes(">= 1.40")))),
		fixture.Module("plain", fixture.Releases(fixture.Release("1.0.0"))),
		fixture.Module("builtin-lab", fixture.BuiltIn(), func(m *model.Module) { m.Stage = model.StageExperimental }),
		fixture.Module("set-lab", fixture.Releases(fixture.Release("0.1.0", exp))),
	})
	require.NoError(t, err)
	cluster := fixture.Cluster(map[string]model.ModuleState{"set-lab": fixture.Disabled()})
	assert.Equal(t, []string{"lab"}, ExperimentalOnly(cat, cluster), "drawn from the modules a sweep checks: no built-in or configured module")
	var checked []string
	require.NoError(t, Sweep(context.Background(), cat, cluster, func(in Installability) error {
		checked = append(checked, in.Module)
		return nil
	}))
	for _, m := range ExperimentalOnly(cat, cluster) {
		assert.Contains(t, checked, m)
	}
	cluster.AllowExperimentalModules = true
	assert.Empty(t, ExperimentalOnly(cat, cluster))
}

// TestDeprecatedWarningsOrder checks that warnings come in module order,
// one per selected Deprecated release, and none for an unselected one.
func TestDeprecatedWarningsOrder(t *testing.T) {
	dep := withStage(model.StageDeprecated)
	cat, err := model.NewCatalog([]*model.Module{
		fixture.Module("zeta", fixture.Releases(fixture.Release("1.0.0", dep))),
		fixture.Module("alpha", fixture.Releases(fixture.Release("1.0.0", dep))),
		fixture.Module("beta", fixture.Releases(fixture.Release("1.0.0", dep), fixture.Release("2.0.0"))),
	})
	require.NoError(t, err)
	res, err := Solve(context.Background(), cat, fixture.Cluster(nil), &model.Request{Enable: []string{"zeta", "beta", "alpha"}})
	require.NoError(t, err)
	require.Len(t, res.Warnings, 2)
	assert.Equal(t, "alpha", res.Warnings[0].Module)
	assert.Equal(t, "zeta", res.Warnings[1].Module)
	assert.Equal(t, model.WarningDeprecated, res.Warnings[0].Kind)
	assert.Equal(t, "1.0.0", res.Warnings[0].Version)
}
