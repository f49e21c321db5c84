package solver

import (
	"cmp"
	"errors"
	"hash/maphash"
	"maps"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// An operator asks many questions of one cluster state: can this module
// be enabled, what if that one is disabled. On a large cluster most of
// the work of such a question is the same each time: a view and its
// static filter for every module the cluster runs, and the analysis that
// finds the frozen ones (detach.go), which keep their releases whatever
// the answer is and share nothing with what may change. A state memo
// keeps that analysis for one cluster state and one request shape, so
// that a question that names a few modules builds views only for what
// it names, what those reach, and the frozen modules they touch; the
// other frozen modules are counted as kept without a view (D225).
//
// The memo never changes an answer. It serves only a request that, apart
// from the modules it enables or disables, is the neutral request it was
// made for (no platform, devel, source, pin or update). Frozen modules go
// without views: an answer with the changes only (report: changes)
// counts each as kept, and an answer that lists every module lists the
// result the memo rendered for it once (D428). When the memo could not
// render every frozen module's result, such an answer makes every view
// and reads the memo only to find the frozen modules to detach. It is
// made only when the neutral request detaches frozen
// modules, and none of them warns (a running loop, an Experimental or
// Deprecated release, a version the catalog no longer lists). An answer
// that needs an explanation (an unsatisfiable request, a held-back reason
// that a SAT question answers) is made again without the memo, since
// explanations read facts in the order the views were made. The memo is
// keyed by the cluster state's whole content, compared byte by byte, so a
// changed state can never be served from another's memo.

// stateMemo is what one neutral request on one cluster state leaves to
// the questions that follow it.
type stateMemo struct {
	state *model.ClusterState // a copy of the state, compared field by field
	shape memoShapeKey
	hash  uint64
	// lazy: the memo may serve; when false, every request of this state
	// and shape takes the whole path.
	lazy bool
	// roots are the neutral request's roots (rootNames).
	roots []string
	// frozen are the frozen modules of the neutral request's closure, by
	// name, and the indexes that find those a request touches: by the
	// module their deployed release requires, by exclusive group, by a
	// capability it requires or provides; and those with compound
	// requirements, which are always encoded (touches).
	frozen       map[string]*frozenModule
	requiredBy   map[string][]*frozenModule
	byGroup      map[string][]*frozenModule
	byCapability map[string][]*frozenModule
	compound     []*frozenModule
	// providerOf names the frozen module that provides each capability
	// frozen modules provide (one each: the neutral request checked).
	providerOf map[string]string
	// closure names the modules of the neutral request's closure.
	closure map[string]bool
	// allHold: every frozen module's requirements hold against the
	// others, capabilities included (frozenHold).
	allHold bool
	// results: each frozen module's result is rendered (render).
	results bool
}

// memoShapeKey is what a memo-shaped request says besides the modules it
// enables or disables.
type memoShapeKey struct {
	strategy                 model.Strategy
	allowDisable, autoEnable bool
	report                   model.Report
}

// frozenModule is what a frozen module is, without its view: enough to
// tell whether it touches what may change (touchSet.touches).
type frozenModule struct {
	name string
	m    *model.Module
	rel  *model.Release // the deployed release (a built-in module's is the view's own)
	// pushes are the names the closure pushes for its candidates, in
	// order.
	pushes []string
	// depsHold: its requirements hold against the neutral request's
	// frozen modules, as dependenciesHold reads them.
	depsHold bool
	// result is its module result, and step its plan step, as an answer
	// that lists every module gives them while it is detached: it keeps
	// its release, and what the answer says of it depends on the state
	// alone.
	result model.ModuleResult
	step   model.PlanStep
}

// memoUse is how a problem uses the memo of its cluster state, given
// when the problem is made (newSession, newMemo): the zero value uses
// none; lazyOn(m) leaves m's frozen modules without views, and the
// problem then makes no explanation (errNoMemo), whose facts would come
// in another order; detachBy(m) makes every view, m only finding which
// frozen modules to detach.
type memoUse struct {
	m    *stateMemo
	lazy bool
}

// lazyOn is the use of m that leaves its frozen modules without views.
func lazyOn(m *stateMemo) memoUse { return memoUse{m: m, lazy: true} }

// detachBy is the use of m that only finds the frozen modules to detach.
func detachBy(m *stateMemo) memoUse { return memoUse{m: m} }

// errNoMemo asks for an answer without the memo (see stateMemo).
var errNoMemo = errors.New("answer again without the state memo")

// memoShape reports whether a memo may serve req: it names modules only
// to enable or disable them. Only an answer with the changes only leaves
// frozen modules without views; any other reads the memo to detach them.
func memoShape(req *model.Request) bool {
	p := req.Platform
	return len(req.Update) == 0 && !req.UpdateAll && len(req.Pin) == 0 &&
		p.Deckhouse == nil && p.Kubernetes == nil && len(p.Components) == 0 && len(req.Sources) == 0 && !req.Devel
}

func shapeOf(req *model.Request) memoShapeKey {
	return memoShapeKey{strategy: req.Strategy, allowDisable: req.AllowDisable, autoEnable: req.AutoEnable, report: req.Report}
}

// neutral is req without the modules it enables or disables: the request
// a memo is made from.
func neutral(req *model.Request) *model.Request {
	r := *req
	r.Enable, r.Disable = nil, nil
	return &r
}

// stateHash hashes every field of the cluster state and the shape; the
// modules are summed, so that their order in the map does not count. It
// only finds the candidates: sameState compares them.
func stateHash(seed maphash.Seed, cluster *model.ClusterState, shape memoShapeKey) uint64 {
	str := func(s string) uint64 { return maphash.String(seed, s) }
	ver := func(v model.Version) uint64 {
		if v == nil {
			return 0
		}
		return str(v.Original())
	}
	mix := func(h, x uint64) uint64 { return (h ^ x) * 0x100000001b3 }
	h := mix(str(string(shape.strategy)), str(string(shape.report)))
	h = mix(h, uint64(boolByte(shape.allowDisable))<<1|uint64(boolByte(shape.autoEnable)))
	h = mix(h, ver(cluster.Deckhouse))
	h = mix(h, ver(cluster.Kubernetes))
	h = mix(h, str(cluster.Edition))
	h = mix(h, str(cluster.Bundle))
	h = mix(h, str(cluster.ReleaseChannel))
	h = mix(h, uint64(boolByte(cluster.AllowExperimentalModules))|uint64(boolByte(cluster.KubernetesAutomatic))<<1)
	for _, name := range cluster.AllowedExperimentalModules {
		h += mix(str(name), 5)
	}
	for name, v := range cluster.Platform {
		h += mix(str(name), ver(v))
	}
	for key, v := range cluster.Facts {
		h += mix(str(key), str(v)+3)
	}
	for name, st := range cluster.Modules {
		x := mix(str(name), ver(st.Version))
		switch {
		case st.Enabled == nil:
		case *st.Enabled:
			x = mix(x, 1)
		default:
			x = mix(x, 2)
		}
		if st.Channel != "" {
			x = mix(x, str(st.Channel))
		}
		if st.Source != "" {
			x = mix(x, str(st.Source)+1)
		}
		if st.Settings != nil {
			x = mix(x, str(st.Settings.Digest())+2)
		}
		h += x * 31
	}
	return h
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// sameState reports whether two cluster states are the same in every
// field (TestMemoStateCoversEveryField), versions as written: a memo's
// state and a request's, or a suggestion's changed state and the one it
// changed (suggesting.verify).
func sameState(a, b *model.ClusterState) bool {
	if !sameText(a.Deckhouse, b.Deckhouse) || !sameText(a.Kubernetes, b.Kubernetes) || a.Edition != b.Edition ||
		a.Bundle != b.Bundle || a.ReleaseChannel != b.ReleaseChannel || a.AllowExperimentalModules != b.AllowExperimentalModules || a.KubernetesAutomatic != b.KubernetesAutomatic ||
		!slices.Equal(a.AllowedExperimentalModules, b.AllowedExperimentalModules) ||
		len(a.Platform) != len(b.Platform) || len(a.Modules) != len(b.Modules) || !maps.Equal(a.Facts, b.Facts) ||
		!maps.Equal(a.Origins, b.Origins) { // facts say their origins (D421)
		return false
	}
	for name, v := range a.Platform {
		if w, ok := b.Platform[name]; !ok || !sameText(v, w) {
			return false
		}
	}
	for name, x := range a.Modules {
		y, ok := b.Modules[name]
		if !ok || x.Channel != y.Channel || x.Source != y.Source || !sameText(x.Version, y.Version) || x.Settings.Digest() != y.Settings.Digest() ||
			(x.Enabled == nil) != (y.Enabled == nil) || (x.Enabled != nil && *x.Enabled != *y.Enabled) {
			return false
		}
	}
	return true
}

// sameText reports whether two versions are both absent or written alike.
func sameText(a, b model.Version) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Original() == b.Original()
}

// copyState copies a cluster state deeply enough that a caller who
// changes theirs afterwards leaves the memo's as it was (versions are
// never changed).
func copyState(c *model.ClusterState) *model.ClusterState {
	out := *c
	out.Platform = maps.Clone(c.Platform)
	out.Facts = maps.Clone(c.Facts)
	out.Origins = maps.Clone(c.Origins)
	out.AllowedExperimentalModules = slices.Clone(c.AllowedExperimentalModules)
	out.Modules = make(map[string]model.ModuleState, len(c.Modules))
	for name, st := range c.Modules {
		if st.Enabled != nil {
			on := *st.Enabled
			st.Enabled = &on
		}
		out.Modules[name] = st
	}
	return &out
}

// lazyClosure is closure(false) with the memo's frozen modules left
// without views: the same walk over the same names, from the neutral
// request's roots and the modules the request names. A frozen module the
// request names gets its view, as any other. The views it makes are made
// in the order closure makes them, but for the modules on by default that
// rootNames looks at first, which only explanations read (their facts'
// order), and an explanation is never made on a memo.
func (dt detacher) lazyClosure() (views []*view, light []*frozenModule) {
	p := dt.p
	m := p.memo.m
	named := map[string]bool{}
	for _, name := range slices.Concat(p.in.req.Enable, p.in.req.Disable) {
		named[name] = true
	}
	queue := make([]string, 0, len(m.closure))
	seen := make(map[string]bool, len(m.closure))
	push := func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		if f := m.frozen[name]; f != nil && !named[name] {
			light = append(light, f)
			queue = append(queue, name)
			return
		}
		if v := p.view(name); v != nil {
			views = append(views, v)
			queue = append(queue, name)
		}
	}
	roots := slices.Concat(m.roots, p.in.req.Enable, p.in.req.Disable)
	slices.Sort(roots)
	for _, name := range slices.Compact(roots) {
		push(name)
	}
	for i := 0; i < len(queue); i++ {
		if f := m.frozen[queue[i]]; f != nil && !named[queue[i]] {
			for _, name := range f.pushes {
				push(name)
			}
			continue
		}
		v := p.views[queue[i]]
		for _, r := range v.candidates(false) {
			p.pushNamed(v.rels[r], push)
		}
	}
	slices.SortFunc(views, func(a, b *view) int { return cmp.Compare(a.name, b.name) })
	return views, light
}

// lazyDetach is detach over a lazy closure: the frozen modules that touch
// what may change, views or not, are attached (and get their views), the
// others are detached, and those without views kept, by name. The
// frozen modules that touch are found from the memo's indexes, not by
// asking each. ok is false when the memo cannot serve: the frozen modules
// do not hold among themselves for this request, as frozenConsistent
// checks them (a module the request disables may be the one that
// provides what a kept module requires), or a compound requirement may
// name any module; detach then needs every view.
func (dt detacher) lazyDetach(m *stateMemo, closure []*view, light []*frozenModule) (encode, detached []*view, kept []*frozenModule, ok bool) {
	t := newTouchSet(len(closure))
	frozen := map[string]*frozenModule{} // this request's, with or without views
	var views []*view                    // the frozen ones with views
	for _, v := range closure {
		if dt.frozen(v) {
			views = append(views, v)
			frozen[v.name] = m.frozen[v.name]
		} else {
			t.add(v, v.candidates(false), true)
		}
	}
	for _, f := range light {
		frozen[f.name] = f
	}
	if t.needed[anyModule] || slices.ContainsFunc(views, func(v *view) bool { return m.frozen[v.name] == nil }) {
		return nil, nil, nil, false
	}
	attached := map[string]bool{}
	var work []*frozenModule
	attach := func(fs ...*frozenModule) {
		for _, f := range fs {
			if frozen[f.name] == f && !attached[f.name] {
				attached[f.name] = true
				work = append(work, f)
			}
		}
	}
	attach(m.compound...)
	for name, needed := range t.needed {
		if f := frozen[name]; needed && f != nil {
			attach(f)
		}
	}
	for name, encoded := range t.encoded {
		if encoded {
			attach(m.requiredBy[name]...)
		}
	}
	for g := range t.groups {
		attach(m.byGroup[g]...)
	}
	for c := range t.capabilities {
		attach(m.byCapability[c]...)
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		if g := f.m.ExclusiveGroup; g != "" && !t.groups[g] {
			t.groups[g] = true
			attach(m.byGroup[g]...)
		}
		caps := slices.Concat(f.rel.Requirements.Capabilities, f.rel.Provides)
		for _, c := range f.rel.Requirements.Compound { // as addCompound reads it
			modules, capabilities, bounded := c.Target().Names()
			if !bounded {
				return nil, nil, nil, false // any module may meet it: every frozen one touches
			}
			for _, name := range modules {
				t.needed[name] = true
				if g := frozen[name]; g != nil {
					attach(g)
				}
			}
			caps = append(caps, capabilities...)
		}
		for _, c := range caps {
			if !t.capabilities[c] {
				t.capabilities[c] = true
				attach(m.byCapability[c]...)
			}
		}
	}
	if !dt.frozenHold(m, frozen, attached) {
		return nil, nil, nil, false
	}
	for _, v := range closure {
		if attached[v.name] || !dt.frozen(v) {
			encode = append(encode, v)
		} else {
			detached = append(detached, v)
		}
	}
	for _, f := range light {
		if attached[f.name] {
			encode = append(encode, dt.p.view(f.name))
		} else {
			kept = append(kept, f)
		}
	}
	slices.SortFunc(encode, func(a, b *view) int { return cmp.Compare(a.name, b.name) })
	slices.SortFunc(kept, func(a, b *frozenModule) int { return cmp.Compare(a.name, b.name) })
	return encode, detached, kept, true
}

// frozenHold is frozenConsistent for this request's frozen modules, from
// what the memo's neutral request found: its frozen modules hold one per
// group and one provider per capability, so these, fewer or as many, do
// too. A detached module's requirements are met if they were met then
// and the module that provides each capability it requires is still
// frozen (one it requires that is not would have attached it); an
// attached one's, if those on detached modules were.
func (dt detacher) frozenHold(m *stateMemo, frozen map[string]*frozenModule, attached map[string]bool) bool {
	if m.allHold && len(frozen) == len(m.frozen) {
		return true // the neutral request's frozen modules, each of which holds
	}
	for name, f := range frozen {
		if !attached[name] {
			if !f.depsHold {
				return false
			}
			for _, c := range f.rel.Requirements.Capabilities {
				if frozen[m.providerOf[c]] == nil {
					return false
				}
			}
			continue
		}
		if f.depsHold {
			continue
		}
		for _, d := range f.rel.Requirements.Modules {
			dv := frozen[d.Module]
			if dv != nil && !attached[dv.name] && !moduleReading(f.m, dv.m).Admits(&d.Constraint, dv.rel.Version, dt.p.in.req.Devel) {
				return false
			}
		}
	}
	return true
}

// withoutStateMemo answers without the state memos: tests compare.
func withoutStateMemo() Option { return func(s *settings) { s.hooks.noStateMemo = true } }
