package solver

import (
	"cmp"

	"github.com/modsolver/modsolver/model"
)

// moduleResults renders the outcomes' results in two passes. The first,
// in order, asks what makes facts: the held-back questions (whyNot) and
// the static facts a reason names as they are. The second renders the
// rest, which only reads (the versions, the path and its note, a
// held-back reason that quotes copies of static facts): on a large answer
// in two halves side by side, each with a scratch of its own, while the
// problem's caches are shared under a lock. The texts are the same either
// way: the second pass makes no fact and no view.
func (s *session) moduleResults(outs []*outcome) ([]model.ModuleResult, error) {
	if len(outs) == 0 {
		return nil, nil
	}
	out := make([]model.ModuleResult, len(outs))
	rendered := make([]bool, len(outs)) // by the first pass
	quoted := make([]bool, len(outs))   // held back by static facts, quoted in the second pass
	memo := cmp.Or(s.p.state, s.p.detachMemo)
	for i, o := range outs {
		if o.detached && memo != nil && memo.results {
			if f := memo.frozen[o.v.name]; f != nil {
				out[i], rendered[i] = s.keptResult(f), true // the state's, rendered once (statememo.go)
				continue
			}
		}
		if !s.cfg.explainHeldBack {
			continue
		}
		why, quotes, err := s.heldBack(o)
		if err != nil {
			return nil, err
		}
		out[i].HeldBack, quoted[i] = why, quotes
	}
	render := func(w *session, from, to int) {
		for i := from; i < to; i++ {
			if !rendered[i] {
				w.moduleResult(outs[i], &out[i], quoted[i])
			}
		}
	}
	other := *s
	other.copies = nil // the helper's half has a scratch of its own
	s.p.inHalves(len(outs), func(helper bool, from, to int) {
		w := s
		if helper {
			w = &other
		}
		render(w, from, to)
	})
	return out, nil
}

// oneResult renders o's result alone, both passes of moduleResults in
// one.
func (s *session) oneResult(o *outcome) (model.ModuleResult, error) {
	var mr model.ModuleResult
	quoted := false
	if s.cfg.explainHeldBack {
		why, quotes, err := s.heldBack(o)
		if err != nil {
			return mr, err
		}
		mr.HeldBack, quoted = why, quotes
	}
	s.moduleResult(o, &mr, quoted)
	return mr, nil
}

// moduleResult renders o's result into mr, whose held-back reason the
// first pass of moduleResults gave; quoted says it is the static facts
// that forbid the next release, quoted here.
func (s *session) moduleResult(o *outcome, mr *model.ModuleResult, quoted bool) {
	v := o.v
	mr.Name, mr.Action, mr.FromVersion = v.name, o.action, model.VersionString(v.fromVersion(o.sel))
	if o.sel >= 0 {
		mr.ToVersion = v.versionText(o.sel)
	}
	if _, hv := v.headFor(o.sel); !v.noChannel {
		mr.ChannelHead = model.VersionString(hv)
	}
	mr.FromSource, mr.ToSource, mr.Moved = v.resultSources(o.sel)
	mr.Path, mr.PathNote = s.pathWithNote(o)
	if quoted {
		mr.HeldBack = s.staticReason(v, o.sel)
	}
}
