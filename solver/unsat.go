package solver

import (
	"errors"
	"fmt"

	"github.com/modsolver/modsolver/model"
)

// unsatisfiable builds the R16 answer: a minimal core of facts, rendered
// as a chain of sentences, with verified suggestions.
func (s *session) unsatisfiable() (*model.Result, error) {
	x := s.conflictExplainer()
	core, err := x.inputCore(nil)
	if err != nil {
		return nil, err
	}
	if len(core) == 0 {
		return nil, errors.New("internal error: the explain encoding has a model where the answer has none")
	}
	blockers, err := s.platformBlockers(x, core)
	if err != nil {
		return nil, err
	}
	s.core, s.blockers = core, blockers
	ex := s.explanation()
	if s.cfg.suggest {
		if ex.Suggestions, err = s.suggest(core, blockers); err != nil {
			return nil, err
		}
	}
	return &model.Result{Status: model.StatusUnsatisfiable, Explanation: ex, Stats: s.stats()}, nil
}

// explanation renders the session's core and platform blockers, without
// suggestions.
func (s *session) explanation() *model.Explanation {
	ex := &model.Explanation{Summary: fmt.Sprintf("the request cannot be met: %s", s.p.sentences(s.core))}
	if len(s.blockers) > 1 {
		ex.Summary += fmt.Sprintf("; %d modules block the platform upgrade: %s", len(s.blockers), s.p.sentences(s.blockers))
	}
	for _, f := range chainOrder(s.core) {
		ex.Facts = append(ex.Facts, s.p.toModel(f))
	}
	return ex
}

// platformBlockers lists, for a platform upgrade question (R12), the
// platform requirement of every module that blocks it, not only the one
// in the first core: each round sets aside the modules already named and
// asks again, until the rest is satisfiable or the conflict left is not
// about the platform.
func (s *session) platformBlockers(x *explainer, core []*fact) ([]*fact, error) {
	if pl := s.p.req.Platform; pl.Deckhouse == nil && pl.Kubernetes == nil && len(pl.Components) == 0 {
		return nil, nil
	}
	var blockers []*fact
	aside := map[*view]bool{}
	for len(blockers) < maxBlockers {
		found := false
		for _, f := range core {
			if isPlatformFact(f) && !aside[f.v] {
				blockers = append(blockers, f)
				aside[f.v] = true
				found = true
			}
		}
		if !found {
			return blockers, nil
		}
		var err error
		if core, err = x.inputCore(aside); err != nil || core == nil {
			return blockers, err
		}
	}
	return blockers, nil
}

// maxBlockers bounds the blockers a platform question names: each costs a
// minimal core, and an operator facing more than this many has the list
// to start with.
const maxBlockers = 10

func isPlatformFact(f *fact) bool {
	return f.v != nil && (f.kind == model.FactDeckhouseRequirement || f.kind == model.FactKubernetesRequirement || f.kind == model.FactPlatformRequirement)
}
