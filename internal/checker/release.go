package checker

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// checkReleases checks each enabled module's selected release: that it
// exists (R1, R5), that its module requirements hold (R2, R3), that the
// platform suits it (R4) and that the edition offers it (R7).
func (c *checker) checkReleases() {
	for _, name := range c.enabledNames() {
		m, v := c.module(name), c.on[name]
		if v == nil {
			continue // reported by checkShape
		}
		rel, ok := c.checkSelected(m, v)
		if !ok {
			continue
		}
		reqs := requirementsOf(m, rel)
		c.checkPlatform(name, reqs)
		c.checkDependencies(name, reqs)
		if available, _ := m.Access(rel).For(c.cluster.Edition); !available {
			c.add("R7", name, "%s is not available in edition %q", v, c.cluster.Edition)
		}
	}
}

// checkSelected finds the release m is enabled at. A built-in module has
// none: its version must be the DKP version, and its module-level
// requirements apply.
func (c *checker) checkSelected(m *model.Module, v model.Version) (*model.Release, bool) {
	if m.Embedded {
		if !model.SameVersion(v, c.dkp) {
			c.add("R5", m.Name, "built-in module at %s: its version is the DKP version %s", v, c.dkp)
		}
		return nil, true
	}
	rel := m.Release(v)
	if rel == nil {
		if dv, deployed := c.cluster.Deployed(m); deployed && model.SameVersion(dv, v) {
			return nil, false // kept at a version the catalog does not list: nothing to check (D73)
		}
		c.add("R1", m.Name, "enabled at %s, which is not one of its releases", v)
		return nil, false
	}
	return rel, true
}

// selectedRelease is the release m is enabled at, or nil for a built-in
// module, a disabled module or a version that is no release.
func (c *checker) selectedRelease(m *model.Module) *model.Release {
	v := c.on[m.Name]
	if m.Embedded || v == nil {
		return nil
	}
	return m.Release(v)
}

// requirementsOf returns what the selected release needs; for a built-in
// module, the module's own requirements (R5, D5).
func requirementsOf(m *model.Module, rel *model.Release) model.Requirements {
	switch {
	case m.Embedded:
		return m.Requirements
	case rel != nil:
		return rel.Requirements
	}
	return model.Requirements{}
}

// checkPlatform checks R4: the DKP version, stripped (R6), and the
// Kubernetes version, as it is.
func (c *checker) checkPlatform(name string, reqs model.Requirements) {
	if d := reqs.Deckhouse; d != nil && !d.Allows(model.Core(c.dkp)) {
		c.add("R4", name, "requires deckhouse %s: the DKP version is %s", d.Text, c.dkp)
	}
	if k := reqs.Kubernetes; k != nil && !k.Allows(c.kube) {
		c.add("R4", name, "requires kubernetes %s: the Kubernetes version is %s", k.Text, c.kube)
	}
}

// checkDependencies checks R2 and R3 in the state after.
func (c *checker) checkDependencies(name string, reqs model.Requirements) {
	for _, d := range reqs.Modules {
		rule := "R2"
		if d.Constraint.Optional {
			rule = "R3"
		}
		v, on := c.versionAfter(d.Module)
		switch {
		case c.module(d.Module) == nil && !d.Constraint.Optional:
			c.add(rule, name, "requires %s, which is not in the catalog", d.Module)
		case !on && !d.Constraint.Optional:
			c.add(rule, name, "requires %s (%s), which is disabled", d.Module, d.Constraint.Text)
		case on && v != nil && !c.admits(c.module(name), &d.Constraint, d.Module, v):
			c.add(rule, name, "requires %s %s: it is at %s", d.Module, d.Constraint.Text, v)
		}
	}
}

// admits reads R6 for a range that module writer wrote on module target,
// at version v: a built-in target's version is the DKP version, read as
// DKP reads it, stripped; otherwise the writer's reading decides. The
// readings are spelt out here, not through the model's, so that a slip
// there is caught.
func (c *checker) admits(writer *model.Module, cons *model.Constraint, target string, v model.Version) bool {
	if t := c.module(target); t != nil && t.Embedded {
		return cons.Allows(model.Core(v))
	}
	switch writer.Versions {
	case model.ReadingSemver:
		if c.req.Devel {
			return cons.AllowsPrereleases(v)
		}
		return cons.Allows(v)
	case model.ReadingBlang:
		return cons.AllowsPrereleases(v)
	}
	return cons.Allows(model.Core(v))
}

// versionAfter is the version of name after the answer, and whether it is
// enabled. A built-in module is at the effective DKP version (R5).
func (c *checker) versionAfter(name string) (model.Version, bool) {
	v, on := c.on[name]
	if on && c.module(name).Embedded {
		return c.dkp, true
	}
	return v, on
}

// checkUnlistedWarnings checks D73: every module deployed at a version the
// catalog (the source it runs from) does not list is named by a warning of
// kind unknown-version.
func (c *checker) checkUnlistedWarnings() {
	for _, name := range c.cluster.ModuleNames() {
		m := c.cat.Module(name)
		if m == nil || m.Embedded {
			continue
		}
		// Listed or not in the source the module runs from, moved or not.
		src := ""
		if c.sourced(m) {
			src = c.deployedSource(m)
		}
		dv, deployed := c.cluster.Deployed(m)
		if !deployed || m.ReleaseIn(src, dv) != nil || (src != "" && src == m.BuiltInSource()) {
			continue // listed, or built in (R29)
		}
		if !slices.ContainsFunc(c.res.Warnings, func(w model.Warning) bool {
			return w.Kind == model.WarningUnknownVersion && w.Module == name && w.Version == model.VersionString(dv)
		}) {
			c.addReported("D73", name, "deployed at %s, which the catalog does not list, but no warning says so", dv)
		}
	}
}
