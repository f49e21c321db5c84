package solver

import (
	"context"
	"errors"
	"runtime"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// Option tunes one resolution.
type Option func(*settings)

type settings struct {
	explainHeldBack bool
	suggest         bool
	workers         int
	maxBytes        int64 // WithMemoryLimit; 0: no limit
	// statusOnly leaves an unsatisfiable answer unexplained: verifying a
	// suggestion asks only whether the changed request resolves.
	statusOnly bool
	// feasibleOnly answers with the status alone, a resolved request
	// without its optimum (verify.go).
	feasibleOnly bool
	// batch is shared by the requests of one what-if batch (verify.go).
	batch *batch
	// noStateMemo answers without the state memos (statememo.go): tests
	// compare the answers both ways.
	noStateMemo bool
	// sideBySide is the number of outcomes, and of a closure's views,
	// from which an answer is rendered and filtered in two halves side by
	// side (D330, D331): below it, the goroutine costs more than it saves,
	// and a service answering many small requests at once has no idle
	// core to give (on S, 100 modules, it cost 8% of the gRPC load test's
	// throughput). Tests set it to compare both ways.
	sideBySide int
}

// sideBySide is settings.sideBySide's default.
const sideBySide = 512

func newSettings(opts []Option) settings {
	s := settings{explainHeldBack: true, suggest: true, workers: runtime.GOMAXPROCS(0), sideBySide: sideBySide}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// WithoutHeldBack skips the R17 search for what holds modules back, for
// callers that need only the answer.
func WithoutHeldBack() Option { return func(s *settings) { s.explainHeldBack = false } }

// WithoutSuggestions skips verifying suggestions for unsatisfiable answers.
func WithoutSuggestions() Option { return func(s *settings) { s.suggest = false } }

// WithWorkers sets how many scenarios WhatIf solves at once (default: one
// per usable core). Each worker has its own solver.
func WithWorkers(n int) Option { return func(s *settings) { s.workers = max(n, 1) } }

// WithMemoryLimit bounds the estimated memory of one resolution's
// encodings to n bytes (default: no limit; n <= 0 keeps it). A resolution
// that needs more stops with a *model.MemoryLimitError, which wraps
// model.ErrTooLarge; Stats.MemoryBytes reports the estimate of one that
// fits. The checks of suggestions run within what is left of the limit.
// In WhatIf the limit holds for each worker's encoding.
func WithMemoryLimit(n int64) Option { return func(s *settings) { s.maxBytes = max(n, 0) } }

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

// newSession starts the session of one request. Its static facts are
// made only when an explanation or a held-back reason reads them.
func newSession(ctx context.Context, cfg settings, c *Compiled, cluster *model.ClusterState, req *model.Request) *session {
	p := newProblem(c, cluster, req)
	p.lazyStatics, p.sideBySide = true, cfg.sideBySide
	return &session{ctx: ctx, cfg: cfg, p: p}
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

func validate(cat *model.Catalog, cluster *model.ClusterState, req *model.Request) error {
	if err := missingInput(cat, cluster, req); err != nil {
		return err
	}
	return errors.Join(cluster.Validate(cat), req.Validate(cat, cluster))
}

// missingInput is the error of a nil input, or nil.
func missingInput(cat *model.Catalog, cluster *model.ClusterState, req *model.Request) error {
	switch {
	case cat == nil:
		return &model.FieldError{Path: model.Field("catalog"), Err: model.ErrMissingField}
	case cluster == nil:
		return &model.FieldError{Path: model.Field("cluster"), Err: model.ErrMissingField}
	case req == nil:
		return &model.FieldError{Path: model.Field("request"), Err: model.ErrMissingField}
	}
	return nil
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
