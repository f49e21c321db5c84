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
func plan(outs []*outcome) []model.PlanStep {
	nodes := map[string]*outcome{}
	var order []*outcome // the steps, sorted by weight and name
	for _, o := range outs {
		if o.action != model.ActionAbsent {
			nodes[o.v.name] = o
			order = append(order, o)
		}
	}
	slices.SortFunc(order, compareWeight)
	after := planEdges(nodes, order)
	comps, compOf := components(order, after)
	indeg := make([]int, len(comps))
	for from, tos := range after {
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
	steps := make([]model.PlanStep, 0, len(order))
	for ready.Len() > 0 {
		comp := heap.Pop(ready).(*component)
		for _, o := range comp.ordered(after, compOf) {
			steps = append(steps, planStep(o))
			steps[len(steps)-1].CycleWith = comp.others(o)
			for _, to := range after[o.v.name] {
				if c := compOf[to]; c != comp.id {
					if indeg[c]--; indeg[c] == 0 {
						heap.Push(ready, comps[c])
					}
				}
			}
		}
	}
	if len(steps) != len(order) {
		panic("internal error: the plan lost steps")
	}
	return steps
}

// component is one strongly connected group of plan steps: a single step,
// or modules that need each other.
type component struct {
	id      int
	members []*outcome // sorted by weight and name
}

// others names the component's members other than o, sorted; nil for a
// single step (D90).
func (c *component) others(o *outcome) []string {
	var names []string
	for _, m := range c.members {
		if m != o {
			names = append(names, m.v.name)
		}
	}
	slices.Sort(names)
	return names
}

// ordered lists the component's steps: Kahn's algorithm on the edges
// inside it, taking the lightest remaining step where a cycle leaves none
// ready.
func (c *component) ordered(after map[string][]string, compOf map[string]int) []*outcome {
	if len(c.members) == 1 {
		return c.members
	}
	indeg := map[string]int{}
	for _, o := range c.members {
		for _, to := range after[o.v.name] {
			if compOf[to] == c.id {
				indeg[to]++
			}
		}
	}
	done := map[string]bool{}
	out := make([]*outcome, 0, len(c.members))
	for len(out) < len(c.members) {
		next := slices.IndexFunc(c.members, func(o *outcome) bool { return !done[o.v.name] && indeg[o.v.name] == 0 })
		if next < 0 { // a cycle: take the lightest remaining step
			next = slices.IndexFunc(c.members, func(o *outcome) bool { return !done[o.v.name] })
		}
		o := c.members[next]
		done[o.v.name] = true
		out = append(out, o)
		for _, to := range after[o.v.name] {
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
func components(order []*outcome, after map[string][]string) ([]*component, map[string]int) {
	byName := make(map[string]*outcome, len(order))
	for _, o := range order {
		byName[o.v.name] = o
	}
	t := tarjan{after: after, byName: byName, index: map[string]int{}, low: map[string]int{}, onStack: map[string]bool{}, compOf: map[string]int{}}
	for _, o := range order {
		if _, seen := t.index[o.v.name]; !seen {
			t.visit(o.v.name)
		}
	}
	for _, c := range t.comps {
		slices.SortFunc(c.members, compareWeight)
	}
	return t.comps, t.compOf
}

// tarjan is the state of one run of Tarjan's algorithm.
type tarjan struct {
	after   map[string][]string
	byName  map[string]*outcome
	index   map[string]int
	low     map[string]int
	onStack map[string]bool
	stack   []string
	comps   []*component
	compOf  map[string]int
}

func (t *tarjan) visit(name string) {
	t.index[name], t.low[name] = len(t.index), len(t.index)
	t.stack = append(t.stack, name)
	t.onStack[name] = true
	for _, to := range t.after[name] {
		if _, seen := t.index[to]; !seen {
			t.visit(to)
			t.low[name] = min(t.low[name], t.low[to])
		} else if t.onStack[to] {
			t.low[name] = min(t.low[name], t.index[to])
		}
	}
	if t.low[name] != t.index[name] {
		return
	}
	c := &component{id: len(t.comps)}
	for {
		top := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.onStack[top] = false
		t.compOf[top] = c.id
		c.members = append(c.members, t.byName[top])
		if top == name {
			break
		}
	}
	t.comps = append(t.comps, c)
}

// compHeap holds the ready components, the one with the lightest step
// first.
type compHeap []*component

func (h compHeap) Len() int           { return len(h) }
func (h compHeap) Less(i, j int) bool { return compareWeight(h[i].members[0], h[j].members[0]) < 0 }
func (h compHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *compHeap) Push(x any)        { *h = append(*h, x.(*component)) }
func (h *compHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

func compareWeight(a, b *outcome) int {
	if c := cmp.Compare(a.v.m.Weight, b.v.m.Weight); c != 0 {
		return c
	}
	return cmp.Compare(a.v.name, b.v.name)
}

// planEdges maps each module to the modules whose steps must come after
// it, in a fixed order.
func planEdges(nodes map[string]*outcome, order []*outcome) map[string][]string {
	after := map[string][]string{}
	link := func(from, to string) {
		if from != to && !slices.Contains(after[from], to) {
			after[from] = append(after[from], to)
		}
	}
	disabled := map[string][]*outcome{} // disabled modules by exclusive group
	for _, o := range order {
		if g := o.v.m.ExclusiveGroup; g != "" && o.action == model.ActionDisable {
			disabled[g] = append(disabled[g], o)
		}
	}
	caps := capabilityIndex(order)
	for _, o := range order {
		name := o.v.name
		switch {
		case o.sel >= 0:
			for _, d := range o.v.rels[o.sel].Requirements.Modules {
				if dep, ok := nodes[d.Module]; ok && (dep.sel >= 0 || d.Constraint.Optional) {
					link(d.Module, name) // a dependency first, or a disable before the enable
				}
			}
			for _, c := range o.v.rels[o.sel].Requirements.Capabilities {
				for _, p := range caps.on[c] {
					link(p.v.name, name) // the provider first (R19)
				}
			}
			for _, c := range o.v.rels[o.sel].Provides {
				for _, p := range caps.off[c] {
					link(p.v.name, name) // the old provider goes before (R20)
				}
			}
			if g := o.v.m.ExclusiveGroup; g != "" {
				for _, other := range disabled[g] {
					link(other.v.name, name)
				}
			}
			compoundPlanEdges(o, order, link) // R24
		case o.v.deployed >= 0:
			for _, d := range o.v.rels[o.v.deployed].Requirements.Modules {
				if dep, ok := nodes[d.Module]; ok && dep.sel < 0 {
					link(name, d.Module) // the dependent goes first
				}
			}
			for _, c := range o.v.rels[o.v.deployed].Requirements.Capabilities {
				for _, p := range caps.off[c] {
					link(name, p.v.name)
				}
			}
		}
	}
	return after
}

// capProviders lists, by capability, the steps whose release provides it
// after the answer (on) and the disabled steps whose deployed release
// provided it (off).
type capProviders struct {
	on, off map[string][]*outcome
}

func capabilityIndex(order []*outcome) capProviders {
	idx := capProviders{on: map[string][]*outcome{}, off: map[string][]*outcome{}}
	for _, o := range order {
		switch {
		case o.sel >= 0:
			for _, c := range o.v.rels[o.sel].Provides {
				idx.on[c] = append(idx.on[c], o)
			}
		case o.v.deployed >= 0:
			for _, c := range o.v.rels[o.v.deployed].Provides {
				idx.off[c] = append(idx.off[c], o)
			}
		}
	}
	return idx
}

func planStep(o *outcome) model.PlanStep {
	st := model.PlanStep{Module: o.v.name, Action: o.action, FromVersion: model.VersionString(o.v.deployedVersion())}
	if o.sel >= 0 {
		st.ToVersion = model.VersionString(o.v.rels[o.sel].Version)
	}
	st.FromSource, st.ToSource, _ = o.v.resultSources(o.sel)
	confirmStep(&st, o)
	return st
}
