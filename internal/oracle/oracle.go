package oracle

import (
	"errors"
	"fmt"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// MaxAssignments is the largest number of assignments Solve enumerates.
const MaxAssignments = 100_000

// ErrTooLarge says that a problem has more than MaxAssignments assignments.
var ErrTooLarge = errors.New("oracle: problem too large to enumerate")

// Answer is the oracle's resolution.
type Answer struct {
	Status model.Status
	// Selected maps every module enabled after the answer to its version;
	// a built-in module is at the effective DKP version (R5). Empty when
	// unsatisfiable.
	Selected map[string]model.Version
	// Assignments is the number of assignments enumerated.
	Assignments int
	// Consistent is the number of them that satisfy every hard rule.
	Consistent int
	// Sources maps every enabled module to the source of its selected
	// release when the catalog has several sources (R23); else empty.
	Sources map[string]string
}

// Solve resolves req against cat and cluster by enumeration, ranking the
// consistent assignments by R14 with the levels in order. The inputs must
// be valid (model's Validate methods pass).
func Solve(cat *model.Catalog, cluster *model.ClusterState, req *model.Request, order Order) (*Answer, error) {
	p := newProblem(cat, cluster, req)
	total := 1
	for _, m := range p.mods {
		total *= max(len(m.options), 1)
		if total > MaxAssignments {
			return nil, fmt.Errorf("%w: more than %d assignments", ErrTooLarge, MaxAssignments)
		}
	}
	ans := &Answer{Status: model.StatusUnsatisfiable, Selected: map[string]model.Version{}, Sources: map[string]string{}}
	if !p.platformRuns() {
		return ans, nil // R31: a platform DKP does not run
	}
	for _, m := range p.mods {
		if len(m.options) == 0 {
			return ans, nil // the module can be neither on nor off
		}
	}
	set := p.enumerate(ans)
	if set = p.rank(set, order); len(set) > 0 {
		best := set[0]
		if !p.routeExists(best) {
			return ans, nil // R33: no route reaches the answer's platform
		}
		ans.Status = model.StatusResolved
		for i, m := range p.mods {
			if best[i] >= 0 {
				ans.Selected[m.name] = m.rels[best[i]].Version
				if p.sourced(cat.Module(m.name)) {
					ans.Sources[m.name] = m.rels[best[i]].Source
				}
			}
		}
	}
	return ans, nil
}

// enumerate returns every assignment that satisfies the hard rules,
// counting in ans what it sees.
func (p *problem) enumerate(ans *Answer) [][]int {
	var set [][]int
	digits := make([]int, len(p.mods))
	for {
		sel := make([]int, len(p.mods))
		for i, m := range p.mods {
			sel[i] = m.options[digits[i]]
		}
		ans.Assignments++
		if p.consistent(sel) {
			ans.Consistent++
			set = append(set, sel)
		}
		if !next(digits, p.mods) {
			return set
		}
	}
}

// next advances digits like an odometer over each module's options and
// reports whether another assignment remains.
func next(digits []int, mods []*mod) bool {
	for i := range digits {
		digits[i]++
		if digits[i] < len(mods[i].options) {
			return true
		}
		digits[i] = 0
	}
	return false
}

// Worse says where selection sel (a module's version, or no entry for
// off; for a module of several sources, the source in srcs, else any)
// falls short of the oracle's optimum: "" when the levels of R14 keep it,
// else the first rule or R14 level that drops it. It turns a disagreement
// into a diagnosis.
func Worse(cat *model.Catalog, cluster *model.ClusterState, req *model.Request, order Order, sel map[string]model.Version, srcs map[string]string) string {
	p := newProblem(cat, cluster, req)
	a, why := p.assignment(sel, srcs)
	if why != "" {
		return why
	}
	if !p.consistent(a) {
		return "breaks a rule across modules (R2, R3, R13, R19, R20, R24)"
	}
	set := p.enumerate(&Answer{})
	for _, l := range p.levels(order) {
		set = l.keep(set)
		if !slices.ContainsFunc(set, func(s []int) bool { return slices.Equal(s, a) }) {
			return l.name
		}
	}
	return ""
}

// assignment reads a selection as release indices, or says why it is not
// one of the options.
func (p *problem) assignment(sel map[string]model.Version, srcs map[string]string) ([]int, string) {
	out := make([]int, len(p.mods))
	for i, x := range p.mods {
		out[i] = -1
		if v, on := sel[x.name]; on {
			for j, r := range x.rels {
				if model.SameVersion(r.Version, v) && (srcs[x.name] == "" || r.Source == srcs[x.name]) && (out[i] < 0 || !slices.Contains(x.options, out[i])) {
					out[i] = j
				}
			}
			if out[i] < 0 {
				return nil, fmt.Sprintf("has %s at %s, which is no release", x.name, v)
			}
		}
		if !slices.Contains(x.options, out[i]) {
			return nil, fmt.Sprintf("has %s at position %d, which the rules on one module forbid (R4–R11, R22, R23)", x.name, out[i])
		}
	}
	return out, ""
}
