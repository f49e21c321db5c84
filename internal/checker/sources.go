package checker

import (
	"github.com/modsolver/modsolver/model"
)

// module returns the module called name as the answer uses it: with
// several sources (R23), or for a module a single catalog holds under
// sources of its own (D350), the own module of the source the answer
// takes it from, so that its releases, channels and steps are that
// source's; else the catalog's module. It is nil when the catalog has no
// such module.
func (c *checker) module(name string) *model.Module {
	m := c.cat.Module(name)
	if m == nil || !c.sourced(m) {
		return m
	}
	src := c.results[name].ToSource
	if src == "" {
		src = c.deployedSource(m)
	}
	if own := m.ForSource(src); own != nil {
		return own
	}
	return m
}

// deployedSource is the source the cluster runs m from: the state's
// source, or when it names none, the first source by priority, then name,
// that lists the deployed version, or else the first that holds m (D75).
func (c *checker) deployedSource(m *model.Module) string {
	st := c.cluster.Modules[m.Name]
	if st.Source != "" {
		return st.Source
	}
	if b := m.BuiltInSource(); b != "" && st.Version == nil {
		return b // R29: no version, so it runs built in
	}
	var holding []string
	for _, s := range c.sourceOrder(m) {
		if own := m.ForSource(s); own != nil {
			holding = append(holding, s)
			if st.Version != nil && own.Release(st.Version) != nil {
				return s
			}
		}
	}
	if len(holding) == 0 {
		return ""
	}
	return holding[0]
}

// sourced reports whether m's results name sources: every module of a
// merged catalog (R23), and in a single catalog a module it holds under
// sources of its own (D350).
func (c *checker) sourced(m *model.Module) bool {
	return len(c.cat.Sources()) > 0 || len(m.ModuleSources()) > 1
}

// sourceOrder is the order in which m's sources are looked at for a
// deployed version (D75): the catalog's source order, or for a module of
// a single catalog its own.
func (c *checker) sourceOrder(m *model.Module) []string {
	if len(c.cat.Sources()) == 0 {
		return m.ModuleSources()
	}
	var out []string
	for _, s := range c.cat.Sources() {
		out = append(out, s.Name)
	}
	return out
}

// checkSources checks R23 on every module result: a deployed module stays
// in its source unless the request moves it, a source the request names
// is kept, the selected release is in its source, and fromSource,
// toSource and moved agree. A single catalog has no sources to report,
// but for a module it holds under sources of its own (D350).
func (c *checker) checkSources() {
	for _, r := range c.res.Modules {
		m := c.cat.Module(r.Name)
		if m == nil {
			continue
		}
		if !c.sourced(m) {
			if r.FromSource != "" || r.ToSource != "" || r.Moved {
				c.add("R23", r.Name, "names sources (%q → %q), but the resolution has a single catalog", r.FromSource, r.ToSource)
			}
			continue
		}
		c.checkModuleSource(m, r)
	}
}

func (c *checker) checkModuleSource(m *model.Module, r model.ModuleResult) {
	_, deployed := c.cluster.Deployed(m)
	wantFrom := ""
	if deployed {
		wantFrom = c.deployedSource(m)
	}
	if r.FromSource != wantFrom {
		c.add("R23", r.Name, "fromSource %q, but the cluster runs it from %q", r.FromSource, wantFrom)
	}
	on := enables(r.Action)
	switch {
	case on && r.ToSource == "":
		c.add("R23", r.Name, "enabled after, but toSource is empty")
	case !on && r.ToSource != "":
		c.add("R23", r.Name, "off after, but toSource is %q", r.ToSource)
	}
	if want := r.FromSource != "" && r.ToSource != "" && r.FromSource != r.ToSource; r.Moved != want {
		c.add("R23", r.Name, "moved is %v, but it goes from source %q to %q", r.Moved, r.FromSource, r.ToSource)
	}
	if !on {
		return
	}
	fixed, by := c.req.Sources[m.Name], "the request's sources"
	if fixed == "" && deployed {
		fixed, by = wantFrom, "its deployed source (no request moves it)"
	}
	if fixed == m.BuiltInSource() && fixed != "" && c.req.Sources[m.Name] == "" && !m.CarriedOnTheWay(c.cat.PlatformReleases(), c.cluster.Deckhouse, c.dkp) {
		fixed, by = m.MovedTo(), "the DKP version, which no longer carries it built in (R29)"
	}
	if fixed != "" && r.ToSource != fixed {
		c.add("R23", r.Name, "from source %q, but %s fixes %q", r.ToSource, by, fixed)
	}
	own := m.ForSource(r.ToSource)
	v := parseVersion(r.ToVersion)
	switch {
	case own == nil:
		c.add("R23", r.Name, "from source %q, which does not hold it", r.ToSource)
	case own.Embedded || v == nil: // built in, also in a merged module (R29)
	case own.Release(v) == nil && !(deployed && r.ToSource == wantFrom && model.SameVersion(v, c.cluster.Modules[m.Name].Version)):
		c.add("R23", r.Name, "at %s from source %q, which has no such release", v, r.ToSource)
	}
}
