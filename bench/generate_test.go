package bench

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/checker"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := Generate(SizeS, 7), Generate(SizeS, 7)
	require.Equal(t, a.Catalog.Len(), b.Catalog.Len())
	for i, m := range a.Catalog.Modules() {
		n := b.Catalog.Modules()[i]
		require.Equal(t, m.Name, n.Name)
		require.Len(t, n.Releases, len(m.Releases))
		for j, r := range m.Releases {
			assert.Equal(t, r.Version.String(), n.Releases[j].Version.String())
			assert.Equal(t, len(r.Requirements.Modules), len(n.Releases[j].Requirements.Modules))
		}
	}
	assert.Equal(t, a.Cluster.ModuleNames(), b.Cluster.ModuleNames())
	assert.NotEqual(t, a.Cluster.ModuleNames(), Generate(SizeS, 8).Cluster.ModuleNames(), "another seed, another instance")
}

func TestGeneratedRequests(t *testing.T) {
	in := Generate(SizeS, 1)
	require.NoError(t, in.Cluster.Validate(in.Catalog), "the generated cluster state is valid")
	optional := 0
	deps := 0
	for _, m := range in.Catalog.Modules() {
		for _, r := range m.Releases {
			for _, d := range r.Requirements.Modules {
				deps++
				if d.Constraint.Optional {
					optional++
				}
			}
		}
	}
	assert.InDelta(t, 0.25, float64(optional)/float64(deps), 0.1, "about a quarter of the requirements are optional")

	tests := []struct {
		name   string
		req    *model.Request
		status model.Status
	}{
		{"nothing", &model.Request{}, model.StatusResolved},
		{"update-all", in.UpdateAll(), model.StatusResolved},
		{"install-one", in.InstallOne(), model.StatusResolved},
		{"install-one-changes", in.InstallOneChanges(), model.StatusResolved},
		{"platform-upgrade", in.PlatformUpgrade(), model.StatusResolved},
		{"unsatisfiable", in.Unsatisfiable(), model.StatusUnsatisfiable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := solver.Solve(context.Background(), in.Catalog, in.Cluster, tt.req)
			require.NoError(t, err)
			require.Equal(t, tt.status, res.Status, "%+v", res.Explanation)
			assert.Empty(t, checker.Check(in.Catalog, in.Cluster, tt.req, res))
		})
	}
	t.Run("update-all changes something", func(t *testing.T) {
		res, err := solver.Solve(context.Background(), in.Catalog, in.Cluster, in.UpdateAll())
		require.NoError(t, err)
		updates := 0
		for _, m := range res.Modules {
			if m.Action == model.ActionUpdate {
				updates++
			}
		}
		assert.Greater(t, updates, 10)
	})
	assert.Len(t, in.WhatIf(1000), 1000)
}

func TestParseSize(t *testing.T) {
	for _, s := range []string{"S", "m", "L"} {
		_, err := ParseSize(s)
		assert.NoError(t, err)
	}
	z, err := ParseSize("500x10")
	require.NoError(t, err)
	assert.Equal(t, Size{Name: "500x10", Modules: 500, Releases: 10}, z)
	for _, bad := range []string{"", "XL", "10x", "1x5", "ax3"} {
		_, err := ParseSize(bad)
		assert.ErrorIs(t, err, model.ErrInvalidInput, bad)
	}
}

// D220: on a platform upgrade of the generated M catalog, the releases
// that a dependency held back by its own rules rules out (about 150
// modules) are settled by unit propagation, not searched: the optimum
// takes a handful of solves, where the search took 340.
func TestPlatformUpgradeIsSettledByPropagation(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the M catalog")
	}
	in := Generate(SizeM, 1)
	res, err := solver.Solve(context.Background(), in.Catalog, in.Cluster, in.PlatformUpgrade(), solver.WithoutHeldBack())
	require.NoError(t, err)
	require.Equal(t, model.StatusResolved, res.Status)
	below := 0
	for _, m := range res.Modules {
		if m.ToVersion != "" && m.ChannelHead != "" && m.ToVersion != m.ChannelHead {
			below++
		}
	}
	assert.Greater(t, below, 100, "the upgrade holds modules below their heads")
	assert.LessOrEqual(t, res.Stats.Solves, 10, "solves for the optimum")
}
