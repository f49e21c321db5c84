package solver

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// rerender answers req from session s, which answered another request of
// req's class (classes.go) as res: the decisions are s's, the texts are
// req's. The session's problem takes req's platform versions, and a
// built-in module's release takes req's DKP version (R5); then only what
// quotes them is rendered again. s must not be used for its own request
// afterwards.
func (s *session) rerender(req *model.Request, res *model.Result) (*model.Result, error) {
	s.retarget(req)
	if res.Status == model.StatusUnsatisfiable {
		out := &model.Result{Status: res.Status, Stats: res.Stats}
		if res.Explanation != nil {
			out.Explanation = s.explanation()
			out.Explanation.Suggestions = slices.Clone(res.Explanation.Suggestions)
		}
		return out, nil
	}
	if s.cfg.explainHeldBack {
		return s.renderAll(res)
	}
	return s.renderBuiltIns(res), nil
}

// retarget gives s's problem the platform versions of req.
func (s *session) retarget(req *model.Request) {
	p := s.p
	// The static facts of the views are the class's, read with its first
	// request's versions (as every view's were before the request's own).
	for _, v := range p.views {
		v.staticFacts()
	}
	q := newProblem(p.compiled, p.cluster, req)
	p.req, p.deckhouse, p.kubernetes, p.components = req, q.deckhouse, q.kubernetes, q.components
	for _, v := range p.views {
		if v.m.Embedded {
			v.rels[0].Version, v.headVersion = p.deckhouse, p.deckhouse
		}
	}
}

// renderAll renders every module again: held-back reasons may quote a
// platform version.
func (s *session) renderAll(res *model.Result) (*model.Result, error) {
	out := &model.Result{Status: res.Status, Stats: res.Stats, Warnings: s.retargetWarnings(res.Warnings)}
	for _, o := range s.outs {
		mr, err := s.moduleResult(o)
		if err != nil {
			return nil, err
		}
		out.Modules = append(out.Modules, mr)
	}
	out.Plan = plan(s.outs)
	return out, nil
}

// renderBuiltIns renders the built-in modules again, whose version is the
// DKP version, and the modules whose path note may quote a platform
// version; without held-back reasons nothing else does. The plan's order
// does not depend on versions.
func (s *session) renderBuiltIns(res *model.Result) *model.Result {
	out := &model.Result{Status: res.Status, Stats: res.Stats, Modules: slices.Clone(res.Modules), Plan: slices.Clone(res.Plan), Warnings: s.retargetWarnings(res.Warnings)}
	builtIn := map[string]*outcome{}
	for i, o := range s.outs {
		switch {
		case o.v.m.Embedded:
			out.Modules[i], _ = s.moduleResult(o) // no held-back search, so no error
			builtIn[o.v.name] = o
		case out.Modules[i].PathNote != "":
			// A path note may quote the platform's versions; a class
			// forbids the same releases, so only the texts change.
			out.Modules[i], _ = s.moduleResult(o)
		}
	}
	if len(builtIn) == 0 {
		return out
	}
	for i, st := range out.Plan {
		if o, ok := builtIn[st.Module]; ok {
			out.Plan[i] = planStep(o)
		}
	}
	return out
}

// retargetWarnings gives the warnings of a built-in module, whose release
// is the DKP version (R5), the version of the session's request.
func (s *session) retargetWarnings(ws []model.Warning) []model.Warning {
	out := slices.Clone(ws)
	for i, w := range out {
		if m := s.p.cat.Module(w.Module); w.Kind == model.WarningDeprecated && m != nil && m.Embedded {
			out[i] = deprecatedWarning(w.Module, s.p.deckhouse)
		}
	}
	return out
}
