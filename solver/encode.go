package solver

import (
	"context"

	"github.com/go-air/gini"
	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// encoder writes one resolution onto a gini solver with the order
// encoding of DESIGN §6: for module m with candidate releases r_0 < … <
// r_{n-1}, the literal ge(m, j) means "m is on at r_j or newer". ge(m, 0)
// means "m is on", ge(m, j+1) implies ge(m, j), and "exactly r_j" is
// ge(m, j) ∧ ¬ge(m, j+1), so at most one release per module comes free
// (R1) and a version range costs a clause or two per interval.
//
// In explain mode every clause of a fact is guarded by the fact's
// selector literal, so that gini's Why() names facts (R16).
type encoder struct {
	p       *problem
	explain bool
	g       *gini.Gini
	top     z.Lit
	mods    []*modVars
	byName  map[string]*modVars
	// detached are frozen modules left out of a fast encoding (detach.go),
	// sorted by name; each keeps its deployed release.
	detached []*view
	sel      selectors
	owner    map[z.Lit]*fact
	ivCache  map[ivKey]z.Lit
	chains   map[string][]z.Lit // at-most-one chains by exclusive group
	satCache map[satKey][]int
	counters map[string][]z.Lit  // totalizers of a shared encoding (card.go)
	srcLits  map[sourceKey]z.Lit // "on at a release of source s" (sources.go)
	// shared is set on a what-if encoding: clauses of facts are collected
	// in pending and added once per distinct content (whatif.go).
	shared  *sharing
	clauses int
	lits    int // literals over all clauses, for the size estimate
	solves  int
	buf     []z.Lit
	// budget bounds the encoding's estimated size (budget.go); nil: none.
	budget *budget
	// ctx, when set, ends encode early once it is done; the next solve
	// then returns its error.
	ctx context.Context
}

// modVars are the literals of one module.
type modVars struct {
	v   *view
	dom []int   // candidate release indices, ascending
	pos []int   // release index → position in dom, or -1
	ge  []z.Lit // ge[j] for position j
}

type ivKey struct {
	mod      *modVars
	low, top int
}

func newEncoder(p *problem, explain bool) *encoder {
	e := &encoder{p: p, explain: explain, g: gini.New(), byName: map[string]*modVars{},
		owner: map[z.Lit]*fact{}, ivCache: map[ivKey]z.Lit{}, chains: map[string][]z.Lit{}, satCache: map[satKey][]int{}, counters: map[string][]z.Lit{}}
	e.top = e.g.Lit()
	e.g.Add(e.top)
	e.g.Add(z.LitNull)
	e.clauses++
	return e
}

// encode writes every module of the closure and every fact about them.
func (e *encoder) encode() {
	closure := e.p.closure(e.explain)
	if !e.explain {
		closure, e.detached = e.p.detach(closure)
	}
	for _, v := range closure {
		e.addModule(v)
	}
	for _, mv := range e.mods {
		if e.ctx != nil && e.ctx.Err() != nil {
			return
		}
		e.encodeIntent(mv)
		if e.explain {
			e.encodeStatics(mv)
		}
		e.encodeNeeds(mv)
	}
	e.encodeAcross()
}

// encodeNeeds adds what mv's candidates need of other modules: module
// requirements (R2, R3), capabilities (R19) and compound requirements
// (R24, compound.go).
func (e *encoder) encodeNeeds(mv *modVars) {
	e.encodeRequirements(mv)
	e.encodeCapabilities(mv)
	e.encodeCompound(mv)
}

// encodeAcross adds the rules that span modules: exclusive groups (R13)
// and capability uniqueness (R20).
func (e *encoder) encodeAcross() {
	e.encodeGroups()
	e.encodeUniqueness()
}

func (e *encoder) addModule(v *view) {
	mv := &modVars{v: v, dom: v.candidates(e.explain), pos: make([]int, len(v.rels))}
	for i := range mv.pos {
		mv.pos[i] = -1
	}
	mv.ge = make([]z.Lit, len(mv.dom))
	for j, r := range mv.dom {
		mv.pos[r] = j
		mv.ge[j] = e.g.Lit()
		if j > 0 {
			e.add(nil, mv.ge[j].Not(), mv.ge[j-1])
		}
	}
	e.mods = append(e.mods, mv)
	e.byName[v.name] = mv
}

// on is the literal "module is on".
func (e *encoder) on(mv *modVars) z.Lit { return e.ge(mv, 0) }

// ge is ge(m, j) over positions, with constants outside the domain.
func (e *encoder) ge(mv *modVars, j int) z.Lit {
	switch {
	case j >= len(mv.dom):
		return e.top.Not()
	case j <= 0 && len(mv.dom) == 0:
		return e.top.Not()
	case j <= 0:
		return mv.ge[0]
	}
	return mv.ge[j]
}

// selector returns the guard literal of f, creating it on first use; nil
// facts and fast-mode encodings have none.
func (e *encoder) selector(f *fact) z.Lit {
	if f == nil || !e.explain {
		return z.LitNull
	}
	if s := e.sel.of(f); s != z.LitNull {
		return s
	}
	s := e.g.Lit()
	e.sel.set(f, s)
	e.owner[s] = f
	return s
}

// selectors maps the facts of one problem to their selector literals, by
// fact id (ids count up from 0 per problem); z.LitNull means none.
type selectors struct {
	lits []z.Lit
	n    int
}

func (sl *selectors) of(f *fact) z.Lit {
	if f.id < len(sl.lits) {
		return sl.lits[f.id]
	}
	return z.LitNull
}

func (sl *selectors) set(f *fact, s z.Lit) {
	for f.id >= len(sl.lits) {
		sl.lits = append(sl.lits, z.LitNull)
	}
	sl.lits[f.id] = s
	sl.n++
}

// add adds the clause lits, guarded by f. Literals that are constantly
// false are dropped, and a clause with a true literal is skipped.
func (e *encoder) add(f *fact, lits ...z.Lit) {
	if e.budget.exceeded() {
		return // the next solve fails with the budget's error
	}
	if e.shared != nil && f != nil {
		e.shared.collect(e, f, lits)
		return
	}
	c := e.buf[:0]
	if s := e.selector(f); s != z.LitNull {
		c = append(c, s.Not())
	}
	for _, m := range lits {
		switch m {
		case e.top:
			return
		case e.top.Not():
			continue
		}
		c = append(c, m)
	}
	if len(c) == 0 {
		c = append(c, e.top.Not())
	}
	for _, m := range c {
		e.g.Add(m)
	}
	e.g.Add(z.LitNull)
	e.clauses++
	e.lits += len(c)
	e.buf = c
}

// notRun returns the literals of "m is not at a position in [a, b)".
func (e *encoder) notRun(mv *modVars, a, b int) []z.Lit {
	return []z.Lit{e.ge(mv, a).Not(), e.ge(mv, b)}
}

func (e *encoder) encodeIntent(mv *modVars) {
	v := mv.v
	switch v.intent {
	case intentOn:
		e.add(v.intentFact, e.on(mv))
	case intentOff:
		if e.explain {
			e.add(v.intentFact, e.on(mv).Not())
		}
	}
}

// encodeStatics forbids, in explain mode, what fast mode leaves out of the
// domain: each static fact forbids its releases, run by run.
func (e *encoder) encodeStatics(mv *modVars) {
	for _, f := range mv.v.staticFacts() {
		for _, run := range runsOf(positions(mv, f.rels)) {
			e.add(f, e.notRun(mv, run[0], run[1])...)
		}
	}
}

// positions maps release indices to domain positions, dropping absent ones.
func positions(mv *modVars, rels []int) []int {
	out := make([]int, 0, len(rels))
	for _, r := range rels {
		if j := mv.pos[r]; j >= 0 {
			out = append(out, j)
		}
	}
	return out
}

// runsOf splits ascending positions into maximal runs [a, b).
func runsOf(ps []int) [][2]int {
	var out [][2]int
	for _, p := range ps {
		if n := len(out); n > 0 && out[n-1][1] == p {
			out[n-1][1] = p + 1
			continue
		}
		out = append(out, [2]int{p, p + 1})
	}
	return out
}

// satisfying returns the positions of d whose version satisfies c, with
// prerelease and metadata stripped (R6). Answers for modules with a
// release list are cached: they depend only on the catalog, so a shared
// what-if encoding computes each once.
func (e *encoder) satisfying(d *modVars, c *model.Constraint) []int {
	if d.v.m.Embedded {
		return satisfying(d, c) // the version is the request's DKP version
	}
	k := satKey{d, c.Text}
	if out, ok := e.satCache[k]; ok {
		return out
	}
	out := satisfying(d, c)
	e.satCache[k] = out
	return out
}

type satKey struct {
	mod  *modVars
	text string
}

func satisfying(d *modVars, c *model.Constraint) []int {
	var out []int
	for j, r := range d.dom {
		if c.Allows(model.Core(d.v.rels[r].Version)) {
			out = append(out, j)
		}
	}
	return out
}
