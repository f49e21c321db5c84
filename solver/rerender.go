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
//
// A resolved answer without held-back reasons comes with the patch of
// the lists it shares with res until it is handed out (listPatch); the
// others come whole, with a nil patch.
func (s *answering) rerender(req *model.Request, res *model.Result) (*model.Result, *listPatch, error) {
	if res.Status == model.StatusUnsatisfiable {
		s.classFacts()
		s.retarget(req)
		out := &model.Result{Status: res.Status, Stats: res.Stats, Warnings: slices.Clone(res.Warnings), Assumptions: slices.Clone(res.Assumptions)}
		if res.Explanation != nil {
			out.Explanation = s.explanation()
			out.Explanation.Suggestions = slices.Clone(res.Explanation.Suggestions)
		}
		return out, nil, nil
	}
	if s.cfg.explainHeldBack {
		s.classFacts()
		s.retarget(req)
		out, err := s.renderAll(res)
		return out, nil, err
	}
	if s.class == nil {
		s.class = s.classParts(res)
	}
	s.retarget(req)
	out, patch := s.renderBuiltIns(res)
	return out, patch, nil
}

// classFacts makes the static facts of every view with the versions of
// the class's first request, as every view's were before the request's
// own; a later request of the class reads them.
func (s *answering) classFacts() {
	for _, v := range s.p.views {
		v.staticFacts()
	}
}

// retarget gives s's problem the platform versions of req.
func (s *answering) retarget(req *model.Request) {
	p := s.p
	q := newProblem(p.in.compiled, p.in.cluster, req)
	p.in.req, p.in.deckhouse, p.in.kubernetes, p.in.components = req, q.in.deckhouse, q.in.kubernetes, q.in.components
	for _, v := range p.views {
		if v.m.Embedded {
			v.rels[0].Version, v.headVersion = p.in.deckhouse, p.in.deckhouse
		}
	}
}

// renderAll renders every module again: held-back reasons may quote a
// platform version.
func (s *answering) renderAll(res *model.Result) (*model.Result, error) {
	out := &model.Result{Status: res.Status, Stats: res.Stats, Warnings: s.retargetWarnings(res.Warnings), Assumptions: slices.Clone(res.Assumptions)}
	for _, o := range s.outs {
		mr, err := s.oneResult(o)
		if err != nil {
			return nil, err
		}
		out.Modules = append(out.Modules, mr)
	}
	out.Plan = plan(s.outs, nil, s.p.in.req.Devel)
	return out, nil
}

// classParts is what of a resolved answer, without held-back reasons,
// quotes a platform version: the built-in modules, whose version is the
// DKP version, and the path notes that name a platform requirement.
// Everything else of an answer is the same for every request of the
// class: a class forbids the same releases by the same facts.
type classParts struct {
	builtIn []int
	notes   []classNote
}

// classNote is the note on the path of the module at index i of the
// session's outcomes, in parts (pathNote) whose facts are copies that
// keep only what the note quotes, their kind and component: a fact of
// the session would hold its view, and the view the whole problem, for
// as long as a member's patch waits (listPatch).
type classNote struct {
	i    int
	note pathNote
}

func newClassNote(i int, n pathNote) classNote {
	forbids := make([]forbiddenOnPath, len(n.forbids))
	for k, fo := range n.forbids {
		forbids[k] = forbiddenOnPath{lead: fo.lead, f: &fact{kind: fo.f.kind, dep: fo.f.dep}}
	}
	return classNote{i, pathNote{stop: n.stop, forbids: forbids}}
}

// classParts finds the parts of res that quote a platform version, with
// the platform facts read with the versions of the class's first request,
// before the session takes another's.
func (s *answering) classParts(res *model.Result) *classParts {
	c := &classParts{}
	for i, o := range s.outs {
		switch {
		case o.v.m.Embedded:
			c.builtIn = append(c.builtIn, i)
		case res.Modules[i].PathNote != "":
			if n := s.pathNote(o, s.path(o), nil, alone); len(n.forbids) > 0 {
				c.notes = append(c.notes, newClassNote(i, n))
			}
		}
	}
	return c
}

// renderBuiltIns renders the built-in modules again, whose version is the
// DKP version, and the path notes that quote a platform version; without
// held-back reasons nothing else does. The plan's order does not depend
// on versions. The answer shares res's lists; what it changes in them
// is its patch, put in when it is handed out.
func (s *answering) renderBuiltIns(res *model.Result) (*model.Result, *listPatch) {
	out := &model.Result{Status: res.Status, Stats: res.Stats, Modules: res.Modules, Plan: res.Plan, Warnings: s.retargetWarnings(res.Warnings), Assumptions: slices.Clone(res.Assumptions)}
	patch := &listPatch{notes: s.class.notes, in: s.p.in}
	if len(s.class.builtIn) == 0 {
		return out, patch
	}
	builtIn := map[string]*outcome{}
	for _, i := range s.class.builtIn {
		o := s.outs[i]
		mr, _ := s.oneResult(o) // no held-back search, so no error
		patch.modules = append(patch.modules, patchedModule{i, mr})
		builtIn[o.v.name] = o
	}
	for i, st := range res.Plan {
		if o, ok := builtIn[st.Module]; ok {
			step := planStep(o)
			step.CycleWith = st.CycleWith // the plan's groups do not depend on versions either
			patch.plan = append(patch.plan, patchedStep{i, step})
		}
	}
	return out, patch
}

// listPatch is what a class member's answer puts in place of entries of
// the lists it shares with the class's first answer (renderBuiltIns).
// A batch holds an answer from when it is made until every answer
// before it is handed out; a patch keeps it the size of what differs,
// about a twentieth of the lists on the generated catalogs, where copies
// of the lists would hold half a megabyte an answer on M (D432). Its
// path notes are rendered only as it is applied, from the class's notes
// and the member's inputs: their texts were most of a patch.
type listPatch struct {
	modules []patchedModule
	plan    []patchedStep
	notes   []classNote // the class's, shared by its members
	in      inputs      // the member's
}

type patchedModule struct {
	i int
	m model.ModuleResult
}

type patchedStep struct {
	i    int
	step model.PlanStep
}

// apply gives res copies of the lists it shares with the class's first
// answer, with the patch's entries in place; a patch that changes
// nothing leaves them shared, as WhatIf allows.
func (p *listPatch) apply(res *model.Result) {
	if len(p.modules) > 0 || len(p.notes) > 0 {
		res.Modules = slices.Clone(res.Modules)
		for _, e := range p.modules {
			res.Modules[e.i] = e.m
		}
		member := &problem{in: p.in}
		for _, n := range p.notes {
			res.Modules[n.i].PathNote = n.note.text(member)
		}
	}
	if len(p.plan) > 0 {
		res.Plan = slices.Clone(res.Plan)
		for _, e := range p.plan {
			res.Plan[e.i] = e.step
		}
	}
}

// retargetWarnings gives the warnings of a built-in module, whose release
// is the DKP version (R5), the version of the session's request.
func (s *answering) retargetWarnings(ws []model.Warning) []model.Warning {
	out := slices.Clone(ws)
	for i, w := range out {
		if m := s.p.in.cat.Module(w.Module); w.Kind == model.WarningDeprecated && m != nil && m.MayBeBuiltIn() && s.p.view(m.Name).m.Embedded {
			out[i] = deprecatedWarning(w.Module, s.p.in.deckhouse, model.EcosystemDKP) // a built-in module's
		}
	}
	return out
}
