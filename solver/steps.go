package solver

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// stepper computes the DKP sequential update rule (R11) over one module's
// releases: which releases one update may reach from a version, and the
// path of such steps up to the head (decisions D13, D14).
type stepper struct {
	rels []*model.Release
	// eligible marks the releases a step may land on: not above the head,
	// and not prereleases unless it is the head itself (D1, D13).
	eligible []bool
}

func newStepper(rels []*model.Release, head int) stepper {
	s := stepper{rels: rels, eligible: make([]bool, len(rels))}
	for i, r := range rels {
		s.eligible[i] = i == head || (i < head && !model.IsPrerelease(r.Version))
	}
	return s
}

// targets returns the release indices one step from index from may reach,
// ascending, excluding from itself.
func (s stepper) targets(from int) []int {
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
	for i := from + 1; i < len(s.rels); i++ {
		if s.eligible[i] && s.jumpAllowed(i, v0) {
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
	best := -1
	for i, r := range s.rels {
		if s.eligible[i] && model.MinorOf(r.Version) == mm {
			best = i
		}
	}
	return best
}

// nextMinor is the lowest minor of v's major, above v's minor, that has an
// eligible release.
func (s stepper) nextMinor(v model.Version) (model.MajorMinor, bool) {
	cur := model.MinorOf(v)
	for i, r := range s.rels {
		mm := model.MinorOf(r.Version)
		if s.eligible[i] && mm.Major == cur.Major && mm.Compare(cur) > 0 {
			return mm, true
		}
	}
	return model.MajorMinor{}, false
}

func (s stepper) lowestMinorOfMajor(major uint64) (model.MajorMinor, bool) {
	for i, r := range s.rels {
		if s.eligible[i] && r.Version.Major() == major {
			return model.MinorOf(r.Version), true
		}
	}
	return model.MajorMinor{}, false
}

// path follows the largest step each time from index from up to head and
// returns the indices visited, without from (D14).
func (s stepper) path(from, head int) []int {
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

func sortedUnique(xs []int) []int {
	slices.Sort(xs)
	return slices.Compact(xs)
}
