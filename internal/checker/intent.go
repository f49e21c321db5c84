package checker

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// checkIntents checks R8 (with D15: the request's facts are hard) for
// every module of the catalog.
func (c *checker) checkIntents() {
	for _, m := range c.cat.Modules() {
		c.checkIntent(m)
	}
}

// checkIntent applies the strongest intent that names m: the request's
// disable, pin and enable, then the cluster's enabled: true or false, and
// last the default of a module nobody configures.
func (c *checker) checkIntent(m *model.Module) {
	name := m.Name
	v, on := c.on[name]
	s := c.cluster.Modules[name]
	switch pin := c.pinned(name); {
	case slices.Contains(c.req.Disable, name):
		if on {
			c.add("R8", name, "enabled at %s: the request disables it", v)
		}
	case pin != nil:
		if !on || v == nil || !model.SameVersion(v, pin) {
			c.add("R8", name, "at %s: the request pins it at %s", model.VersionString(v), pin)
		}
	case slices.Contains(c.req.Enable, name):
		if !on {
			c.add("R8", name, "disabled: the request enables it")
		}
	case s.On():
		if !on && !c.req.AllowDisable {
			c.add("R8", name, "disabled: the cluster enables it and the request does not allow disabling")
		}
	case s.Off():
		if on {
			c.add("R8", name, "enabled at %s: the cluster disables it and the request does not enable it", v)
		}
	case on && !c.onByDefault(m):
		c.checkAutoEnabled(name)
	}
}

// onByDefault approximates R7's bundle default: the cluster's bundle is
// listed for its edition by the module or by any of its releases. The
// exact rule reads only the newest selectable release, which depends on
// the answer; the approximation errs towards accepting, so it never
// flags a correct answer.
func (c *checker) onByDefault(m *model.Module) bool {
	accs := []*model.Accessibility{m.Accessibility}
	if b := m.BuiltInSource(); b != "" {
		accs = append(accs, m.ForSource(b).Accessibility) // R29: it may run built in
	}
	for _, r := range m.Releases {
		accs = append(accs, r.Accessibility)
	}
	for _, a := range accs {
		if _, bundles := a.For(c.cluster.Edition); slices.Contains(bundles, c.cluster.Bundle) {
			return true
		}
	}
	return false
}

// checkAutoEnabled checks a module that nobody asked for and that is off
// by default: only autoEnable may turn it on, and only for a selected
// release that requires it.
func (c *checker) checkAutoEnabled(name string) {
	switch {
	case !c.req.AutoEnable:
		c.add("R8", name, "enabled, but nothing asks for it: the cluster does not configure it, it is off by default, and autoEnable is off")
	case !c.requiredByOthers(name):
		c.add("R8", name, "enabled by autoEnable, but no selected release requires it")
	}
}

// requiredByOthers reports whether a selected release of another module
// requires name, not optionally.
func (c *checker) requiredByOthers(name string) bool {
	for _, other := range c.enabledNames() {
		m := c.module(other)
		for _, d := range requirementsOf(m, c.selectedRelease(m)).Modules {
			if d.Module == name && !d.Constraint.Optional && other != name {
				return true
			}
		}
		if other != name && c.providesTo(name, other) {
			return true // it provides a capability the other requires (R19)
		}
		if other != name && slices.Contains(c.compoundDeps(other), name) {
			return true // it meets a compound requirement of the other (R24)
		}
	}
	return false
}
