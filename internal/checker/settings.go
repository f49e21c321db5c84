package checker

import (
	"github.com/modsolver/modsolver/model"
)

// checkSettings checks R34 from its text: every module the answer moves
// to another release (a built-in module: to another DKP version) is at a
// release whose settings schema accepts the module's settings in the
// cluster. The schema's verdict is the catalog's fact, read through
// model.Release.CheckSettings as a constraint is read through
// Constraint.Allows.
func (c *checker) checkSettings() {
	for _, name := range c.enabledNames() {
		st := c.cluster.Modules[name].Settings
		if st == nil {
			continue
		}
		m, v := c.module(name), c.on[name]
		rel := c.movedTo(m, v)
		if rel == nil {
			continue
		}
		if verdict := rel.CheckSettings(st); verdict.Refused != nil {
			c.add("R34", name, "moves to %s, whose settings schema refuses the module's settings: %s", v, verdict.Refused)
		}
	}
}

// movedTo is the release m moves to at version v, with its settings
// schema, or nil when m stays where it runs.
func (c *checker) movedTo(m *model.Module, v model.Version) *model.Release {
	if m.Embedded {
		if c.dkp == nil || c.cluster.Deckhouse != nil && model.SameVersion(model.Core(c.dkp), model.Core(c.cluster.Deckhouse)) {
			return nil
		}
		return &model.Release{Version: c.dkp, Settings: m.SettingsFor(c.dkp)}
	}
	if dv := c.cluster.Modules[m.Name].Version; dv != nil && model.SameVersion(dv, v) {
		return nil
	}
	return m.Release(v)
}
