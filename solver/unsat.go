package solver

import (
	"errors"
	"fmt"

	"github.com/modsolver/modsolver/model"
)

// unsatisfiable builds the R16 answer: a minimal core of facts, rendered
// as a chain of sentences, with verified suggestions.
func (s *session) unsatisfiable() (*model.Result, error) {
	x := s.explainer()
	core, err := x.minimalCore(nil, x.inputFacts())
	if err != nil {
		return nil, err
	}
	if len(core) == 0 {
		return nil, errors.New("internal error: the explain encoding has a model where the answer has none")
	}
	ex := &model.Explanation{Summary: fmt.Sprintf("the request cannot be met: %s", s.p.sentences(core))}
	for _, f := range chainOrder(core) {
		ex.Facts = append(ex.Facts, s.p.toModel(f))
	}
	if s.cfg.suggest {
		if ex.Suggestions, err = s.suggest(core); err != nil {
			return nil, err
		}
	}
	return &model.Result{Status: model.StatusUnsatisfiable, Explanation: ex, Stats: s.stats()}, nil
}
