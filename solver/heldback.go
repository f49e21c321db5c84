package solver

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// nextAllowed is the lowest release above sel, up to the head, that no
// static fact forbids, or -1.
func (s *explaining) nextAllowed(v *view, sel int) int {
	head, _ := v.headFor(sel)
	for i := sel + 1; i <= head && i < len(v.rels); i++ {
		if v.allowed[i] && v.sameSource(i, sel) {
			return i
		}
	}
	return -1
}

// whyNotFacts finds why module v cannot be at release rel or newer (rel 0:
// cannot be on), given the facts and, if the facts alone allow it, the
// choices of the modules that R14 served first. The channel head and the
// prerelease policy are background: they are named only when nothing
// else explains the answer, since the head is the very bound that the
// question is about.
//
// The question is asked on a cone from v alone (D124), widened while its
// facts and the level's preferences have a model: first to the modules
// its facts speak of (what v requires), then a whole step (the modules
// that name those covered). A core of the cone's facts is a core of the
// closure's (cone.go), and most reasons are a module or two away. It
// returns the facts in the order whyNot names them; v has releases.
func (s *explaining) whyNotFacts(v *view, rel int) ([]*fact, error) {
	core, _, err := s.whyNotCore(v, rel)
	if err != nil {
		return nil, err
	}
	return heldBackOrder(newerOnly(core, v, rel), v, rel), nil
}

// whyNotCore returns whyNot's minimal core, and the background facts it
// is minimal under (none when the background itself is in the core): from
// the facts of v and of what it requires when those decide it
// (localcore.go), else from the solver.
func (s *explaining) whyNotCore(v *view, rel int) (core, background []*fact, err error) {
	if core, background, ok := s.localCore(v, rel); ok {
		return core, background, nil
	}
	return s.solverCore(v, rel)
}

// solverCore is whyNotCore asked of the solver, on a cone from v.
func (s *explaining) solverCore(v *view, rel int) (core, background []*fact, err error) {
	// Each level adds the preferences (R14) that may explain it: the
	// releases of the modules served before v, then of all others, each
	// with the sources levels 3a and 5a chose by then (R23).
	// Most questions are settled by the facts alone, so a level's lists
	// are made only when it is asked.
	level := func(i int) whyLevel {
		switch i {
		case 1:
			return whyLevel{s.servedBefore(v), s.opt.choicesBefore(v)}
		case 2:
			return whyLevel{s.others(v), s.opt.choices}
		}
		return whyLevel{}
	}
	first, err := s.firstLevel(v, rel, level)
	if err != nil {
		return nil, nil, err
	}
	x := s.questionExplainer(v)
	defer s.dropExplainer(x)
	mv := x.e.byName[v.name]
	q := x.query(x.e.ge(mv, mv.pos[rel]))
	for i := first; i < whyLevels; i++ {
		l := level(i)
		for {
			var facts []*fact
			background, facts = splitBackground(x.inputFacts())
			cands := append(append(x.preferences(l.prefs, s.final), x.sourcePreferences(l.sources)...), facts...)
			core, err = x.minimalCore(x.assume([]z.Lit{q}, background), cands)
			if err == nil && core != nil && len(core) == 0 {
				// The background alone explains it.
				core, err = x.minimalCore([]z.Lit{q}, append(cands, background...))
				background = nil
			}
			if err != nil || core != nil {
				return core, background, err
			}
			if !x.growDown() {
				break // the whole closure has a model: the next level
			}
		}
	}
	return nil, nil, fmt.Errorf("internal error: nothing holds %s back from %s", v.name, v.rels[rel].Version)
}

// whyLevels is the number of levels of whyNot's question: the facts
// alone, then with the modules served before, then with every other.
const whyLevels = 3

// whyLevel is one level of whyNot's question: the modules fixed at their
// final releases, and the source choices held.
type whyLevel struct {
	prefs   []*view
	sources []*sourceChoice
}

// firstLevel is the first level whose facts and preferences
// leave v no model at rel or newer, as the fast encoding, which holds
// every fact as a hard clause, answers it: on a cone the explain
// encoding would have to widen to the whole closure to say that a level
// has a model. It is 0 when the fast encoding cannot answer (a shared
// what-if encoding holds facts under selectors; a module may be outside
// its domain).
func (s *explaining) firstLevel(v *view, rel int, level func(int) whyLevel) (int, error) {
	for i := range whyLevels - 1 {
		assume, ok := s.fastAssumptions(v, rel, level(i))
		if !ok {
			return 0, nil
		}
		sat, err := s.fast.solve(s.ctx, assume)
		if err != nil || !sat {
			return i, err
		}
	}
	return whyLevels - 1, nil
}

// fastAssumptions are the fast encoding's literals for "v at rel or
// newer" under level l, or false when the fast encoding cannot say it.
func (s *explaining) fastAssumptions(v *view, rel int, l whyLevel) ([]z.Lit, bool) {
	e := s.fast
	mv := e.byName[v.name]
	if mv == nil || mv.pos[rel] < 0 {
		return nil, false
	}
	assume := []z.Lit{e.ge(mv, mv.pos[rel])}
	for _, u := range l.prefs {
		um := e.byName[u.name]
		if um == nil {
			return nil, false
		}
		j := -1
		if at := s.final[u]; at >= 0 {
			if j = um.pos[at]; j < 0 {
				return nil, false
			}
		}
		assume = append(assume, e.exactly(um, j)...)
	}
	for _, c := range l.sources {
		um := e.byName[c.v.name]
		if um == nil {
			return nil, false
		}
		so := sourcing{e}
		assume = append(assume, so.otherSources(um, so.sources(um), c.src)...)
		assume = append(assume, c.bound...)
	}
	return assume, true
}

// questionExplainer returns the explain encoding a question about v is
// asked on: a cone from v of its own.
func (s *explaining) questionExplainer(v *view) *explainer {
	return newExplainer(s.ctx, s.p, scope{cone: func(*problem) []string { return []string{v.name} }, alone: true}, s.budget, &s.names)
}

// dropExplainer counts a question's cone in the session's stats and
// takes it off the memory budget.
func (s *explaining) dropExplainer(x *explainer) {
	if x == s.whole || x == s.cone {
		return
	}
	s.asked.Variables += int(x.e.g.MaxVar())
	s.asked.Clauses += x.e.clauses
	s.asked.Solves += x.e.solves
	s.budget.untrack(x.e)
}

// splitBackground separates the background facts (the channel head and
// the prerelease policy) from the others, keeping the order of each.
func splitBackground(facts []*fact) (background, rest []*fact) {
	for _, f := range facts {
		if kindOf(f).background {
			background = append(background, f)
		} else {
			rest = append(rest, f)
		}
	}
	return background, rest
}

// servedBefore lists the modules whose releases the levels of r14Levels
// chose before v's, in the order they did.
func (s *explaining) servedBefore(v *view) []*view {
	var out []*view
	for _, mv := range s.opt.served {
		if mv.v == v {
			break
		}
		out = append(out, mv.v)
	}
	return out
}

// others lists every module of the answer but v.
func (s *explaining) others(v *view) []*view {
	var out []*view
	for _, mv := range s.fast.mods {
		if mv.v != v {
			out = append(out, mv.v)
		}
	}
	return out
}

// inputFacts are the encoded facts that come from the inputs, without the
// preference facts that R17 questions add. Input facts are all made when
// the explain encoding is built or its cone grows (which clears the
// list), so the list is made once per scope.
func (x *explainer) inputFacts() []*fact {
	if x.inputs == nil {
		x.inputs = []*fact{}
		for _, f := range x.facts() {
			if f.kind != model.FactPreference {
				x.inputs = append(x.inputs, f)
			}
		}
	}
	return x.inputs
}

// preferences returns preference facts fixing each of vs at its final
// release.
func (x *explainer) preferences(vs []*view, final map[*view]int) []*fact {
	out := make([]*fact, 0, len(vs))
	for _, v := range vs {
		if _, ok := x.e.byName[v.name]; ok {
			out = append(out, x.preference(v, final[v]))
		}
	}
	return out
}

// localCore returns whyNot's core for "v at rel or newer" and the
// background facts it is minimal under, or false when the question needs
// the solver.
func (s *explaining) localCore(v *view, rel int) (core, background []*fact, ok bool) {
	if !v.own || s.p.in.req.Devel {
		return nil, nil, false
	}
	if s.local == nil {
		s.local = &localQuestion{p: s.p}
	}
	q := s.local
	q.reset(s.ctx, rel)
	q.addNode(v)
	for depth := 0; depth < localDepth; depth++ {
		for n := range q.nodes {
			if !q.nodes[n].expanded && !q.expand(n) {
				return nil, nil, false
			}
		}
		core, background, decided := q.core()
		if q.aborted {
			return nil, nil, false
		}
		if decided {
			return core, background, core != nil
		}
	}
	return nil, nil, false
}

// newerOnly returns facts with each fact about v narrowed to v's releases
// from index from up (D70): a held-back reason is about the releases an
// update could reach, not the ones below the deployed or chosen one. A
// fact with none of its releases there is kept as it is.
func newerOnly(facts []*fact, v *view, from int) []*fact {
	out := make([]*fact, len(facts))
	for i, f := range facts {
		out[i] = f
		if f.v != v || len(f.rels) == 0 || kindOf(f).belowDeployed {
			continue
		}
		rels := slices.DeleteFunc(slices.Clone(f.rels), func(r int) bool { return r < from })
		if len(rels) > 0 && len(rels) < len(f.rels) {
			g := *f
			g.rels = rels
			out[i] = &g
		}
	}
	return out
}

// heldBackOrder is chainOrder with the facts that forbid v's release rel
// itself first, so that a held-back reason opens with the fact that holds
// the module back from that release rather than one about a newer release
// (R17, D174).
func heldBackOrder(facts []*fact, v *view, rel int) []*fact {
	out := chainOrder(facts)
	holds := func(f *fact) int {
		if f.v == v && slices.Contains(f.rels, rel) {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b *fact) int { return cmp.Compare(holds(a), holds(b)) })
	return out
}
