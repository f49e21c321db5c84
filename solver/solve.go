package solver

import (
	"context"
	"errors"
	"time"

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

// Solve is the package-level Solve on c's catalog.
func (c *Compiled) Solve(ctx context.Context, cluster *model.ClusterState, req *model.Request, opts ...Option) (*model.Result, error) {
	start := time.Now()
	cfg := newSettings(opts)
	if err := missingInput(c.cat, cluster, req); err != nil {
		return nil, err
	}
	var memo *stateMemo
	if !cfg.hooks.noStateMemo {
		memo = c.t.states.memoFor(c, cluster, req) // nil unless req is of a shape a memo serves
	}
	var err error
	if memo != nil && memo.lazy {
		// The memo was made for this very state, which validated then.
		err = errors.Join(nil, req.Validate(c.cat, cluster))
	} else {
		err = validate(c.cat, cluster, req)
	}
	if err != nil {
		return nil, err
	}
	if cfg.statusOnly && stillStuck(c, cluster, req, cfg.stuck) {
		return &model.Result{Status: model.StatusUnsatisfiable, Stats: model.Stats{SolveMicros: time.Since(start).Microseconds()}}, nil
	}
	if cfg.feasibleOnly && c.routeEnds(cluster, req) != nil {
		// A request that takes a route resolves only if its route passes,
		// and the route is placed on the answer's modules (D386): a check
		// of status alone finds them too.
		cfg.feasibleOnly = false
	}
	res, err := c.solve(ctx, cfg, cluster, req, memo)
	if err == nil && !cfg.feasibleOnly {
		res, err = c.addRoute(ctx, c, cfg, cluster, req, res) // R33
	}
	if err != nil {
		return nil, err
	}
	res.Stats.SolveMicros = time.Since(start).Microseconds()
	return res, nil
}

// solve answers req on memo when it serves: on the memo's frozen modules
// without views (an answer that lists every module lists theirs as the
// memo rendered them), and again with every view when the answer needs an
// explanation or the memo could not render every frozen module's result;
// then the memo only finds which frozen modules to detach (statememo.go).
func (c *Compiled) solve(ctx context.Context, cfg settings, cluster *model.ClusterState, req *model.Request, memo *stateMemo) (*model.Result, error) {
	if memo == nil || !memo.lazy {
		return newAnswering(newSession(ctx, cfg, c, cluster, req, memoUse{}), c).run()
	}
	if req.ChangesOnly() || memo.results {
		res, err := newAnswering(newSession(ctx, cfg, c, cluster, req, lazyOn(memo)), c).run()
		if !errors.Is(err, errNoMemo) {
			return res, err
		}
	}
	return newAnswering(newSession(ctx, cfg, c, cluster, req, detachBy(memo)), c).run()
}

// Encode is the package-level Encode on c's catalog.
func (c *Compiled) Encode(cluster *model.ClusterState, req *model.Request) (model.Stats, error) {
	if err := validate(c.cat, cluster, req); err != nil {
		return model.Stats{}, err
	}
	e := newEncoder(newProblem(c, cluster, req), hard{}, everything)
	e.encode()
	return model.Stats{Variables: int(e.g.MaxVar()), Clauses: e.clauses, MemoryBytes: estimate(e)}, nil
}

func (s *answering) run() (*model.Result, error) {
	if res, err := s.p.in.compiled.platformRefusal(s.ctx, s.solver, s.cfg, s.p.in.cluster, s.p.in.req); res != nil || err != nil {
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
func (s *answering) optimize(o *optimizer) (*model.Result, error) {
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

// unsatisfiable builds the R16 answer: a minimal core of facts, rendered
// as a chain of sentences, with verified suggestions.
func (s *answering) unsatisfiable() (*model.Result, error) {
	if err := s.conflict(); err != nil {
		return nil, err
	}
	ex := s.explanation()
	if s.cfg.suggest {
		var err error
		if ex.Suggestions, err = s.suggest(s.core, s.blockers); err != nil {
			return nil, err
		}
	}
	return &model.Result{Status: model.StatusUnsatisfiable, Explanation: ex, Warnings: s.p.in.coreRefusals(s.core), Stats: s.stats()}, nil
}
