package solver

import (
	"context"

	"github.com/modsolver/modsolver/model"
)

// Solve resolves req against cat and the cluster's state. Bad input is an
// error that wraps model.ErrInvalidInput; a request that cannot be met is
// a Result with StatusUnsatisfiable and an explanation. ctx ends the solve
// early with ctx.Err().
func Solve(ctx context.Context, cat *model.Catalog, cluster *model.ClusterState, req *model.Request, opts ...Option) (*model.Result, error) {
	c, err := compiledOrNew(cat)
	if err != nil {
		return nil, err
	}
	return c.Solve(ctx, cluster, req, opts...)
}

// Encode builds the encoding Solve would search, without searching it,
// and returns its size: what a request costs before any solving, for
// benchmarks and capacity planning. Bad input is an error, as for Solve.
func Encode(cat *model.Catalog, cluster *model.ClusterState, req *model.Request) (model.Stats, error) {
	c, err := compiledOrNew(cat)
	if err != nil {
		return model.Stats{}, err
	}
	return c.Encode(cluster, req)
}
