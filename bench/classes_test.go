package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// TestWhatIfClassesOnGenerated checks that a what-if batch, which answers
// requests of one platform class from one answer, gives for random DKP
// and Kubernetes pairs on generated catalogs exactly the answer Solve
// gives alone: on a small catalog and a larger one, with and without
// held-back reasons.
func TestWhatIfClassesOnGenerated(t *testing.T) {
	for _, spec := range []string{"60x10", "300x20"} {
		size, err := ParseSize(spec)
		require.NoError(t, err)
		in := Generate(size, 3)
		rng := rand.New(rand.NewPCG(11, uint64(len(spec))))
		var reqs []*model.Request
		for range 40 {
			r := &model.Request{UpdateAll: rng.IntN(4) > 0, Platform: model.Platform{
				Deckhouse:  model.MustParseVersion(fmt.Sprintf("1.%d.%d", dkpMinor+rng.IntN(10), rng.IntN(3))),
				Kubernetes: model.MustParseVersion(fmt.Sprintf("1.%d.%d", 28+rng.IntN(6), rng.IntN(7))),
			}}
			if !r.UpdateAll {
				r = in.InstallOne()
				r.Platform.Deckhouse = model.MustParseVersion(fmt.Sprintf("1.%d.%d", dkpMinor+rng.IntN(10), rng.IntN(3)))
			}
			reqs = append(reqs, r)
		}
		t.Run(spec, func(t *testing.T) {
			for _, opts := range [][]solver.Option{nil, {solver.WithoutHeldBack()}} {
				err := solver.WhatIf(context.Background(), in.Catalog, in.Cluster, reqs, func(i int, a solver.Answer) error {
					want, wantErr := solver.Solve(context.Background(), in.Catalog, in.Cluster, reqs[i], opts...)
					require.Equal(t, wantErr, a.Err)
					if wantErr == nil {
						want.Stats, a.Result.Stats = model.Stats{}, model.Stats{}
						assert.Equal(t, want, a.Result, "request %d: %+v", i, reqs[i].Platform)
					}
					return nil
				}, append(opts, solver.WithWorkers(2))...)
				require.NoError(t, err)
			}
		})
	}
}
