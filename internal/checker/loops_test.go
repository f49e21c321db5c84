package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/model"
)

// TestCheckLoops walks R27's cases: a loop the answer closes among
// modules that refuse loops is a violation, one among modules that allow
// them is not, and one the cluster runs is kept only with its warning.
func TestCheckLoops(t *testing.T) {
	mods := func(opts ...fixture.ModuleOption) []*model.Module {
		return []*model.Module{
			fixture.Module("a", append(opts, fixture.Releases(fixture.Release("1.0.0", fixture.Needs("b", ">= 1.0 !optional"))))...),
			fixture.Module("b", append(opts, fixture.Releases(fixture.Release("1.0.0", fixture.Needs("c", ">= 1.0")), fixture.Release("1.1.0", fixture.Needs("c", ">= 1.0"))))...),
			fixture.Module("c", append(opts, fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.0"))))...),
		}
	}
	r27 := func(modules []*model.Module, cluster *model.ClusterState, req model.Request, res *model.Result) []string {
		cat, err := model.NewCatalog(modules)
		require.NoError(t, err)
		var out []string
		for _, v := range Check(cat, cluster, &req, res) {
			if v.Rule == "R27" {
				out = append(out, v.Message)
			}
		}
		return out
	}
	installAll := resolved(install("c", "1.0.0"), install("b", "1.0.0"), install("a", "1.0.0"))
	enableAll := model.Request{Enable: []string{"a", "b", "c"}}
	assert.Equal(t, []string{"the answer closes the dependency loop a, b, c, which the catalog refuses"},
		r27(mods(), fixture.Cluster(nil), enableAll, installAll), "an optional requirement closes a loop too")
	assert.Empty(t, r27(mods(fixture.AllowLoops()), fixture.Cluster(nil), enableAll, installAll))

	running := fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0"), "b": fixture.Enabled("1.0.0"), "c": fixture.Enabled("1.0.0")})
	kept := resolved(keep("c", "1.0.0"), keep("b", "1.0.0"), keep("a", "1.0.0"))
	assert.Equal(t, []string{"the answer keeps the running dependency loop a, b, c without a dependency-loop warning"},
		r27(mods(), running, model.Request{}, kept))
	kept.Warnings = []model.Warning{{Kind: model.WarningDependencyLoop, Module: "a", Message: "dependency cycle through: a, b, c: the cluster runs it"}}
	assert.Empty(t, r27(mods(), running, model.Request{}, kept))
	updated := resolved(keep("c", "1.0.0"), update("b", "1.0.0", "1.1.0"), keep("a", "1.0.0"))
	assert.Equal(t, []string{"the answer closes the dependency loop a, b, c, which the catalog refuses"},
		r27(mods(), running, model.Request{Update: []string{"b"}}, updated), "a running loop may not move to another release that keeps it")
}
