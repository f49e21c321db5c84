package solver

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/randscen"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
)

// eachProblem calls check on 1,000 random scenarios (MODSOLVER_SOLVER_SEEDS
// sets how many) and every scenario file whose input is valid.
func eachProblem(t *testing.T, check func(name string, cat *model.Catalog, cluster *model.ClusterState, req *model.Request)) {
	t.Helper()
	seeds := uint64(1000)
	if n, err := strconv.ParseUint(os.Getenv("MODSOLVER_SOLVER_SEEDS"), 10, 64); err == nil {
		seeds = n
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		sc := randscen.Generate(seed)
		if encoded(sc.Catalog, sc.Cluster, sc.Request) {
			check(fmt.Sprintf("seed %d", seed), sc.Catalog, sc.Cluster, sc.Request)
		}
	}
	for _, sc := range scenariotest.All(t, "..") {
		if encoded(sc.Catalog, sc.Cluster, sc.Request) {
			check(sc.File, sc.Catalog, sc.Cluster, sc.Request)
		}
	}
}

// encoded reports whether a request is answered by its encoding: it is
// valid, and its platform is one DKP runs (a platform DKP does not run is
// answered before any encoding, D361).
func encoded(cat *model.Catalog, cluster *model.ClusterState, req *model.Request) bool {
	if validate(cat, cluster, req) != nil {
		return false
	}
	dkp, kube := orElse(req.Platform.Deckhouse, cluster.Deckhouse), orElse(req.Platform.Kubernetes, cluster.Kubernetes)
	if data := cat.PlatformReleases(); data != nil && dkp != nil && kube != nil {
		if f, _ := platformFact(data, cluster, dkp, kube); f != nil {
			return false
		}
		if f, _ := gateFact(cat, cluster, dkp); f != nil {
			return false
		}
	}
	return true
}

// D117, D220: searching each module from the newest position unit
// propagation leaves it, and leaving out the modules it keeps off,
// changes no answer, held-back reasons included, and never costs solves.
func TestPropagatedBoundsChangeNoAnswer(t *testing.T) {
	ctx := context.Background()
	fewer := 0
	eachProblem(t, func(name string, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) {
		c := compiledFor(cat)
		want, err := c.Solve(ctx, cluster, req)
		require.NoError(t, err, name)
		s := newTestSession(ctx, newSettings(nil), c, cluster, req)
		s.budget = newBudget(0)
		s.fast = newEncoder(s.p, hard{}, everything)
		s.fast.encode()
		got, err := s.optimize(&optimizer{e: s.fast, ctx: ctx, hooks: testHooks{searchAll: true}})
		require.NoError(t, err, name)
		got, err = c.addRoute(ctx, c, newSettings(nil), cluster, req, got) // R33, as Solve adds it
		require.NoError(t, err, name)
		assert.LessOrEqual(t, want.Stats.Solves, got.Stats.Solves, name)
		if want.Stats.Solves < got.Stats.Solves {
			fewer++
		}
		want.Stats, got.Stats = model.Stats{}, model.Stats{}
		assert.Equal(t, got, want, name)
	})
	t.Logf("%d requests need fewer solves", fewer)
	assert.Greater(t, fewer, 20, "the scenarios leave modules off at level 4, or hold releases back by propagation")
}

// D118: the copies a held-back reason or a path note reads are the static
// facts that forbid the releases it names, as made for an explanation.
func TestStaticCopiesAreTheFactsMade(t *testing.T) {
	compared := 0
	eachProblem(t, func(name string, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) {
		p := newProblem(compiledFor(cat), cluster, req)
		p.lazyStatics = true
		p.closure(true)
		for _, v := range p.views {
			if v.pinVersion != nil || v.src.moved {
				continue // their facts are made (staticCopies)
			}
			copies := make([][]string, len(v.rels))
			platform := make([][]*fact, len(v.rels))
			for r := range v.rels {
				copies[r] = shapes(p, p.staticCopies(v, r, &copyScratch{}, alone)) // read before the next call reuses them
				platform[r] = p.platformFacts(v, []int{r}, nil, alone)
			}
			allPlatform := p.platformFacts(v, nil, nil, alone)
			made := v.staticFacts()
			for r := range v.rels {
				forbidding := func(fs []*fact) []*fact {
					return slices.DeleteFunc(slices.Clone(fs), func(f *fact) bool { return !slices.Contains(f.rels, r) })
				}
				assert.Equal(t, shapes(p, forbidding(made)), copies[r], "%s: %s release %d", name, v.name, r)
				assert.Equal(t, shapes(p, forbidding(allPlatform)), shapes(p, platform[r]), "%s: %s release %d", name, v.name, r)
				compared++
			}
		}
	})
	assert.Greater(t, compared, 1000)
}

// shapes renders facts as what a reader of them sees: kind, releases and
// message.
func shapes(p *problem, facts []*fact) []string {
	out := make([]string, len(facts))
	for i, f := range facts {
		out[i] = fmt.Sprintf("%v %v %s", f.kind, f.rels, wording{p: p}.message(f))
	}
	return out
}
