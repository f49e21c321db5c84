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
// dependent disabled before what it depended on. Ties, and cycles, break
// by weight, then name. It is Kahn's algorithm with the ready steps in a
// heap, so that large answers plan in n log n.
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
	indeg := map[string]int{}
	for _, tos := range after {
		for _, to := range tos {
			indeg[to]++
		}
	}
	ready := &stepHeap{}
	for _, o := range order {
		if indeg[o.v.name] == 0 {
			heap.Push(ready, o)
		}
	}
	done := map[string]bool{}
	steps := make([]model.PlanStep, 0, len(order))
	next := 0 // the lightest step not yet done, for breaking cycles
	for len(steps) < len(order) {
		var o *outcome
		if ready.Len() > 0 {
			o = heap.Pop(ready).(*outcome)
		} else { // a cycle: take the lightest remaining step
			for done[order[next].v.name] {
				next++
			}
			o = order[next]
		}
		if done[o.v.name] {
			continue
		}
		done[o.v.name] = true
		steps = append(steps, planStep(o))
		for _, to := range after[o.v.name] {
			if indeg[to]--; indeg[to] == 0 && !done[to] {
				heap.Push(ready, nodes[to])
			}
		}
	}
	return steps
}

func compareWeight(a, b *outcome) int {
	if c := cmp.Compare(a.v.m.Weight, b.v.m.Weight); c != 0 {
		return c
	}
	return cmp.Compare(a.v.name, b.v.name)
}

// stepHeap holds the ready steps, lightest first.
type stepHeap []*outcome

func (h stepHeap) Len() int           { return len(h) }
func (h stepHeap) Less(i, j int) bool { return compareWeight(h[i], h[j]) < 0 }
func (h stepHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *stepHeap) Push(x any)        { *h = append(*h, x.(*outcome)) }
func (h *stepHeap) Pop() any {
	old := *h
	o := old[len(old)-1]
	*h = old[:len(old)-1]
	return o
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
	confirmStep(&st, o)
	return st
}
