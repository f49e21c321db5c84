package solver

import (
	"context"
	"errors"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// conflict finds why the request cannot be met (R16): a minimal core of
// facts and, for a platform upgrade question, the platform requirement
// of every module that blocks it (platformBlockers); the session keeps
// both (session.core, session.blockers).
func (s *explaining) conflict() error {
	if s.p.memo.lazy {
		return errNoMemo // an explanation reads facts in the order the views were made
	}
	x := s.conflictExplainer()
	core, err := x.inputCore(nil)
	if err != nil {
		return err
	}
	if len(core) == 0 {
		return errors.New("internal error: the explain encoding has a model where the answer has none")
	}
	blockers, err := s.platformBlockers(x, core)
	if err != nil {
		return err
	}
	s.core, s.blockers = core, blockers
	return nil
}

// platformBlockers lists, for a platform upgrade question (R12), the
// platform requirement of every module that blocks it, not only the one
// in the first core. When the first core is about the platform, the
// modules that have no release left at all are found in one pass over the
// modules (hopeless), without a solve, and each is named by a minimal
// core of its own facts, a few facts under assumption; then each round
// sets aside the modules already named and asks the rest again, until it
// is satisfiable or the conflict left is not about the platform.
func (s *explaining) platformBlockers(x *explainer, core []*fact) ([]*fact, error) {
	if !s.p.in.platformQuestion() {
		return nil, nil
	}
	b := &blockerList{aside: map[*view]bool{}}
	if !b.name(core) {
		return nil, nil
	}
	if err := b.nameHopeless(x); err != nil {
		return nil, err
	}
	for len(b.facts) < maxBlockers {
		core, err := x.inputCore(b.aside)
		if err != nil || core == nil || !b.name(core) {
			return b.facts, err
		}
	}
	return b.facts, nil
}

// blockerList collects the platform facts that name blockers, one per
// module; aside are the modules named.
type blockerList struct {
	facts []*fact
	aside map[*view]bool
}

// name adds the platform facts of core about modules not named yet, and
// reports whether there was one.
func (b *blockerList) name(core []*fact) bool {
	found := false
	for _, f := range core {
		if isPlatformFact(f) && !b.aside[f.v] {
			b.facts = append(b.facts, f)
			b.aside[f.v] = true
			found = true
		}
	}
	return found
}

// nameHopeless names, in module name order, the hopeless modules of x's
// encoding, each by a minimal core of its own facts (ownCore). One whose conflict
// is not about the platform is left to the rounds.
func (b *blockerList) nameHopeless(x *explainer) error {
	for _, mv := range x.e.mods {
		if len(b.facts) >= maxBlockers {
			return nil
		}
		if b.aside[mv.v] || !hopeless(mv.v) {
			continue
		}
		own, err := ownCore(x.ctx, x.e.p, mv.v)
		if err != nil {
			return err
		}
		b.name(own)
	}
	return nil
}

// ownCore returns a minimal core of v's own facts, its intent and static
// facts, on an encoding of v alone: a few variables, where the closure's
// encoding would pay for all of its own on every solve.
func ownCore(ctx context.Context, p *problem, v *view) ([]*fact, error) {
	sel := &selecting{}
	e := newEncoder(p, sel, everything)
	mv := e.addModule(v)
	e.encodeIntent(mv)
	e.encodeStatics(mv)
	x := &explainer{e: e, sel: sel, ctx: ctx}
	return x.minimalCore(nil, append([]*fact{v.intentFact}, v.staticFacts()...))
}

// hopeless reports whether v has no release left (noReleaseLeft), one
// of the facts that forbid them about the platform: a blocker found
// without a solve (D106).
func hopeless(v *view) bool {
	return noReleaseLeft(v) && slices.ContainsFunc(v.staticFacts(), isPlatformFact)
}

// noReleaseLeft reports whether v must be on while its static facts
// forbid every release of it: the request cannot be met, whatever the
// other modules do.
func noReleaseLeft(v *view) bool {
	return v.intent == intentOn && !slices.Contains(v.allowed, true)
}

// stillStuck reports whether one of the modules names, each with no
// release left in a request that a suggestion changed, has none left in
// req either: then req is unsatisfiable, which a check of its status
// learns from their views alone, without the closure or an encoding
// (D431). A view reads only its module, the request and the cluster
// state, so this is the answer a solve would give.
func stillStuck(c *Compiled, cluster *model.ClusterState, req *model.Request, names []string) bool {
	if len(names) == 0 {
		return false
	}
	p := newProblem(c, cluster, req)
	for _, name := range names {
		if v := p.view(name); v != nil && noReleaseLeft(v) {
			return true
		}
	}
	return false
}

// maxBlockers bounds the blockers a platform question names: each costs a
// minimal core, and an operator facing more than this many has the list
// to start with.
const maxBlockers = 10

func isPlatformFact(f *fact) bool {
	return f.v != nil && kindOf(f).platform != nil
}
