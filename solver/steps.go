package solver

import (
	"slices"
	"sync/atomic"

	"github.com/modsolver/modsolver/model"
)

// stepper computes the update rule over one module's releases: which
// releases one update may reach from a version, and the path of steps up
// to the head. It is the DKP sequential rule (R11, decisions D13, D14), or,
// for a module whose releases declare update edges, the update graph
// (R21), which one update may follow over several edges.
type stepper struct {
	rels []*model.Release
	head int
	// reading reads the releases' skipRanges (R6, R21).
	reading model.VersionReading
	// eligible marks the releases a step may land on: not above the head,
	// and not prereleases unless it is the head itself (D1, D13) or R6
	// lets the prerelease be taken (D141).
	eligible []bool
	graph    bool
	// minors lists, ascending, each minor that has an eligible release,
	// with its highest eligible release; jumps lists the releases that
	// declare from-to rules. Both are read in one pass, so that a step is
	// found without scanning every release again.
	minors []minorBest
	jumps  []int
	// memo, on a compiled stepper, keeps the update steps from each
	// release once a request has read them (stepsFrom): every request on
	// the catalog that deploys that release reads the same. Requests on
	// other goroutines share it, so each entry is set once, atomically,
	// and read only.
	memo []atomic.Pointer[updateSteps]
}

type minorBest struct {
	mm   model.MajorMinor
	best int
}

func newStepper(rels []*model.Release, head int, m *model.Module, policy model.UpdatePolicy, taken func(*model.Release) bool) stepper {
	s := stepper{rels: rels, head: head, reading: m.Reading(), eligible: make([]bool, len(rels)), graph: policy == model.UpdateGraph}
	for i, r := range rels {
		s.eligible[i] = i == head || (i < head && (!model.IsPrerelease(r.Version) || taken(r)))
		if len(r.UpdateRules) > 0 {
			s.jumps = append(s.jumps, i)
		}
		if !s.eligible[i] {
			continue
		}
		mm := model.MinorOf(r.Version)
		if n := len(s.minors); n > 0 && s.minors[n-1].mm == mm {
			s.minors[n-1].best = i
		} else {
			s.minors = append(s.minors, minorBest{mm, i})
		}
	}
	return s
}

// minorAt returns the index in s.minors of the first minor at or above mm.
func (s stepper) minorAt(mm model.MajorMinor) int {
	i, _ := slices.BinarySearchFunc(s.minors, mm, func(b minorBest, mm model.MajorMinor) int { return b.mm.Compare(mm) })
	return i
}

// targets returns the release indices one update from index from may
// reach, ascending, excluding from itself.
func (s stepper) targets(from int) []int {
	if s.graph {
		var out []int
		for i, prev := range s.walk(from) {
			if i > from && prev >= 0 && s.eligible[i] {
				out = append(out, i)
			}
		}
		return out
	}
	return s.sequentialTargets(from)
}

// walk searches the update graph breadth first from index from, over
// releases not above the head, and returns for each release the one it
// is reached from (from itself for the start), or -1 when unreachable.
// Edges to newer releases are tried first, so that among shortest paths
// the one with the longest jumps wins.
func (s stepper) walk(from int) []int {
	prev := make([]int, len(s.rels))
	for i := range prev {
		prev[i] = -1
	}
	prev[from] = from
	for queue := []int{from}; len(queue) > 0; queue = queue[1:] {
		cur := queue[0]
		for next := min(s.head, len(s.rels)-1); next >= 0; next-- {
			if prev[next] < 0 && s.rels[next].Edges.From(s.rels[cur].Version, s.reading) {
				prev[next] = cur
				queue = append(queue, next)
			}
		}
	}
	return prev
}

// sequentialTargets is targets under the sequential rule (R11).
func (s stepper) sequentialTargets(from int) []int {
	v0 := s.rels[from].Version
	var out []int
	add := func(i int) {
		if i > from && (len(out) == 0 || out[len(out)-1] != i) {
			out = append(out, i)
		}
	}
	if i := s.highestPatch(model.MinorOf(v0)); i >= 0 {
		add(i)
	}
	if mm, ok := s.nextMinor(v0); ok {
		add(s.highestPatch(mm))
	}
	if v0.Major() == 0 {
		if mm, ok := s.lowestMinorOfMajor(1); ok {
			add(s.highestPatch(mm))
		}
	}
	for _, i := range s.jumps {
		if i > from && s.eligible[i] && s.jumpAllowed(i, v0) {
			add(i)
		}
	}
	return sortedUnique(out)
}

// jumpAllowed reports whether release i declares a from-to rule that covers v0.
func (s stepper) jumpAllowed(i int, v0 model.Version) bool {
	r := s.rels[i]
	for _, u := range r.UpdateRules {
		if u.To.Compare(model.MinorOf(r.Version)) != 0 {
			continue
		}
		if model.MinorOf(v0).Compare(u.From) >= 0 && model.Core(v0).LessThan(u.To.Version()) {
			return true
		}
	}
	return false
}

// highestPatch returns the newest eligible release of minor mm, or -1.
func (s stepper) highestPatch(mm model.MajorMinor) int {
	if i := s.minorAt(mm); i < len(s.minors) && s.minors[i].mm == mm {
		return s.minors[i].best
	}
	return -1
}

// nextMinor is the lowest minor of v's major, above v's minor, that has an
// eligible release.
func (s stepper) nextMinor(v model.Version) (model.MajorMinor, bool) {
	cur := model.MinorOf(v)
	i := s.minorAt(model.MajorMinor{Major: cur.Major, Minor: cur.Minor + 1})
	if i < len(s.minors) && s.minors[i].mm.Major == cur.Major {
		return s.minors[i].mm, true
	}
	return model.MajorMinor{}, false
}

func (s stepper) lowestMinorOfMajor(major uint64) (model.MajorMinor, bool) {
	if i := s.minorAt(model.MajorMinor{Major: major}); i < len(s.minors) && s.minors[i].mm.Major == major {
		return s.minors[i].mm, true
	}
	return model.MajorMinor{}, false
}

// path follows the largest step each time from index from up to head and
// returns the indices visited, without from (D14). On an update graph it
// is the shortest chain of edges to the newest release an update may
// reach (R21).
func (s stepper) path(from, head int) []int {
	if s.graph {
		return s.graphPath(from)
	}
	var out []int
	for cur := from; cur < head; {
		ts := s.targets(cur)
		if len(ts) == 0 {
			break
		}
		next := ts[len(ts)-1]
		out = append(out, next)
		cur = next
	}
	return out
}

// graphPath is path on an update graph.
func (s stepper) graphPath(from int) []int {
	prev := s.walk(from)
	end := -1
	for i := len(prev) - 1; i > from && end < 0; i-- {
		if prev[i] >= 0 && s.eligible[i] {
			end = i
		}
	}
	var out []int
	for cur := end; cur >= 0 && cur != from; cur = prev[cur] {
		out = append(out, cur)
	}
	slices.Reverse(out)
	return out
}

// updateSteps are a deployed module's update targets and its path to the
// head, computed once per view: the static facts, the result's path and
// the explanation of a held-back module all read them.
type updateSteps struct {
	st      *stepper
	targets []int // one update from the deployed release
	path    []int // from the deployed release to the head (D14, R21)
}

// stepsFrom returns the update steps from release index from to s's
// head, from the memo when s has one.
func (s *stepper) stepsFrom(from int) *updateSteps {
	memo := from >= 0 && from < len(s.memo)
	if memo {
		if u := s.memo[from].Load(); u != nil {
			return u
		}
	}
	u := &updateSteps{st: s, targets: s.targets(from), path: s.path(from, s.head)}
	if !memo {
		return u
	}
	s.memo[from].CompareAndSwap(nil, u)
	return s.memo[from].Load()
}

// catalogPrereleases is takenPrereleases without devel, which a compiled
// stepper knows: under the blang reading every prerelease, under the
// semver reading those a range names, under DKP's none.
func catalogPrereleases(m *model.Module, named map[string]bool) func(*model.Release) bool {
	switch rd := m.Reading(); {
	case rd.PrereleasesOrdinary():
		return func(*model.Release) bool { return true }
	case rd.RangesName():
		return func(r *model.Release) bool { return named[model.VersionString(r.Version)] }
	}
	return func(*model.Release) bool { return false }
}

func sortedUnique(xs []int) []int {
	slices.Sort(xs)
	return slices.Compact(xs)
}
