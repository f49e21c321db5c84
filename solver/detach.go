package solver

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// Detaching frozen modules keeps a one-module install on a large cluster
// closure-limited (DESIGN §6). A module that is enabled, deployed, outside
// the update set and not pinned keeps its deployed release (R9), so its
// only part in a resolution is as a constant. When such a module shares
// nothing with the modules that may change (no requirement either way, no
// exclusive group, no capability), and the frozen modules are consistent
// among themselves, leaving it out of the encoding changes no answer: it
// is reported as kept, from its view. When the frozen modules are not
// consistent among themselves, nothing is detached and the full encoding
// finds the conflict, so that the explanation is the same as ever.

// frozen reports whether v keeps its deployed release whatever the rest
// of the answer is.
// A built-in module is frozen unless the request names a candidate DKP
// version, which is its version (R5).
func (p *problem) frozen(v *view) bool {
	return v.before && !v.inUpdate && v.pinVersion == nil && v.deployed >= 0 &&
		v.intent == intentOn && v.allowed[v.deployed] && (!v.m.Embedded || p.req.Platform.Deckhouse == nil)
}

// detach splits a fast-mode closure into the modules to encode and the
// frozen modules that may be left out; it returns the closure whole when
// nothing may be left out.
func (p *problem) detach(closure []*view) (encode, detached []*view) {
	attached := p.attached(closure)
	if attached == nil {
		return closure, nil
	}
	for _, v := range closure {
		if attached[v.name] || !p.frozen(v) {
			encode = append(encode, v)
		} else {
			detached = append(detached, v)
		}
	}
	if !p.frozenConsistent(closure, detached) {
		return closure, nil
	}
	return encode, detached
}

// attached marks the frozen modules that must be encoded: those that
// share something with a module that may change, and, transitively, those
// that share something with an attached one. The closure matters: a
// requirement between an attached frozen module and a detached one would
// be in neither the encoding nor frozenConsistent's check. It returns nil
// when no module of the closure is frozen.
func (p *problem) attached(closure []*view) map[string]bool {
	var frozen []*view
	t := touchSet{encoded: map[string]bool{}, needed: map[string]bool{}, groups: map[string]bool{}, capabilities: map[string]bool{}}
	for _, v := range closure {
		if p.frozen(v) {
			frozen = append(frozen, v)
		} else {
			t.add(v, v.candidates(false))
		}
	}
	if len(frozen) == 0 {
		return nil
	}
	out := map[string]bool{}
	for grown := true; grown; {
		grown = false
		for _, v := range frozen {
			if !out[v.name] && t.touches(v) {
				out[v.name] = true
				t.add(v, []int{v.deployed})
				grown = true
			}
		}
	}
	return out
}

// touchSet is what the encoded modules are or name: their own names, the
// modules their candidates require (needed, with the modules their
// compound requirements name, R24), their exclusive groups, and the
// capabilities they provide or require.
type touchSet struct {
	encoded, needed, groups, capabilities map[string]bool
}

// add records what module v names through the releases rels.
func (t touchSet) add(v *view, rels []int) {
	t.encoded[v.name] = true
	if g := v.m.ExclusiveGroup; g != "" {
		t.groups[g] = true
	}
	for _, r := range rels {
		rel := v.rels[r]
		for _, d := range rel.Requirements.Modules {
			t.needed[d.Module] = true
		}
		for _, c := range rel.Requirements.Capabilities {
			t.capabilities[c] = true
		}
		for _, c := range rel.Provides {
			t.capabilities[c] = true
		}
		t.addCompound(rel)
	}
}

// touches reports whether frozen module v shares anything with the
// encoded modules.
func (t touchSet) touches(v *view) bool {
	if t.needed[v.name] || t.needed[anyModule] || (v.m.ExclusiveGroup != "" && t.groups[v.m.ExclusiveGroup]) {
		return true
	}
	rel := v.rels[v.deployed]
	if len(rel.Requirements.Compound) > 0 {
		return true // R24: its candidates are read in the encoding
	}
	if slices.ContainsFunc(rel.Requirements.Modules, func(d model.Dependency) bool { return t.encoded[d.Module] }) {
		return true
	}
	has := func(c string) bool { return t.capabilities[c] }
	return slices.ContainsFunc(rel.Requirements.Capabilities, has) || slices.ContainsFunc(rel.Provides, has)
}

// frozenConsistent checks the frozen modules among themselves, as the full
// encoding would: at most one of them per exclusive group, no capability
// provided twice, and for each detached one, its requirements hold against
// the frozen modules (a detached module requires no module that may
// change, or it would be attached).
func (p *problem) frozenConsistent(closure, detached []*view) bool {
	on := map[string]*view{}
	for _, v := range closure {
		if p.frozen(v) {
			on[v.name] = v
		}
	}
	groups := map[string]bool{}
	provided := map[string]bool{}
	for _, v := range closure {
		if on[v.name] == nil {
			continue
		}
		rel := v.rels[v.deployed]
		if g := v.m.ExclusiveGroup; g != "" {
			if groups[g] {
				return false
			}
			groups[g] = true
		}
		for _, c := range rel.Provides {
			if provided[c] {
				return false
			}
			provided[c] = true
		}
	}
	for _, v := range detached {
		rel := v.rels[v.deployed]
		if !dependenciesHold(rel, on) || slices.ContainsFunc(rel.Requirements.Capabilities, func(c string) bool { return !provided[c] }) {
			return false
		}
	}
	return true
}

// dependenciesHold checks R2 and R3 for a detached module's release
// against the frozen modules on. A module it names that is not frozen is
// off: were it in the closure and free to change, the release's module
// would be attached.
func dependenciesHold(rel *model.Release, on map[string]*view) bool {
	for _, d := range rel.Requirements.Modules {
		dv, ok := on[d.Module]
		switch {
		case !ok && d.Constraint.Optional:
		case !ok:
			return false
		case !d.Constraint.Allows(model.Core(dv.rels[dv.deployed].Version)):
			return false
		}
	}
	return true
}
