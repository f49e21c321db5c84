package solver

import (
	"context"
	"slices"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// explainer answers "why not?" questions on the explain encoding, where
// every fact has a selector literal (DESIGN §6, R16, R17).
type explainer struct {
	e      *encoder
	sel    *selecting
	ctx    context.Context
	prefs  map[*view]*fact
	inputs []*fact // inputFacts, once made for the scope encoded so far
	// choices are the facts of R23's source choices (sourcePreferences),
	// made for the scope encoded so far.
	choices map[*sourceChoice]*fact
}

// newExplainer builds the explain encoding of p over scope sc, under b,
// sharing names with p's other explain encodings.
func newExplainer(ctx context.Context, p *problem, sc scope, b *budget, names *explainNames) *explainer {
	sel := &selecting{}
	e := newEncoder(p, sel, sc)
	e.ctx = ctx
	e.sharedNames = names
	b.track(e)
	e.encode()
	return &explainer{e: e, sel: sel, ctx: ctx, prefs: map[*view]*fact{}}
}

// facts returns every encoded fact in the order a whole-closure encoding
// makes them (factOrder, then factRank), which is fixed by module names:
// input order never matters (R15).
func (x *explainer) facts() []*fact {
	out := make([]*fact, 0, len(x.sel.sel.ids))
	for _, id := range x.sel.sel.ids {
		out = append(out, x.e.p.store.facts[id])
	}
	x.e.rankOrder(out)
	return out
}

// grow widens the encoding's cone (cone.go) by a step; it reports whether
// it grew.
func (x *explainer) grow() bool { return x.grown(x.e.grow()) }

// growDown widens the cone by the modules its facts speak of first
// (encoder.growDown).
func (x *explainer) growDown() bool { return x.grown(x.e.growDown()) }

func (x *explainer) grown(ok bool) bool {
	if ok {
		x.inputs, x.choices = nil, nil
	}
	return ok
}

// inputCore returns a minimal core of the input facts but those about the
// modules aside (D19). On a cone it asks the facts encoded so far and
// widens the cone while they have a model; it returns nil when they have
// one over the whole closure.
func (x *explainer) inputCore(aside map[*view]bool) ([]*fact, error) {
	for {
		var facts []*fact
		for _, f := range x.inputFacts() {
			if f.v == nil || !aside[f.v] {
				facts = append(facts, f)
			}
		}
		core, err := x.minimalCore(nil, facts)
		if err != nil || core != nil || !x.grow() {
			return core, err
		}
	}
}

// minimalCore returns a minimal set of facts that, with the literals in
// fixed, has no model: without any one of them there is one (D19). It
// returns nil when the facts and fixed together have a model. Facts are
// tried for removal in order, so the ones listed first are the ones an
// explanation most readily does without.
func (x *explainer) minimalCore(fixed []z.Lit, facts []*fact) ([]*fact, error) {
	core := make([]*fact, len(facts))
	copy(core, facts)
	ok, err := x.e.solve(x.ctx, x.assume(fixed, core))
	if err != nil || ok {
		return nil, err
	}
	core = x.inWhy(core)
	for i := 0; i < len(core); {
		trial := slices.Delete(slices.Clone(core), i, i+1)
		ok, err := x.e.solve(x.ctx, x.assume(fixed, trial))
		if err != nil {
			return nil, err
		}
		if ok {
			i++ // core[i] is needed
			continue
		}
		core = x.inWhy(trial)
	}
	return core, nil
}

func (x *explainer) assume(fixed []z.Lit, facts []*fact) []z.Lit {
	out := slices.Clone(fixed)
	for _, f := range facts {
		out = append(out, x.sel.sel.of(f))
	}
	return out
}

// inWhy keeps the facts whose selectors are in the last UNSAT core, in
// their order.
func (x *explainer) inWhy(facts []*fact) []*fact {
	in := map[z.Lit]bool{}
	for _, m := range x.e.why() {
		in[m] = true
	}
	out := facts[:0:0]
	for _, f := range facts {
		if in[x.sel.sel.of(f)] {
			out = append(out, f)
		}
	}
	return out
}

// query adds a fresh literal q with q → lits (each a unit under q) and
// returns q, to be assumed.
func (x *explainer) query(lits ...z.Lit) z.Lit {
	q := x.e.g.Lit()
	for _, m := range lits {
		x.e.add(nil, q.Not(), m)
	}
	return q
}

// preference adds a fact "module v is at release at (-1: off)", for the
// R17 question of what an earlier module's choice costs a later one.
func (x *explainer) preference(v *view, at int) *fact {
	if f, ok := x.prefs[v]; ok {
		return f
	}
	f := x.e.p.store.newFact(model.FactPreference, v)
	x.prefs[v] = f
	f.at = at
	mv := x.e.byName[v.name]
	j := -1
	if at >= 0 {
		j = mv.pos[at] // an explain encoding's domain holds every release
	}
	for _, l := range x.e.exactly(mv, j) {
		x.e.add(f, l)
	}
	return f
}

// explaining is a session's explain part: the explain encodings it
// builds and what they share, the scratch of its local questions, and
// the work of the encodings it dropped. It reads the session (a pointer
// back).
type explaining struct {
	*session
	// whole and cone are the session's explain encodings, each built
	// once, over its own scope: the whole closure (explainer) and the
	// cone of an unsatisfiable request (conflictExplainer).
	whole, cone *explainer
	// local is the scratch of held-back questions asked without a solver
	// (localcore.go), kept from one question to the next.
	local *localQuestion
	// asked sums the work of the cones held-back questions were asked on
	// (whyNot), each dropped once answered.
	asked model.Stats
	// names is the name index every explain encoding of the problem
	// shares (cone.go).
	names explainNames
}

// stats sums the work of every encoding the session built.
func (s *explaining) stats() model.Stats {
	var kept []*encoder
	for _, x := range s.kept() {
		kept = append(kept, x.e)
	}
	return s.work(s.asked, kept...)
}

// kept lists the explain encodings the session keeps.
func (s *explaining) kept() []*explainer {
	var out []*explainer
	for _, x := range []*explainer{s.whole, s.cone} {
		if x != nil {
			out = append(out, x)
		}
	}
	return out
}

// explainer returns the session's explain encoding of the whole closure,
// building it once.
func (s *explaining) explainer() *explainer {
	return s.keep(&s.whole, everything)
}

// conflictExplainer returns the session's explain encoding for an
// unsatisfiable request: a cone from the request's facts (cone.go).
func (s *explaining) conflictExplainer() *explainer {
	return s.keep(&s.cone, conflictCone)
}

// keep returns *x, building it over sc first.
func (s *explaining) keep(x **explainer, sc scope) *explainer {
	if *x == nil {
		*x = newExplainer(s.ctx, s.p, sc, s.budget, &s.names)
	}
	return *x
}
