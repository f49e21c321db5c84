package solver

import (
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
