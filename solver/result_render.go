package solver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// answering is a session's render part: it says the answer in words,
// asking the explain and suggestion parts for the facts and changes it
// names, and renders other requests of a what-if class from the session
// (rerender.go). It reads the suggestion part (a pointer back).
type answering struct {
	*suggesting
	// copies is the scratch of the static facts a rendered text quotes
	// and drops (collect).
	copies *copyScratch
	// class is what of the answer quotes a platform version, found when
	// the session renders its first other request of the class.
	class *classParts
}

// newAnswering gives session s its explain, suggestion and render parts;
// solver verifies suggestions.
func newAnswering(s *session, solver resolver) *answering {
	return &answering{suggesting: &suggesting{explaining: &explaining{session: s}, solver: solver}}
}

// scratch returns the scratch for transient copies of static facts, made
// on first use.
func (s *answering) scratch() *copyScratch {
	if s.copies == nil {
		s.copies = &copyScratch{}
	}
	return s.copies
}

// resolved is the answer of a request that resolves: the outcomes read
// back from the fast encoding (outcomes), in words, and their plan.
func (s *answering) resolved() (*model.Result, error) {
	outs, warned, unchanged := s.outcomes()
	changes := s.p.in.req.ChangesOnly()
	res := &model.Result{Status: model.StatusResolved}
	// The frozen modules the encoding left without views keep their
	// releases (statememo.go): listed and planned, unless the answer has
	// the changes only, where they are counted.
	var kept []*frozenModule
	if changes {
		unchanged += len(s.fast.kept)
	} else {
		kept = s.fast.kept
	}
	// The plan reads only what the outcomes and their views hold from the
	// start, never what rendering the modules makes: it is ordered on the
	// other core meanwhile.
	planned := func() {}
	if s.p.halves(len(outs)) {
		planned = alongside(func() { res.Plan = plan(outs, kept, s.p.in.req.Devel) })
	} else {
		res.Plan = plan(outs, kept, s.p.in.req.Devel)
	}
	modules, err := s.moduleResults(outs)
	planned()
	if err != nil {
		return nil, err
	}
	res.Modules = s.withKept(modules, kept)
	res.Warnings = warnings(warned, append(runningLoops(s.p, warned), s.p.in.answerWarnings(warned)...))
	res.Assumptions = s.p.in.assumptions()
	res.Stats = s.stats()
	res.Stats.Unchanged = unchanged
	s.outs, s.unchanged = outs, unchanged
	return res, nil
}

// explanation renders the session's core and platform blockers, without
// suggestions.
func (s *answering) explanation() *model.Explanation {
	ex := &model.Explanation{Summary: fmt.Sprintf("the request cannot be met: %s", wording{p: s.p}.sentences(s.core))}
	if len(s.blockers) > 1 {
		ex.Summary += fmt.Sprintf("; %d modules block the platform upgrade: %s", len(s.blockers), wording{p: s.p}.sentences(s.blockers))
	}
	for _, f := range chainOrder(s.core) {
		ex.Facts = append(ex.Facts, wording{p: s.p}.toModel(f))
	}
	ex.Steps = model.Derive(ex.Facts)
	return ex
}

// moduleResults renders the outcomes' results in two passes. The first,
// in order, asks what makes facts: the held-back questions (whyNot) and
// the static facts a reason names as they are. The second renders the
// rest, which only reads (the versions, the path and its note, a
// held-back reason that quotes copies of static facts): on a large answer
// in two halves side by side, each with a scratch of its own and told
// that it reads the problem beside the other (readMode). The texts are
// the same either way: the second pass makes no fact and no view.
func (s *answering) moduleResults(outs []*outcome) ([]model.ModuleResult, error) {
	if len(outs) == 0 {
		return nil, nil
	}
	out := make([]model.ModuleResult, len(outs))
	rendered := make([]bool, len(outs)) // by the first pass
	quoted := make([]bool, len(outs))   // held back by static facts, quoted in the second pass
	memo := s.p.memo.m
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
	render := func(w *answering, mode readMode, from, to int) {
		for i := from; i < to; i++ {
			if !rendered[i] {
				w.moduleResult(outs[i], &out[i], quoted[i], mode)
			}
		}
	}
	other := *s
	other.copies = nil // the helper's half has a scratch of its own
	s.p.inHalves(len(outs), func(mode readMode, helper bool, from, to int) {
		w := s
		if helper {
			w = &other
		}
		render(w, mode, from, to)
	})
	return out, nil
}

// oneResult renders o's result alone, both passes of moduleResults in
// one.
func (s *answering) oneResult(o *outcome) (model.ModuleResult, error) {
	var mr model.ModuleResult
	quoted := false
	if s.cfg.explainHeldBack {
		why, quotes, err := s.heldBack(o)
		if err != nil {
			return mr, err
		}
		mr.HeldBack, quoted = why, quotes
	}
	s.moduleResult(o, &mr, quoted, alone)
	return mr, nil
}

// moduleResult renders o's result into mr, whose held-back reason the
// first pass of moduleResults gave; quoted says it is the static facts
// that forbid the next release, quoted here.
func (s *answering) moduleResult(o *outcome, mr *model.ModuleResult, quoted bool, mode readMode) {
	v := o.v
	mr.Name, mr.Action, mr.FromVersion = v.name, o.action, model.VersionString(v.fromVersion(o.sel))
	if o.sel >= 0 {
		mr.ToVersion = v.versionText(o.sel)
	}
	if _, hv := v.headFor(o.sel); !v.noChannel {
		mr.ChannelHead = model.VersionString(hv)
	}
	mr.FromSource, mr.ToSource, mr.Moved = v.resultSources(o.sel)
	mr.Path, mr.PathNote = s.pathWithNote(o, mode)
	if quoted {
		mr.HeldBack = s.staticReason(v, o.sel, mode)
	}
}

// heldBack says what keeps a module below its head (R17), or why a module
// that is on by default stays off (R8). It is "" for a module at its head.
// When the static facts that forbid the next release say it, and quoting
// them makes no fact (staticMade), it reports quotes instead, for
// staticReason to render apart (moduleResults).
func (s *answering) heldBack(o *outcome) (why string, quotes bool, err error) {
	v := o.v
	if !o.belowHead() {
		return "", false, nil
	}
	switch {
	case v.noChannel:
		return wording{p: s.p}.message(v.static(model.FactChannelHead)), false, nil
	case v.pinned >= 0:
		return fmt.Sprintf("pinned to %s by the request", v.rels[v.pinned].Version), false, nil
	case v.before && !v.inUpdate && !v.m.Embedded:
		return fmt.Sprintf("not in the request's update set, so it stays at %s", v.deployedVersion()), false, nil
	}
	if o.sel < 0 {
		why, err := s.whyNot(v, 0)
		if v.configuredOn {
			return fmt.Sprintf("enabled in the cluster, but stays off: %s", why), false, err
		}
		return fmt.Sprintf("on by default in bundle %s, but stays off: %s", s.p.in.cluster.Bundle, why), false, err
	}
	next := s.nextAllowed(v, o.sel)
	if next < 0 {
		if !staticMade(v) {
			return "", true, nil
		}
		return s.staticReason(v, o.sel, alone), false, nil
	}
	why, err = s.whyNot(v, next)
	why = fmt.Sprintf("%s is not possible: %s", v.rels[next].Version, why)
	if skipped := skippedExperimental(v, o.sel, next); skipped != "" {
		why = skipped + "; " + why // R25: the stage holds back the releases passed over
	}
	return why, false, err
}

// staticReason names the static facts that forbid the release just above
// the chosen one: the nearest newer release is the one an operator asks
// about, and every release up to the head is forbidden too. The background
// facts (see whyNot) are named only when no other fact forbids it.
func (s *answering) staticReason(v *view, sel int, mode readMode) string {
	background, facts := splitBackground(s.p.staticCopies(v, sel+1, s.scratch(), mode))
	for _, group := range [][]*fact{facts, background} {
		// A fact forbids sel+1 whether or not newerOnly narrows it, so
		// only the facts that do are narrowed. The groups are
		// splitBackground's own slices.
		group = slices.DeleteFunc(group, func(f *fact) bool { return !slices.Contains(f.rels, sel+1) })
		var msgs []string
		for _, f := range newerOnly(group, v, sel+1) {
			msgs = append(msgs, wording{p: s.p, mode: mode}.message(f))
		}
		if len(msgs) > 0 {
			return strings.Join(msgs, "; ")
		}
	}
	return ""
}

// whyNot says why module v cannot be at release rel or newer (rel 0:
// cannot be on): the facts whyNotFacts finds, in its order, or that v's
// source lists no release.
func (s *answering) whyNot(v *view, rel int) (string, error) {
	if s.p.memo.lazy {
		return "", errNoMemo // an explanation reads facts in the order the views were made
	}
	if len(v.rels) == 0 {
		if v.src.named && !v.src.free {
			return fmt.Sprintf("source %s lists no release of %s", v.src.to, v.name), nil
		}
		return fmt.Sprintf("the catalog lists no release of %s", v.name), nil
	}
	facts, err := s.whyNotFacts(v, rel)
	if err != nil {
		return "", err
	}
	return wording{p: s.p}.inOrder(facts), nil
}
