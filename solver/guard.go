package solver

import "github.com/go-air/gini/z"

// guard is how an encoding holds the clauses of a fact. With its scope
// (cone.go), it is all that tells the three encodings of doc.go apart:
// the fast one holds facts as hard clauses (hard), the explain one guards
// each fact with a selector of its own (selecting), and a shared what-if
// one gives facts with equal clauses one selector (sharing, shared.go).
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
// fact id (ids count up from 0 per problem); z.LitNull means none.
type selectors struct {
	lits []z.Lit
	n    int
}

func (sl *selectors) of(f *fact) z.Lit {
	if f.id < len(sl.lits) {
		return sl.lits[f.id]
	}
	return z.LitNull
}

func (sl *selectors) set(f *fact, s z.Lit) {
	for f.id >= len(sl.lits) {
		sl.lits = append(sl.lits, z.LitNull)
	}
	sl.lits[f.id] = s
	sl.n++
}
