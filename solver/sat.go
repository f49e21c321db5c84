package solver

import (
	"context"
	"time"

	"github.com/go-air/gini/z"
)

// firstSlice is how long the first gini Try of a solve may run before the
// context is checked. gini keeps a Try's deadline after it expires, so
// every call gets a fresh budget (DESIGN §6); and since every Try starts
// its search again (keeping what it learnt), the budget doubles after each
// one that runs out, up to maxSlice, so that a long solve on a large
// catalog is not restarted forever.
const (
	firstSlice = 25 * time.Millisecond
	maxSlice   = 500 * time.Millisecond
)

// solve runs gini under assumptions until it answers or ctx ends. It
// returns true for SAT and false for UNSAT. An encoding that has outgrown
// its memory budget is not solved: the budget's error is returned.
func (e *encoder) solve(ctx context.Context, assume []z.Lit) (bool, error) {
	if err := e.budget.check(); err != nil {
		return false, err
	}
	e.solves++
	for slice := firstSlice; ; slice = min(2*slice, maxSlice) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		budget := slice
		if dl, ok := ctx.Deadline(); ok {
			budget = min(budget, max(time.Until(dl), time.Millisecond))
		}
		e.g.Assume(assume...)
		switch e.g.Try(budget) {
		case 1:
			return true, nil
		case -1:
			return false, nil
		}
	}
}

// why returns the failed assumptions of the last UNSAT answer.
func (e *encoder) why() []z.Lit { return e.g.Why(nil) }

// value reads a literal from the last model.
func (e *encoder) value(m z.Lit) bool { return e.g.Value(m) }

// position reads the candidate position of mv in the last model, or -1.
func (e *encoder) position(mv *modVars) int {
	lo, hi := -1, len(mv.dom)-1
	for lo < hi { // ge is monotone: find the last true position
		mid := (lo + hi + 1) / 2
		if e.value(mv.ge[mid]) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// release reads the selected release index of mv in the last model, or -1.
func (e *encoder) release(mv *modVars) int {
	if j := e.position(mv); j >= 0 {
		return mv.dom[j]
	}
	return -1
}
