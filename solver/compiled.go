package solver

import (
	"context"
	"errors"
	"time"

	"github.com/modsolver/modsolver/model"
)

// Compiled is a catalog compiled for resolution: everything about it that
// no request changes, computed once and then only read, so that one
// Compiled serves any number of requests on any number of goroutines.
// Build it with Compile when a catalog is loaded (serve does, and again on
// reload); Solve, WhatIf and Sweep compile a catalog they are handed on
// first use and keep it while the catalog lives.
type Compiled struct {
	cat *model.Catalog
	t   *tables
}

// CompileStats says what compiling a catalog cost.
type CompileStats struct {
	Duration time.Duration // time spent compiling
	// Bytes is the estimated memory of the compiled tables, besides the
	// catalog itself.
	Bytes int64
}

// Compile compiles cat, afresh. A nil catalog is an error that wraps
// model.ErrInvalidInput. The result is kept with cat, unless an earlier
// one is, so that the package-level Solve, WhatIf and Sweep on the same
// catalog reuse it.
func Compile(cat *model.Catalog) (*Compiled, error) {
	if cat == nil {
		return nil, &model.FieldError{Path: model.Field("catalog"), Err: model.ErrMissingField}
	}
	t := keep(cat, compileTables(cat))
	if t.loops.err != nil {
		return nil, t.loops.err
	}
	return &Compiled{cat: cat, t: t}, nil
}

// compiledOrNew is cat compiled: the one kept with it, or compiled now.
// A nil catalog is an error, as for Compile.
func compiledOrNew(cat *model.Catalog) (*Compiled, error) {
	if cat == nil {
		return nil, &model.FieldError{Path: model.Field("catalog"), Err: model.ErrMissingField}
	}
	c := compiledFor(cat)
	if c.t.loops.err != nil {
		return nil, c.t.loops.err
	}
	return c, nil
}

// Catalog is the catalog c was compiled from.
func (c *Compiled) Catalog() *model.Catalog { return c.cat }

// Stats reports the compile time and the estimated size of c's tables.
func (c *Compiled) Stats() CompileStats { return CompileStats{Duration: c.t.took, Bytes: c.t.bytes} }

// Solve is the package-level Solve on c's catalog.
func (c *Compiled) Solve(ctx context.Context, cluster *model.ClusterState, req *model.Request, opts ...Option) (*model.Result, error) {
	start := time.Now()
	cfg := newSettings(opts)
	if err := missingInput(c.cat, cluster, req); err != nil {
		return nil, err
	}
	var memo *stateMemo
	if !cfg.hooks.noStateMemo {
		memo = c.memoFor(cluster, req) // nil unless req is of a shape a memo serves
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
	if cfg.feasibleOnly && c.routeEnds(cluster, req) != nil {
		// A request that takes a route resolves only if its route passes,
		// and the route is placed on the answer's modules (D386): a check
		// of status alone finds them too.
		cfg.feasibleOnly = false
	}
	res, err := c.solve(ctx, cfg, cluster, req, memo)
	if err == nil && !cfg.feasibleOnly {
		res, err = c.addRoute(ctx, cfg, cluster, req, res) // R33
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
		return newSession(ctx, cfg, c, cluster, req).run()
	}
	if req.ChangesOnly() || memo.results {
		s := newSession(ctx, cfg, c, cluster, req)
		s.p.state = memo
		res, err := s.run()
		if !errors.Is(err, errNoMemo) {
			return res, err
		}
	}
	s := newSession(ctx, cfg, c, cluster, req)
	s.p.detachMemo = memo
	return s.run()
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

// tablesKey is the key the compiled tables are kept under, with their
// catalog (model.Catalog.Derived).
type tablesKey struct{}

// compiledFor returns cat compiled: the tables kept with it, or compiled
// now and kept.
func compiledFor(cat *model.Catalog) *Compiled {
	return &Compiled{cat: cat, t: keep(cat, nil)}
}

// keep keeps t as cat's tables, unless some are kept already, and returns
// the kept ones; a nil t compiles them if none are.
func keep(cat *model.Catalog, t *tables) *tables {
	return cat.Derived(tablesKey{}, func() any {
		if t == nil {
			t = compileTables(cat)
		}
		return t
	}).(*tables)
}
