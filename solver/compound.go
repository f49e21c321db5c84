package solver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// Compound requirements (R24) on the order encoding. A predicate speaks
// of one release, so whether a release satisfies it is known before
// solving: for each candidate module d the releases of d that satisfy it
// are a union of intervals of d's sorted candidates, and "d's selected
// release satisfies P" is the OR of a few interval literals. A
// requirement is then one clause per run of the requiring releases: not
// at those releases, or some candidate module other than the requiring
// one at a satisfying release. A conflict (a top-level not) forbids each
// candidate's satisfying intervals alongside the requiring releases.

// anyModule marks, in a detach touch set, that some compound predicate
// may be satisfied by a module that none of its atoms names.
const anyModule = "\x00any module"

// compoundGroup is one compound requirement of a module, with the
// candidate positions of the releases that carry it (D20).
type compoundGroup struct {
	req  model.CompoundRequirement
	text string
	poss []int
}

// compoundGroups collects the compound requirements of mv's candidates,
// in text order.
func compoundGroups(mv *modVars) []*compoundGroup {
	var out []*compoundGroup
	for j, r := range mv.dom {
		for _, c := range mv.v.rels[r].Requirements.Compound {
			text := c.String()
			i := slices.IndexFunc(out, func(g *compoundGroup) bool { return g.text == text })
			if i < 0 {
				i = len(out)
				out = append(out, &compoundGroup{req: c, text: text})
			}
			out[i].poss = append(out[i].poss, j)
		}
	}
	slices.SortStableFunc(out, func(a, b *compoundGroup) int { return strings.Compare(a.text, b.text) })
	return out
}

// compoundCandidate is a module other than the requiring one with the
// positions of its releases that satisfy a compound predicate.
type compoundCandidate struct {
	d    *modVars
	poss []int
}

// encodeCompound adds R24 for every candidate of mv.
func (e *encoder) encodeCompound(mv *modVars) {
	for _, g := range compoundGroups(mv) {
		cands := e.compoundCandidates(mv, g.req)
		kind := model.FactCompoundRequirement
		if g.req.Conflict() {
			kind = model.FactCompoundConflict
		}
		f := e.moduleFact(kind, mv, g.poss)
		if f != nil {
			f.compound = &g.req
			for _, c := range cands {
				f.members = append(f.members, c.d.v)
			}
		}
		for _, run := range runsOf(g.poss) {
			if g.req.Conflict() {
				e.encodeConflict(f, mv, run, cands)
				continue
			}
			lits := e.notRun(mv, run[0], run[1])
			for _, c := range cands {
				lits = append(lits, e.compoundLits(c)...)
			}
			e.add(f, lits...)
		}
	}
}

// encodeConflict says: if mv is at a position in run, no candidate is at
// a position that satisfies the conflict's predicate.
func (e *encoder) encodeConflict(f *fact, mv *modVars, run [2]int, cands []compoundCandidate) {
	for _, c := range cands {
		for _, iv := range runsOf(c.poss) {
			e.add(f, append(e.notRun(mv, run[0], run[1]), e.notRun(c.d, iv[0], iv[1])...)...)
		}
	}
}

// compoundCandidates lists, in name order, the encoded modules other than
// mv that have a candidate release satisfying req's target.
func (e *encoder) compoundCandidates(mv *modVars, req model.CompoundRequirement) []compoundCandidate {
	target := req.Target()
	var out []compoundCandidate
	for _, d := range e.compoundScope(target) {
		if d == mv {
			continue
		}
		var poss []int
		for j, r := range d.dom {
			rel := d.v.rels[r]
			if target.Holds(d.v.name, rel.Version, rel.Provides, readingFor(mv.v, d.v), e.p.req.Devel) {
				poss = append(poss, j)
			}
		}
		if len(poss) > 0 {
			out = append(out, compoundCandidate{d: d, poss: poss})
		}
	}
	return out
}

// compoundScope lists, in name order, the encoded modules that may
// satisfy target: those its atoms name or whose releases provide a
// capability it names, or every encoded module when its atoms do not
// bound it.
func (e *encoder) compoundScope(target *model.Predicate) []*modVars {
	names, bounded := e.p.compoundModules(target)
	if !bounded {
		names = nil
		for _, v := range e.universe {
			names = append(names, v.name)
		}
	}
	var out []*modVars
	for _, name := range names {
		if d := e.vars(name); d != nil {
			out = append(out, d)
		}
	}
	return out
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
		out = append(out, p.cat.Providers(c)...)
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
	names = make([]string, 0, p.cat.Len())
	for _, m := range p.cat.Modules() {
		names = append(names, m.Name)
	}
	return names
}

// addCompound records, for detaching, what the compound requirements of
// rel may touch: the modules and capabilities their atoms name, or any
// module at all.
func (t touchSet) addCompound(rel *model.Release) {
	for _, c := range rel.Requirements.Compound {
		modules, capabilities, bounded := c.Target().Names()
		if !bounded {
			t.needed[anyModule] = true
		}
		for _, m := range modules {
			t.needed[m] = true
		}
		for _, cap := range capabilities {
			t.capabilities[cap] = true
		}
	}
}

// compoundMessage renders R24 facts, quoting the requirement's message.
func (p *problem) compoundMessage(f *fact) string {
	c := f.compound
	if c.Group != nil {
		return p.groupMessage(f)
	}
	var b strings.Builder
	if c.Conflict() {
		fmt.Fprintf(&b, "%s %s conflicts with every enabled module whose release matches %s", f.v.name, releasesText(f.v, f.rels), c.Target())
	} else {
		fmt.Fprintf(&b, "%s %s requires another enabled module whose release matches %s", f.v.name, releasesText(f.v, f.rels), c.Target())
	}
	if c.Message != "" {
		b.WriteString(": " + strconv.Quote(c.Message))
	}
	switch {
	case len(f.members) > 0:
		fmt.Fprintf(&b, " (releases of %s do)", strings.Join(viewNames(f.members), ", "))
	case !c.Conflict():
		b.WriteString(" (no release of another module in the catalog satisfies it)")
	}
	return b.String()
}

// compoundChanges lists the suggestions for an R24 fact: for a
// requirement, enable (or update) a module that can satisfy it; for a
// conflict, disable a module that does.
func (s *session) compoundChanges(f *fact) []change {
	names := viewNames(f.members)
	if f.compound.Conflict() {
		return providerChanges(names, disableChange)
	}
	return providerChanges(names, func(name string) change {
		if v := s.p.view(name); v.before && !v.m.Embedded {
			return updateChange(name)
		}
		return enableChange(name)
	})
}

// compoundPlanEdges links, for a release selected by the answer, the
// modules that satisfy its compound requirements before it, and the
// disable or update of a module whose running release a conflict of it
// refuses before it (R18, D136).
func compoundPlanEdges(o *outcome, order []*outcome, link func(from, to string), devel bool) {
	for _, c := range o.v.rels[o.sel].Requirements.Compound {
		target := c.Target()
		for _, other := range order {
			if other == o {
				continue
			}
			at := other.sel
			if c.Conflict() {
				// the module runs a release the conflict refuses and
				// leaves it, disabled or moved out of the range (D136)
				at = other.v.deployed
			}
			if at < 0 {
				continue
			}
			rel := other.v.rels[at]
			if target.Holds(other.v.name, rel.Version, rel.Provides, readingFor(o.v, other.v), devel) {
				link(other.v.name, o.v.name)
			}
		}
	}
}

// compoundLits returns literals whose OR says that c's module is at a
// satisfying position, one per interval.
func (e *encoder) compoundLits(c compoundCandidate) []z.Lit {
	var out []z.Lit
	for _, iv := range runsOf(c.poss) {
		out = append(out, e.interval(c.d, iv[0], iv[1]))
	}
	return out
}
