package checker

import (
	"maps"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// checkExtended checks the rules beyond DKP's own: capabilities (R19),
// their uniqueness (R20) and platform components (R22).
func (c *checker) checkExtended() {
	providers := c.providers()
	for _, name := range c.enabledNames() {
		m := c.module(name)
		reqs := requirementsOf(m, c.selectedRelease(m))
		for _, capability := range reqs.Capabilities {
			if len(providers[capability]) == 0 {
				c.add("R19", name, "requires capability %s, which no enabled module provides", capability)
			}
		}
		c.checkComponents(name, reqs)
	}
	for _, capability := range slices.Sorted(maps.Keys(providers)) {
		if names := providers[capability]; len(names) > 1 {
			c.add("R20", names[0], "capability %s is provided by %d enabled modules: %s", capability, len(names), strings.Join(names, ", "))
		}
	}
}

// providers maps each capability to the enabled modules whose selected
// release provides it, in name order. It is computed once per answer.
func (c *checker) providers() map[string][]string {
	if c.provided != nil {
		return c.provided
	}
	out := map[string][]string{}
	c.provided = out
	for _, name := range c.enabledNames() {
		if rel := c.selectedRelease(c.module(name)); rel != nil {
			for _, capability := range rel.Provides {
				out[capability] = append(out[capability], name)
			}
		}
	}
	return out
}

// checkComponents checks R22 with D33: a requirement on a component the
// cluster does not run is not met, unless it is optional (D69), as R3
// reads an optional module requirement on a disabled module.
func (c *checker) checkComponents(name string, reqs model.Requirements) {
	for _, component := range slices.Sorted(maps.Keys(reqs.Platform)) {
		want := reqs.Platform[component]
		v := c.req.Platform.Components[component]
		if v == nil {
			v = c.cluster.Platform[component]
		}
		switch {
		case v == nil && want.Optional:
		case v == nil:
			c.add("R22", name, "requires %s %s: the cluster does not run %s", component, want.Text, component)
		case !want.Allows(v):
			c.add("R22", name, "requires %s %s: it is at %s", component, want.Text, v)
		}
	}
}

// providesTo reports whether the selected release of provider provides a
// capability that the selected release of name requires.
func (c *checker) providesTo(provider, name string) bool {
	m := c.module(name)
	for _, capability := range requirementsOf(m, c.selectedRelease(m)).Capabilities {
		if slices.Contains(c.providers()[capability], provider) {
			return true
		}
	}
	return false
}

// graphReachable lists the releases of m that an update from v0 reaches
// over its update edges (R21): through releases not above bound (nil: no
// bound), newer than v0, ascending.
func graphReachable(m *model.Module, v0, bound model.Version) []model.Version {
	seen := map[string]bool{v0.String(): true}
	frontier := []model.Version{v0}
	var out []model.Version
	for len(frontier) > 0 {
		cur := frontier[0]
		frontier = frontier[1:]
		for _, r := range m.Releases {
			if seen[r.Version.String()] || (bound != nil && r.Version.GreaterThan(bound)) || !r.Edges.From(cur, m.Reading()) {
				continue
			}
			seen[r.Version.String()] = true
			frontier = append(frontier, r.Version)
			if r.Version.GreaterThan(v0) {
				out = append(out, r.Version)
			}
		}
	}
	slices.SortFunc(out, model.CompareVersions)
	return out
}
