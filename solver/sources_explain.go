package solver

import (
	"github.com/modsolver/modsolver/model"
)

// requirementFacts indexes the explain encoding's module, capability
// and compound requirement facts by release and what they require.
func (x *explainer) requirementFacts() requirementFacts {
	out := requirementFacts{}
	for _, f := range x.inputFacts() {
		dep := f.dep
		switch f.kind {
		case model.FactModuleRequirement, model.FactCapabilityRequirement:
		case model.FactCompoundRequirement:
			dep = f.compound.String()
		default:
			continue
		}
		for _, r := range f.rels {
			out[reqKey{f.v, r, f.kind, dep}] = f
		}
	}
	return out
}

// sourcePreferences returns the facts of choices in the explain encoding:
// each holds its module off or in its chosen source (D123) and, when
// sources of equal priority tied, to at most its count of requirements
// met across sources. They are preferences (R14), which held-back reasons
// name (R17). A cone makes them again once it grows, since a tie's count
// reads the requirements of every module encoded.
func (x *explainer) sourcePreferences(choices []*sourceChoice) []*fact {
	var out []*fact
	var reqs requirementFacts
	for _, c := range choices {
		mv := x.e.byName[c.v.name]
		if mv == nil {
			continue
		}
		f := x.choices[c]
		if f == nil {
			f = x.e.p.store.newFact(model.FactPreference, c.v)
			f.choice = c
			so := sourcing{x.e}
			for _, l := range so.otherSources(mv, so.sources(mv), c.src) {
				x.e.add(f, l)
			}
			if c.tied {
				if reqs == nil {
					reqs = x.requirementFacts()
				}
				x.boundCross(f, mv, c, reqs)
			}
			if x.choices == nil {
				x.choices = map[*sourceChoice]*fact{}
			}
			x.choices[c] = f
		}
		out = append(out, f)
	}
	return out
}

// boundCross adds, under fact f, "at most c.cross requirements between mv
// from c.src and other modules are met across sources".
func (x *explainer) boundCross(f *fact, mv *modVars, c *sourceChoice, reqs requirementFacts) {
	bads := x.e.live(sourcing{x.e}.crossLits(mv, c.src, reqs))
	if c.cross == 0 {
		for _, b := range bads {
			x.e.add(f, b.Not())
		}
		return
	}
	if c.cross < len(bads) {
		x.e.add(f, totalizer{x.e}.atLeast(bads, c.cross+1)[c.cross].Not())
	}
}
