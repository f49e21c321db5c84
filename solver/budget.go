package solver

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// The memory of one resolution is estimated from what it has built: its
// encodings (gini solvers and the encoder's own tables) and its problem's
// views of the touched modules. The constants were fitted on gini v1.0.4
// and Go 1.26 by keeping each session alive after it answered and reading
// the heap after a collection, for update-all, install-one, platform
// upgrade and unsatisfiable requests on generated catalogs from S
// (100×20) to M (2,000×30): the estimate came within 7% of the measured
// heap on every one, learnt clauses included.
const (
	encoderBytes = 96 << 10 // one empty gini solver and the encoder's tables
	varBytes     = 200      // per variable
	litBytes     = 48       // per literal of a clause
	viewBytes    = 300      // per module the problem views
	releaseBytes = 28       // per release of a viewed module
	factBytes    = 200      // per fact
)

// bytes estimates the memory of e alone, without its problem.
func (e *encoder) bytes() int64 {
	return encoderBytes + varBytes*int64(e.g.MaxVar()) + litBytes*int64(e.lits)
}

// estimate is the memory of encs and of the problems they encode, each
// problem counted once.
func estimate(encs ...*encoder) int64 {
	var n int64
	for i, e := range encs {
		if e == nil {
			continue
		}
		n += e.bytes()
		if i == 0 || e.p != encs[i-1].p {
			n += problemBytes(e.p)
		}
	}
	return n
}

// budget bounds the estimated memory of the encodings of one resolution
// (WithMemoryLimit). Every encoder it tracks checks it on each clause it
// adds; once the estimate passes the limit, the encoders add no more
// clauses and their next solve fails with the budget's error, so that
// memory stops growing where the limit is passed, not where the encoding
// would have ended. A nil budget bounds nothing.
type budget struct {
	limit int64
	encs  []*encoder
	err   error
}

// newBudget returns a budget of limit bytes, or nil for no limit.
func newBudget(limit int64) *budget {
	if limit <= 0 {
		return nil
	}
	return &budget{limit: limit}
}

// track puts e under b.
func (b *budget) track(e *encoder) {
	if b != nil {
		b.encs = append(b.encs, e)
		e.budget = b
	}
}

// untrack takes e, which its owner has dropped, out of b: a held-back
// question's cone (whyNot) counts while it is asked, not after.
func (b *budget) untrack(e *encoder) {
	if b != nil {
		b.encs = slices.DeleteFunc(b.encs, func(x *encoder) bool { return x == e })
	}
}

// exceeded reports whether the tracked encodings have outgrown the limit.
func (b *budget) exceeded() bool {
	if b == nil {
		return false
	}
	if b.err != nil {
		return true
	}
	n := estimate(b.encs...)
	if n <= b.limit {
		return false
	}
	err := &model.MemoryLimitError{Limit: b.limit, Estimate: n}
	for _, e := range b.encs {
		err.Variables += int(e.g.MaxVar())
		err.Clauses += e.clauses
	}
	b.err = err
	return true
}

// check returns the budget's error once the limit is passed.
func (b *budget) check() error {
	if b.exceeded() {
		return b.err
	}
	return nil
}

// remaining is what is left of the limit, for a resolution started on
// behalf of this one (a suggestion's check); 0 means no limit.
func (b *budget) remaining() int64 {
	if b == nil {
		return 0
	}
	return max(b.limit-estimate(b.encs...), 1)
}

// problemBytes estimates the memory of p's views and facts. Static facts are
// left out: they are made only when an explanation reads them, which may
// be after the encodings are complete, and the estimate must not grow
// once the last clause is added (WithMemoryLimit).
func problemBytes(p *problem) int64 {
	return viewBytes*int64(len(p.views)) + releaseBytes*int64(p.releases) + factBytes*int64(len(p.store.facts)-p.store.staticCount)
}
