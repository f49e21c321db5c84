package solver

import (
	"context"
	"errors"
	"sync"

	"github.com/modsolver/modsolver/model"
)

// batch is what the requests of one what-if batch share across workers:
// the catalog's platform axes (classes.go) and the outcomes of suggestion
// checks by class. A suggestion is checked by resolving the changed
// request (D21); requests of one class resolve alike, and the changed
// requests of many scenarios fall in few classes (the same upgrade of
// Kubernetes on the same DKP, say), so each class is resolved once. An
// upgrade of the platform often leads to a class the batch answers
// itself: its status is recorded when it is resolved (answered), and a
// check that comes after it reads it.
type batch struct {
	axes     *platformAxes
	mu       sync.Mutex
	verified map[string]verified
}

type verified struct {
	res *model.Result
	err error
}

func newBatch(axes *platformAxes) *batch {
	return &batch{axes: axes, verified: map[string]verified{}}
}

// verify resolves the changed inputs of a suggestion, status first: the
// answer Solve gives, or one it gives for a request of the same class.
// An update suggestion reads the version its module reaches, so it is
// always resolved on its own, to its optimum; so is a change to the
// cluster state. Every other suggestion reads only the status, so its
// check stops once it knows whether the request resolves.
func (s *session) verify(sug model.Suggestion, cluster *model.ClusterState, req *model.Request) (*model.Result, error) {
	opts := []Option{WithoutHeldBack(), WithoutSuggestions(), statusOnly(), WithMemoryLimit(s.budget.remaining())}
	if sug.Kind != model.SuggestUpdateModule {
		opts = append(opts, feasibleOnly())
	}
	solve := func() (*model.Result, error) {
		return s.p.compiled.Solve(s.ctx, cluster, req, opts...)
	}
	b := s.cfg.batch
	if b == nil || sug.Kind == model.SuggestUpdateModule || !sameState(cluster, s.p.cluster) {
		return solve()
	}
	key := b.axes.key(req)
	b.mu.Lock()
	v, ok := b.verified[key]
	b.mu.Unlock()
	if ok {
		return v.res, v.err
	}
	res, err := solve()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return res, err
	}
	b.mu.Lock()
	b.verified[key] = verified{res, err}
	b.mu.Unlock()
	return res, err
}

// answered records the status of the class of req, which the batch
// resolved as res, for the suggestion checks that fall in it.
func (b *batch) answered(req *model.Request, res *model.Result) {
	key := b.axes.key(req)
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.verified[key]; !ok {
		b.verified[key] = verified{res: &model.Result{Status: res.Status}}
	}
}

// feasibleOnly makes Solve answer only whether a request resolves, with
// no optimum for a request that does.
func feasibleOnly() Option { return func(s *settings) { s.feasibleOnly = true } }

// feasible answers with the status alone: whether the request's hard
// constraints hold together, the first question R14's optimisation asks.
func (s *session) feasible() (*model.Result, error) {
	ok, err := s.opt.e.solve(s.opt.ctx, s.opt.commits)
	if err != nil {
		return nil, err
	}
	status := model.StatusResolved
	if !ok {
		status = model.StatusUnsatisfiable
	}
	return &model.Result{Status: status, Stats: s.stats()}, nil
}
