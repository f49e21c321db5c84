package solver

import (
	"context"
	"slices"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// newSession starts the session of one request. Its static facts are
// made only when an explanation or a held-back reason reads them.
func newSession(ctx context.Context, cfg settings, c *Compiled, cluster *model.ClusterState, req *model.Request) *session {
	p := newProblem(c, cluster, req)
	p.lazyStatics, p.sideBySide = true, cfg.sideBySide
	return &session{ctx: ctx, cfg: cfg, p: p}
}

// session is one resolution: the fast encoding that finds the answer and,
// built only when needed, the explain encoding that says why.
type session struct {
	ctx  context.Context
	cfg  settings
	p    *problem
	fast *encoder
	opt  *optimizer
	expl *explainer
	// budget bounds the memory of fast and expl (WithMemoryLimit).
	budget *budget
	// asked sums the work of the cones held-back questions were asked on
	// (whyNot), each dropped once answered.
	asked model.Stats
	// solvesBefore is the solve count of a shared what-if encoding before
	// this session, so that its stats count only its own solves.
	solvesBefore int
	// scope, on a shared encoding, names the modules of this request's
	// closure; the others are off and not part of the answer.
	scope map[string]bool
	// base, on a shared encoding, are the selectors of this request's facts.
	base []z.Lit
	// final maps every encoded module to its selected release (-1: off).
	final map[*view]int
	// outs are the outcomes a resolved answer lists, and unchanged the
	// kept ones it counts instead (report: changes); core and blockers are
	// the facts an unsatisfiable answer names. A what-if batch renders
	// other requests of the same class from them (rerender.go).
	outs           []*outcome
	unchanged      int
	core, blockers []*fact
	// class is what of the answer quotes a platform version, found when
	// the session renders its first other request of the class.
	class *classParts
	// local is the scratch of held-back questions asked without a solver
	// (localcore.go), kept from one question to the next.
	local *localQuestion
	// copies is the scratch of the static facts a rendered text quotes
	// and drops (collect).
	copies *copyScratch
}

// scratch returns the session's scratch for transient copies of static
// facts, made on first use.
func (s *session) scratch() *copyScratch {
	if s.copies == nil {
		s.copies = &copyScratch{}
	}
	return s.copies
}

// stats sums the work of every encoding this session built.
func (s *session) stats() model.Stats {
	st := model.Stats{Variables: int(s.fast.g.MaxVar()) + s.asked.Variables, Clauses: s.fast.clauses + s.asked.Clauses, Solves: s.fast.solves - s.solvesBefore + s.asked.Solves}
	encs := []*encoder{s.fast}
	if s.expl != nil {
		st.Variables += int(s.expl.e.g.MaxVar())
		st.Clauses += s.expl.e.clauses
		st.Solves += s.expl.e.solves
		encs = append(encs, s.expl.e)
	}
	st.MemoryBytes = estimate(encs...)
	if s.scope != nil {
		// On a shared what-if encoding, the request's own view of the
		// modules depends on what the worker answered before (its
		// memos), so it is left out, so that stats stay the same for any
		// number of workers.
		st.MemoryBytes = 0
		for _, e := range encs {
			st.MemoryBytes += e.bytes()
		}
	}
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
	return &model.Result{Status: status, Stats: s.stats()}, nil
}
