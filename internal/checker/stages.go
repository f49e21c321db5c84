package checker

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// checkStages checks R25 and R26 from their text: no enabled module is at
// an Experimental release unless the cluster allows experimental modules;
// every enabled Deprecated release, and nothing else, is named by a
// deprecation warning; a module whose deployed release asks for
// confirmation is disabled only by a request that names it, and the plan
// step that disables it carries the message and the annotation.
func (c *checker) checkStages() {
	var deprecated []model.Warning
	for _, name := range c.enabledNames() {
		m, v := c.module(name), c.on[name]
		rel := c.selectedRelease(m)
		if v == nil || (rel == nil && !m.Embedded) {
			continue // reported by checkReleases
		}
		switch m.StageOf(rel) {
		case model.StageExperimental:
			if !c.cluster.ExperimentalAllowed(name) {
				c.add("R25", name, "enabled at Experimental release %s: the cluster does not allow experimental modules", v)
			}
		case model.StageDeprecated:
			deprecated = append(deprecated, model.Warning{Kind: model.WarningDeprecated, Module: name, Version: model.VersionString(v)})
		}
	}
	c.checkDeprecationWarnings(deprecated)
	for _, name := range c.cluster.ModuleNames() {
		if st := c.cluster.Modules[name]; !st.Configured() && st.Version == nil {
			continue // listed for its settings alone (R34): read as a module the state does not list
		}
		c.checkConfirmedDisable(name)
	}
}

// checkDeprecationWarnings compares the answer's deprecation warnings,
// by kind, module and version, with the Deprecated releases it selects.
func (c *checker) checkDeprecationWarnings(want []model.Warning) {
	var got []model.Warning
	for _, w := range c.res.Warnings {
		if w.Kind == model.WarningDeprecated {
			got = append(got, model.Warning{Kind: w.Kind, Module: w.Module, Version: w.Version})
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			c.addReported("R25", w.Module, "Deprecated release %s is selected, but no warning names it", w.Version)
		}
	}
	for _, w := range got {
		if !slices.Contains(want, w) {
			c.addReported("R25", w.Module, "warning names %s as a selected Deprecated release, but it is not one", w.Version)
		}
	}
}

// checkConfirmedDisable checks R26 for one module the cluster configures.
func (c *checker) checkConfirmedDisable(name string) {
	m := c.module(name)
	if m == nil {
		return
	}
	dv, deployed := c.cluster.Deployed(m)
	if !deployed {
		return
	}
	var rel *model.Release
	if !m.Embedded {
		rel = m.Release(dv)
	}
	d := m.DisableOf(rel)
	if _, on := c.on[name]; on || !d.Confirmation {
		return
	}
	if !slices.Contains(c.req.Disable, name) {
		c.add("R26", name, "disabled, but its release asks for confirmation and the request does not disable it by name")
	}
	for _, s := range c.res.Plan {
		if s.Module == name && (s.ConfirmationAnnotation != model.AllowDisablingAnnotation || s.ConfirmationMessage != d.Message) {
			c.addReported("R26", name, "the plan step that disables it does not carry the module's message and the annotation %s", model.AllowDisablingAnnotation)
		}
	}
}

// addReported adds a violation about what the answer reports of its
// selection (Violation.Reported).
func (c *checker) addReported(rule, module, format string, args ...any) {
	c.add(rule, module, format, args...)
	c.out[len(c.out)-1].Reported = true
}
