package oracle

import "github.com/modsolver/modsolver/model"

// consistent reports whether an assignment (per module: -1 for off, else
// a release index) satisfies the rules that span modules: module
// requirements (R2, R3), exclusive groups (R13), required capabilities
// (R19), their uniqueness (R20), compound requirements (R24) and
// dependency loops (R27, loops.go). The rules on one module alone are in
// the options already.
func (p *problem) consistent(sel []int) bool {
	groups := map[string]bool{}
	provided := map[string]bool{}
	for i, x := range p.mods {
		if sel[i] < 0 {
			continue
		}
		if g := x.m.ExclusiveGroup; g != "" {
			if groups[g] {
				return false // R13
			}
			groups[g] = true
		}
		for _, c := range x.rels[sel[i]].Provides {
			if provided[c] {
				return false // R20
			}
			provided[c] = true
		}
	}
	for i, x := range p.mods {
		if sel[i] < 0 {
			continue
		}
		req := x.rels[sel[i]].Requirements
		for _, d := range req.Modules {
			if !p.dependencyHolds(d, sel) {
				return false
			}
		}
		for _, c := range req.Capabilities {
			if !provided[c] {
				return false // R19
			}
		}
		for _, c := range req.Compound {
			if !p.compoundHolds(i, c, sel) {
				return false // R24
			}
		}
	}
	return p.loopsAllowed(sel) // R27
}

// dependencyHolds checks R2 and R3: a required module is on at a version
// inside the constraint; an optional one, if on, is inside it. Versions
// are checked without prerelease (R6); a built-in module is at the
// effective DKP version (R5).
func (p *problem) dependencyHolds(d model.Dependency, sel []int) bool {
	j, known := p.index[d.Module]
	if !known || sel[j] < 0 {
		return d.Constraint.Optional
	}
	return d.Constraint.Allows(model.Core(p.mods[j].rels[sel[j]].Version))
}
