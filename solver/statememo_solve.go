package solver

import (
	"container/list"
	"context"
	"hash/maphash"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// memoFor returns c's memo of cluster and req's shape, made now if need
// be, or nil when req is not of a shape a memo serves.
func (ms *stateMemos) memoFor(c *Compiled, cluster *model.ClusterState, req *model.Request) *stateMemo {
	if !memoShape(req) {
		return nil
	}
	shape := shapeOf(req)
	ms.mu.Lock()
	if ms.order == nil {
		ms.seed, ms.order, ms.byKey = maphash.MakeSeed(), list.New(), map[uint64][]*list.Element{}
	}
	seed := ms.seed
	ms.mu.Unlock()
	h := stateHash(seed, cluster, shape)
	find := func() *stateMemo {
		for _, el := range ms.byKey[h] {
			if m := el.Value.(*stateMemo); m.shape == shape && sameState(m.state, cluster) {
				ms.order.MoveToFront(el)
				return m
			}
		}
		return nil
	}
	ms.mu.Lock()
	m := find()
	ms.mu.Unlock()
	if m != nil {
		return m
	}
	m = newMemo(c, cluster, req)
	m.state, m.shape, m.hash = copyState(cluster), shape, h
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if held := find(); held != nil {
		return held // another request made it meanwhile
	}
	ms.byKey[h] = append(ms.byKey[h], ms.order.PushFront(m))
	for ms.order.Len() > maxStates {
		last := ms.order.Back()
		old := ms.order.Remove(last).(*stateMemo)
		ms.byKey[old.hash] = slices.DeleteFunc(ms.byKey[old.hash], func(el *list.Element) bool { return el == last })
		if len(ms.byKey[old.hash]) == 0 {
			delete(ms.byKey, old.hash)
		}
	}
	return m
}

// newMemo makes the memo of cluster and req's shape from the neutral
// request, as detach sees its closure.
func newMemo(c *Compiled, cluster *model.ClusterState, req *model.Request) *stateMemo {
	m := &stateMemo{frozen: map[string]*frozenModule{}}
	r0 := neutral(req)
	if validate(c.cat, cluster, r0) != nil {
		return m
	}
	p := newProblem(c, cluster, r0)
	p.memo = lazyOn(m) // made on the memo: its render makes no explanation (whyNot refuses)
	m.roots = p.rootNames()
	closure := p.closure(false)
	det := detacher{p}
	_, detached := det.detach(closure)
	if len(detached) == 0 {
		return m
	}
	var outs []*outcome
	on := map[string]*view{}
	m.closure = make(map[string]bool, len(closure))
	for _, v := range closure {
		m.closure[v.name] = true
		if det.frozen(v) {
			on[v.name] = v
		}
	}
	m.requiredBy, m.byGroup, m.byCapability, m.providerOf = map[string][]*frozenModule{}, map[string][]*frozenModule{}, map[string][]*frozenModule{}, map[string]string{}
	for _, v := range closure {
		if on[v.name] == nil {
			continue
		}
		rel := v.rels[v.deployed]
		f := &frozenModule{name: v.name, m: v.m, rel: rel, depsHold: det.dependenciesHold(v, rel, on)}
		for _, r := range v.candidates(false) {
			p.pushNamed(v.rels[r], func(name string) { f.pushes = append(f.pushes, name) })
		}
		m.frozen[v.name] = f
		for _, d := range rel.Requirements.Modules {
			m.requiredBy[d.Module] = append(m.requiredBy[d.Module], f)
		}
		if g := v.m.ExclusiveGroup; g != "" {
			m.byGroup[g] = append(m.byGroup[g], f)
		}
		for _, cp := range slices.Concat(rel.Requirements.Capabilities, rel.Provides) {
			m.byCapability[cp] = append(m.byCapability[cp], f)
		}
		for _, cp := range rel.Provides {
			m.providerOf[cp] = v.name
		}
		if len(rel.Requirements.Compound) > 0 {
			m.compound = append(m.compound, f)
		}
		o := &outcome{v: v, sel: v.deployed}
		o.action = actionOf(o)
		outs = append(outs, o)
	}
	if len(warnings(outs, runningLoops(p, outs))) > 0 {
		return m
	}
	m.allHold = true
	for _, f := range m.frozen {
		if !f.depsHold || slices.ContainsFunc(f.rel.Requirements.Capabilities, func(c string) bool { return m.providerOf[c] == "" }) {
			m.allHold = false
		}
	}
	m.lazy = true
	m.results = m.render(p, outs)
	return m
}

// render renders each frozen module's result as an answer of the neutral
// request renders it, and reports whether it could: a held-back reason
// that a SAT question gives (never, for a module that keeps its release
// outside the update set) leaves answers to render their own.
func (m *stateMemo) render(p *problem, outs []*outcome) bool {
	s := newAnswering(&session{ctx: context.Background(), cfg: newSettings(nil), p: p}, p.in.compiled)
	for _, o := range outs {
		r, err := s.oneResult(o)
		if err != nil {
			return false
		}
		m.frozen[o.v.name].result, m.frozen[o.v.name].step = r, planStep(o)
	}
	return true
}
