package solver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// Dependency loops (R27). A loop is a circle of modules in which each
// module's selected release requires the next (model.LoopEdge: every
// module requirement, required or optional, as DKP's loop check follows
// both). Where any module of a circle refuses loops, the circle is a fact
// like any other: compiling a catalog lists the elementary circles of its
// requirement graph that a refusing module takes part in (loopTable), and
// an encoding forbids each one whose modules it covers with one clause,
// "some module of the circle is not at a release that requires the next",
// over one literal per edge (edge). Solving never needs to find a loop
// after the fact, and an explanation names the circle that stands in the
// way, in DKP's words (`dependency cycle through: a, b`).
//
// A circle the cluster already runs, each module deployed at a release
// that requires the next, may stay as it is: DKP checks loops when a
// release is added, and reports it with a warning (runningLoops). Moving
// any of its modules to another release that still closes the circle is
// refused, as DKP refuses that release (D126).

// maxLoops bounds the circles a catalog's requirement graph may hold
// among modules that refuse loops. A real catalog holds a handful; a
// graph with more is refused with ErrTooManyLoops rather than answered
// without some of them (D127).
const maxLoops = 10000

// maxLoopSteps bounds the search for them, in edges walked.
const maxLoopSteps = 2000000

// ErrTooManyLoops: a catalog's requirements close more dependency loops
// than modsolver checks (maxLoops).
var ErrTooManyLoops = fmt.Errorf("%w: too many dependency loops", model.ErrInvalidInput)

// catLoop is one elementary circle of a catalog's requirement graph:
// members[i] requires members[i+1], and the last requires the first. The
// first member is the least name, so each circle is listed once.
type catLoop struct {
	members []string
}

// text names the circle as DKP does: its modules in circle order.
func (l *catLoop) text() string { return strings.Join(l.members, ", ") }

// loopTable is what compiling a catalog knows of its loops: the circles
// some refusing module takes part in, and for each module the circles
// through it, in circle order. err is set when there are more than
// maxLoops.
type loopTable struct {
	loops    []*catLoop
	byModule map[string][]int
	err      error
}

// readLoops lists the circles of cat's requirement graph that pass
// through a module refusing loops.
func readLoops(cat *model.Catalog) loopTable {
	g := loopGraph(cat)
	lt := loopTable{byModule: map[string][]int{}}
	w := loopWalk{g: g, budget: maxLoopSteps}
	for _, comp := range g.components() {
		if !slices.ContainsFunc(comp, func(n int) bool { return g.refuses[n] }) {
			continue // every module of it allows loops
		}
		for _, l := range w.circles(comp) {
			if !slices.ContainsFunc(l, func(n int) bool { return g.refuses[n] }) {
				continue
			}
			if len(lt.loops) == maxLoops || w.budget < 0 {
				lt.err = fmt.Errorf("%w: the requirements of %s and the modules they require close more than %d loops; modsolver cannot check them all", ErrTooManyLoops, g.names[comp[0]], maxLoops)
				return lt
			}
			cl := &catLoop{}
			for _, n := range l {
				cl.members = append(cl.members, g.names[n])
				lt.byModule[g.names[n]] = append(lt.byModule[g.names[n]], len(lt.loops))
			}
			lt.loops = append(lt.loops, cl)
		}
		if w.budget < 0 {
			lt.err = fmt.Errorf("%w: the requirements of %s and the modules they require are too entangled to list their loops", ErrTooManyLoops, g.names[comp[0]])
			return lt
		}
	}
	return lt
}

// reqGraph is a catalog's module requirement graph, modules by name order.
type reqGraph struct {
	names   []string
	next    [][]int // sorted
	refuses []bool
}

func loopGraph(cat *model.Catalog) *reqGraph {
	mods := cat.Modules()
	g := &reqGraph{names: make([]string, len(mods)), next: make([][]int, len(mods)), refuses: make([]bool, len(mods))}
	index := make(map[string]int, len(mods))
	for i, m := range mods {
		g.names[i] = m.Name
		g.refuses[i] = m.RefusesLoopsAnywhere()
		index[m.Name] = i
	}
	// mark[j] == i+1 once module i's list holds j: releases repeat their
	// requirements, and the lists are built without sorting them twice.
	mark := make([]int, len(mods))
	for i, m := range mods {
		var to []int
		add := func(req *model.Requirements) {
			for _, d := range req.Modules { // model.LoopEdge, for every module at once
				if j, ok := index[d.Module]; ok && j != i && mark[j] != i+1 {
					mark[j] = i + 1
					to = append(to, j)
				}
			}
		}
		req := m.BuiltInRequirements()
		add(&req)
		for _, r := range m.Releases {
			add(&r.Requirements)
		}
		slices.Sort(to)
		g.next[i] = to
	}
	return g
}

// components returns the strongly connected components of g that hold a
// circle (two modules or more), each sorted, in the order of their least
// module. It is Tarjan's algorithm, iterative so that long chains do not
// grow the stack.
func (g *reqGraph) components() [][]int {
	n := len(g.names)
	index, low := make([]int, n), make([]int, n)
	for i := range index {
		index[i] = -1
	}
	onStack := make([]bool, n)
	var stack, out [][]int
	var nodes []int
	counter := 0
	type frame struct{ v, edge int }
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		calls := []frame{{root, 0}}
		index[root], low[root] = counter, counter
		counter++
		nodes = append(nodes, root)
		onStack[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			if f.edge < len(g.next[f.v]) {
				w := g.next[f.v][f.edge]
				f.edge++
				switch {
				case index[w] < 0:
					index[w], low[w] = counter, counter
					counter++
					nodes = append(nodes, w)
					onStack[w] = true
					calls = append(calls, frame{w, 0})
				case onStack[w]:
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				low[calls[len(calls)-1].v] = min(low[calls[len(calls)-1].v], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			var comp []int
			for {
				w := nodes[len(nodes)-1]
				nodes = nodes[:len(nodes)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 {
				slices.Sort(comp)
				stack = append(stack, comp)
			}
		}
	}
	out = stack
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}

// loopWalk lists elementary circles by depth-first search, charging each
// edge walked to budget.
type loopWalk struct {
	g      *reqGraph
	budget int
}

// circles lists the elementary circles inside comp (sorted module
// indices): for each start s, in order, the circles through s whose
// other modules come after s, so that each circle is found once, from
// its least module.
func (w *loopWalk) circles(comp []int) [][]int {
	in := make(map[int]bool, len(comp))
	for _, n := range comp {
		in[n] = true
	}
	var out [][]int
	for _, s := range comp {
		path := []int{s}
		onPath := map[int]bool{s: true}
		var walk func(v int)
		walk = func(v int) {
			for _, u := range w.g.next[v] {
				if w.budget--; w.budget < 0 || len(out) > maxLoops {
					return
				}
				switch {
				case u == s:
					out = append(out, slices.Clone(path))
				case u > s && in[u] && !onPath[u]:
					path = append(path, u)
					onPath[u] = true
					walk(u)
					onPath[u] = false
					path = path[:len(path)-1]
				}
			}
		}
		walk(s)
	}
	return out
}

// loopsThrough lists the circles through the modules of batch that are
// not encoded yet, in the table's order, and marks them encoded. On a
// cone, a circle waits until the cone covers all its modules: it is a
// fact about each of them, and their own facts (such as the intent that
// keeps one on) then stand beside it, as over the whole closure.
func (e *encoder) loopsThrough(batch []*modVars) []*catLoop {
	lt := &e.p.compiled.t.loops
	var idx []int
	for _, mv := range batch {
		for _, i := range lt.byModule[mv.v.name] {
			if !e.across.loops[i] && e.coversAll(lt.loops[i].members) {
				e.across.loops[i] = true
				idx = append(idx, i)
			}
		}
	}
	slices.Sort(idx)
	out := make([]*catLoop, len(idx))
	for k, i := range idx {
		out[k] = lt.loops[i]
	}
	return out
}

// coversAll reports whether the encoding covers every module of names.
func (e *encoder) coversAll(names []string) bool {
	if e.cone == nil {
		return true
	}
	for _, n := range names {
		if !e.cone.covered[n] {
			return false
		}
	}
	return true
}

// encodeLoops forbids the circles through batch's modules (R27).
func (e *encoder) encodeLoops(batch []*modVars) {
	for _, l := range e.loopsThrough(batch) {
		e.encodeLoop(l)
	}
}

// loopEdge is one module of a circle as an encoding sees it: its
// variables, the positions of its candidates that require the next
// module, and those of them whose source refuses loops.
type loopEdge struct {
	mv            *modVars
	poss, refuses []int
}

// encodeLoop forbids circle l, unless some edge of it cannot be taken:
// a module outside the encoding (off, or detached at a release that does
// not require the next) or one with no candidate that requires the next.
// The circle is refused when every edge is taken and some module is at a
// release whose source refuses loops (D125); one the cluster runs, only
// when some module moves besides (D126).
func (e *encoder) encodeLoop(l *catLoop) {
	edges := make([]loopEdge, len(l.members))
	running, everywhere := true, true
	for i, name := range l.members {
		next := l.members[(i+1)%len(l.members)]
		mv := e.vars(name)
		if mv == nil {
			return // off, or detached: a detached loop runs as it is (detach.go)
		}
		ed := &edges[i]
		ed.mv = mv
		for j, r := range mv.dom {
			rel := mv.v.rels[r]
			if model.LoopEdge(mv.v.m, rel.Requirements, next) {
				ed.poss = append(ed.poss, j)
				if mv.v.m.RefusesLoopsAt(rel) {
					ed.refuses = append(ed.refuses, j)
				}
			}
		}
		if len(ed.poss) == 0 {
			return
		}
		everywhere = everywhere && len(ed.refuses) == len(ed.poss)
		running = running && mv.v.runsEdge(next)
	}
	if !slices.ContainsFunc(edges, func(ed loopEdge) bool { return len(ed.refuses) > 0 }) {
		return // every release on it allows loops
	}
	f := e.loopFact(l, edges, running)
	taken := make([]z.Lit, len(edges)) // "the edge is not taken"
	for i, ed := range edges {
		taken[i] = e.releasesLit(ed.mv, ed.poss).Not()
	}
	if everywhere && !running {
		e.add(f, taken...)
		return
	}
	// Some module at a refusing release (i), and, for a circle the
	// cluster runs, some module at another release than its deployed one
	// (k): the other edges must not all be taken.
	for i, ed := range edges {
		if len(ed.refuses) == 0 {
			continue
		}
		if !running {
			e.add(f, e.loopClause(edges, taken, i, -1, ed.refuses)...)
			continue
		}
		for k, other := range edges {
			switch {
			case k == i:
				if at := ed.movedIn(ed.refuses); len(at) > 0 {
					e.add(f, e.loopClause(edges, taken, i, -1, at)...)
				}
			case len(other.movedFrom()) > 0:
				e.add(f, e.loopClause(edges, taken, i, k, ed.refuses)...)
			}
		}
	}
}

// loopClause says: not every edge of the circle is taken while module i
// is at a position of at and, when k ≥ 0, module k at another release
// than its deployed one. It is the untaken literals of the other edges,
// and "not there" for modules i and k; their own edges are taken there.
func (e *encoder) loopClause(edges []loopEdge, taken []z.Lit, i, k int, at []int) []z.Lit {
	var c []z.Lit
	for j := range edges {
		if j != i && j != k {
			c = append(c, taken[j])
		}
	}
	if k >= 0 {
		c = append(c, e.releasesLit(edges[k].mv, edges[k].movedFrom()).Not())
	}
	return append(c, e.releasesLit(edges[i].mv, at).Not())
}

// movedFrom lists the edge's positions other than the deployed release.
func (ed *loopEdge) movedFrom() []int { return ed.movedIn(ed.poss) }

// movedIn lists the positions of poss other than the deployed release.
func (ed *loopEdge) movedIn(poss []int) []int {
	dep := -1
	if d := ed.mv.v.deployed; d >= 0 {
		dep = ed.mv.pos[d]
	}
	return slices.DeleteFunc(slices.Clone(poss), func(j int) bool { return j == dep })
}

// releasesLit returns a literal implied by "mv is at one of positions
// poss": true whenever mv is there, free otherwise. It is made once per
// encoding for each set, so that a shared encoding, which encodes its
// loops again as its universe grows, finds the same clauses (shared.go).
func (e *encoder) releasesLit(mv *modVars, poss []int) z.Lit {
	k := setKey{mv: mv, poss: fmt.Sprint(poss)}
	if y, ok := e.setLits[k]; ok {
		return y
	}
	y := e.g.Lit()
	for _, iv := range runsOf(poss) {
		e.add(nil, append(e.notRun(mv, iv[0], iv[1]), y)...)
	}
	if e.setLits == nil {
		e.setLits = map[setKey]z.Lit{}
	}
	e.setLits[k] = y
	return y
}

// setKey names a set of mv's positions.
type setKey struct {
	mv   *modVars
	poss string
}

// runsEdge reports whether v runs, deployed and listed, a release that
// requires next.
func (v *view) runsEdge(next string) bool {
	if !v.before || v.deployed < 0 || v.unlisted {
		return false
	}
	return model.LoopEdge(v.m, v.rels[v.deployed].Requirements, next)
}

// loopFact is the fact of circle l, or nil when the encoding keeps none.
func (e *encoder) loopFact(l *catLoop, edges []loopEdge, running bool) *fact {
	f := e.newFact(model.FactDependencyLoop, nil, factRank{class: rankLoop, name: l.text()})
	if f == nil {
		return nil
	}
	f.group = l.text()
	f.loop = &loopShape{running: running}
	for _, ed := range edges {
		f.members = append(f.members, ed.mv.v)
		rels := make([]int, len(ed.poss))
		for k, j := range ed.poss {
			rels[k] = ed.mv.dom[j]
		}
		f.loop.rels = append(f.loop.rels, rels)
	}
	return f
}

// loopShape is what a loop fact says of its circle: for each member (in
// fact.members), the releases that require the next one, and whether
// the cluster runs the circle already.
type loopShape struct {
	rels    [][]int
	running bool
}

// loopMessage renders a loop fact in DKP's words, then says which
// releases close the circle.
func loopMessage(_ *problem, f *fact) string {
	parts := make([]string, len(f.members))
	for i, v := range f.members {
		next := f.members[(i+1)%len(f.members)]
		parts[i] = fmt.Sprintf("%s %s requires %s", v.name, releaseLabel(v, f.loop.rels[i]), next.name)
	}
	msg := fmt.Sprintf("dependency cycle through: %s: %s; a release that closes a dependency loop is refused", f.group, strings.Join(parts, ", and "))
	if f.loop.running {
		msg += " (the cluster runs this loop already: it may stay as it is, but none of its modules may move to another release that keeps it)"
	}
	return msg
}

// loopShort names a loop fact in a sweep.
func loopShort(_ string, f model.Fact) string { return "dependency loop through " + f.Subject }

// runningLoops warns of every circle of refusing modules the answer
// keeps (R27): the cluster ran it before, and DKP does not refuse what
// it already runs. outs are the answer's outcomes in name order.
func runningLoops(p *problem, outs []*outcome) []model.Warning {
	lt := &p.compiled.t.loops
	if len(lt.loops) == 0 {
		return nil
	}
	sel := make(map[string]*outcome, len(outs))
	for _, o := range outs {
		if o.sel >= 0 {
			sel[o.v.name] = o
		}
	}
	var out []model.Warning
	for _, l := range lt.loops {
		closed := true
		for i, name := range l.members {
			o := sel[name]
			next := l.members[(i+1)%len(l.members)]
			if o == nil || !model.LoopEdge(o.v.m, o.v.rels[o.sel].Requirements, next) {
				closed = false
				break
			}
		}
		if closed {
			out = append(out, model.Warning{Kind: model.WarningDependencyLoop, Module: l.members[0],
				Message: fmt.Sprintf("dependency cycle through: %s: the cluster runs these modules in a dependency loop, which is refused for any new release; the answer keeps their releases, and none of them may move to another release that keeps the loop", l.text())})
		}
	}
	return out
}

// leaveTheLoop proposes, for each module of a loop fact's circle, a pin
// to its newest release that does not require the next module: one that
// leaves the circle open. Each is verified like any suggestion.
func leaveTheLoop(_ *session, f *fact) [][]change {
	var out []change
	for i, v := range f.members {
		if v.m.Embedded {
			continue // its one release is the platform's
		}
		for r := len(v.rels) - 1; r >= 0; r-- {
			if !slices.Contains(f.loop.rels[i], r) && v.rels[r].Version.Prerelease() == "" {
				out = append(out, pinChange(v.name, v.rels[r].Version))
				break
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return [][]change{out}
}

// DependencyLoops lists the dependency loops of cat that some module of
// each refuses (R27): circles of modules whose releases may require one
// another in turn, each in circle order from its least module, in name
// order. Which of them an answer would close depends on the releases it
// selects; these are the ones the catalog lets it close at all.
func DependencyLoops(cat *model.Catalog) ([][]string, error) {
	c, err := compiledOrNew(cat)
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(c.t.loops.loops))
	for i, l := range c.t.loops.loops {
		out[i] = slices.Clone(l.members)
	}
	return out, nil
}
