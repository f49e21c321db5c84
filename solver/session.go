package solver

import (
	"context"
	"errors"
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

func (s *session) run() (*model.Result, error) {
	if res, err := s.p.compiled.platformRefusal(s.ctx, s.cfg, s.p.cluster, s.p.req); res != nil || err != nil {
		return res, err // R31: a platform DKP does not run, decided before any encoding
	}
	s.budget = newBudget(s.cfg.maxBytes)
	s.fast = newEncoder(s.p, hard{}, everything)
	s.fast.ctx = s.ctx
	s.budget.track(s.fast)
	s.fast.encode()
	if s.fast.lazyRefused {
		return nil, errNoMemo
	}
	return s.optimize(&optimizer{e: s.fast, ctx: s.ctx})
}

// optimize runs the R14 levels with o, then builds the answer.
func (s *session) optimize(o *optimizer) (*model.Result, error) {
	s.opt = o
	if s.cfg.feasibleOnly {
		return s.feasible()
	}
	err := s.opt.run()
	switch {
	case errors.Is(err, errUnsat) && s.cfg.statusOnly:
		return &model.Result{Status: model.StatusUnsatisfiable, Stats: s.stats()}, nil
	case errors.Is(err, errUnsat):
		return s.unsatisfiable()
	case err != nil:
		return nil, err
	}
	return s.resolved()
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

// explainer returns the session's explain encoding of the whole closure,
// building it once.
func (s *session) explainer() *explainer {
	if s.expl == nil {
		s.expl = newExplainer(s.ctx, s.p, everything, s.budget)
	}
	return s.expl
}

// conflictExplainer returns the session's explain encoding for an
// unsatisfiable request: a cone from the request's facts (cone.go).
func (s *session) conflictExplainer() *explainer {
	if s.expl == nil {
		s.expl = newExplainer(s.ctx, s.p, conflictCone, s.budget)
	}
	return s.expl
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
