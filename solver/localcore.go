package solver

import (
	"cmp"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// A local question is whyNot's question at its first level (the facts
// alone) asked of the facts of v and of the modules its releases require,
// without a solver (D229). Those facts say little: a static fact forbids
// releases of its module, an intent holds its module on or off, and a
// requirement fact holds the required module on at a satisfying release
// (or, when optional, off) while v is at a release that carries it. With
// every other fact left out, v can be at a release when no fact forbids
// it and each module it requires there keeps a release those facts allow:
// the other modules are free, and what the encoding adds without a fact
// only defines helper variables. So whether a set of these facts leaves v
// a release at rel or newer is read off them directly, and a minimal core
// is found by taking facts away one by one in whyNot's order, as
// minimalCore would, each check a few bit operations.
//
// A core found this way is a core of the whole closure: more facts only
// take models away. When these facts alone leave v a release, or when
// the background alone explains it, the question goes to the solver.
type localQuestion struct {
	v   *view
	rel int
	// targets are the modules v's requirement facts name.
	targets []*view
	// facts are the facts read, each once, with their parts in roles.
	facts []*fact
	roles []localRole
	// reqsAt lists, for each release of v from rel, the requirement facts
	// (indices into facts) of the releases' groups.
	reqsAt [][]int
	// per target, scratch of each check: what the facts kept forbid and
	// whether they hold it on or off.
	forbidden  []relSet
	on, off    []bool
	candidates []int // indices of the facts whyNot may leave out, in its order
}

// localRole is what one fact says to a local question.
type localRole struct {
	module  int    // the module it is about: -1 for v, else an index into targets
	on, off bool   // it holds the module on, or off
	forbids relSet // the module's releases it forbids
	// For a requirement fact of v: the target, whether it is optional,
	// and which of the target's releases satisfy it.
	requires  bool
	target    int
	optional  bool
	satisfies relSet
}

// localCore returns whyNot's core for "v at rel or newer" and the
// background facts it is minimal under, or false when the question needs
// the solver.
func (s *session) localCore(v *view, rel int) (core, background []*fact, ok bool) {
	q, ok := s.p.localQuestion(v, rel)
	if !ok {
		return nil, nil, false
	}
	in := make([]bool, len(q.facts))
	for i, f := range q.facts {
		in[i] = kindOf(f).background
	}
	if q.leavesNone(in) {
		return nil, nil, false // the background alone explains it: the solver names it
	}
	for _, i := range q.candidates {
		in[i] = true
	}
	if !q.leavesNone(in) {
		return nil, nil, false // the facts further away decide it, or nothing does
	}
	for _, i := range q.candidates {
		in[i] = false
		if !q.leavesNone(in) {
			in[i] = true // needed
		}
	}
	for _, i := range q.candidates {
		if in[i] {
			core = append(core, q.facts[i])
		}
	}
	for _, f := range q.facts {
		if kindOf(f).background {
			background = append(background, f)
		}
	}
	return core, background, true
}

// localQuestion reads the facts of a local question about v at rel or
// newer, or reports false when v's facts are not all of the kinds it
// reads: v's releases must be its own, its requirements compiled, and no
// requirement may name v itself.
func (p *problem) localQuestion(v *view, rel int) (*localQuestion, bool) {
	closure := p.closure(true)
	if !v.own || p.req.Devel {
		return nil, false
	}
	if _, found := slices.BinarySearchFunc(closure, v.name, byViewName); !found {
		return nil, false
	}
	q := &localQuestion{v: v, rel: rel, reqsAt: make([][]int, len(v.rels)-rel)}
	index := map[*fact]int{}
	role := func(f *fact, module int) *localRole {
		i, ok := index[f]
		if !ok {
			i = len(q.facts)
			index[f] = i
			q.facts = append(q.facts, f)
			q.roles = append(q.roles, localRole{module: module, target: -1})
		}
		return &q.roles[i]
	}
	addModule := func(u *view, module int) {
		switch u.intent {
		case intentOn:
			role(u.intentFact, module).on = true
		case intentOff:
			role(u.intentFact, module).off = true
		}
		for _, f := range u.staticFacts() {
			r := role(f, module)
			r.forbids = r.forbids.with(f.rels, len(u.rels))
		}
	}
	addModule(v, -1)
	for _, g := range v.tab.requirements {
		i, found := slices.BinarySearchFunc(closure, g.dep.Module, byViewName)
		if !found {
			continue // not in the catalog: a static missing-module fact covers it
		}
		u := closure[i]
		if u == v {
			return nil, false
		}
		t := slices.Index(q.targets, u)
		if t < 0 {
			t = len(q.targets)
			q.targets = append(q.targets, u)
			addModule(u, t)
		}
		f := p.compiledRequirementFact(v, g)
		r := role(f, -1)
		r.requires, r.target, r.optional = true, t, g.dep.Constraint.Optional
		r.satisfies = p.satisfyingSet(v, u, g)
		for _, at := range g.poss {
			if at >= rel {
				q.reqsAt[at-rel] = append(q.reqsAt[at-rel], index[f])
			}
		}
	}
	n := len(q.targets)
	q.forbidden, q.on, q.off = make([]relSet, n), make([]bool, n), make([]bool, n)
	for t, u := range q.targets {
		q.forbidden[t] = make(relSet, words(len(u.rels)))
	}
	// whyNot's order (rankOrder): the problem's own facts (intents and
	// static facts), then v's requirement facts, each in the order of
	// making.
	for i, f := range q.facts {
		if !kindOf(f).background {
			q.candidates = append(q.candidates, i)
		}
	}
	slices.SortFunc(q.candidates, func(a, b int) int {
		fa, fb := q.facts[a], q.facts[b]
		return cmp.Or(cmp.Compare(rankOf(fa), rankOf(fb)), factOrder(fa, fb), cmp.Compare(fa.id, fb.id))
	})
	return q, true
}

// rankOf is the class rankOrder gives a fact of a local question.
func rankOf(f *fact) int {
	if f.kind == model.FactModuleRequirement {
		return rankModule
	}
	return rankInput
}

// satisfyingSet is the releases of u that satisfy g, a requirement group
// of v, as encodeRequirements reads them.
func (p *problem) satisfyingSet(v, u *view, g *reqGroup) relSet {
	out := make(relSet, words(len(u.rels)))
	if a := g.adm; a != nil && u.own && u.m == a.target {
		for i, ok := range a.of(&g.dep.Constraint) {
			if ok {
				out.add(i)
			}
		}
		return out
	}
	rd := v.m.Reading()
	if u.m.Embedded {
		rd = model.ReadingDKP // the version is the request's DKP version
	}
	for i, r := range u.rels {
		if rd.Admits(&g.dep.Constraint, r.Version, p.req.Devel) {
			out.add(i)
		}
	}
	return out
}

// leavesNone reports whether the facts marked in leave v no release at
// rel or newer.
func (q *localQuestion) leavesNone(in []bool) bool {
	var vForbids relSet
	vOff := false
	for t := range q.targets {
		clear(q.forbidden[t])
		q.on[t], q.off[t] = false, false
	}
	for i, r := range q.roles {
		if !in[i] {
			continue
		}
		if r.module < 0 {
			vOff = vOff || r.off
			if r.forbids != nil {
				if vForbids == nil {
					vForbids = make(relSet, words(len(q.v.rels)))
				}
				vForbids.or(r.forbids)
			}
			continue
		}
		q.forbidden[r.module].or(r.forbids)
		q.on[r.module] = q.on[r.module] || r.on
		q.off[r.module] = q.off[r.module] || r.off
	}
	if vOff {
		return true // held off: no release at all
	}
	for at := q.rel; at < len(q.v.rels); at++ {
		if vForbids.has(at) || q.someTargetBlocks(at, in) {
			continue
		}
		return false
	}
	return true
}

// someTargetBlocks reports whether a module that v's release at requires,
// by the facts marked in, has nothing the facts allow it.
func (q *localQuestion) someTargetBlocks(at int, in []bool) bool {
	reqs := q.reqsAt[at-q.rel]
	for k, i := range reqs {
		if !in[i] {
			continue
		}
		r := &q.roles[i]
		t := r.target
		if slices.ContainsFunc(reqs[:k], func(j int) bool { return in[j] && q.roles[j].target == t }) {
			continue // this target was checked with its first requirement
		}
		needOn := !r.optional
		var both relSet // the releases every kept requirement on t admits
		for _, j := range reqs[k+1:] {
			if o := &q.roles[j]; in[j] && o.target == t {
				if both == nil {
					both = slices.Clone(r.satisfies)
				}
				both.and(o.satisfies)
				needOn = needOn || !o.optional
			}
		}
		if both == nil {
			both = r.satisfies
		}
		offOK := !q.on[t] && !needOn
		onOK := !q.off[t] && both.someNotIn(q.forbidden[t])
		if !offOK && !onOK {
			return true
		}
	}
	return false
}

// relSet is a set of release indices, one bit each.
type relSet []uint64

func words(n int) int { return (n + 63) / 64 }

func (s relSet) add(i int)      { s[i/64] |= 1 << (i % 64) }
func (s relSet) has(i int) bool { return s != nil && s[i/64]&(1<<(i%64)) != 0 }

// with returns s with rels added, made for n releases when s is nil.
func (s relSet) with(rels []int, n int) relSet {
	if s == nil {
		s = make(relSet, words(n))
	}
	for _, i := range rels {
		s.add(i)
	}
	return s
}

// or adds the members of o (nil: none).
func (s relSet) or(o relSet) {
	for i, w := range o {
		s[i] |= w
	}
}

// and keeps the members of o.
func (s relSet) and(o relSet) {
	for i := range s {
		s[i] &= o[i]
	}
}

// someNotIn reports whether a member of s is not in o.
func (s relSet) someNotIn(o relSet) bool {
	for i, w := range s {
		if w&^o[i] != 0 {
			return true
		}
	}
	return false
}
