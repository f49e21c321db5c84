package solver

import (
	"cmp"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// closure returns the modules one resolution must encode, sorted by name:
// everything the request or the cluster names, the modules on by bundle
// default, and the dependency closure of their releases (DESIGN §6). When
// explain is false, only releases no static fact forbids are followed, and
// modules that must stay off are not expanded; an explanation follows every
// release, so that any fact may be taken away.
func (p *problem) closure(explain bool) []*view {
	if explain && p.explainClosure != nil {
		return p.explainClosure
	}
	if !explain && p.lazyStatics {
		// The views of a step are filtered together, side by side, before
		// the step reads their candidates: the walk makes them in the
		// same order as one that filtered each as it made it.
		p.deferring = true
		defer func() { p.deferring = false }()
	}
	var queue []*view
	seen := map[string]bool{}
	push := func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		if v := p.view(name); v != nil {
			queue = append(queue, v)
		}
	}
	for _, name := range p.rootNames() {
		push(name)
	}
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		if v.allowed == nil {
			p.filterPending() // v's step, and what the walk made meanwhile
		}
		if explain && v.own {
			// Every release: what they name is compiled (D222).
			for _, name := range v.tab.named {
				push(name)
			}
			if v.tab.boundless {
				for _, m := range p.in.cat.Modules() {
					push(m.Name)
				}
			}
			continue
		}
		for _, r := range v.candidates(explain) {
			p.pushNamed(v.rels[r], push)
		}
	}
	p.filterPending()
	slices.SortFunc(queue, func(a, b *view) int { return cmp.Compare(a.name, b.name) })
	if explain {
		p.explainClosure = queue
	}
	return queue
}

// filterPending computes the allowed filters of the views made and not
// yet filtered, in halves side by side when they are many (inHalves).
func (p *problem) filterPending() {
	vs := p.pending
	p.pending = nil
	p.inHalves(len(vs), func(mode readMode, _ bool, from, to int) {
		for _, v := range vs[from:to] {
			p.filter(v, mode)
		}
	})
}

// pushNamed pushes, in order, the modules release rel names: those it
// requires, the providers of the capabilities it requires, and those its
// compound requirements may be met by.
func (p *problem) pushNamed(rel *model.Release, push func(string)) {
	for _, d := range rel.Requirements.Modules {
		push(d.Module)
	}
	for _, c := range rel.Requirements.Capabilities {
		for _, name := range p.in.cat.Providers(c) {
			push(name)
		}
	}
	p.pushCompound(rel, push)
}

// rootNames lists the modules a resolution starts from.
func (p *problem) rootNames() []string {
	names := slices.Concat(p.in.req.Enable, p.in.req.Disable, p.in.req.Update, p.in.req.PinnedNames())
	for _, name := range p.in.cluster.ModuleNames() {
		if p.in.cluster.Modules[name].On() {
			names = append(names, name)
		}
	}
	for _, m := range p.in.compiled.t.byBundle[p.in.cluster.Bundle] {
		if !p.in.cluster.Modules[m.Name].Configured() {
			if v := p.view(m.Name); v.intent == intentDefaultOn || v.src.leftPlatform {
				names = append(names, m.Name) // on by default, or ran by default and moves out (R29)
			}
		}
	}
	slices.Sort(names) // views, and so facts, are made in name order, whatever the request's order (R15)
	return slices.Compact(names)
}

// compoundModules lists, sorted, the modules that may satisfy target, and
// whether that list bounds it (see model.Predicate.Names).
func (p *problem) compoundModules(target *model.Predicate) ([]string, bool) {
	modules, capabilities, bounded := target.Names()
	if !bounded {
		return nil, false
	}
	out := slices.Clone(modules)
	for _, c := range capabilities {
		out = append(out, p.in.cat.Providers(c)...)
	}
	slices.Sort(out)
	return slices.Compact(out), true
}

// pushCompound adds to the closure the modules that may satisfy the
// compound requirements of rel: a requirement may need one of them on,
// and a conflict must see those that are on.
func (p *problem) pushCompound(rel *model.Release, push func(string)) {
	for _, c := range rel.Requirements.Compound {
		for _, name := range p.mayMeet(c.Target()) {
			push(name)
		}
	}
}

// mayMeet lists, sorted, the modules whose releases may satisfy target:
// those compoundModules names, or every module of the catalog when its
// atoms do not bound it.
func (p *problem) mayMeet(target *model.Predicate) []string {
	names, bounded := p.compoundModules(target)
	if bounded {
		return names
	}
	names = make([]string, 0, p.in.cat.Len())
	for _, m := range p.in.cat.Modules() {
		names = append(names, m.Name)
	}
	return names
}

// inHalves runs do over [0, n): in two halves side by side when halves
// says so, the second on another goroutine (helper), else all here. Each
// half is told it reads the problem beside the other (readMode): its
// caches of checks are then only read, but for the platform checks,
// made for both axes first and written atomically; a view made on first
// use is made under a lock.
func (p *problem) inHalves(n int, do func(mode readMode, helper bool, from, to int)) {
	if !p.halves(n) {
		do(alone, false, 0, n)
		return
	}
	p.platformChecks(axisDeckhouse)
	p.platformChecks(axisKubernetes)
	half := n / 2
	wait := alongside(func() { do(beside, true, half, n) })
	do(beside, false, 0, half)
	wait()
}

// halves reports whether n items of work are done in two halves side by
// side (settings.sideBySide; 0: never).
func (p *problem) halves(n int) bool { return p.sideBySide > 0 && n >= p.sideBySide }

// alongside runs f on a goroutine of its own and returns a wait that
// returns once f has. A panic in f is raised again by wait, in the
// caller's goroutine, as it would have been had f run there: a server's
// recovery then answers the call instead of the process going down.
func alongside(f func()) (wait func()) {
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	return func() {
		if r := <-done; r != nil {
			panic(r)
		}
	}
}
