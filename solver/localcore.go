package solver

import (
	"cmp"
	"context"
	"math/bits"
	"slices"
	"strings"
)

// A local question is whyNot's question at its first level (the facts
// alone) asked of the facts of a few modules near v, without a solver
// (D229). Those facts say little: a static fact forbids releases of its
// module, an intent holds its module on or off, and a requirement fact
// holds the required module on at a satisfying release (or, when
// optional, off) while its module is at a release that carries it.
//
// The modules are v, the modules its releases require, and, while those
// do not decide it, the modules those require in turn, up to localDepth
// steps. The question reads the static facts and intents of all of them
// and the requirement facts of all but the last step's. With every other
// fact left out, the modules outside are free and the last step's answer
// to their static facts and intents alone; the clauses the encoding adds
// without a fact only define helper variables. So whether a set of these
// facts leaves v a release at rel or newer is a small constraint problem
// over each module's releases and off, answered exactly (leavesNone): arc
// consistency, which decides it where the modules left open form a
// forest, and otherwise a search over the choices of one open module at a
// time. A minimal core is found by taking facts away one by one in
// whyNot's order, as minimalCore would.
//
// A core found this way is a core of the whole closure: more facts only
// take models away. When the facts read leave v a release, when the
// modules are too many or the search too long, or when the background
// alone explains it, the question goes to the solver.
type localQuestion struct {
	p   *problem
	rel int
	// read is what each view's intent and static facts say to local
	// questions (localRoles), made when one first reads the view.
	read  map[*view][]localFact
	nodes []localNode // nodes[0] is v
	// facts are the facts read, each once, with what each says in roles.
	facts []*fact
	roles []localRole
	// pairs are the requirement facts grouped by the two modules they tie.
	pairs []localPair
	// candidates are the indices of the facts whyNot may leave out, in
	// its order.
	candidates []int
	// kept marks the facts a check reads; steps counts its search's
	// choices and total the question's, and aborted says a check ran past
	// localSteps, the question past localQuestionSteps, or ctx ended.
	kept    []bool
	steps   int
	total   int
	aborted bool
	ctx     context.Context
	// levels are the domains at each depth of a check's search; parent is
	// the scratch of branchNode.
	levels []*localDomains
	parent []int
	// queued and stack are the scratch of consistent.
	queued []bool
	stack  []int
	// arena holds the sets of the question's modules (alloc).
	arena []uint64
}

// localNode is one module of a local question.
type localNode struct {
	v        *view
	facts    [2]int // its intent and static facts: the indices into facts from, and up to
	pairs    []int  // the pairs it is in (indices into pairs)
	expanded bool   // its requirement facts are read
	// forbidden, inter and support are the scratch of a check.
	forbidden, inter, support relSet
}

// localPair is the requirement facts (indices into facts) of module s
// that name module t.
type localPair struct {
	s, t int
	cons []int
	// disjoint: no release of s carries two of them.
	disjoint bool
}

// off is the choice of a module that is not on.
const off = -1

// localRole is what one fact says to a local question.
type localRole struct {
	on, off bool   // it holds its module on, or off
	forbids relSet // its module's releases it forbids
	// For a requirement fact: the releases of its module that carry it,
	// whether it is optional, and which of the required module's releases
	// satisfy it.
	at        relSet
	optional  bool
	satisfies relSet
}

// localDepth is how many steps of requirements a local question follows
// from v; localNodes, localSteps and localQuestionSteps bound its
// modules, each check's search and all its checks' searches before it
// leaves the question to the solver, which answers a long question in
// slices that its context can end.
const (
	localDepth         = 3
	localNodes         = 64
	localSteps         = 20000
	localQuestionSteps = 200000
)

// reset empties q for a question about rel or newer, keeping the
// memory of the questions before.
func (q *localQuestion) reset(ctx context.Context, rel int) {
	if ctx == nil {
		ctx = context.Background()
	}
	q.ctx, q.rel, q.aborted, q.total = ctx, rel, false, 0
	q.nodes, q.facts, q.roles, q.pairs = q.nodes[:0], q.facts[:0], q.roles[:0], q.pairs[:0]
	q.arena = q.arena[:0]
}

// alloc returns an empty set for n releases, cut from q's arena: a block
// that is never moved, so a new one is made when it is full.
func (q *localQuestion) alloc(n int) relSet {
	w := words(n)
	if len(q.arena)+w > cap(q.arena) {
		q.arena = make([]uint64, 0, max(1024, 2*cap(q.arena), w))
	}
	at := len(q.arena)
	q.arena = q.arena[:at+w]
	out := relSet(q.arena[at : at+w : at+w])
	clear(out)
	return out
}

// core finds the minimal core of the facts read so far. It reports false
// when they leave v a release; it returns no core when the background
// alone explains it, which the solver names.
func (q *localQuestion) core() (core, background []*fact, decided bool) {
	q.order()
	q.levels = q.levels[:0] // made for the modules read so far
	q.kept = slices.Grow(q.kept[:0], len(q.facts))[:len(q.facts)]
	for i, f := range q.facts {
		q.kept[i] = kindOf(f).background
	}
	if q.leavesNone() {
		return nil, nil, true
	}
	for _, i := range q.candidates {
		q.kept[i] = true
	}
	if !q.leavesNone() {
		return nil, nil, false
	}
	for _, i := range q.candidates {
		q.kept[i] = false
		if !q.leavesNone() {
			q.kept[i] = true // needed
		}
	}
	for _, i := range q.candidates {
		if q.kept[i] {
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

// addNode adds u with its static facts and intent, and returns its index.
func (q *localQuestion) addNode(u *view) int {
	n := len(q.nodes)
	var pairs []int
	if n < cap(q.nodes) {
		pairs = q.nodes[:n+1][n].pairs[:0] // the list a question before left
	}
	nd := localNode{v: u, pairs: pairs, forbidden: q.alloc(len(u.rels)), inter: q.alloc(len(u.rels)), support: q.alloc(len(u.rels))}
	nd.facts[0] = len(q.facts)
	for _, l := range q.localRoles(u) {
		q.facts = append(q.facts, l.f)
		q.roles = append(q.roles, l.localRole)
	}
	nd.facts[1] = len(q.facts)
	q.nodes = append(q.nodes, nd)
	return n
}

// localFact is a fact of a view as local questions read it.
type localFact struct {
	f *fact
	localRole
}

// localRoles are what v's intent and static facts say to a local
// question, each fact once (a pin is both); made when a question first
// reads v.
func (q *localQuestion) localRoles(v *view) []localFact {
	if local, ok := q.read[v]; ok {
		return local
	}
	out := []localFact{}
	role := func(f *fact) *localRole {
		i := slices.IndexFunc(out, func(l localFact) bool { return l.f == f })
		if i < 0 {
			i = len(out)
			out = append(out, localFact{f: f})
		}
		return &out[i].localRole
	}
	switch v.intent {
	case intentOn:
		role(v.intentFact).on = true
	case intentOff:
		role(v.intentFact).off = true
	}
	for _, f := range v.staticFacts() {
		r := role(f)
		r.forbids = r.forbids.with(f.rels, len(v.rels))
	}
	if q.read == nil {
		q.read = map[*view][]localFact{}
	}
	q.read[v] = out
	return out
}

// expand reads node n's requirement facts, adding the modules they name.
// It reports false when n's requirements are not compiled (its releases
// are not its own) or the modules grow past localNodes.
func (q *localQuestion) expand(n int) bool {
	u := q.nodes[n].v
	if !u.own {
		return false
	}
	q.nodes[n].expanded = true
	for _, g := range u.tab.requirements {
		// A module an explain encoding covers names only modules of the
		// closure, where the problem holds a view of each (closure).
		t := q.p.view(g.dep.Module)
		if t == nil {
			continue // not in the catalog: a static missing-module fact covers it
		}
		c := slices.IndexFunc(q.nodes, func(o localNode) bool { return o.v == t })
		if c < 0 {
			if len(q.nodes) == localNodes {
				return false
			}
			c = q.addNode(t)
		}
		k := len(q.facts)
		q.facts = append(q.facts, q.p.compiledRequirementFact(u, g))
		q.roles = append(q.roles, localRole{optional: g.dep.Constraint.Optional,
			at: g.at, satisfies: q.satisfyingSet(u, t, g)})
		i := slices.IndexFunc(q.pairs, func(pr localPair) bool { return pr.s == n && pr.t == c })
		if i < 0 {
			i = len(q.pairs)
			var cons []int
			if i < cap(q.pairs) {
				cons = q.pairs[:i+1][i].cons[:0] // the list a question before left
			}
			q.pairs = append(q.pairs, localPair{s: n, t: c, cons: cons})
			q.nodes[n].pairs = append(q.nodes[n].pairs, i)
			if c != n {
				q.nodes[c].pairs = append(q.nodes[c].pairs, i)
			}
		}
		pr := &q.pairs[i]
		pr.disjoint = len(pr.cons) == 0 || pr.disjoint && !slices.ContainsFunc(pr.cons, func(j int) bool { return q.roles[j].at.meets(g.at) })
		pr.cons = append(pr.cons, k)
	}
	return true
}

// order lists the facts whyNot may leave out in its order (rankOrder):
// the problem's own facts (intents and static facts), then the
// requirement facts by module, each in the order of making.
func (q *localQuestion) order() {
	q.candidates = q.candidates[:0]
	for i, f := range q.facts {
		if !kindOf(f).background {
			q.candidates = append(q.candidates, i)
		}
	}
	rank := func(i int) (int, string) {
		if q.roles[i].at != nil {
			return rankModule, q.facts[i].v.name
		}
		return rankInput, ""
	}
	slices.SortFunc(q.candidates, func(a, b int) int {
		ca, na := rank(a)
		cb, nb := rank(b)
		fa, fb := q.facts[a], q.facts[b]
		return cmp.Or(cmp.Compare(ca, cb), strings.Compare(na, nb), factOrder(fa, fb), cmp.Compare(fa.id, fb.id))
	})
}

// satisfyingSet is the releases of t that satisfy g, a requirement group
// of u, as encodeRequirements reads them.
func (q *localQuestion) satisfyingSet(u, t *view, g *reqGroup) relSet {
	if a := g.adm; a != nil && t.own && t.m == a.target {
		return a.releases(&g.dep.Constraint).set // read only
	}
	out := make(relSet, words(len(t.rels)))
	for i, r := range t.rels {
		if q.p.admits(u, &g.dep.Constraint, t, r.Version) {
			out.add(i)
		}
	}
	return out
}

// leavesNone reports whether the kept facts leave v no release at rel or
// newer. Each module's domain is the releases its kept static facts and
// intent allow, and off unless it is held on (v is never off); the kept
// requirement facts are constraints between two modules' domains. The
// check makes the domains arc consistent (a release stays only while each
// module it requires keeps a release, or off, that admits it, and the
// other way round); where the modules with more than one choice left, and
// the constraints between them, form a forest, that decides it; else it
// tries each choice of the first such module in turn.
func (q *localQuestion) leavesNone() bool {
	d := q.domains(0)
	for n := range q.nodes {
		nd := &q.nodes[n]
		forbidden, on, isOff := nd.forbidden, false, false
		clear(forbidden)
		for k := nd.facts[0]; k < nd.facts[1]; k++ {
			if r := &q.roles[k]; q.kept[k] {
				forbidden.or(r.forbids)
				on, isOff = on || r.on, isOff || r.off
			}
		}
		clear(d.rels[n])
		if !isOff {
			d.rels[n].fill(len(nd.v.rels))
			d.rels[n].andNot(forbidden)
		}
		d.off[n] = !on && n > 0
	}
	d.rels[0].clearBelow(q.rel)
	for _, pr := range q.pairs {
		if pr.s == pr.t {
			for _, k := range pr.cons {
				if r := &q.roles[k]; q.kept[k] {
					// On at a release that carries it, the module is on:
					// the release must satisfy it.
					d.rels[pr.s].andNotWhere(r.at, r.satisfies)
				}
			}
		}
	}
	q.steps = 0
	return !q.solvable(0)
}

// solvable reports whether the domains at depth level have a choice for
// every module that the kept facts allow.
func (q *localQuestion) solvable(level int) bool {
	q.steps++
	if q.total++; q.steps > localSteps || q.total > localQuestionSteps || q.total%1024 == 0 && q.ctx.Err() != nil {
		q.aborted = true
		return false
	}
	d := q.domains(level)
	if !q.consistent(d) {
		return false
	}
	branch := q.branchNode(d)
	if branch < 0 {
		return true
	}
	next := q.domains(level + 1)
	try := func(value int) bool {
		next.copyFrom(d)
		clear(next.rels[branch])
		next.off[branch] = value == off
		if value >= 0 {
			next.rels[branch].add(value)
		}
		return q.solvable(level+1) || q.aborted
	}
	if d.off[branch] && try(off) {
		return !q.aborted
	}
	for w, bs := range d.rels[branch] {
		for ; bs != 0; bs &= bs - 1 {
			if try(w*64 + bits.TrailingZeros64(bs)) {
				return !q.aborted
			}
		}
	}
	return false
}

// consistent makes d arc consistent under the kept requirement facts and
// reports whether every module keeps a choice.
func (q *localQuestion) consistent(d *localDomains) bool {
	// The pairs to revise, a stack: arc consistency reaches the same
	// domains in any order.
	if len(q.queued) != len(q.pairs) {
		q.queued = make([]bool, len(q.pairs))
	}
	stack := q.stack[:0]
	for i, pr := range q.pairs {
		q.queued[i] = pr.s != pr.t
		if q.queued[i] {
			stack = append(stack, i)
		}
	}
	defer func() { q.stack = stack[:0] }()
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		q.queued[i] = false
		pr := &q.pairs[i]
		sChanged, tChanged := q.revise(d, pr)
		for _, n := range [2]int{pr.s, pr.t} {
			if n == pr.s && !sChanged || n == pr.t && !tChanged {
				continue
			}
			if d.empty(n) {
				clear(q.queued)
				return false
			}
			for _, j := range q.nodes[n].pairs {
				if !q.queued[j] && q.pairs[j].s != q.pairs[j].t {
					q.queued[j] = true
					stack = append(stack, j)
				}
			}
		}
	}
	for n := range q.nodes {
		if d.empty(n) {
			return false
		}
	}
	return true
}

// revise takes out of pr's two modules the choices that the kept
// requirement facts of pr leave without support in the other, and
// reports which of the two it narrowed.
func (q *localQuestion) revise(d *localDomains, pr *localPair) (sChanged, tChanged bool) {
	s, t := pr.s, pr.t
	src, tgt := d.rels[s], d.rels[t]
	support := q.nodes[t].support
	clear(support)
	supportOff := false
	everyTarget := d.off[s] // s off: t may be anything
	if pr.disjoint {
		// Each release carries one of the facts at most: a fact's releases
		// stand or fall together.
		for _, k := range pr.cons {
			r := &q.roles[k]
			if !q.kept[k] || !src.meets(r.at) {
				continue
			}
			if r.satisfies.meets(tgt) || (r.optional && d.off[t]) {
				support.or(r.satisfies)
				supportOff = supportOff || r.optional
			} else {
				src.andNot(r.at)
				sChanged = true
			}
		}
		everyTarget = everyTarget || q.carriesNone(src, pr)
	} else {
		q.reviseEach(d, pr, &everyTarget, &supportOff, &sChanged)
	}
	if !everyTarget {
		if tgt.andChanged(support) || (d.off[t] && !supportOff) {
			d.off[t] = d.off[t] && supportOff
			tChanged = true
		}
	}
	return sChanged, tChanged
}

// carriesNone reports whether a release in src carries none of pr's kept
// facts.
func (q *localQuestion) carriesNone(src relSet, pr *localPair) bool {
	for w, bs := range src {
		for _, k := range pr.cons {
			if q.kept[k] {
				bs &^= q.roles[k].at[w]
			}
		}
		if bs != 0 {
			return true
		}
	}
	return false
}

// reviseEach is revise's source side release by release, for facts whose
// releases overlap.
func (q *localQuestion) reviseEach(d *localDomains, pr *localPair, everyTarget, supportOff, sChanged *bool) {
	s, t := pr.s, pr.t
	src, tgt := d.rels[s], d.rels[t]
	inter, support := q.nodes[t].inter, q.nodes[t].support
	for w, bs := range src {
		for ; bs != 0; bs &= bs - 1 {
			x := w*64 + bits.TrailingZeros64(bs)
			constrained, optional := false, true
			for _, k := range pr.cons {
				if r := &q.roles[k]; q.kept[k] && r.at.has(x) {
					if !constrained {
						copy(inter, r.satisfies)
						constrained = true
					} else {
						inter.and(r.satisfies)
					}
					optional = optional && r.optional
				}
			}
			if !constrained {
				*everyTarget = true
				continue
			}
			if inter.meets(tgt) || (optional && d.off[t]) {
				support.or(inter)
				*supportOff = *supportOff || optional
				continue
			}
			src[w] &^= 1 << (x % 64) // x needs what t cannot give
			*sChanged = true
		}
	}
}

// branchNode is the first module with more than one choice left on a
// cycle of the constraints between such modules, or -1 when those form a
// forest: arc consistency then leaves every module a choice that fits
// every other's.
func (q *localQuestion) branchNode(d *localDomains) int {
	open := func(n int) bool { return d.rels[n].count()+b2i(d.off[n]) > 1 }
	q.parent = slices.Grow(q.parent[:0], len(q.nodes))[:len(q.nodes)]
	parent := q.parent
	for n := range parent {
		parent[n] = n
	}
	find := func(n int) int {
		for parent[n] != n {
			parent[n] = parent[parent[n]]
			n = parent[n]
		}
		return n
	}
	for _, pr := range q.pairs {
		if pr.s == pr.t || !open(pr.s) || !open(pr.t) || !q.anyKept(pr.cons) {
			continue
		}
		a, b := find(pr.s), find(pr.t)
		if a == b {
			for n := range q.nodes {
				if open(n) {
					return n
				}
			}
		}
		parent[a] = b
	}
	return -1
}

func (q *localQuestion) anyKept(facts []int) bool {
	return slices.ContainsFunc(facts, func(k int) bool { return q.kept[k] })
}

// domains returns the domains of the search's depth level, made once.
func (q *localQuestion) domains(level int) *localDomains {
	for len(q.levels) <= level {
		var d *localDomains
		if len(q.levels) < cap(q.levels) {
			d = q.levels[:len(q.levels)+1][len(q.levels)] // a question before may have made it
		}
		if d == nil {
			d = &localDomains{}
		}
		d.rels, d.off = d.rels[:0], slices.Grow(d.off[:0], len(q.nodes))[:len(q.nodes)]
		for _, nd := range q.nodes {
			d.rels = append(d.rels, q.alloc(len(nd.v.rels)))
		}
		q.levels = append(q.levels, d)
	}
	return q.levels[level]
}
