package randscen

import (
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// groupStream is mixed into the seed of the stream that draws DKP v2
// groups (R28), so that drawing them leaves every other draw of a seed as
// it was before the generator knew R28.
const groupStream = 0x5228_9a0b

// groups draws now and then DKP v2 groups for a release of self (R28):
// an anyOf or a noneOf group, sometimes both, over modules the release
// does not otherwise require, each member with its own range or none. A
// release with groups is written in the v2 form, which holds only
// Masterminds' grammar, so a release whose requirements the v2 form
// cannot write draws none.
func (g *gen) groups(self string, req model.Requirements) []model.CompoundRequirement {
	if g.grng == nil || g.grng.Float64() >= 0.1 || !v2Writable(req.Modules) {
		return nil
	}
	main := g.rng
	g.rng = g.grng // the draws below, rangeOver's too, come from the group stream
	defer func() { g.rng = main }()
	taken := map[string]bool{}
	for _, d := range req.Modules {
		taken[d.Module] = true
	}
	var out []model.CompoundRequirement
	for _, kind := range model.GroupKinds {
		if len(out) > 0 && !g.chance(0.3) {
			break
		}
		if members := g.members(self, taken); len(members) > 0 {
			out = append(out, model.NewGroup(kind, g.pick([]string{"storage", "cni", "legacy", "backend"}), "", members))
		}
	}
	return out
}

// members draws one to three members, none of them taken, and takes them:
// a module is in at most one bucket of a release.
func (g *gen) members(self string, taken map[string]bool) []*model.Predicate {
	var out []*model.Predicate
	for range 1 + g.rng.IntN(3) {
		name := g.pick(g.names)
		switch {
		case g.chance(0.05):
			name = ghostModule
		case name == self && g.chance(0.8):
			continue
		}
		if taken[name] {
			continue
		}
		taken[name] = true
		p := &model.Predicate{Op: model.PredicateModule, Module: name}
		vs, ok := g.versions[name]
		if !ok {
			vs = finalPool
		}
		if text := g.rangeOver(vs, false); text != "" && !strings.Contains(text, "!") && g.chance(0.7) {
			c := model.MustParseConstraint(text)
			p.Version = &c
		}
		out = append(out, p)
	}
	return out
}

// v2Writable reports whether the v2 form can write deps: a mandatory or
// conditional entry takes Masterminds' grammar alone, and a conditional
// one needs a range.
func v2Writable(deps []model.Dependency) bool {
	return !slices.ContainsFunc(deps, func(d model.Dependency) bool {
		rest := strings.TrimSpace(strings.TrimSuffix(d.Constraint.Text, "!optional"))
		return rest == "" || strings.Contains(rest, "!")
	})
}

// fileV2Modules is requirements.modules in the v2 form, as the scenario
// writer writes it for a release with groups (DESIGN.md §2).
type fileV2Modules struct {
	Mandatory   []fileV2Dependency `yaml:"mandatory,omitempty"`
	Conditional []fileV2Dependency `yaml:"conditional,omitempty"`
	AnyOf       []fileV2Group      `yaml:"anyOf,omitempty"`
	NoneOf      []fileV2Group      `yaml:"noneOf,omitempty"`
}

type fileV2Dependency struct {
	Name       string `yaml:"name"`
	Constraint string `yaml:"constraint,omitempty"`
}

type fileV2Group struct {
	Name    string             `yaml:"name"`
	Modules []fileV2Dependency `yaml:"modules,flow"`
}

// v2ModulesOf writes deps and groups in the v2 form: a dependency's
// range without its !optional suffix, in the bucket the suffix chooses.
func v2ModulesOf(deps []model.Dependency, groups []model.CompoundRequirement) *fileV2Modules {
	out := &fileV2Modules{}
	for _, d := range deps {
		entry := fileV2Dependency{Name: d.Module, Constraint: d.Constraint.Text}
		if d.Constraint.Optional {
			entry.Constraint = strings.TrimSpace(strings.TrimSuffix(d.Constraint.Text, "!optional"))
			out.Conditional = append(out.Conditional, entry)
			continue
		}
		out.Mandatory = append(out.Mandatory, entry)
	}
	for _, c := range groups {
		fg := fileV2Group{Name: c.Group.Name}
		for _, m := range c.Members() {
			entry := fileV2Dependency{Name: m.Module}
			if m.Version != nil {
				entry.Constraint = m.Version.Text
			}
			fg.Modules = append(fg.Modules, entry)
		}
		if c.Group.Kind == model.GroupNoneOf {
			out.NoneOf = append(out.NoneOf, fg)
		} else {
			out.AnyOf = append(out.AnyOf, fg)
		}
	}
	return out
}
