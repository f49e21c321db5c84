//go:build libsolv

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

// solveWithLibsolv answers req with modsolver and with libsolv, checks
// both answers, and returns them.
func solveWithLibsolv(t *testing.T, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) (*model.Result, *LibsolvAnswer) {
	t.Helper()
	res, err := solver.Solve(context.Background(), cat, cluster, req)
	require.NoError(t, err)
	require.Empty(t, checker.Check(cat, cluster, req, res), "modsolver's answer")
	peer, err := Libsolv(context.Background(), cat, cluster, req)
	require.NoError(t, err)
	require.Empty(t, CheckPeer(cat, cluster, req, &peer.PeerAnswer, res.Status), "libsolv's answer: %v", peer.Conflicts)
	return res, peer
}

// Every generated request kind, on size S: libsolv chooses the versions
// modsolver chooses.
func TestLibsolvAgreesOnGeneratedInstance(t *testing.T) {
	in := Generate(SizeS, 1)
	reqs := map[string]*model.Request{
		CaseUpdateAll:             in.UpdateAll(),
		CaseInstallOne:            in.InstallOne(),
		CaseInstallOneChanges:     in.InstallOneChanges(),
		CasePlatformUpgrade:       in.PlatformUpgrade(),
		CaseUnsatisfiable:         in.Unsatisfiable(),
		CaseUnsatisfiableCombined: in.UnsatisfiableCombined(),
		"direct":                  {UpdateAll: true, Strategy: model.StrategyDirect},
	}
	for name, req := range reqs {
		t.Run(name, func(t *testing.T) {
			res, peer := solveWithLibsolv(t, in.Catalog, in.Cluster, req)
			assert.Equal(t, res.Status, peer.Result.Status)
			if res.Status == model.StatusResolved {
				assert.Equal(t, enabledAfter(res), enabledAfter(peer.Result))
				assert.Zero(t, differences(res, peer.Result))
				assert.Positive(t, peer.Timing.Transaction)
			}
			assert.Positive(t, peer.Timing.Solve)
			assert.GreaterOrEqual(t, peer.Timing.Pipeline(), peer.Timing.Solve+peer.Timing.Prune+peer.Timing.Load)
		})
	}
}

// The tiny catalog exercises every part of the translation: built-in
// modules, an exclusive group, optional ranges, platform requirements, a
// missing module, update steps and pins.
func TestLibsolvAgreesOnTinyCatalog(t *testing.T) {
	cat, cluster := tinyInputs(t)
	for _, tt := range tinyRequests() {
		t.Run(tt.name, func(t *testing.T) {
			res, peer := solveWithLibsolv(t, cat, cluster, tt.req)
			require.Equal(t, tt.status, res.Status, "modsolver: %+v", res.Explanation)
			require.Equal(t, tt.status, peer.Result.Status, "libsolv: %v", peer.Conflicts)
			if tt.status == model.StatusUnsatisfiable {
				assert.NotEmpty(t, peer.Conflicts, "libsolv says why")
				return
			}
			for name, v := range tt.want {
				assert.Equal(t, v, enabledAfter(peer.Result)[name], "libsolv: %s", name)
			}
			assert.Equal(t, enabledAfter(res), enabledAfter(peer.Result), "the same versions")
		})
	}
}

// libsolv orders the versions of the generated catalogs as semver does:
// numerically per part (1.10.0 after 1.9.0). Prereleases are refused by
// the translation, as the two order them differently.
func TestLibsolvOrdersGeneratedVersions(t *testing.T) {
	var evrs []model.Version
	for _, m := range Generate(SizeS, 1).Catalog.Modules() {
		for _, r := range m.Releases {
			evrs = append(evrs, r.Version)
		}
	}
	for _, s := range []string{"1.9.0", "1.10.0", "0.10.2", "0.9.12", "10.0.0", "2.0.0"} {
		evrs = append(evrs, model.MustParseVersion(s))
	}
	for i, a := range evrs {
		b := evrs[(i*7+3)%len(evrs)]
		ea, err := evrOf(a)
		require.NoError(t, err)
		eb, err := evrOf(b)
		require.NoError(t, err)
		assert.Equal(t, model.CompareVersions(a, b), libsolvCompare(ea, eb), "%s vs %s", a, b)
	}
	assert.Equal(t, 1, libsolvCompare("1.10.0", "1.9.0"))
	_, err := evrOf(model.MustParseVersion("1.0.0-rc.1"))
	assert.ErrorIs(t, err, ErrNotTranslated)
}

// Run with WithLibsolv times libsolv beside modsolver, and with report:
// changes, on every case but compile and the what-if batch.
func TestRunWithLibsolv(t *testing.T) {
	in := Generate(Size{Name: "30x6", Modules: 30, Releases: 6}, 2)
	for _, c := range []string{CaseUpdateAll, CaseInstallOneChanges, CaseUnsatisfiable, CaseWhatIf} {
		o, err := Run(context.Background(), in, c, WithRuns(1), WithLibsolv())
		require.NoError(t, err, c)
		assert.Equal(t, "ok", o.Checked(), "%s: %v", c, o.Violations())
		if c == CaseWhatIf {
			assert.False(t, o.LibsolvRan)
			assert.NotEmpty(t, o.LibsolvSkipped)
			continue
		}
		assert.True(t, o.LibsolvRan, c)
		assert.Zero(t, o.LibsolvDiffers, c)
		assert.Positive(t, o.LibsolvSolve, c)
		assert.Greater(t, o.LibsolvPipeline, o.LibsolvSolve, c)
		assert.Positive(t, o.ModsolverChanges, c)
	}
}

// A catalog the translation does not carry is skipped, with the reason.
func TestRunWithLibsolvSkipsWhatItCannotTranslate(t *testing.T) {
	in, err := Generate(Size{Name: "30x6", Modules: 30, Releases: 6}, 2).WithLoops(1, model.LoopsRefuse)
	require.NoError(t, err)
	o, err := Run(context.Background(), in, CaseUpdateAll, WithRuns(1), WithLibsolv())
	require.NoError(t, err)
	assert.False(t, o.LibsolvRan)
	assert.Contains(t, o.LibsolvSkipped, "dependency loops")
	_, err = Libsolv(context.Background(), in.Catalog, in.Cluster, in.UpdateAll())
	assert.ErrorIs(t, err, ErrNotTranslated)
}

// libsolv as a service runs it (the pool held, loaded once from .solv)
// answers every request as the per-request pool does: the same status,
// the same versions, and an answer the peer check passes; one held pool
// serves every request in turn, so each request takes its repos away
// again.
func TestLibsolvServiceAgreesWithPerRequestPool(t *testing.T) {
	check := func(t *testing.T, cat *model.Catalog, cluster *model.ClusterState, reqs map[string]*model.Request) {
		svc, err := newLibsolvService(cat)
		require.NoError(t, err)
		defer svc.Close()
		assert.Positive(t, svc.Bytes, "the .solv file was written")
		for round := range 2 {
			for name, req := range reqs {
				res, peer := solveWithLibsolv(t, cat, cluster, req)
				held, err := svc.Solve(context.Background(), cluster, req)
				require.NoError(t, err, name)
				require.Empty(t, CheckPeer(cat, cluster, req, &held.PeerAnswer, res.Status), "%s, round %d: %v", name, round, held.Conflicts)
				assert.Equal(t, peer.Result.Status, held.Result.Status, name)
				if peer.Result.Status == model.StatusResolved {
					assert.Equal(t, enabledAfter(peer.Result), enabledAfter(held.Result), name)
					assert.Equal(t, peer.Steps, held.Steps, name)
				}
			}
		}
	}
	in := Generate(SizeS, 1)
	check(t, in.Catalog, in.Cluster, map[string]*model.Request{
		CaseUpdateAll:       in.UpdateAll(),
		CaseInstallOne:      in.InstallOne(),
		CasePlatformUpgrade: in.PlatformUpgrade(),
		CaseUnsatisfiable:   in.Unsatisfiable(),
	})
	cat, cluster := tinyInputs(t)
	reqs := map[string]*model.Request{}
	for _, tt := range tinyRequests() {
		reqs[tt.name] = tt.req
	}
	check(t, cat, cluster, reqs)
}
