package solver

import (
	"cmp"
	"container/heap"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// plan orders the steps of an answer (R18): every module after the
// modules its selected release requires (an optional dependency counts
// when both are on); a disable before an enable that needs it; a
// dependent disabled before what it depended on. Ties break by weight,
// then name. Modules that need each other (a cycle) cannot all come after
// each other: they form one group, which comes after every group it
// needs, and inside it the order breaks the cycle at the lightest step.
// It is Kahn's algorithm over the groups (strongly connected components)
// with the ready groups in a heap, so that large answers plan in n log n.
// kept are the frozen modules a state memo keeps without views, each a
// step that keeps its release (statememo.go).
func plan(outs []*outcome, kept []*frozenModule, devel bool) []model.PlanStep {
	g := newPlanGraph(outs, kept, devel)
	comps, compOf := g.components()
	indeg := make([]int, len(comps))
	for from, tos := range g.after {
		for _, to := range tos {
			if compOf[from] != compOf[to] {
				indeg[compOf[to]]++
			}
		}
	}
	ready := &compHeap{}
	for c := range comps {
		if indeg[c] == 0 {
			heap.Push(ready, comps[c])
		}
	}
	steps := make([]model.PlanStep, 0, len(g.order))
	for ready.Len() > 0 {
		comp := heap.Pop(ready).(*component)
		for _, n := range comp.ordered(g.after, compOf) {
			steps = append(steps, g.order[n].planStep())
			steps[len(steps)-1].CycleWith = comp.others(g.order, n)
			for _, to := range g.after[n] {
				if c := compOf[to]; c != comp.id {
					if indeg[c]--; indeg[c] == 0 {
						heap.Push(ready, comps[c])
					}
				}
			}
		}
	}
	if len(steps) != len(g.order) {
		panic("internal error: the plan lost steps")
	}
	return steps
}

// planGraph is the steps of a plan and the order between them. A step is
// named by its index in order, which is sorted by weight and name, so
// that the lower of two indices is the lighter step.
type planGraph struct {
	order []*planNode
	devel bool           // the request's (R6): compound ranges admit prereleases
	at    map[string]int // the index of each module's step
	// after[n] lists the steps that must come after step n, in a fixed
	// order.
	after [][]int
}

// planNode is one step as the plan reads it: an outcome's, or a kept
// frozen module's, which has no view (f).
type planNode struct {
	name   string
	m      *model.Module
	action model.Action
	on     *model.Release // the release after the answer; nil: off
	was    *model.Release // the release the cluster runs; nil: none
	o      *outcome
	f      *frozenModule
}

func outcomeNode(o *outcome) planNode {
	n := planNode{name: o.v.name, m: o.v.m, action: o.action, o: o}
	if o.sel >= 0 {
		n.on = o.v.rels[o.sel]
	}
	if o.v.deployed >= 0 {
		n.was = o.v.rels[o.v.deployed]
	}
	return n
}

// keptNode is the step of a frozen module that keeps its release.
func keptNode(f *frozenModule) planNode {
	return planNode{name: f.name, m: f.m, action: f.step.Action, on: f.rel, was: f.rel, f: f}
}

func (n *planNode) planStep() model.PlanStep {
	if n.f != nil {
		return n.f.step // rendered with the memo (statememo.go)
	}
	return planStep(n.o)
}

// newPlanGraph makes one step of every outcome that is not absent and of
// every kept frozen module, and links them as planEdges says.
func newPlanGraph(outs []*outcome, kept []*frozenModule, devel bool) *planGraph {
	nodes := make([]planNode, 0, len(outs)+len(kept))
	for _, o := range outs {
		if o.action != model.ActionAbsent {
			nodes = append(nodes, outcomeNode(o))
		}
	}
	for _, f := range kept {
		nodes = append(nodes, keptNode(f))
	}
	g := &planGraph{order: make([]*planNode, len(nodes)), devel: devel}
	for i := range nodes {
		g.order[i] = &nodes[i]
	}
	slices.SortFunc(g.order, compareWeight)
	g.at = make(map[string]int, len(g.order))
	for i, n := range g.order {
		g.at[n.name] = i
	}
	g.after = make([][]int, len(g.order))
	planEdges(g)
	return g
}

// link puts the step of module to after the step of module from.
func (g *planGraph) link(from, to string) {
	i, j := g.at[from], g.at[to]
	if i != j && !slices.Contains(g.after[i], j) {
		g.after[i] = append(g.after[i], j)
	}
}

// step returns the step of module name, if it has one.
func (g *planGraph) step(name string) (*planNode, bool) {
	i, ok := g.at[name]
	if !ok {
		return nil, false
	}
	return g.order[i], true
}

// component is one strongly connected group of plan steps: a single step,
// or modules that need each other.
type component struct {
	id      int
	members []int // step indices, ascending: by weight and name
}

// others names the component's members other than step n, sorted; nil
// for a single step (D90).
func (c *component) others(order []*planNode, n int) []string {
	var names []string
	for _, m := range c.members {
		if m != n {
			names = append(names, order[m].name)
		}
	}
	slices.Sort(names)
	return names
}

// ordered lists the component's steps: Kahn's algorithm on the edges
// inside it, taking the lightest remaining step where a cycle leaves none
// ready.
func (c *component) ordered(after [][]int, compOf []int) []int {
	if len(c.members) == 1 {
		return c.members
	}
	indeg := map[int]int{}
	for _, n := range c.members {
		for _, to := range after[n] {
			if compOf[to] == c.id {
				indeg[to]++
			}
		}
	}
	done := map[int]bool{}
	out := make([]int, 0, len(c.members))
	for len(out) < len(c.members) {
		next := slices.IndexFunc(c.members, func(n int) bool { return !done[n] && indeg[n] == 0 })
		if next < 0 { // a cycle: take the lightest remaining step
			next = slices.IndexFunc(c.members, func(n int) bool { return !done[n] })
		}
		n := c.members[next]
		done[n] = true
		out = append(out, n)
		for _, to := range after[n] {
			if compOf[to] == c.id {
				indeg[to]--
			}
		}
	}
	return out
}

// components finds the strongly connected components of the plan's
// edges (Tarjan's algorithm, visiting steps in weight and name order, so
// the result is deterministic) and the component of each step.
func (g *planGraph) components() ([]*component, []int) {
	n := len(g.order)
	t := tarjan{after: g.after, index: make([]int, n), low: make([]int, n), onStack: make([]bool, n), compOf: make([]int, n)}
	for i := range t.index {
		t.index[i] = -1
	}
	for i := range n {
		if t.index[i] < 0 {
			t.visit(i)
		}
	}
	for _, c := range t.comps {
		slices.Sort(c.members)
	}
	return t.comps, t.compOf
}

func compareWeight(a, b *planNode) int {
	if c := cmp.Compare(a.m.Weight, b.m.Weight); c != 0 {
		return c
	}
	return cmp.Compare(a.name, b.name)
}

// planEdges links each step to the steps that must come after it, in a
// fixed order.
func planEdges(g *planGraph) {
	order, link := g.order, g.link
	disabled := map[string][]*planNode{} // disabled modules by exclusive group
	for _, n := range order {
		if g := n.m.ExclusiveGroup; g != "" && n.action == model.ActionDisable {
			disabled[g] = append(disabled[g], n)
		}
	}
	caps := capabilityIndex(order)
	for _, n := range order {
		name := n.name
		switch {
		case n.on != nil:
			for _, d := range n.on.Requirements.Modules {
				if dep, ok := g.step(d.Module); ok && (dep.on != nil || d.Constraint.Optional) {
					link(d.Module, name) // a dependency first, or a disable before the enable
				}
			}
			for _, c := range n.on.Requirements.Capabilities {
				for _, p := range caps.on[c] {
					link(p.name, name) // the provider first (R19)
				}
			}
			for _, c := range n.on.Provides {
				for _, p := range caps.off[c] {
					link(p.name, name) // the old provider goes before (R20)
				}
			}
			if g := n.m.ExclusiveGroup; g != "" {
				for _, other := range disabled[g] {
					link(other.name, name)
				}
			}
			compoundPlanEdges(n, order, link, g.devel) // R24
		case n.was != nil:
			for _, d := range n.was.Requirements.Modules {
				if dep, ok := g.step(d.Module); ok && dep.on == nil {
					link(name, d.Module) // the dependent goes first
				}
			}
			for _, c := range n.was.Requirements.Capabilities {
				for _, p := range caps.off[c] {
					link(name, p.name)
				}
			}
		}
	}
}

// capProviders lists, by capability, the steps whose release provides it
// after the answer (on) and the disabled steps whose deployed release
// provided it (off).
type capProviders struct {
	on, off map[string][]*planNode
}

func capabilityIndex(order []*planNode) capProviders {
	idx := capProviders{on: map[string][]*planNode{}, off: map[string][]*planNode{}}
	for _, n := range order {
		switch {
		case n.on != nil:
			for _, c := range n.on.Provides {
				idx.on[c] = append(idx.on[c], n)
			}
		case n.was != nil:
			for _, c := range n.was.Provides {
				idx.off[c] = append(idx.off[c], n)
			}
		}
	}
	return idx
}

func planStep(o *outcome) model.PlanStep {
	st := model.PlanStep{Module: o.v.name, Action: o.action, FromVersion: model.VersionString(o.v.fromVersion(o.sel))}
	if o.sel >= 0 {
		st.ToVersion = o.v.versionText(o.sel)
	}
	st.FromSource, st.ToSource, _ = o.v.resultSources(o.sel)
	confirmStep(&st, o)
	return st
}

// compoundPlanEdges links, for a release selected by the answer, the
// modules that satisfy its compound requirements before it, and the
// disable or update of a module whose running release a conflict of it
// refuses before it (R18, D136).
func compoundPlanEdges(n *planNode, order []*planNode, link func(from, to string), devel bool) {
	for _, c := range n.on.Requirements.Compound {
		target := c.Target()
		for _, other := range order {
			if other == n {
				continue
			}
			rel := other.on
			if c.Conflict() {
				// the module runs a release the conflict refuses and
				// leaves it, disabled or moved out of the range (D136)
				rel = other.was
			}
			if rel == nil {
				continue
			}
			if target.Holds(other.name, rel.Version, rel.Provides, moduleReading(n.m, other.m), devel) {
				link(other.name, n.name)
			}
		}
	}
}
