package randscen

import (
	"github.com/modsolver/modsolver/model"
)

// compoundStream is mixed into the seed of the stream that draws compound
// requirements (R24), so that drawing them leaves every other draw of a
// seed as it was before the generator knew R24.
const compoundStream = 0x5224_c0de

// compounds draws now and then a compound requirement for a release of
// self (or a built-in module self), from the compound stream.
func (g *gen) compounds(self string) []model.CompoundRequirement {
	if g.crng == nil || g.crng.Float64() >= 0.12 {
		return nil
	}
	main := g.rng
	g.rng = g.crng // the draws below, rangeOver's too, come from the compound stream
	defer func() { g.rng = main }()
	c := model.CompoundRequirement{Predicate: g.predicate(self, 0)}
	if g.chance(0.3) {
		c.Message = "needed for " + self
	}
	return []model.CompoundRequirement{c}
}

// predicate draws a predicate node: an atom, or all, any or not over
// smaller ones; at depth 0 a not is a conflict.
func (g *gen) predicate(self string, depth int) *model.Predicate {
	r := g.rng.Float64()
	switch {
	case depth >= 2 || r < 0.35:
		return g.atom(self)
	case r < 0.55:
		return &model.Predicate{Op: model.PredicateAny, Operands: []*model.Predicate{g.predicate(self, depth+1), g.predicate(self, depth+1)}}
	case r < 0.75:
		return &model.Predicate{Op: model.PredicateAll, Operands: []*model.Predicate{g.atom(self), g.predicate(self, depth+1)}}
	}
	return &model.Predicate{Op: model.PredicateNot, Operands: []*model.Predicate{g.predicate(self, depth+1)}}
}

// atom draws a module atom (sometimes on self, the ghost module, or with
// no version) or a capability atom (sometimes one nobody provides).
func (g *gen) atom(self string) *model.Predicate {
	if g.chance(0.3) {
		capability := g.pick(capabilities)
		if g.chance(0.15) {
			capability = missingCapability
		}
		return &model.Predicate{Op: model.PredicateCapability, Capability: capability}
	}
	name := g.pick(g.names)
	switch {
	case g.chance(0.05):
		name = ghostModule
	case name == self && g.chance(0.7):
		name = g.pick(g.names)
	}
	p := &model.Predicate{Op: model.PredicateModule, Module: name}
	vs, ok := g.versions[name]
	if !ok {
		vs = finalPool
	}
	if text := g.rangeOver(vs, false); text != "" && g.chance(0.7) {
		c := model.MustParseConstraint(text)
		p.Version = &c
	}
	return p
}

// fileCompound is a compound requirement node as the scenario writer
// writes it (DESIGN.md §2).
type fileCompound struct {
	Module     string          `yaml:"module,omitempty"`
	Version    string          `yaml:"version,omitempty"`
	Capability string          `yaml:"capability,omitempty"`
	All        []*fileCompound `yaml:"all,omitempty"`
	Any        []*fileCompound `yaml:"any,omitempty"`
	Not        *fileCompound   `yaml:"not,omitempty"`
	Message    string          `yaml:"message,omitempty"`
}

// compoundsOf writes compound requirements; nil for none.
func compoundsOf(cs []model.CompoundRequirement) []*fileCompound {
	var out []*fileCompound
	for _, c := range cs {
		fc := predicateOf(c.Predicate)
		fc.Message = c.Message
		out = append(out, fc)
	}
	return out
}

func predicateOf(p *model.Predicate) *fileCompound {
	out := &fileCompound{}
	switch p.Op {
	case model.PredicateModule:
		out.Module = p.Module
		if p.Version != nil {
			out.Version = p.Version.Text
		}
	case model.PredicateCapability:
		out.Capability = p.Capability
	case model.PredicateNot:
		out.Not = predicateOf(p.Operands[0])
	case model.PredicateAll:
		for _, o := range p.Operands {
			out.All = append(out.All, predicateOf(o))
		}
	case model.PredicateAny:
		for _, o := range p.Operands {
			out.Any = append(out.Any, predicateOf(o))
		}
	}
	return out
}
