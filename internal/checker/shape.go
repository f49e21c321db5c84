package checker

import (
	"strings"

	"github.com/modsolver/modsolver/model"
)

// checkShape checks the answer's modules against DESIGN.md §3: sorted and
// unique, known to the catalog, with versions and actions that match the
// states before and after.
func (c *checker) checkShape() {
	mods := c.res.Modules
	for i := 1; i < len(mods); i++ {
		switch d := strings.Compare(mods[i-1].Name, mods[i].Name); {
		case d == 0:
			c.add(RuleShape, mods[i].Name, "module listed twice in the result")
		case d > 0:
			c.add(RuleShape, mods[i].Name, "modules not sorted by name: %s comes after %s", mods[i].Name, mods[i-1].Name)
		}
	}
	for _, r := range mods {
		c.checkModuleResult(r)
	}
}

func (c *checker) checkModuleResult(r model.ModuleResult) {
	m := c.module(r.Name)
	if m == nil {
		c.add(RuleShape, r.Name, "module in the result is not in the catalog")
		return
	}
	from, running := c.cluster.Deployed(m)
	wantFrom := ""
	if running {
		wantFrom = model.VersionString(from)
	}
	if r.FromVersion != wantFrom {
		c.add(RuleShape, r.Name, "fromVersion %q: want the deployed version %q", r.FromVersion, wantFrom)
	}
	c.checkToVersion(r)
	if want, ok := expectedAction(from, running, r); ok && want != r.Action {
		c.add(RuleShape, r.Name, "action %s: want %s (from %q to %q)", r.Action, want, r.FromVersion, r.ToVersion)
	}
}

// checkToVersion checks that an enabled module names its version in
// canonical form (D3), and that a disabled one names none.
func (c *checker) checkToVersion(r model.ModuleResult) {
	if !enables(r.Action) {
		if r.ToVersion != "" {
			c.add(RuleShape, r.Name, "action %s with toVersion %q: want none", r.Action, r.ToVersion)
		}
		return
	}
	v := parseVersion(r.ToVersion)
	switch {
	case v == nil:
		c.add(RuleShape, r.Name, "action %s with toVersion %q: want a version", r.Action, r.ToVersion)
	case v.String() != r.ToVersion:
		c.add(RuleShape, r.Name, "toVersion %q is not canonical: want %q (D3)", r.ToVersion, v.String())
	}
}

// expectedAction is the action that the states before and after call for.
// It reports false when the version after cannot be read.
func expectedAction(from model.Version, running bool, r model.ModuleResult) (model.Action, bool) {
	switch on := enables(r.Action); {
	case !on && running:
		return model.ActionDisable, true
	case !on:
		return model.ActionAbsent, true
	case !running:
		return model.ActionInstall, true
	}
	to := parseVersion(r.ToVersion)
	if to == nil {
		return 0, false
	}
	switch d := model.CompareVersions(to, from); {
	case d > 0:
		return model.ActionUpdate, true
	case d < 0:
		return model.ActionDowngrade, true
	}
	return model.ActionKeep, true
}
