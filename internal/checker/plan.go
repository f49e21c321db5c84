package checker

import (
	"maps"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// checkGroups checks R13: at most one enabled module per exclusive group.
func (c *checker) checkGroups() {
	groups := map[string][]string{}
	for _, name := range c.enabledNames() {
		if g := c.module(name).ExclusiveGroup; g != "" {
			groups[g] = append(groups[g], name)
		}
	}
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		if names := groups[g]; len(names) > 1 {
			c.add("R13", names[0], "exclusive group %q has %d enabled modules: %s", g, len(names), strings.Join(names, ", "))
		}
	}
}

// checkPlan checks R18: the plan holds one step for every module the
// answer does not leave absent, dependencies come first, and a disable
// comes before the install or update in its exclusive group.
func (c *checker) checkPlan() {
	pos := c.planPositions()
	c.checkPlanCoverage(pos)
	c.checkDependencyOrder(pos)
	c.checkDisableOrder(pos)
}

// planPositions indexes the plan by module, reporting steps that are
// repeated or that disagree with the module's result.
func (c *checker) planPositions() map[string]int {
	pos := make(map[string]int, len(c.res.Plan))
	for i, s := range c.res.Plan {
		if _, dup := pos[s.Module]; dup {
			c.add("R18", s.Module, "listed twice in the plan")
			continue
		}
		pos[s.Module] = i
		r, ok := c.results[s.Module]
		switch {
		case !ok || r.Action == model.ActionAbsent:
			c.add("R18", s.Module, "plan step %s for a module the result does not change", s.Action)
		case s.Action != r.Action || s.ToVersion != r.ToVersion:
			c.add("R18", s.Module, "plan step %s %q disagrees with the result %s %q", s.Action, s.ToVersion, r.Action, r.ToVersion)
		case s.FromSource != r.FromSource || s.ToSource != r.ToSource:
			c.add("R23", s.Module, "plan step from source %q to %q disagrees with the result's %q to %q", s.FromSource, s.ToSource, r.FromSource, r.ToSource)
		}
	}
	return pos
}

func (c *checker) checkPlanCoverage(pos map[string]int) {
	for _, name := range slices.Sorted(maps.Keys(c.results)) {
		if _, ok := pos[name]; !ok && c.results[name].Action != model.ActionAbsent {
			c.add("R18", name, "action %s is missing from the plan", c.results[name].Action)
		}
	}
}

// checkDependencyOrder checks that every enabled dependency of an enabled
// module comes first in the plan. Modules that require each other, over
// any path, cannot both come first, so a cycle is not reported.
func (c *checker) checkDependencyOrder(pos map[string]int) {
	for _, name := range c.enabledNames() {
		at, ok := pos[name]
		if !ok {
			continue
		}
		for _, dep := range c.enabledDeps(name) {
			if depAt, ok := pos[dep]; ok && depAt > at && !c.reaches(dep, name) {
				c.add("R18", name, "planned before its dependency %s", dep)
			}
		}
	}
}

// enabledDeps lists the modules that name's selected release requires,
// required or optional, that are enabled after.
func (c *checker) enabledDeps(name string) []string {
	m := c.module(name)
	var out []string
	for _, d := range requirementsOf(m, c.selectedRelease(m)).Modules {
		if _, on := c.on[d.Module]; on {
			out = append(out, d.Module)
		}
	}
	for _, capability := range requirementsOf(m, c.selectedRelease(m)).Capabilities {
		for _, other := range c.providers()[capability] {
			if other != name && !slices.Contains(out, other) {
				out = append(out, other) // a capability provider comes first (R19)
			}
		}
	}
	for _, other := range c.compoundDeps(name) {
		if !slices.Contains(out, other) {
			out = append(out, other) // a module meeting a compound requirement comes first (R24)
		}
	}
	return out
}

// reaches reports whether from must come after to, directly or through
// other enabled modules: it requires it, or (D136) it refuses the release
// to runs, which to leaves first.
func (c *checker) reaches(from, to string) bool {
	seen := map[string]bool{from: true}
	stack := []string{from}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, dep := range slices.Concat(c.enabledDeps(cur), c.leftFirst(cur)) {
			if dep == to {
				return true
			}
			if !seen[dep] {
				seen[dep] = true
				stack = append(stack, dep)
			}
		}
	}
	return false
}

// checkDisableOrder checks that a module leaving an exclusive group is
// disabled before another of the group is installed or updated.
func (c *checker) checkDisableOrder(pos map[string]int) {
	for _, x := range c.res.Modules {
		gx := c.groupOf(x.Name)
		xAt, ok := pos[x.Name]
		if x.Action != model.ActionDisable || gx == "" || !ok {
			continue
		}
		for _, y := range c.res.Modules {
			yAt, ok := pos[y.Name]
			grows := y.Action == model.ActionInstall || y.Action == model.ActionUpdate
			if grows && ok && y.Name != x.Name && c.groupOf(y.Name) == gx && yAt < xAt {
				c.add("R18", y.Name, "planned before disabling %s of exclusive group %q", x.Name, gx)
			}
		}
	}
}

func (c *checker) groupOf(name string) string {
	if m := c.module(name); m != nil {
		return m.ExclusiveGroup
	}
	return ""
}

// leftFirst lists the modules whose running release a conflict of name's
// selected release refuses, and which the answer moves out of it, by a
// disable or another release (D136): they leave before name comes.
func (c *checker) leftFirst(name string) []string {
	m := c.module(name)
	var out []string
	for _, req := range requirementsOf(m, c.selectedRelease(m)).Compound {
		conflict, target := splitNot(req.Predicate)
		if !conflict {
			continue
		}
		for other, r := range c.results {
			om := c.module(other)
			from, ran := c.cluster.Deployed(om)
			if other == name || !ran || r.Action == model.ActionKeep || from == nil {
				continue
			}
			var provides []string
			if rel := om.Release(from); rel != nil {
				provides = rel.Provides
			}
			if c.matches(m, target, other, from, provides) {
				out = append(out, other)
			}
		}
	}
	slices.Sort(out)
	return out
}
