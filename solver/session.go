package solver

import (
	"context"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// newSession starts the session of one request. Its static facts are
// made only when an explanation or a held-back reason reads them.
func newSession(ctx context.Context, cfg settings, c *Compiled, cluster *model.ClusterState, req *model.Request, memo memoUse) *session {
	p := newProblem(c, cluster, req)
	p.lazyStatics, p.sideBySide, p.memo = true, cfg.sideBySide, memo
	return &session{ctx: ctx, cfg: cfg, p: p}
}

// session is one resolution: the fast encoding that finds the answer
// and the outcomes read back from it. Its explain part (explaining),
// suggestion part (suggesting) and render part (answering) are later
// phases' and read it.
type session struct {
	ctx  context.Context
	cfg  settings
	p    *problem
	fast *encoder
	opt  *optimizer
	// budget bounds the memory of fast and of the explain encodings
	// (WithMemoryLimit).
	budget *budget
	// final maps every encoded module to its selected release (-1: off).
	final map[*view]int
	// outs are the outcomes a resolved answer lists, and unchanged the
	// kept ones it counts instead (report: changes); core and blockers are
	// the facts an unsatisfiable answer names. A what-if batch renders
	// other requests of the same class from them (rerender.go).
	outs           []*outcome
	unchanged      int
	core, blockers []*fact
}

// work sums the work of the fast encoding, of asked (encodings already
// dropped) and of more, the encodings kept beside it.
func (s *session) work(asked model.Stats, more ...*encoder) model.Stats {
	st := model.Stats{Variables: int(s.fast.g.MaxVar()) + asked.Variables, Clauses: s.fast.clauses + asked.Clauses, Solves: s.fast.solves + asked.Solves}
	encs := []*encoder{s.fast}
	for _, e := range more {
		st.Variables += int(e.g.MaxVar())
		st.Clauses += e.clauses
		st.Solves += e.solves
		encs = append(encs, e)
	}
	st.MemoryBytes = estimate(encs...)
	return st
}

// keptResult is a detached frozen module's result, from the memo.
func (s *session) keptResult(f *frozenModule) model.ModuleResult {
	r := f.result
	r.Path = slices.Clone(r.Path) // the caller's to change
	if !s.cfg.explainHeldBack {
		r.HeldBack = ""
	}
	return r
}

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
	return &model.Result{Status: status, Stats: s.work(model.Stats{})}, nil
}
