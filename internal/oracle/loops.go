package oracle

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// loopsAllowed checks R27 on an assignment: every circle of enabled
// modules whose selected releases require one another in turn (any
// module requirement, required or optional) is allowed only when none of
// its modules is at a release whose source refuses loops, or when the
// cluster already runs it: every
// module of it deployed and selected at its deployed release (a built-in
// module counts when it was on before). It walks every elementary circle
// by brute force, as the rest of the oracle does.
func (p *problem) loopsAllowed(sel []int) bool {
	next := make([][]int, len(p.mods))
	for i, x := range p.mods {
		if sel[i] < 0 {
			continue
		}
		for _, d := range x.rels[sel[i]].Requirements.Modules {
			if j, ok := p.index[d.Module]; ok && j != i && sel[j] >= 0 && !slices.Contains(next[i], j) {
				next[i] = append(next[i], j)
			}
		}
	}
	for start := range p.mods {
		if !p.circlesAllowed(start, []int{start}, next, sel) {
			return false
		}
	}
	return true
}

// circlesAllowed walks the simple paths from path's last module through
// modules after start, and checks each circle that returns to start.
func (p *problem) circlesAllowed(start int, path []int, next [][]int, sel []int) bool {
	for _, j := range next[path[len(path)-1]] {
		switch {
		case j == start:
			if !p.circleAllowed(path, sel) {
				return false
			}
		case j > start && !slices.Contains(path, j):
			if !p.circlesAllowed(start, append(path, j), next, sel) {
				return false
			}
		}
	}
	return true
}

func (p *problem) circleAllowed(circle []int, sel []int) bool {
	refused, kept := false, true
	for _, i := range circle {
		x := p.mods[i]
		refused = refused || p.sourceModule(x, x.rels[sel[i]]).DependencyLoops != model.LoopsAllow // D125: its source's rule
		if x.m.Embedded {
			_, on := p.cluster.Deployed(x.m)
			kept = kept && on
		} else {
			kept = kept && sel[i] == p.deployed(x)
		}
	}
	return !refused || kept
}
