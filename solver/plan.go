package solver

import (
	"cmp"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// plan orders the steps of an answer (R18): every module after the
// modules its selected release requires (an optional dependency counts
// when both are on); a disable before an enable that needs it; a
// dependent disabled before what it depended on. Ties, and cycles, break
// by weight, then name.
func plan(outs []*outcome) []model.PlanStep {
	nodes := map[string]*outcome{}
	for _, o := range outs {
		if o.action != model.ActionAbsent {
			nodes[o.v.name] = o
		}
	}
	after := planEdges(nodes)
	indeg := map[string]int{}
	for _, tos := range after {
		for _, to := range tos {
			indeg[to]++
		}
	}
	var steps []model.PlanStep
	for len(nodes) > 0 {
		o := nextStep(nodes, indeg)
		delete(nodes, o.v.name)
		for _, to := range after[o.v.name] {
			indeg[to]--
		}
		steps = append(steps, planStep(o))
	}
	return steps
}

// nextStep picks the lightest ready step; if none is ready (a cycle), the
// lightest remaining one.
func nextStep(nodes map[string]*outcome, indeg map[string]int) *outcome {
	var best *outcome
	bestReady := false
	for _, o := range nodes {
		ready := indeg[o.v.name] == 0
		if best == nil || (ready && !bestReady) || (ready == bestReady && lighter(o, best)) {
			best, bestReady = o, ready
		}
	}
	return best
}

func lighter(a, b *outcome) bool {
	if c := cmp.Compare(a.v.m.Weight, b.v.m.Weight); c != 0 {
		return c < 0
	}
	return a.v.name < b.v.name
}

// planEdges maps each module to the modules whose steps must come after it.
func planEdges(nodes map[string]*outcome) map[string][]string {
	after := map[string][]string{}
	link := func(from, to string) {
		if from != to && !slices.Contains(after[from], to) {
			after[from] = append(after[from], to)
		}
	}
	for name, o := range nodes {
		switch {
		case o.sel >= 0:
			for _, d := range o.v.rels[o.sel].Requirements.Modules {
				if dep, ok := nodes[d.Module]; ok && (dep.sel >= 0 || d.Constraint.Optional) {
					link(d.Module, name) // a dependency first, or a disable before the enable
				}
			}
			for _, other := range nodes {
				if other.action == model.ActionDisable && sameGroup(o.v, other.v) {
					link(other.v.name, name)
				}
			}
		case o.v.deployed >= 0:
			for _, d := range o.v.rels[o.v.deployed].Requirements.Modules {
				if dep, ok := nodes[d.Module]; ok && dep.sel < 0 {
					link(name, d.Module) // the dependent goes first
				}
			}
		}
	}
	return after
}

func sameGroup(a, b *view) bool {
	return a.m.ExclusiveGroup != "" && a.m.ExclusiveGroup == b.m.ExclusiveGroup
}

func planStep(o *outcome) model.PlanStep {
	st := model.PlanStep{Module: o.v.name, Action: o.action, FromVersion: model.VersionString(o.v.deployedVersion())}
	if o.sel >= 0 {
		st.ToVersion = model.VersionString(o.v.rels[o.sel].Version)
	}
	return st
}
