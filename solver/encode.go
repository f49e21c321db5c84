package solver

import (
	"context"
	"slices"

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
// Its guard (guard.go) says how the clauses of a fact are held, and its
// scope (cone.go) which modules it covers.
type encoder struct {
	p     *problem
	guard guard
	scope scope
	g     *gini.Gini
	top   z.Lit
	// mods are the modules with variables, byName the same by name.
	mods   []*modVars
	byName map[string]*modVars
	// universe are the modules the encoding may cover, sorted by name:
	// the closure.
	universe []*view
	// kept are the frozen modules a fast encoding on a state memo left
	// out without a view (statememo.go), sorted by name: each keeps its
	// release. lazyRefused: the memo could not serve this request, and
	// nothing is encoded.
	kept        []*frozenModule
	lazyRefused bool
	// detached are frozen modules left out of a fast encoding (detach.go),
	// sorted by name; each keeps its deployed release.
	detached []*view
	// across are the exclusive groups and capabilities whose rules (R13,
	// R20) are encoded (encodeAcross).
	across acrossDone
	// ranks order the facts the encoder makes (cone.go); nil when the
	// encoding keeps no facts.
	ranks map[*fact]factRank
	cone  *cone // set when the scope is a cone
	// sharedNames, on an explain encoding, holds the name index it shares
	// with the problem's other explain encodings (explainNames), or nil.
	sharedNames *explainNames
	ivCache     map[ivKey]z.Lit
	chains      map[string][]z.Lit // at-most-one chains by exclusive group
	satCache    map[satKey][]int
	srcLits     map[sourceKey]z.Lit // "on at a release of source s" (sources_encode.go)
	setLits     map[setKey]z.Lit    // "at one of these positions" (loops.go)
	clauses     int
	lits        int // literals over all clauses, for the size estimate
	solves      int
	buf         []z.Lit
	scratch     []z.Lit // a clause being built, before add copies it
	// reqScratch holds a module's narrowed requirement groups while its
	// clauses are added (requirementGroups), and runScratch and ivScratch
	// a group's runs of candidates and of satisfying releases.
	reqScratch            reqScratch
	runScratch, ivScratch [][2]int
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

// newEncoder starts an encoding of p whose facts g holds, over scope sc.
func newEncoder(p *problem, g guard, sc scope) *encoder {
	e := &encoder{p: p, guard: g, scope: sc, g: gini.New(), byName: map[string]*modVars{}, across: acrossDone{groups: map[string]bool{}, capabilities: map[string]bool{}, loops: map[int]bool{}},
		ivCache: map[ivKey]z.Lit{}, chains: map[string][]z.Lit{}, satCache: map[satKey][]int{}}
	if g.keepsFacts() {
		e.ranks = map[*fact]factRank{}
	}
	e.top = e.g.Lit()
	e.g.Add(e.top)
	e.g.Add(z.LitNull)
	e.clauses++
	return e
}

// encode writes the modules of the closure its scope covers, and every
// fact about them. A fast encoding leaves detached modules out.
func (e *encoder) encode() {
	var closure []*view
	dt := detacher{e.p}
	switch {
	case e.guard.keepsFacts():
		closure = e.p.closure(true)
	case e.p.memo.lazy:
		var ok bool
		views, light := dt.lazyClosure()
		if closure, e.detached, e.kept, ok = dt.lazyDetach(e.p.memo.m, views, light); !ok {
			e.lazyRefused = true
			return
		}
	default:
		closure = e.p.closure(false)
		var ok bool
		if m := e.p.memo.m; m != nil {
			// Every view is made, in closure's order; the memo only finds
			// the frozen modules to detach (statememo.go).
			var encode []*view
			if encode, e.detached, _, ok = dt.lazyDetach(m, closure, nil); ok {
				closure = encode
			}
		}
		if !ok {
			closure, e.detached = dt.detach(closure)
		}
	}
	e.universe = closure
	if seed := e.scope.start(e.p, closure); seed != nil {
		e.cone = newCone()
		if !e.scope.alone {
			seed = e.withNamers(seed)
		}
		e.expand(seed)
		return
	}
	for _, v := range closure {
		e.addModule(v)
	}
	e.expand(closure)
}

// expand encodes the facts of the modules vs (sorted by name) that are
// not encoded yet, and the rules across modules that they take part in.
func (e *encoder) expand(vs []*view) {
	batch := make([]*modVars, 0, len(vs))
	for _, v := range vs {
		if e.cone != nil && !e.cone.cover(v.name) {
			continue
		}
		batch = append(batch, e.vars(v.name))
	}
	for _, mv := range batch {
		if e.ctx != nil && e.ctx.Err() != nil {
			return
		}
		e.encodeIntent(mv)
		if e.guard.keepsFacts() {
			e.encodeStatics(mv)
		}
		e.encodeNeeds(mv)
	}
	e.encodeAcross(batch)
}

// vars returns the variables of module name, making them on first use
// when the module is in the universe, or nil when it is not.
func (e *encoder) vars(name string) *modVars {
	if mv := e.byName[name]; mv != nil || e.cone == nil {
		return mv
	}
	i, ok := slices.BinarySearchFunc(e.universe, name, byViewName)
	if !ok {
		return nil
	}
	return e.addModule(e.universe[i])
}

// encodeNeeds adds what mv's candidates need of other modules: module
// requirements (R2, R3), capabilities (R19) and compound requirements
// (R24, compound.go).
func (e *encoder) encodeNeeds(mv *modVars) {
	rl := relations{e}
	rl.encodeRequirements(mv)
	rl.encodeCapabilities(mv)
	rl.encodeCompound(mv)
}

// encodeAcross adds the rules that span modules, for those that batch
// takes part in: exclusive groups (R13), capability uniqueness (R20) and
// dependency loops (R27). Each is encoded once, over every member in the
// universe.
func (e *encoder) encodeAcross(batch []*modVars) {
	rl := relations{e}
	rl.encodeGroups(batch)
	rl.encodeUniqueness(batch)
	rl.encodeLoops(batch)
}

// acrossDone names the exclusive groups, capabilities and loops (by
// their index in the catalog's loopTable) whose rules are encoded.
type acrossDone struct {
	groups, capabilities map[string]bool
	loops                map[int]bool
}

// newFact makes a fact of the encoder's own, ranked by rank, or returns
// nil when the encoding keeps no facts.
func (e *encoder) newFact(kind model.FactKind, v *view, rank factRank) *fact {
	if e.ranks == nil {
		return nil
	}
	f := e.p.store.newFact(kind, v)
	e.ranks[f] = rank
	return f
}

// domain lists the releases of v the encoding offers (closure.go).
func (e *encoder) domain(v *view) []int { return v.candidates(e.guard.keepsFacts()) }

func (e *encoder) addModule(v *view) *modVars {
	mv := &modVars{v: v}
	if e.guard.keepsFacts() && v.own {
		// Every release, each at its own index: the compiled list serves
		// as both, and is never written.
		mv.dom, mv.pos = v.tab.every, v.tab.every
	} else {
		mv.dom, mv.pos = e.domain(v), make([]int, len(v.rels))
		for i := range mv.pos {
			mv.pos[i] = -1
		}
		for j, r := range mv.dom {
			mv.pos[r] = j
		}
	}
	mv.ge = make([]z.Lit, len(mv.dom))
	for j := range mv.dom {
		mv.ge[j] = e.g.Lit()
		if j > 0 {
			e.add(nil, mv.ge[j].Not(), mv.ge[j-1])
		}
	}
	e.mods = append(e.mods, mv)
	e.byName[v.name] = mv
	return mv
}

// on is the literal "module is on".
func (e *encoder) on(mv *modVars) z.Lit { return e.ge(mv, 0) }

// exactly returns the literals that together say "mv is at position j"
// (j < 0: off), each a unit.
func (e *encoder) exactly(mv *modVars, j int) []z.Lit {
	if j < 0 {
		return []z.Lit{e.on(mv).Not()}
	}
	return []z.Lit{e.ge(mv, j), e.ge(mv, j+1).Not()}
}

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

// add adds the clause lits of fact f as the guard holds it, or plainly
// for f nil (the encoding's own structure).
func (e *encoder) add(f *fact, lits ...z.Lit) {
	if e.budget.exceeded() {
		return // the next solve fails with the budget's error
	}
	if f == nil {
		e.clause(z.LitNull, lits)
		return
	}
	e.guard.add(e, f, lits)
}

// clause adds lits to the solver, led by lead unless that is z.LitNull.
// Literals that are constantly false are dropped, and a clause with a
// true literal is skipped.
func (e *encoder) clause(lead z.Lit, lits []z.Lit) {
	c := e.buf[:0]
	if lead != z.LitNull {
		c = append(c, lead)
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
func (e *encoder) notRun(mv *modVars, a, b int) []z.Lit { return e.appendNotRun(nil, mv, a, b) }

// appendNotRun appends notRun's literals to out.
func (e *encoder) appendNotRun(out []z.Lit, mv *modVars, a, b int) []z.Lit {
	return append(out, e.ge(mv, a).Not(), e.ge(mv, b))
}

func (e *encoder) encodeIntent(mv *modVars) {
	v := mv.v
	switch v.intent {
	case intentOn:
		e.add(v.intentFact, e.on(mv))
	case intentOff:
		// A fast encoding has no candidates for v: the clause holds.
		e.add(v.intentFact, e.on(mv).Not())
	}
}

// encodeStatics forbids, in explain mode, what fast mode leaves out of the
// domain: each static fact forbids its releases, run by run.
func (e *encoder) encodeStatics(mv *modVars) {
	for _, f := range mv.v.staticFacts() {
		for _, run := range runsOf(positions(mv, f.rels)) {
			lits := e.appendNotRun(e.scratch[:0], mv, run[0], run[1])
			e.add(f, lits...)
			e.scratch = lits[:0]
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
func runsOf(ps []int) [][2]int { return runsInto(nil, ps) }

// runsInto is runsOf, appended to out.
func runsInto(out [][2]int, ps []int) [][2]int {
	for _, p := range ps {
		out = appendToRuns(out, p)
	}
	return out
}

// appendToRuns adds position p, above every position of out, to the runs
// of out.
func appendToRuns(out [][2]int, p int) [][2]int {
	if n := len(out); n > 0 && out[n-1][1] == p {
		out[n-1][1] = p + 1
		return out
	}
	return append(out, [2]int{p, p + 1})
}

// satisfying returns the positions of d whose version satisfies c, read
// by rd, the version reading of the module that wrote c (R6). Answers for
// modules with a release list are cached: they depend only on the catalog
// and the request's devel, so a shared what-if encoding computes each once.
func (e *encoder) satisfying(d *modVars, c *model.Constraint, rd model.VersionReading) []int {
	devel := e.p.in.req.Devel
	if d.v.m.Embedded {
		return satisfying(d, c, model.ReadingDKP, devel) // the version is the request's DKP version
	}
	k := satKey{d, c.Text, rd, devel}
	if out, ok := e.satCache[k]; ok {
		return out
	}
	out := satisfying(d, c, rd, devel)
	e.satCache[k] = out
	return out
}

type satKey struct {
	mod     *modVars
	text    string
	reading model.VersionReading
	devel   bool
}

func satisfying(d *modVars, c *model.Constraint, rd model.VersionReading, devel bool) []int {
	var out []int
	for j, r := range d.dom {
		if rd.Admits(c, d.v.rels[r].Version, devel) {
			out = append(out, j)
		}
	}
	return out
}

// live drops literals that are constant, which need no optimising.
func (e *encoder) live(lits []z.Lit) []z.Lit {
	out := lits[:0]
	for _, m := range lits {
		if m.Var() != e.top.Var() {
			out = append(out, m)
		}
	}
	return out
}
