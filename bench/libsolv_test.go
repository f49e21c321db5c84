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
