package solver

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/randscen"
	"github.com/modsolver/modsolver/model"
)

// A suggestion's check answers unsatisfiable without a solve when a
// module with no release left before the change still has none after it
// (D431). That is sound only if such a module makes every request
// unsatisfiable: on random scenarios, each as asked and each with every
// module it enables pinned to its oldest release, stillStuck over every
// module of the catalog implies that Solve finds no answer.
func TestStillStuckMeansUnsatisfiable(t *testing.T) {
	seeds := uint64(1500)
	if testing.Short() {
		seeds = 300
	}
	ctx := context.Background()
	stuck := 0
	for seed := range seeds {
		sc := randscen.Generate(seed)
		c, err := Compile(sc.Catalog)
		require.NoError(t, err)
		var names []string
		for _, m := range sc.Catalog.Modules() {
			names = append(names, m.Name)
		}
		reqs := []*model.Request{sc.Request}
		for _, name := range sc.Request.Enable {
			if m := sc.Catalog.Module(name); m != nil && len(m.Releases) > 0 {
				r := sc.Request.Clone()
				if r.Pin == nil {
					r.Pin = map[string]model.Version{}
				}
				r.Pin[name] = m.Releases[0].Version
				reqs = append(reqs, r)
			}
		}
		for k, req := range reqs {
			if validate(sc.Catalog, sc.Cluster, req) != nil || !stillStuck(c, sc.Cluster, req, names) {
				continue
			}
			stuck++
			res, err := c.Solve(ctx, sc.Cluster, req, WithoutHeldBack(), WithoutSuggestions())
			require.NoError(t, err, "seed %d, request %d", seed, k)
			assert.Equal(t, model.StatusUnsatisfiable, res.Status, fmt.Sprintf("seed %d, request %d: a module has no release left, yet the request resolves", seed, k))
		}
	}
	assert.Greater(t, stuck, 20, "too few requests with a module left without a release to check")
	t.Logf("%d requests with a module left without a release, over %d seeds", stuck, seeds)
}
