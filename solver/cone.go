package solver

import (
	"cmp"
	"maps"
	"slices"
	"strings"
)

// scope says which modules of the closure an encoding covers. Its zero
// value covers the whole closure. A cone covers the modules its seed
// names first, and grows toward the rest only when asked (grow): an
// explanation starts from the request's facts and reads more of the
// catalog only when a question needs it (DESIGN §6, R16).
//
// A cone encodes the facts of the modules it covers, and gives variables
// to every module those facts speak of. Gini, asked under the selectors
// of some encoded facts, then answers as the whole closure would under
// the same selectors: a fact's clauses are the same in both, and the
// modules they speak of are free of every fact not assumed.
type scope struct {
	// cone names, when not nil, the modules a cone starts from.
	cone func(p *problem) []string
	// alone starts the cone from those modules alone; otherwise the
	// modules that name them are covered from the start too.
	alone bool
}

// everything is the zero scope: the whole closure.
var everything scope

// conflictCone starts from what the request names: where the facts of an
// unsatisfiable request come from. A platform question starts from the
// whole closure: there the conflict that no platform version changes
// (the cluster inconsistent as it is) is found first, as the readiness
// matrix reads it, and a cone grown from the platform's facts would find
// another one first.
var conflictCone = scope{cone: func(p *problem) []string {
	if p.in.platformQuestion() {
		return nil
	}
	return slices.Concat(p.in.req.Enable, p.in.req.Disable, p.in.req.Update, p.in.req.PinnedNames())
}}

// start returns the modules of closure (sorted by name) that an encoding
// covers first, sorted by name, or nil for all of them.
func (sc scope) start(p *problem, closure []*view) []*view {
	if sc.cone == nil {
		return nil
	}
	// The closure is sorted by name and the cone is a few modules of it:
	// each is found by a binary search, in the closure's order.
	names := slices.Compact(slices.Sorted(slices.Values(sc.cone(p))))
	var out []*view
	for _, name := range names {
		if i, ok := slices.BinarySearchFunc(closure, name, byViewName); ok {
			out = append(out, closure[i])
		}
	}
	return out
}

// byViewName compares a view with a name, for a binary search of views
// sorted by name.
func byViewName(v *view, name string) int { return strings.Compare(v.name, name) }

// cone is the state of an encoding whose scope is a cone: the modules
// whose facts are encoded, and, once needed, which modules name which.
type cone struct {
	covered map[string]bool
	*nameIndex
}

// explainNames holds the name index every explain encoding of one
// problem shares: their universe is the problem's closure over every
// release. The session's explain part keeps it (explaining.names) and
// hands it to each explain encoding it builds (newExplainer).
type explainNames struct {
	index *nameIndex
}

// nameIndex says which modules of a universe name which.
type nameIndex struct {
	// namedBy lists, for each module, the modules of the universe whose
	// releases name it (requirements, capability providers, compound
	// predicates); boundless are those whose compound predicates may
	// name any module.
	namedBy   map[string][]*view
	boundless []*view
}

func newCone() *cone { return &cone{covered: map[string]bool{}} }

// cover marks name as covered and reports whether it was not before.
func (c *cone) cover(name string) bool {
	if c.covered[name] {
		return false
	}
	c.covered[name] = true
	return true
}

// grow widens a cone by one step: the modules its facts speak of, and
// those whose releases name a covered module; when there are none, every
// module of the universe. It reports whether the cone grew; a zero scope
// never grows.
func (e *encoder) grow() bool { return e.widen(false) }

// growDown widens a cone by the modules its facts speak of but do not
// cover yet, its requirements' targets, and grows it a whole step only
// when there are none: what holds a module back is most often a module
// it requires, and the modules that name the ones covered can be many.
func (e *encoder) growDown() bool { return e.widen(true) }

func (e *encoder) widen(down bool) bool {
	c := e.cone
	if c == nil || len(c.covered) == len(e.universe) {
		return false
	}
	next := map[*view]bool{}
	for _, mv := range e.mods {
		if !c.covered[mv.v.name] {
			next[mv.v] = true
		}
	}
	if down && len(next) > 0 {
		vs := slices.Collect(maps.Keys(next))
		slices.SortFunc(vs, func(a, b *view) int { return strings.Compare(a.name, b.name) })
		e.expand(vs)
		return true
	}
	e.indexNames()
	for name := range c.covered {
		for _, v := range c.namedBy[name] {
			next[v] = !c.covered[v.name]
		}
	}
	for _, v := range c.boundless {
		next[v] = !c.covered[v.name]
	}
	var vs []*view
	for v, add := range next {
		if add {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		vs = e.universe
	}
	slices.SortFunc(vs, func(a, b *view) int { return strings.Compare(a.name, b.name) })
	e.expand(vs)
	return true
}

// withNamers returns vs and the modules whose releases name one of them,
// sorted by name: a cone's start, so that the facts that bear on the
// seed's modules from either side are there from the first question.
func (e *encoder) withNamers(vs []*view) []*view {
	e.indexNames()
	out := slices.Clone(vs)
	for _, v := range vs {
		out = append(out, e.cone.namedBy[v.name]...)
	}
	out = append(out, e.cone.boundless...)
	slices.SortFunc(out, func(a, b *view) int { return strings.Compare(a.name, b.name) })
	return slices.CompactFunc(out, func(a, b *view) bool { return a == b })
}

// indexNames fills the cone's name index, once. An explain encoding's
// universe is its problem's closure over every release, so they share
// the index (explainNames).
func (e *encoder) indexNames() {
	c := e.cone
	if c.nameIndex != nil {
		return
	}
	if e.guard.keepsFacts() && e.sharedNames != nil {
		if e.sharedNames.index == nil {
			e.sharedNames.index = e.names()
		}
		c.nameIndex = e.sharedNames.index
		return
	}
	c.nameIndex = e.names()
}

// names indexes which modules of e's universe name which.
func (e *encoder) names() *nameIndex {
	c := &nameIndex{namedBy: map[string][]*view{}}
	for _, v := range e.universe {
		seen := map[string]bool{}
		boundless := false
		name := func(n string) {
			if !seen[n] {
				seen[n] = true
				c.namedBy[n] = append(c.namedBy[n], v)
			}
		}
		if e.guard.keepsFacts() && v.own {
			// The domain is every release: what they name is compiled (D222).
			for _, n := range v.tab.named {
				name(n)
			}
			if v.tab.boundless {
				c.boundless = append(c.boundless, v)
			}
			continue
		}
		for _, r := range e.domain(v) {
			req := v.rels[r].Requirements
			for _, d := range req.Modules {
				name(d.Module)
			}
			for _, cp := range req.Capabilities {
				for _, n := range e.p.in.cat.Providers(cp) {
					name(n)
				}
			}
			for _, cr := range req.Compound {
				names, bounded := e.p.compoundModules(cr.Target())
				boundless = boundless || !bounded
				for _, n := range names {
					name(n)
				}
			}
		}
		if boundless {
			c.boundless = append(c.boundless, v)
		}
	}
	return c
}

// factRank orders the facts an encoder makes as a whole-closure encoding
// makes them: module by module in name order, then the exclusive groups
// and the capabilities of R20, each by name. Facts the problem made
// (intents, static facts) come first.
type factRank struct {
	class int
	name  string
}

const (
	rankInput = iota
	rankModule
	rankGroup
	rankUniqueness
	rankLoop
)

// rankOrder sorts facts into the order of their ranks, in factOrder
// within a rank, and by id where both are equal: one sort by the whole
// key, which orders every list of facts the same way.
//
// Each fact's rank is read once, before the sort: an explain encoding of
// the whole closure sorts tens of thousands of facts, and a comparison
// that read both ranks from the map was most of the sort.
func (e *encoder) rankOrder(facts []*fact) {
	type ranked struct {
		rank factRank
		f    *fact
	}
	rs := make([]ranked, len(facts))
	for i, f := range facts {
		rs[i] = ranked{e.ranks[f], f}
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.rank.class, b.rank.class), strings.Compare(a.rank.name, b.rank.name), factOrder(a.f, b.f), cmp.Compare(a.f.id, b.f.id))
	})
	for i, r := range rs {
		facts[i] = r.f
	}
}
