package solver_test

import (
	"context"
	"testing"

	"github.com/modsolver/modsolver/bench"
	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// BenchmarkRouteDKP times a platform upgrade five DKP minors and two
// Kubernetes minors up on the real DKP tree (bench.CaseRouteDKP, R33):
// the whole answer, and the route's placement alone on that answer.
func BenchmarkRouteDKP(b *testing.B) {
	cat, _, err := catalog.Load(shared.Path(b, "data", "dkp"))
	if err != nil {
		b.Fatal(err)
	}
	cluster, req, err := bench.RouteDKP(cat)
	if err != nil {
		b.Fatal(err)
	}
	c, err := solver.Compile(cat)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	res, err := c.Solve(ctx, cluster, req)
	if err != nil || len(res.Route) != 7 {
		b.Fatalf("want a route of 7 steps, got %v (%v)", res.Route, err)
	}
	b.Run("answer", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.Solve(ctx, cluster, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("route", func(b *testing.B) {
		for b.Loop() {
			res.Route = nil
			out, err := c.AddRoute(ctx, cluster, req, res)
			if err != nil || out.Status != model.StatusResolved {
				b.Fatal(err)
			}
		}
	})
}
