package solver

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// A factSink takes the static facts of one view as addStaticFacts finds
// them. The same reading of a view's rules serves three ends, and the sink
// says which: none (the view's sink nil) computes only its allowed filter,
// the cheap pass every view of a closure takes; making makes the facts of
// the problem, which explanations read (staticFacts); copying copies the
// facts that forbid the releases a message asks about, which belong to no
// explanation (collect). A sink takes only its own view's facts: another
// view read meanwhile (a view made on first use) gets its filter alone.
type factSink interface {
	// view is the view whose facts the sink takes.
	view() *view
	// wanted lists the releases whose facts the sink takes, or nil for
	// all: a fact that forbids none of them is not even listed.
	wanted() []int
	// take records a fact of kind that forbids rels, which is not empty,
	// with the rest of the fact as shape says.
	take(p *problem, v *view, kind model.FactKind, rels []int, shape factShape)
}

// sinkOf is the sink that takes v's facts, or nil when only v's filter is
// computed. Each view holds its own, so that views read at once (a
// view made on first use while another's facts are read, or two views'
// held-back reasons rendered side by side) keep apart.
func (fs *factStore) sinkOf(v *view) factSink { return v.sink }

// within runs read with sink taking the facts it finds about v, then
// restores v's sink before it. While a making sink is in, every fact made
// takes its view's place (newFact).
func (fs *factStore) within(v *view, sink factSink, read func()) {
	before, made := v.sink, fs.making
	v.sink = sink
	if m, _ := sink.(*making); m != made {
		fs.making = m // written only when it changes: a copying sink leaves it nil
	}
	defer func() {
		v.sink = before
		if fs.making != made {
			fs.making = made
		}
	}()
	read()
}

// making makes v's static facts, facts of the problem that take v's place
// in the order of facts (newFact).
type making struct{ v *view }

func (m *making) view() *view   { return m.v }
func (m *making) wanted() []int { return nil }

func (m *making) take(p *problem, v *view, kind model.FactKind, rels []int, shape factShape) {
	f := p.store.newFact(kind, v)
	shape.fill(f)
	v.forbidWith(f, rels)
}

// copying copies v's static facts into out, as facts of no problem: those
// that forbid one of the releases of want, or all when want is nil.
type copying struct {
	v    *view
	want []int
	out  []*fact
	// block, when not nil, is where the copies are cut from: a new block
	// when it is full, so that the copies made stay where they are
	// (collect's transient copies).
	block *[]fact
}

func (c *copying) view() *view { return c.v }

func (c *copying) wanted() []int { return c.want }

func (c *copying) take(_ *problem, v *view, kind model.FactKind, rels []int, shape factShape) {
	if c.want != nil && !slices.ContainsFunc(c.want, func(i int) bool { return slices.Contains(rels, i) }) {
		return
	}
	var f *fact
	if b := c.block; b != nil {
		if len(*b) == cap(*b) {
			*b = make([]fact, 0, max(16, 2*cap(*b)))
		}
		*b = append(*b, fact{kind: kind, v: v, at: -1, rels: rels})
		f = &(*b)[len(*b)-1]
	} else {
		f = &fact{kind: kind, v: v, at: -1, rels: rels}
	}
	shape.fill(f)
	c.out = append(c.out, f)
}

// factShape is the rest of a static fact beyond its kind and releases: a
// value rather than a callback, since a closure that a sink's method is
// handed escapes, and the platform filter makes tens of thousands of them
// on an update of every module.
type factShape struct {
	cons *model.Constraint
	dep  string
	// settings is what a settings fact says is wrong (R34).
	settings *model.SettingsProblem
	// platform is the DKP release requirement of a platform-release fact
	// (R31).
	platform *releaseReq
	// made, when not nil, receives the fact.
	made **fact
}

// newFact makes a fact about v (nil: about no one module). A static fact
// made while a view's facts are made takes the view's place in the
// order; any other takes the next place.
func (fs *factStore) newFact(kind model.FactKind, v *view) *fact {
	if len(fs.factSlab) == cap(fs.factSlab) {
		fs.factSlab = make([]fact, 0, 256) // facts come by the thousand: allocate them in blocks
	}
	f := fact{id: len(fs.facts), kind: kind, v: v, at: -1, seq: fs.seq}
	if m := fs.making; m != nil {
		f.seq = m.v.staticSeq
		f.sub = len(fs.facts) + 1 // after the view's place, in the order made
		fs.staticCount++
	} else {
		fs.seq++
	}
	fs.factSlab = append(fs.factSlab, f)
	fp := &fs.factSlab[len(fs.factSlab)-1]
	fs.facts = append(fs.facts, fp)
	return fp
}
