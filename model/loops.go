package model

import (
	"fmt"
	"slices"
)

// LoopRule says whether a module may take part in a dependency loop
// (R27): selected releases of enabled modules that require one another
// in a circle. DKP, KUDO and Crossplane refuse such loops; OLM and Helm
// resolve them. The importer that reads a module sets its rule, as its
// ecosystem reads loops (D125).
type LoopRule string

const (
	// LoopsRefuse refuses every loop the answer would close (DKP's rule).
	// The zero value reads as LoopsRefuse.
	LoopsRefuse LoopRule = "refuse"
	// LoopsAllow lets modules in a loop be installed together; the plan
	// applies them as one unit (R18).
	LoopsAllow LoopRule = "allow"
)

// LoopRules lists the rules, in the order the documentation names them.
var LoopRules = []LoopRule{LoopsRefuse, LoopsAllow}

// ParseLoopRule reads a rule name; "" means unset, which refuses.
func ParseLoopRule(text string) (LoopRule, error) {
	if r := LoopRule(text); text == "" || slices.Contains(LoopRules, r) {
		return r, nil
	}
	return "", fmt.Errorf("%w: unknown dependencyLoops %q (want refuse or allow)", ErrInvalidValue, text)
}

// RefusesLoops reports whether m's own rule refuses loops.
func (m *Module) RefusesLoops() bool { return m.DependencyLoops != LoopsAllow }

// RefusesLoopsAt reports whether release r of m refuses loops: a
// release's rule is its source's (R23: rules are read from the source a
// release comes from), so that in a merged catalog a module may refuse
// loops at one source's releases and allow them at another's. A loop is
// refused when any of its modules is at a release that refuses (D125).
func (m *Module) RefusesLoopsAt(r *Release) bool {
	if sm := m.ForSource(r.Source); r.Source != "" && sm != nil {
		return sm.RefusesLoops()
	}
	return m.RefusesLoops()
}

// RefusesLoopsAnywhere reports whether m refuses loops at some release:
// its own rule, or, for a module of several sources, any source's (a
// built-in copy's included, R29).
func (m *Module) RefusesLoopsAnywhere() bool {
	if m.RefusesLoops() {
		return true
	}
	return slices.ContainsFunc(m.ModuleSources(), func(s string) bool { return m.ForSource(s).RefusesLoops() })
}

// LoopEdge reports whether a release of m with requirements req requires
// next for the purpose of loops (R27): any module requirement, required or
// optional, as DKP's loop check follows both. A module requiring itself
// is no edge: it names no other module to order it after.
func LoopEdge(m *Module, req Requirements, next string) bool {
	return next != m.Name && slices.ContainsFunc(req.Modules, func(d Dependency) bool { return d.Module == next })
}
