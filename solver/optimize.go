package solver

import (
	"context"
	"errors"

	"github.com/go-air/gini/z"
)

// errUnsat says that the hard facts alone have no model.
var errUnsat = errors.New("unsatisfiable")

// optimizer runs the preference levels of R14 in order. Each level's
// outcome is kept as assumptions (commits), so the levels below it can
// only choose among answers that are optimal above them.
type optimizer struct {
	e       *encoder
	ctx     context.Context
	commits []z.Lit
	// named and rest are the modules levels 3 and 5 of R14 make as new
	// as possible.
	named, rest []*modVars
	// served lists the modules the levels of r14Levels made as new as
	// possible, in the order they did, which held-back reasons read
	// (R17): each module's release was chosen after those before it.
	served []*modVars
	// choices are the sources levels 3a and 5a chose, in order, which
	// held-back reasons name as facts (sources_optimize.go).
	choices []*sourceChoice
	// hooks are the switches only tests set (searchAll).
	hooks testHooks
	// bound holds, for the modules propagate has seen, the newest
	// position unit propagation leaves them under the commits (D220).
	bound map[*modVars]int
}

// r14Levels are the preference levels of R14 in the contract's order
// (DESIGN §1); level 1, everything the request asks for, is the hard
// facts. Each level commits its outcome, so the ones after it choose only
// among answers that are optimal for it.
var r14Levels = []struct {
	name string
	run  func(o *optimizer) error
}{
	{"2a: fewest enabled modules disabled", func(o *optimizer) error { return o.minimize(o.offLits(intentKeepSoft)) }},
	{"2b: most bundle defaults on", func(o *optimizer) error { return o.minimize(o.offLits(intentDefaultOn)) }},
	// R23: a module of several sources takes its preferred source just
	// before levels 3 and 5 pick its newest release within it (D77).
	{"3a: named modules from their preferred sources", func(o *optimizer) error { return o.preferSources(o.named) }},
	{"3: named modules newest", func(o *optimizer) error { return o.maximizeVersions(o.named) }},
	{"4: fewest modules enabled that nobody asked for", func(o *optimizer) error { return o.minimize(o.onLits(intentAuto)) }},
	// Level 5 counts every module the request does not name, off below
	// every release, so that the modules first in name order stay (or
	// come) on where the levels above leave a choice (D41).
	{"5a: every other module from its preferred source", func(o *optimizer) error { return o.preferSources(o.rest) }},
	{"5: every other module newest, ties by name", func(o *optimizer) error { return o.maximizeVersions(o.rest) }},
	// Level 6, the fewest changes to everything else, is R9: a module the
	// request does not name keeps its release by a hard fact.
}

// run optimises and leaves the final model in the solver. It returns
// errUnsat when the hard facts conflict.
func (o *optimizer) run() error {
	ok, err := o.e.solve(o.ctx, o.commits)
	if err != nil {
		return err
	}
	if !ok {
		return errUnsat
	}
	o.named, o.rest = o.versionOrder()
	for _, level := range r14Levels {
		if err := level.run(o); err != nil {
			return err
		}
	}
	ok, err = o.e.solve(o.ctx, o.commits)
	if err == nil && !ok {
		panic("internal error: committed preferences have no model")
	}
	return err
}

// onLits lists "module is on" for the modules of the given intent that
// the optimisation may move.
func (o *optimizer) onLits(in intent) []z.Lit {
	var out []z.Lit
	for _, mv := range o.e.mods {
		if mv.v.intent == in {
			out = append(out, o.e.on(mv))
		}
	}
	return out
}

// offLits lists "module is off" for the same modules.
func (o *optimizer) offLits(in intent) []z.Lit {
	return negated(o.onLits(in))
}

// minimize commits the least number of bads that can be true.
func (o *optimizer) minimize(bads []z.Lit) error {
	bads = o.e.live(bads)
	if len(bads) == 0 {
		return nil
	}
	ok, err := o.e.solve(o.ctx, o.with(negated(bads)...))
	if err != nil {
		return err
	}
	if ok {
		o.commits = append(o.commits, negated(bads)...)
		return nil
	}
	cost, err := o.cost(bads)
	if err != nil {
		return err
	}
	outs := totalizer{o.e}.atLeast(bads, cost+1)
	for k := 1; k < cost; k++ {
		ok, err := o.e.solve(o.ctx, o.with(outs[k].Not()))
		if err != nil {
			return err
		}
		if ok {
			o.commits = append(o.commits, outs[k].Not())
			return nil
		}
	}
	if cost < len(outs) {
		o.commits = append(o.commits, outs[cost].Not())
	}
	return nil
}

// cost counts the true bads in a model of the commits.
func (o *optimizer) cost(bads []z.Lit) (int, error) {
	if _, err := o.e.solve(o.ctx, o.commits); err != nil {
		return 0, err
	}
	cost := 0
	for _, b := range bads {
		if o.e.value(b) {
			cost++
		}
	}
	return cost, nil
}

func negated(lits []z.Lit) []z.Lit {
	out := make([]z.Lit, len(lits))
	for i, m := range lits {
		out[i] = m.Not()
	}
	return out
}

// with returns the commits followed by extra, in a fresh slice.
func (o *optimizer) with(extra ...z.Lit) []z.Lit {
	out := make([]z.Lit, 0, len(o.commits)+len(extra))
	return append(append(out, o.commits...), extra...)
}

// versionOrder is the order of R14 levels 3 and 5: the modules the request names, by
// name, then every other module, by name (D16).
func (o *optimizer) versionOrder() (named, rest []*modVars) {
	for _, mv := range o.e.mods {
		if o.top(mv) < 0 || o.fixed(mv) {
			continue
		}
		if mv.v.named {
			named = append(named, mv)
		} else {
			rest = append(rest, mv)
		}
	}
	return named, rest
}

// fixed reports whether mv has one candidate and must be on: it is at its
// newest already in every model, and assuming so would only lengthen
// every solve's assumptions.
func (o *optimizer) fixed(mv *modVars) bool {
	return len(mv.dom) == 1 && mv.v.intent == intentOn
}

// maximizeVersions makes each module of order, one after another, as new
// as the modules before it allow. It first assumes every module at its
// newest candidate at once; when that fails, gini's core points at the
// first module that cannot be, and only that one is searched.
//
// Each module is searched from the newest position unit propagation
// leaves it (propagate). A module propagation keeps off, such as one
// level 4 commits "off" (an auto-enabled module it can leave off), is
// left out of the search: every model of the commits has it off, so
// searching it would only confirm that, at a few solves each, and
// leaving it out changes no other module's newest release.
func (o *optimizer) maximizeVersions(order []*modVars) error {
	o.served = append(o.served, order...)
	order = o.propagate(order)
	for len(order) > 0 {
		n, err := o.longestNewestPrefix(order)
		if err != nil {
			return err
		}
		o.commits = append(o.commits, o.newest(order[:n])...)
		if n == len(order) {
			return nil
		}
		if err := o.maximizeOne(order[n]); err != nil {
			return err
		}
		order = order[n+1:]
	}
	return nil
}

// newest returns the literals "at its newest candidate" for mods.
func (o *optimizer) newest(mods []*modVars) []z.Lit {
	out := make([]z.Lit, len(mods))
	for i, mv := range mods {
		out[i] = o.e.ge(mv, o.top(mv))
	}
	return out
}

// top is the newest position mv may take: the bound propagate found, if
// any, else the last of its domain; -1 when mv must be off.
func (o *optimizer) top(mv *modVars) int {
	if b, ok := o.bound[mv]; ok {
		return b
	}
	return len(mv.dom) - 1
}

// propagate bounds each module of order by what unit propagation says
// under the commits: a release that a static fact of another module
// rules out (a dependency held below the range a newer release needs, a
// module that must stay on with a release that conflicts) is false
// before any search, as libsolv's propagation finds it, and assuming it
// would only cost a failed solve and a search. One propagation answers
// every module: each module's bound is the newest position whose "at
// least" literal propagation leaves open, a sound upper bound for every
// level after this one, since commits only grow. Modules propagation
// keeps off are committed off and dropped from the order (D220).
func (o *optimizer) propagate(order []*modVars) []*modVars {
	if len(order) == 0 || o.hooks.searchAll {
		return order
	}
	g := o.e.g
	g.Assume(o.commits...)
	res, _ := g.Test(nil)
	defer g.Untest()
	if res == -1 {
		return order // the next solve reports it
	}
	if o.bound == nil {
		o.bound = make(map[*modVars]int, len(order))
	}
	out := order[:0:0]
	for _, mv := range order {
		j := o.top(mv)
		for j >= 0 && g.Value(o.e.ge(mv, j).Not()) {
			j--
		}
		o.bound[mv] = j
		if j < 0 {
			o.commits = append(o.commits, o.e.on(mv).Not())
			continue
		}
		out = append(out, mv)
	}
	return out
}

// longestNewestPrefix returns the largest n such that the first n modules
// of order can all be at their newest candidates; the solver then holds a
// model of that prefix.
func (o *optimizer) longestNewestPrefix(order []*modVars) (int, error) {
	n := len(order)
	for {
		ok, err := o.e.solve(o.ctx, o.with(o.newest(order[:n])...))
		if err != nil || ok {
			return n, err
		}
		last := o.lastInCore(order[:n])
		if last < 0 {
			panic("internal error: committed preferences conflict")
		}
		n = last
	}
}

// lastInCore returns the index of the last module of mods whose "newest"
// assumption is in the last UNSAT core, or -1.
func (o *optimizer) lastInCore(mods []*modVars) int {
	index := make(map[z.Lit]int, len(mods))
	for i, m := range o.newest(mods) {
		index[m] = i
	}
	last := -1
	for _, m := range o.e.why() {
		if i, ok := index[m]; ok && i > last {
			last = i
		}
	}
	return last
}

// maximizeOne finds the newest position mv can take under the commits,
// starting from the model in the solver, and commits it.
func (o *optimizer) maximizeOne(mv *modVars) error {
	lo, hi := o.e.position(mv), o.top(mv)-1
	if lo < 0 && hi >= 0 {
		// Off in the model: most such modules must stay off (an
		// auto-enabled dependency nobody needs), which one solve shows.
		ok, err := o.e.solve(o.ctx, o.with(o.e.on(mv)))
		if err != nil {
			return err
		}
		if !ok {
			hi = -1
		} else {
			lo = o.e.position(mv)
		}
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		ok, err := o.e.solve(o.ctx, o.with(o.e.ge(mv, mid)))
		if err != nil {
			return err
		}
		if ok {
			lo = o.e.position(mv)
		} else {
			hi = mid - 1
		}
	}
	if lo < 0 {
		o.commits = append(o.commits, o.e.on(mv).Not())
	} else {
		o.commits = append(o.commits, o.e.ge(mv, lo))
	}
	return nil
}
