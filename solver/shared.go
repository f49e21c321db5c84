package solver

import (
	"context"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// A shared encoding answers many requests against one catalog and cluster
// state on one gini solver (DESIGN §6, what-if). It is built like an
// explain encoding: every module of the union of the requests' closures
// has variables over all its releases, and the clauses of every fact are
// guarded by a selector literal. Facts with the same clauses, such as the
// catalog's requirements, share one selector; facts that differ between
// requests, such as a platform requirement checked against another
// candidate version, get their own. A request is then answered under the
// assumption of its facts' selectors, and the solver, with everything it
// has learnt, is kept for the next request.
//
// A shared encoding belongs to one goroutine; WhatIf builds one per
// worker, never a copy (gini's Copy loses its heuristic state).
type sharedEncoding struct {
	e     *encoder
	sh    *sharing // e's guard
	c     *Compiled
	cat   *model.Catalog
	state *model.ClusterState
	// fixed holds the selectors of facts that are the same for every
	// request: the requirements of a module none of whose dependencies is
	// built in (a built-in's version is the request's DKP version), by
	// module and the request's devel, and the exclusive groups.
	fixed     map[string][]z.Lit
	groups    []z.Lit
	groupsFor int // the number of modules the groups were encoded for
	memo      map[allowKey]bool
}

// sharing is the guard of a shared encoding: it collects the clauses of
// each fact while one request's facts are encoded, and gives each
// distinct clause set one selector (flush).
type sharing struct {
	pending map[*fact][][]z.Lit
	bySet   map[string]z.Lit
	key     []byte
}

func (*sharing) keepsFacts() bool { return true }

// newShared starts an empty shared encoding; modules get their variables
// when a request first needs them.
func newShared(c *Compiled, cluster *model.ClusterState) *sharedEncoding {
	sh := &sharing{pending: map[*fact][][]z.Lit{}, bySet: map[string]z.Lit{}}
	e := newEncoder(newProblem(c, cluster, &model.Request{}), sh, everything)
	e.counters = map[string][]z.Lit{}
	return &sharedEncoding{e: e, sh: sh, c: c, cat: c.cat, state: cluster, fixed: map[string][]z.Lit{}, memo: map[allowKey]bool{}}
}

// include gives every module of scope its variables, keeping the modules
// sorted by name, the order the optimiser relies on; the universe is the
// modules included so far.
func (se *sharedEncoding) include(scope []*view) {
	e := se.e
	for _, v := range scope {
		if _, ok := e.byName[v.name]; ok {
			continue
		}
		mv := e.addModule(v)
		e.mods = e.mods[:len(e.mods)-1]
		i, _ := slices.BinarySearchFunc(e.mods, v.name, func(m *modVars, name string) int { return strings.Compare(m.v.name, name) })
		e.mods = slices.Insert(e.mods, i, mv)
		e.universe = slices.Insert(e.universe, i, v)
	}
}

// add records one clause of f, dropping constant literals as the
// encoder's clause does.
func (sh *sharing) add(e *encoder, f *fact, lits []z.Lit) {
	c := make([]z.Lit, 0, len(lits))
	for _, m := range lits {
		switch m {
		case e.top:
			return
		case e.top.Not():
			continue
		}
		c = append(c, m)
	}
	sh.pending[f] = append(sh.pending[f], c)
}

// assume encodes the facts of p on the shared variables and returns the
// selectors to assume for p. Modules outside p's closure are assumed off:
// nothing in p's closure can require them, so they are off in every
// optimal answer, as they are in Solve, which does not encode them.
func (se *sharedEncoding) assume(p *problem, scope map[string]bool) []z.Lit {
	e := se.e
	e.p = p
	var assume []z.Lit
	var mine []*modVars
	for _, mv := range e.mods {
		if !scope[mv.v.name] {
			assume = append(assume, e.on(mv).Not())
			continue
		}
		mv.v = p.view(mv.v.name)
		mine = append(mine, mv)
	}
	assume = append(assume, se.flush(p, func() {
		for _, mv := range mine {
			e.encodeIntent(mv)
			e.encodeStatics(mv)
		}
	})...)
	for _, mv := range mine {
		// A request's devel changes which versions a range admits (R6).
		key := mv.v.name + "|" + strconv.FormatBool(p.in.req.Devel)
		if sels, ok := se.fixed[key]; ok {
			assume = append(assume, sels...)
		} else if !se.requiresBuiltIn(mv) {
			se.fixed[key] = se.flush(p, func() { e.encodeNeeds(mv) })
			assume = append(assume, se.fixed[key]...)
		} else {
			// Flushed now, so that these request-specific clauses get
			// selectors of their own and never join the groups' below.
			assume = append(assume, se.flush(p, func() { e.encodeNeeds(mv) })...)
		}
	}
	if se.groups == nil || se.groupsFor != len(e.mods) {
		se.groups, se.groupsFor = se.flush(p, func() {
			clear(e.across.groups)
			clear(e.across.capabilities)
			clear(e.across.loops)
			e.encodeAcross(e.mods)
		}), len(e.mods)
	}
	assume = append(assume, se.groups...)
	return append(assume, se.flush(p, func() {})...)
}

// requiresBuiltIn reports whether some release of mv requires a built-in
// module, whose version changes with the request.
func (se *sharedEncoding) requiresBuiltIn(mv *modVars) bool {
	for _, r := range mv.v.rels {
		for _, d := range r.Requirements.Modules {
			if m := se.cat.Module(d.Module); m != nil && m.MayBeBuiltIn() {
				return true
			}
		}
	}
	return mv.v.m.Embedded
}

// flush runs encode, then turns the clauses collected so far into
// selectors, one per distinct clause set, in the order of p's facts.
func (se *sharedEncoding) flush(p *problem, encode func()) []z.Lit {
	encode()
	sh := se.sh
	sels := []z.Lit{}
	for _, f := range p.store.facts {
		clauses, ok := sh.pending[f]
		if !ok {
			continue
		}
		sel := sh.selectorFor(se.e, clauses)
		if !slices.Contains(sels, sel) {
			sels = append(sels, sel)
		}
	}
	clear(sh.pending)
	return sels
}

// selectorFor returns the selector of a clause set, adding the clauses,
// guarded by a new selector, the first time the set is met.
func (sh *sharing) selectorFor(e *encoder, clauses [][]z.Lit) z.Lit {
	sh.key = sh.key[:0]
	for _, c := range clauses {
		for _, m := range c {
			sh.key = binary.AppendUvarint(sh.key, uint64(m))
		}
		sh.key = append(sh.key, 0)
	}
	if sel, ok := sh.bySet[string(sh.key)]; ok {
		return sel
	}
	sel := e.g.Lit()
	sh.bySet[string(sh.key)] = sel
	for _, c := range clauses {
		if !e.budget.exceeded() {
			e.clause(sel.Not(), c)
		}
	}
	return sel
}

// session prepares req's session on the shared encoding: its facts
// encoded and the selectors to assume in s.base.
func (se *sharedEncoding) session(ctx context.Context, cfg settings, req *model.Request) *session {
	p := newProblem(se.c, se.state, req)
	p.checks.memo = se.memo
	closure := p.closure(true)
	se.include(closure)
	scope := make(map[string]bool, len(closure))
	for _, v := range closure {
		scope[v.name] = true
	}
	// Each request checks the shared encoding against the limit afresh,
	// together with its own explain encoding, if it builds one.
	b := newBudget(cfg.maxBytes)
	se.e.budget = nil
	b.track(se.e)
	base := se.assume(p, scope)
	return &session{ctx: ctx, cfg: cfg, p: p, fast: se.e, budget: b, solvesBefore: se.e.solves, scope: scope, base: base}
}
