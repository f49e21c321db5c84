package solver

import (
	"encoding/binary"

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

// counter is atLeast for the optimiser. On a shared what-if encoding it
// builds the full totalizer of a literal set once and reuses it for every
// request that minimises the same set, so that the encoding stops growing.
func (t totalizer) counter(ins []z.Lit, limit int) []z.Lit {
	e := t.e
	if e.counters == nil {
		return t.atLeast(ins, limit)
	}
	key := make([]byte, 0, 4*len(ins))
	for _, m := range ins {
		key = binary.AppendUvarint(key, uint64(m))
	}
	outs, ok := e.counters[string(key)]
	if !ok {
		outs = t.atLeast(ins, len(ins))
		e.counters[string(key)] = outs
	}
	return outs[:min(limit, len(outs))]
}
