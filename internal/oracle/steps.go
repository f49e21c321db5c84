package oracle

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// oneUpdate reports whether one update may take x from release from to
// release to (to is newer): along x's update graph when any release of
// its module declares edges (R21), else by the sequential rule (R11,
// D13). The module's own releases decide, not x.rels: on a move (D76)
// the deployed release x.rels carries is the left source's, whose edges
// say nothing of the new source's policy.
func (p *problem) oneUpdate(x *mod, from, to int, h head) bool {
	policy := x.m.UpdatePolicy // D66: the importer's, else by the data
	if policy == "" && slices.ContainsFunc(x.m.Releases, func(r *model.Release) bool { return r.Edges != nil }) {
		policy = model.UpdateGraph
	}
	switch policy {
	case model.UpdateDirect:
		return true // any release up to the head, as strategy: direct
	case model.UpdateGraph:
		return graphReaches(x.rels, from, h, x.m.Reading())[to]
	}
	return sequentialStep(x.rels, from, to, h, func(r *model.Release) bool { return p.prereleaseAllowed(x, r) })
}

// graphReaches marks the releases reachable from release from over update
// edges, hopping only over releases not above the head (R21).
func graphReaches(rels []*model.Release, from int, h head, rd model.VersionReading) []bool {
	seen := make([]bool, len(rels))
	seen[from] = true
	for queue := []int{from}; len(queue) > 0; queue = queue[1:] {
		cur := rels[queue[0]].Version
		for i, r := range rels {
			if !seen[i] && !h.above(r.Version) && r.Edges.From(cur, rd) {
				seen[i] = true
				queue = append(queue, i)
			}
		}
	}
	return seen
}

// sequentialStep is R11 with D13, over the releases a step may land on:
// not above the head and not prereleases, except the head itself and a
// prerelease R6 lets be taken (taken, D141).
//   - the highest patch of v0's minor;
//   - the highest patch of the next minor of v0's major that has one;
//   - from 0.x, the highest patch of the lowest 1.x minor;
//   - a release whose from-to rule has to = its major.minor and
//     from <= v0 < to.
func sequentialStep(rels []*model.Release, from, to int, h head, taken func(*model.Release) bool) bool {
	v0 := rels[from].Version
	var landing []model.Version
	for _, r := range rels {
		if !h.above(r.Version) && (!model.IsPrerelease(r.Version) || h.isChannelVersion(r.Version) || taken(r)) {
			landing = append(landing, r.Version)
		}
	}
	target := rels[to].Version
	if !slices.ContainsFunc(landing, func(v model.Version) bool { return model.SameVersion(v, target) }) {
		return false
	}
	mm0 := model.MinorOf(v0)
	if isHighestOf(landing, target, func(mm model.MajorMinor) bool { return mm == mm0 }) {
		return true
	}
	nextMinor, ok := lowestMinor(landing, func(mm model.MajorMinor) bool { return mm.Major == mm0.Major && mm.Minor > mm0.Minor })
	if ok && isHighestOf(landing, target, func(mm model.MajorMinor) bool { return mm == nextMinor }) {
		return true
	}
	if mm0.Major == 0 {
		one, ok := lowestMinor(landing, func(mm model.MajorMinor) bool { return mm.Major == 1 })
		if ok && isHighestOf(landing, target, func(mm model.MajorMinor) bool { return mm == one }) {
			return true
		}
	}
	return slices.ContainsFunc(rels[to].UpdateRules, func(u model.UpdateRule) bool {
		return u.To == model.MinorOf(target) && mm0.Compare(u.From) >= 0 && model.Core(v0).LessThan(u.To.Version())
	})
}

// isHighestOf reports whether v is the newest of vs whose minor matches.
func isHighestOf(vs []model.Version, v model.Version, match func(model.MajorMinor) bool) bool {
	if !match(model.MinorOf(v)) {
		return false
	}
	for _, w := range vs {
		if match(model.MinorOf(w)) && model.CompareVersions(w, v) > 0 {
			return false
		}
	}
	return true
}

// lowestMinor is the lowest major.minor of vs that matches.
func lowestMinor(vs []model.Version, match func(model.MajorMinor) bool) (model.MajorMinor, bool) {
	var out model.MajorMinor
	found := false
	for _, v := range vs {
		if mm := model.MinorOf(v); match(mm) && (!found || mm.Compare(out) < 0) {
			out, found = mm, true
		}
	}
	return out, found
}
