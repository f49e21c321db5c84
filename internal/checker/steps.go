package checker

import (
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// checkSteps checks R11 with D13: under the sequential strategy, an update
// of a deployed module that is not pinned takes one allowed step of the
// module's update policy (D66): a sequential step, a path of update edges
// (R21), or, for a module the importer marks direct, any release.
// Direct updates are bounded by R9 and R10 alone.
func (c *checker) checkSteps(m *model.Module, v model.Version) {
	v0, deployed := c.cluster.Deployed(m)
	if !deployed || c.req.EffectiveStrategy() != model.StrategySequential ||
		c.pinned(m.Name) != nil || model.CompareVersions(v, v0) <= 0 {
		return
	}
	switch m.Policy() {
	case model.UpdateDirect:
		return // bounded by R9 and R10 alone, as under strategy: direct (D66)
	case model.UpdateGraph:
		c.checkGraphStep(m, v0, v)
		return
	}
	rels := c.stepReleases(m)
	targets := stepTargets(v0, rels)
	if slices.ContainsFunc(targets, func(t model.Version) bool { return model.SameVersion(t, v) }) {
		return
	}
	if jumpAllowed(m.Release(v), v0, rels) {
		return
	}
	c.add("R11", m.Name, "update from %s to %s is not a sequential step (allowed: %s, or a from-to jump)", v0, v, versionList(targets))
}

// checkGraphStep checks R21: on an update graph, the version reached is
// one the edges lead to from v0, over releases not above the head.
func (c *checker) checkGraphStep(m *model.Module, v0, v model.Version) {
	head, _ := c.head(m)
	reach := graphReachable(m, v0, head)
	if !slices.ContainsFunc(reach, func(t model.Version) bool { return model.SameVersion(t, v) }) {
		c.add("R21", m.Name, "update from %s to %s follows no path of update edges (reachable: %s)", v0, v, versionList(reach))
	}
}

// stepReleases lists the versions update steps may reach: m's releases
// that are not above the channel head and not prereleases, unless the
// channel points at that prerelease (D1, D13) or R6 lets it be taken
// (D141), ascending.
func (c *checker) stepReleases(m *model.Module) []model.Version {
	head, bounded := c.head(m)
	var out []model.Version
	for _, r := range m.Releases {
		v := r.Version
		switch {
		case model.IsPrerelease(v) && !(bounded && model.SameVersion(v, head)) && !c.prereleaseTaken(m, v):
		case bounded && (head == nil || model.CompareVersions(v, head) > 0):
		default:
			out = append(out, v)
		}
	}
	return out
}

// stepTargets lists the versions one sequential step from v0 may reach:
// the highest patch of v0's minor, of the next minor of the same major
// that has a release, and for 0.x of the lowest 1.x minor.
func stepTargets(v0 model.Version, rels []model.Version) []model.Version {
	own := model.MinorOf(v0)
	minors := []model.MajorMinor{own}
	if next, ok := firstMinor(rels, func(mm model.MajorMinor) bool {
		return mm.Major == own.Major && mm.Minor > own.Minor
	}); ok {
		minors = append(minors, next)
	}
	if own.Major == 0 {
		if one, ok := firstMinor(rels, func(mm model.MajorMinor) bool { return mm.Major == 1 }); ok {
			minors = append(minors, one)
		}
	}
	var out []model.Version
	for _, mm := range minors {
		if v := highestPatch(rels, mm); v != nil {
			out = append(out, v)
		}
	}
	return out
}

// firstMinor returns the lowest major.minor of rels that matches.
func firstMinor(rels []model.Version, match func(model.MajorMinor) bool) (model.MajorMinor, bool) {
	for _, v := range rels {
		if mm := model.MinorOf(v); match(mm) {
			return mm, true
		}
	}
	return model.MajorMinor{}, false
}

// highestPatch returns the newest of rels in minor mm, or nil.
func highestPatch(rels []model.Version, mm model.MajorMinor) model.Version {
	var out model.Version
	for _, v := range rels {
		if model.MinorOf(v) == mm {
			out = v
		}
	}
	return out
}

// jumpAllowed reports whether rel is a step reachable from v0 by one of its
// own from-to rules: to is rel's major.minor and from <= v0 < to.0.
func jumpAllowed(rel *model.Release, v0 model.Version, rels []model.Version) bool {
	if rel == nil || !slices.ContainsFunc(rels, func(v model.Version) bool { return model.SameVersion(v, rel.Version) }) {
		return false
	}
	for _, u := range rel.UpdateRules {
		if u.To == model.MinorOf(rel.Version) && model.MinorOf(v0).Compare(u.From) >= 0 && v0.LessThan(u.To.Version()) {
			return true
		}
	}
	return false
}

func versionList(vs []model.Version) string {
	if len(vs) == 0 {
		return "none"
	}
	texts := make([]string, len(vs))
	for i, v := range vs {
		texts[i] = v.String()
	}
	return strings.Join(texts, ", ")
}
