package solver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// DKP v2 groups (R28) are compound requirements (compound.go) that carry
// their group: an anyOf group is an any over its members' module atoms,
// a noneOf group a conflict over the same any. They are encoded, closed
// over, detached and suggested as any compound requirement is; only
// their sentences differ, which speak DKP's scheduler's words.

// groupMessage renders an R28 fact: the release that declares the group,
// then DKP's sentence, then what each member must (or must not) be, then
// the group's description.
func (p *problem) groupMessage(f *fact) string {
	c, g := f.compound, f.compound.Group
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", f.v.name, releaseLabel(f.v, f.rels))
	if g.Kind == model.GroupNoneOf {
		fmt.Fprintf(&b, "noneOf group '%s' %s: forbidden modules installed: [%s] (forbidden: %s)", g.Name, g.Kind.Outcome(), strings.Join(p.groupViolators(f), ", "), memberRanges(c))
	} else {
		fmt.Fprintf(&b, "anyOf group '%s' %s: one of [%s] must be installed and satisfy its constraint (%s)", g.Name, g.Kind.Outcome(), strings.Join(c.MemberNames(), ", "), memberRanges(c))
	}
	if g.Description != "" {
		b.WriteString(": " + strconv.Quote(g.Description))
	}
	return b.String()
}

// memberRanges lists a group's members with their ranges, in name order.
func memberRanges(c *model.CompoundRequirement) string {
	members := slices.Clone(c.Members())
	slices.SortFunc(members, func(a, b *model.Predicate) int { return strings.Compare(a.Module, b.Module) })
	parts := make([]string, 0, len(members))
	for _, m := range members {
		if m.Version == nil {
			parts = append(parts, m.Module+" at any version")
			continue
		}
		parts = append(parts, m.Module+" "+m.Version.Text)
	}
	return strings.Join(parts, ", ")
}

// groupViolators names, sorted, the members of a noneOf group that stand
// in its way: those the cluster runs inside the forbidden range, and
// those the cluster or the request turns on. When none does (the conflict
// is with a module only some answer would enable), every member that has
// a release inside the range is named.
func (p *problem) groupViolators(f *fact) []string {
	target := f.compound.Target()
	var out []string
	for _, d := range f.members {
		running := d.before && d.deployed >= 0 && target.Holds(d.name, d.rels[d.deployed].Version, d.rels[d.deployed].Provides, readingFor(f.v, d), p.in.req.Devel)
		if running || d.intent == intentOn {
			out = append(out, d.name)
		}
	}
	if len(out) == 0 {
		out = viewNames(f.members)
	}
	slices.Sort(out)
	return out
}

// compoundShort names an R24 or R28 fact in a few words: a group by its
// bucket, name and outcome, and the module that declares it when that is
// not the one asked about; any other requirement by its predicate after
// prefix.
func compoundShort(prefix string) func(string, model.Fact) string {
	return func(module string, f model.Fact) string {
		if f.Group == nil {
			return prefix + f.Subject
		}
		text := fmt.Sprintf("%s group '%s' %s", f.Group.Kind, f.Group.Name, f.Group.Kind.Outcome())
		if f.Module != module {
			text += " (of " + f.Module + ")"
		}
		return text
	}
}
