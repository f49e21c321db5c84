package bench

import (
	"fmt"

	"github.com/modsolver/modsolver/model"
)

// poolInput is a libsolv pool written as plain data, so that one cgo call
// loads it (libsolv_cgo.go): a call per string, solvable or dependency
// would cost more than libsolv's own work.
//
// A string is its index in strs, which holds each once, NUL-terminated.
// A repo is a run of solvables, each written as
//
//	name evr provides requires conflicts
//
// where each of the three lists is a count and that many dependencies,
// and a dependency is a name, a count and that many (flags, evr) pairs:
// the comparisons joined by REL_WITH, or none for the bare name. flags
// are libsolv's REL_GT, REL_EQ and REL_LT bits. A job is a jobKind and a
// string.
type poolInput struct {
	strs      []byte
	index     map[string]int32
	installed []int32
	available []int32
	jobs      []int32
}

// libsolv's relation bits (solv/pool.h), which the comparisons map to.
const (
	relGT = 1
	relEQ = 2
	relLT = 4
)

// relFlags maps a comparison's operator to libsolv's flags, and negated
// maps it to the flags of its negation, for a conflicts (R3).
var relFlags = map[string]struct{ flags, negated int32 }{
	">=": {relGT | relEQ, relLT},
	">":  {relGT, relLT | relEQ},
	"<=": {relLT | relEQ, relGT},
	"<":  {relLT, relGT | relEQ},
	"=":  {relEQ, relLT | relGT},
	"!=": {relLT | relGT, relEQ},
}

// jobKind is a libsolv job: what it does and how it selects.
type jobKind int32

const (
	// jobInstall: SOLVER_INSTALL|SOLVER_SOLVABLE_NAME.
	jobInstall jobKind = iota + 1
	// jobLock: SOLVER_LOCK|SOLVER_SOLVABLE_NAME.
	jobLock
	// jobUpdate: SOLVER_UPDATE|SOLVER_SOLVABLE_NAME.
	jobUpdate
	// jobUpdateAll: SOLVER_UPDATE|SOLVER_SOLVABLE_ALL; its string is "".
	jobUpdateAll
	// jobVerifyAll: SOLVER_VERIFY|SOLVER_SOLVABLE_ALL; its string is "".
	// Without it libsolv leaves an installed solvable whose requirements
	// are already broken as it is; modsolver checks every release.
	jobVerifyAll
)

// str returns the index of s, adding it on first use.
func (in *poolInput) str(s string) int32 {
	if i, ok := in.index[s]; ok {
		return i
	}
	if in.index == nil {
		in.index = map[string]int32{}
	}
	i := int32(len(in.index))
	in.index[s] = i
	in.strs = append(append(in.strs, s...), 0)
	return i
}

func (in *poolInput) job(k jobKind, name string) {
	in.jobs = append(in.jobs, int32(k), in.str(name))
}

// depWriter collects the dependencies of one solvable, each written as a
// name, a count and (flags, evr) pairs.
type depWriter struct {
	provides, requires, conflicts [][]int32
}

// require adds a requires of name in range c: its comparisons joined by
// REL_WITH.
func (w *depWriter) require(in *poolInput, name string, c model.Constraint) error {
	cs, err := comparisonsOf(c)
	if err != nil {
		return err
	}
	dep := []int32{in.str(name), int32(len(cs))}
	for _, x := range cs {
		evr, err := evrOf(x.Version)
		if err != nil {
			return err
		}
		dep = append(dep, relFlags[x.Op].flags, in.str(evr))
	}
	w.requires = append(w.requires, dep)
	return nil
}

// conflict adds one conflicts per comparison of c, negated: the releases
// of name outside the range.
func (w *depWriter) conflict(in *poolInput, name string, c model.Constraint) error {
	cs, err := comparisonsOf(c)
	if err != nil {
		return err
	}
	for _, x := range cs {
		evr, err := evrOf(x.Version)
		if err != nil {
			return err
		}
		w.conflicts = append(w.conflicts, []int32{in.str(name), 1, relFlags[x.Op].negated, in.str(evr)})
	}
	return nil
}

func comparisonsOf(c model.Constraint) ([]model.Comparison, error) {
	cs, ok := c.Comparisons()
	if !ok {
		return nil, fmt.Errorf("%w: range %q is not plain comparisons", ErrNotTranslated, c.Text)
	}
	return cs, nil
}

// appendTo writes the three lists after a solvable's name and evr.
func (w *depWriter) appendTo(out []int32) []int32 {
	for _, list := range [][][]int32{w.provides, w.requires, w.conflicts} {
		out = append(out, int32(len(list)))
		for _, dep := range list {
			out = append(out, dep...)
		}
	}
	return out
}

// evrOf writes v as libsolv's evr. Plain x.y.z versions compare in
// libsolv's evr order (rpm's vercmp: numeric segments compared as
// numbers, so 1.10.0 > 1.9.0) exactly as in semver's; the generated
// catalogs have only those (TestLibsolvOrdersGeneratedVersions). A
// prerelease or build metadata orders differently in the two (semver's
// 1.0.0-rc.1 < 1.0.0, rpm's 1.0.0-rc.1 is version 1.0.0 release rc.1),
// so it is refused.
func evrOf(v model.Version) (string, error) {
	if v.Prerelease() != "" || v.Metadata() != "" {
		return "", fmt.Errorf("%w: version %s has a prerelease or build metadata, which libsolv orders otherwise", ErrNotTranslated, v)
	}
	return fmt.Sprintf("%d.%d.%d", v.Major(), v.Minor(), v.Patch()), nil
}

// poolOutput is what libsolv answered: for each solvable in load order,
// whether the answer has it installed; the problems when there is no
// answer; and the time of each step.
type poolOutput struct {
	chosen   []bool
	problems []string
	steps    int
	timing   LibsolvTiming
}
