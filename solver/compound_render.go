package solver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Compound requirements (R24), as facts word them.

// compoundMessage renders R24 facts, quoting the requirement's message.
func (w wording) compoundMessage(f *fact) string {
	c := f.compound
	if c.Group != nil {
		return w.groupMessage(f)
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

// groupMessage renders an R28 fact: the release that declares the group,
// then DKP's sentence, then what each member must (or must not) be, then
// the group's description.
func (w wording) groupMessage(f *fact) string {
	c, g := f.compound, f.compound.Group
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", f.v.name, releaseLabel(f.v, f.rels))
	if g.Kind == model.GroupNoneOf {
		fmt.Fprintf(&b, "noneOf group '%s' %s: forbidden modules installed: [%s] (forbidden: %s)", g.Name, g.Kind.Outcome(), strings.Join(w.groupViolators(f), ", "), memberRanges(c))
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
func (w wording) groupViolators(f *fact) []string {
	target := f.compound.Target()
	var out []string
	for _, d := range f.members {
		running := d.before && d.deployed >= 0 && target.Holds(d.name, d.rels[d.deployed].Version, d.rels[d.deployed].Provides, readingFor(f.v, d), w.p.in.req.Devel)
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
