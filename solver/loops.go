package solver

import (
	"fmt"
	"slices"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// Dependency loops (R27). A loop is a circle of modules in which each
// module's selected release requires the next (model.LoopEdge: every
// module requirement, required or optional, as DKP's loop check follows
// both). Where any module of a circle refuses loops, the circle is a fact
// like any other: compiling a catalog lists the elementary circles of its
// requirement graph that a refusing module takes part in (loopTable), and
// an encoding forbids each one whose modules it covers with one clause,
// "some module of the circle is not at a release that requires the next",
// over one literal per edge (edge). Solving never needs to find a loop
// after the fact, and an explanation names the circle that stands in the
// way, in DKP's words (`dependency cycle through: a, b`).
//
// A circle the cluster already runs, each module deployed at a release
// that requires the next, may stay as it is: DKP checks loops when a
// release is added, and reports it with a warning (runningLoops). Moving
// any of its modules to another release that still closes the circle is
// refused, as DKP refuses that release (D126).

// loopsThrough lists the circles through the modules of batch that are
// not encoded yet, in the table's order, and marks them encoded. On a
// cone, a circle waits until the cone covers all its modules: it is a
// fact about each of them, and their own facts (such as the intent that
// keeps one on) then stand beside it, as over the whole closure.
func (rl relations) loopsThrough(batch []*modVars) []*catLoop {
	e := rl.e
	lt := &e.p.in.compiled.t.loops
	var idx []int
	for _, mv := range batch {
		for _, i := range lt.byModule[mv.v.name] {
			if !e.across.loops[i] && rl.coversAll(lt.loops[i].members) {
				e.across.loops[i] = true
				idx = append(idx, i)
			}
		}
	}
	slices.Sort(idx)
	out := make([]*catLoop, len(idx))
	for k, i := range idx {
		out[k] = lt.loops[i]
	}
	return out
}

// coversAll reports whether the encoding covers every module of names.
func (rl relations) coversAll(names []string) bool {
	e := rl.e
	if e.cone == nil {
		return true
	}
	for _, n := range names {
		if !e.cone.covered[n] {
			return false
		}
	}
	return true
}

// encodeLoops forbids the circles through batch's modules (R27).
func (rl relations) encodeLoops(batch []*modVars) {
	for _, l := range rl.loopsThrough(batch) {
		rl.encodeLoop(l)
	}
}

// loopEdge is one module of a circle as an encoding sees it: its
// variables, the positions of its candidates that require the next
// module, and those of them whose source refuses loops.
type loopEdge struct {
	mv            *modVars
	poss, refuses []int
}

// encodeLoop forbids circle l, unless some edge of it cannot be taken:
// a module outside the encoding (off, or detached at a release that does
// not require the next) or one with no candidate that requires the next.
// The circle is refused when every edge is taken and some module is at a
// release whose source refuses loops (D125); one the cluster runs, only
// when some module moves besides (D126).
func (rl relations) encodeLoop(l *catLoop) {
	e := rl.e
	edges := make([]loopEdge, len(l.members))
	running, everywhere := true, true
	for i, name := range l.members {
		next := l.members[(i+1)%len(l.members)]
		mv := e.vars(name)
		if mv == nil {
			return // off, or detached: a detached loop runs as it is (detach.go)
		}
		ed := &edges[i]
		ed.mv = mv
		for j, r := range mv.dom {
			rel := mv.v.rels[r]
			if model.LoopEdge(mv.v.m, rel.Requirements, next) {
				ed.poss = append(ed.poss, j)
				if mv.v.m.RefusesLoopsAt(rel) {
					ed.refuses = append(ed.refuses, j)
				}
			}
		}
		if len(ed.poss) == 0 {
			return
		}
		everywhere = everywhere && len(ed.refuses) == len(ed.poss)
		running = running && mv.v.runsEdge(next)
	}
	if !slices.ContainsFunc(edges, func(ed loopEdge) bool { return len(ed.refuses) > 0 }) {
		return // every release on it allows loops
	}
	f := rl.loopFact(l, edges, running)
	taken := make([]z.Lit, len(edges)) // "the edge is not taken"
	for i, ed := range edges {
		taken[i] = rl.releasesLit(ed.mv, ed.poss).Not()
	}
	if everywhere && !running {
		e.add(f, taken...)
		return
	}
	// Some module at a refusing release (i), and, for a circle the
	// cluster runs, some module at another release than its deployed one
	// (k): the other edges must not all be taken.
	for i, ed := range edges {
		if len(ed.refuses) == 0 {
			continue
		}
		if !running {
			e.add(f, rl.loopClause(edges, taken, i, -1, ed.refuses)...)
			continue
		}
		for k, other := range edges {
			switch {
			case k == i:
				if at := ed.movedIn(ed.refuses); len(at) > 0 {
					e.add(f, rl.loopClause(edges, taken, i, -1, at)...)
				}
			case len(other.movedFrom()) > 0:
				e.add(f, rl.loopClause(edges, taken, i, k, ed.refuses)...)
			}
		}
	}
}

// loopClause says: not every edge of the circle is taken while module i
// is at a position of at and, when k ≥ 0, module k at another release
// than its deployed one. It is the untaken literals of the other edges,
// and "not there" for modules i and k; their own edges are taken there.
func (rl relations) loopClause(edges []loopEdge, taken []z.Lit, i, k int, at []int) []z.Lit {
	var c []z.Lit
	for j := range edges {
		if j != i && j != k {
			c = append(c, taken[j])
		}
	}
	if k >= 0 {
		c = append(c, rl.releasesLit(edges[k].mv, edges[k].movedFrom()).Not())
	}
	return append(c, rl.releasesLit(edges[i].mv, at).Not())
}

// movedFrom lists the edge's positions other than the deployed release.
func (ed *loopEdge) movedFrom() []int { return ed.movedIn(ed.poss) }

// movedIn lists the positions of poss other than the deployed release.
func (ed *loopEdge) movedIn(poss []int) []int {
	dep := -1
	if d := ed.mv.v.deployed; d >= 0 {
		dep = ed.mv.pos[d]
	}
	return slices.DeleteFunc(slices.Clone(poss), func(j int) bool { return j == dep })
}

// releasesLit returns a literal implied by "mv is at one of positions
// poss": true whenever mv is there, free otherwise. It is made once per
// encoding for each set.
func (rl relations) releasesLit(mv *modVars, poss []int) z.Lit {
	e := rl.e
	k := setKey{mv: mv, poss: fmt.Sprint(poss)}
	if y, ok := e.setLits[k]; ok {
		return y
	}
	y := e.g.Lit()
	for _, iv := range runsOf(poss) {
		e.add(nil, append(e.notRun(mv, iv[0], iv[1]), y)...)
	}
	if e.setLits == nil {
		e.setLits = map[setKey]z.Lit{}
	}
	e.setLits[k] = y
	return y
}

// setKey names a set of mv's positions.
type setKey struct {
	mv   *modVars
	poss string
}

// loopFact is the fact of circle l, or nil when the encoding keeps none.
func (rl relations) loopFact(l *catLoop, edges []loopEdge, running bool) *fact {
	f := rl.e.newFact(model.FactDependencyLoop, nil, factRank{class: rankLoop, name: l.text()})
	if f == nil {
		return nil
	}
	f.group = l.text()
	f.loop = &loopShape{running: running}
	for _, ed := range edges {
		f.members = append(f.members, ed.mv.v)
		rels := make([]int, len(ed.poss))
		for k, j := range ed.poss {
			rels[k] = ed.mv.dom[j]
		}
		f.loop.rels = append(f.loop.rels, rels)
	}
	return f
}
