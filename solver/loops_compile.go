package solver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Dependency loops (R27), as compiling a catalog finds them: the
// elementary circles of its requirement graph that a refusing module
// takes part in (loops.go writes them onto an encoding).

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

// maxLoops bounds the circles a catalog's requirement graph may hold
// among modules that refuse loops. A real catalog holds a handful; a
// graph with more is refused with ErrTooManyLoops rather than answered
// without some of them (D127).
const maxLoops = 10000

// maxLoopSteps bounds the search for them, in edges walked.
const maxLoopSteps = 2000000
