package solver

import (
	"context"

	"github.com/modsolver/modsolver/model"
)

// WithoutStateMemo answers without the state memos, for the tests of
// package solver_test that compare.
var WithoutStateMemo = withoutStateMemo

// WithSideBySideFrom sets the number of outcomes, and of a closure's
// views, from which an answer is rendered and filtered in two halves side
// by side (D330, D331), for the tests of package solver_test that compare
// both ways.
func WithSideBySideFrom(n int) Option { return func(s *settings) { s.sideBySide = n } }

// AddRoute places the route of res, a resolved answer to req (R33), as
// Solve does after the answer, for the benchmark that times it alone.
func (c *Compiled) AddRoute(ctx context.Context, cluster *model.ClusterState, req *model.Request, res *model.Result) (*model.Result, error) {
	return c.addRoute(ctx, c, newSettings(nil), cluster, req, res)
}

// newTestSession is the session of one request with its explain,
// suggestion and render parts, as the facade makes one.
func newTestSession(ctx context.Context, cfg settings, c *Compiled, cluster *model.ClusterState, req *model.Request) *answering {
	return newAnswering(newSession(ctx, cfg, c, cluster, req, memoUse{}), c)
}
