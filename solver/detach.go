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

// detacher finds a problem's frozen modules and which of them to detach
// (here, and on a state memo in statememo.go). It holds the problem it
// reads (a pointer back).
type detacher struct {
	p *problem
}

// frozen reports whether v keeps its deployed release whatever the rest
// of the answer is.
// A built-in module is frozen unless the request names a candidate DKP
// version, which is its version (R5).
func (dt detacher) frozen(v *view) bool {
	return v.before && !v.inUpdate && v.pinVersion == nil && v.deployed >= 0 &&
		v.intent == intentOn && v.allowed[v.deployed] && (!v.m.Embedded || dt.p.in.req.Platform.Deckhouse == nil)
}

// detach splits a fast-mode closure into the modules to encode and the
// frozen modules that may be left out; it returns the closure whole when
// nothing may be left out.
func (dt detacher) detach(closure []*view) (encode, detached []*view) {
	if dt.p.hooks.keepFrozen {
		return closure, nil
	}
	attached := dt.attached(closure)
	if attached == nil {
		return closure, nil
	}
	for _, v := range closure {
		if attached[v.name] || !dt.frozen(v) {
			encode = append(encode, v)
		} else {
			detached = append(detached, v)
		}
	}
	if !dt.frozenConsistent(closure, detached) {
		return closure, nil
	}
	return encode, detached
}

// attached marks the frozen modules that must be encoded: those that
// share something with a module that may change, and, transitively, those
// that share an exclusive group or a capability with an attached one. A
// module requirement between two frozen modules is between two constants:
// when one of them is detached, frozenConsistent checks it. It returns nil
// when no module of the closure is frozen.
func (dt detacher) attached(closure []*view) map[string]bool {
	var frozen []*view
	t := newTouchSet(len(closure))
	for _, v := range closure {
		if dt.frozen(v) {
			frozen = append(frozen, v)
		} else {
			t.add(v, v.candidates(false), true)
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
				t.add(v, []int{v.deployed}, false)
				grown = true
			}
		}
	}
	return out
}

// touchSet is what the encoded modules are or name: the modules that may
// change (encoded) and the modules their candidates require (needed, with
// the modules their compound requirements name, R24), and the exclusive
// groups and capabilities that any encoded module is in, provides or
// requires.
type touchSet struct {
	encoded, needed, groups, capabilities map[string]bool
}

// newTouchSet makes a touchSet for about n modules.
func newTouchSet(n int) touchSet {
	return touchSet{encoded: make(map[string]bool, n), needed: make(map[string]bool, n), groups: map[string]bool{}, capabilities: map[string]bool{}}
}

// add records what module v names through the releases rels; changing
// says whether v may change, so that the modules it requires and those
// that require it are encoded with it.
func (t touchSet) add(v *view, rels []int, changing bool) {
	t.encoded[v.name] = t.encoded[v.name] || changing
	if g := v.m.ExclusiveGroup; g != "" {
		t.groups[g] = true
	}
	if v.own {
		// The compiled groups name each required module once, where the
		// releases name it once each.
		for _, g := range v.tab.requirements {
			if intersects(g.poss, rels) {
				t.needed[g.dep.Module] = t.needed[g.dep.Module] || changing
			}
		}
	}
	for _, r := range rels {
		rel := v.rels[r]
		if !v.own {
			for _, d := range rel.Requirements.Modules {
				t.needed[d.Module] = t.needed[d.Module] || changing
			}
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

// intersects reports whether the ascending lists a and b share an element.
func intersects(a, b []int) bool {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
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
// provided twice, for each detached one, its requirements hold against
// the frozen modules (a detached module requires no module that may
// change, or it would be attached), and for each attached frozen one, its
// requirements on detached modules hold, as the encoding leaves them out.
func (dt detacher) frozenConsistent(closure, detached []*view) bool {
	on := map[string]*view{}
	for _, v := range closure {
		if dt.frozen(v) {
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
	left := map[string]*view{}
	for _, v := range detached {
		left[v.name] = v
		rel := v.rels[v.deployed]
		if !dt.dependenciesHold(v, rel, on) || slices.ContainsFunc(rel.Requirements.Capabilities, func(c string) bool { return !provided[c] }) {
			return false
		}
	}
	for name, v := range on {
		if left[name] == nil && !dt.requirementsOnHold(v, v.rels[v.deployed], left) {
			return false
		}
	}
	return true
}

// requirementsOnHold checks R2 and R3 for an attached frozen module's
// release, for the modules it requires among detached.
func (dt detacher) requirementsOnHold(v *view, rel *model.Release, detached map[string]*view) bool {
	for _, d := range rel.Requirements.Modules {
		if dv := detached[d.Module]; dv != nil && !dt.p.admits(v, &d.Constraint, dv, dv.rels[dv.deployed].Version) {
			return false
		}
	}
	return true
}

// dependenciesHold checks R2 and R3 for a detached module's release
// against the frozen modules on. A module it names that is not frozen is
// off: were it in the closure and free to change, the release's module
// would be attached.
func (dt detacher) dependenciesHold(v *view, rel *model.Release, on map[string]*view) bool {
	for _, d := range rel.Requirements.Modules {
		dv, ok := on[d.Module]
		switch {
		case !ok && d.Constraint.Optional:
		case !ok:
			return false
		case !dt.p.admits(v, &d.Constraint, dv, dv.rels[dv.deployed].Version):
			return false
		}
	}
	return true
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

// anyModule marks, in a detach touch set, that some compound predicate
// may be satisfied by a module that none of its atoms names.
const anyModule = "\x00any module"
