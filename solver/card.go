package solver

import (
	"github.com/go-air/gini/z"
)

// totalizer builds the cardinality constraints of R14's levels on an
// encoder's solver. It holds the encoder it writes to (a pointer back).
type totalizer struct {
	e *encoder
}

// atLeast builds a totalizer over ins, truncated at limit, and returns
// outs with outs[k-1] implied by "at least k of ins are true" for k in
// 1..limit. Assuming ¬outs[k] then bounds the count to at most k.
// Counts of limit or more all imply outs[limit-1].
func (t totalizer) atLeast(ins []z.Lit, limit int) []z.Lit {
	e := t.e
	if len(ins) == 1 {
		return ins[:1]
	}
	left := t.atLeast(ins[:len(ins)/2], limit)
	right := t.atLeast(ins[len(ins)/2:], limit)
	outs := make([]z.Lit, min(len(left)+len(right), limit))
	for k := range outs {
		outs[k] = e.g.Lit()
	}
	for i := 0; i <= len(left); i++ {
		for j := 0; j <= len(right); j++ {
			if i+j == 0 {
				continue
			}
			var lits []z.Lit
			if i > 0 {
				lits = append(lits, left[i-1].Not())
			}
			if j > 0 {
				lits = append(lits, right[j-1].Not())
			}
			e.add(nil, append(lits, outs[min(i+j, limit)-1])...)
		}
	}
	return outs
}
