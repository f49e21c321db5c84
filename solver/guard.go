package solver

import (
	"slices"

	"github.com/go-air/gini/z"
)

// guard is how an encoding holds the clauses of a fact. With its scope
// (cone.go), it is all that tells the two encodings of doc.go apart: the
// fast one holds facts as hard clauses (hard), the explain one guards
// each fact with a selector of its own (selecting).
type guard interface {
	// keepsFacts reports whether the encoding keeps facts apart, so that
	// any one of them may be taken away: every release is then a
	// candidate, static facts are clauses, and the rules between modules
	// are facts of their own. Otherwise static facts filter the domains
	// and the encoder makes no fact.
	keepsFacts() bool
	// add adds one clause of fact f (never nil).
	add(e *encoder, f *fact, lits []z.Lit)
}

// hard adds a fact's clauses as they are: the fast encoding.
type hard struct{}

func (hard) keepsFacts() bool { return false }

func (hard) add(e *encoder, _ *fact, lits []z.Lit) { e.clause(z.LitNull, lits) }

// selecting guards every clause of a fact with the fact's selector
// literal, so that gini's Why() names facts (R16): the explain encoding.
type selecting struct {
	sel selectors
}

func (*selecting) keepsFacts() bool { return true }

func (s *selecting) add(e *encoder, f *fact, lits []z.Lit) { e.clause(s.selector(e, f).Not(), lits) }

// selector returns the selector of f, making it on first use.
func (s *selecting) selector(e *encoder, f *fact) z.Lit {
	if m := s.sel.of(f); m != z.LitNull {
		return m
	}
	m := e.g.Lit()
	s.sel.set(f, m)
	return m
}

// selectors maps the facts of one problem to their selector literals, by
// fact id; z.LitNull means none. An explain encoding is most often a cone
// that selects a few hundred of the problem's facts, whose ids spread over
// all of them: it starts as a map, and becomes a list by id, quicker to
// read, once it holds denseFrom selectors. ids keeps them in the order set.
type selectors struct {
	sparse map[int]z.Lit
	dense  []z.Lit
	ids    []int
}

const denseFrom = 1024

func (sl *selectors) of(f *fact) z.Lit {
	if sl.dense != nil {
		if f.id < len(sl.dense) {
			return sl.dense[f.id]
		}
		return z.LitNull
	}
	return sl.sparse[f.id]
}

func (sl *selectors) set(f *fact, s z.Lit) {
	if sl.of(f) == z.LitNull {
		sl.ids = append(sl.ids, f.id)
	}
	switch {
	case sl.dense != nil:
		if f.id >= len(sl.dense) {
			sl.dense = slices.Grow(sl.dense, f.id+1-len(sl.dense))[:f.id+1]
		}
		sl.dense[f.id] = s
	case len(sl.sparse) >= denseFrom:
		sl.dense = make([]z.Lit, slices.Max(sl.ids)+1)
		for id, m := range sl.sparse {
			sl.dense[id] = m
		}
		sl.dense[f.id] = s
		sl.sparse = nil
	default:
		if sl.sparse == nil {
			sl.sparse = map[int]z.Lit{}
		}
		sl.sparse[f.id] = s
	}
}
