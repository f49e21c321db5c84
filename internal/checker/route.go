package checker

import (
	"fmt"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// checkRoute33 checks R33 from its text on a resolved answer: where the
// catalog carries DKP's release data and the answer moves a platform
// minor up, the answer has a route; the route starts at the cluster's
// minors and ends at the answer's, each step moves one minor of DKP or
// of Kubernetes up, every point is a pair its DKP release supports, a
// DKP step has its Kubernetes floor met where it leaves, and every module
// the cluster runs at a release of its own passes each point: its
// release (after the changes listed before the step) admits it, each
// change is an update within the module's own releases, up to the
// answer's, that admits the point the step leaves as well, or turns off a
// module the answer turns off.
func (c *checker) checkRoute33() {
	data := c.cat.PlatformReleases()
	if data == nil || c.cluster.Deckhouse == nil || c.cluster.Kubernetes == nil || c.dkp == nil || c.kube == nil {
		if len(c.res.Route) > 0 {
			c.add("R33", "", "has a route, but the catalog carries no release data or the platform is not known")
		}
		return
	}
	from := [2]model.MajorMinor{model.MinorOf(c.cluster.Deckhouse), model.MinorOf(c.cluster.Kubernetes)}
	to := [2]model.MajorMinor{model.MinorOf(c.dkp), model.MinorOf(c.kube)}
	up := to[0].Compare(from[0]) >= 0 && to[1].Compare(from[1]) >= 0 && to != from
	if !up {
		if len(c.res.Route) > 0 {
			c.add("R33", "", "has a route, but the answer moves no platform minor up")
		}
		return
	}
	if len(c.res.Route) == 0 {
		c.add("R33", "", "moves the platform from %s/%s to %s/%s without a route", from[0], from[1], to[0], to[1])
		return
	}
	running := map[string]model.Version{} // module -> release it runs, nil when off
	builtIn := map[string]bool{}          // it still runs built in
	for _, m := range c.cat.Modules() {
		if v, on := c.cluster.Deployed(m); on {
			running[m.Name] = v
			builtIn[m.Name] = m.Embedded || (m.BuiltInSource() != "" && c.cluster.DeployedSource(m) == m.BuiltInSource())
		}
	}
	at := from
	for i, st := range c.res.Route {
		p, err := pointOf(st)
		if err != nil {
			c.add("R33", "", "route step %d: %v", i+1, err)
			return
		}
		dStep, kStep := p[0] != at[0], p[1] != at[1]
		if dStep == kStep || (dStep && !nextMinor(at[0], p[0], data)) || (kStep && !nextMinor(at[1], p[1], nil)) || (dStep && p[1] != at[1]) || (kStep && p[0] != at[0]) {
			c.add("R33", "", "route step %d goes from %s/%s to %s/%s: not one minor of one of them", i+1, at[0], at[1], p[0], p[1])
			return
		}
		if rel := data[p[0]]; rel != nil {
			if _, ok := rel.Kubernetes[p[1]]; !ok {
				c.add("R33", "", "route step %d: DKP %s does not support Kubernetes %s", i+1, p[0], p[1])
			}
			if f := rel.Requirements.K8s; dStep && f != (model.MajorMinor{}) && at[1].Compare(f) < 0 {
				c.add("R33", "", "route step %d moves to DKP %s on Kubernetes %s, below its floor %s", i+1, p[0], at[1], f)
			}
		}
		for _, ch := range st.Modules {
			c.checkRouteChange(i, ch, at, p, running, builtIn[ch.Module])
			builtIn[ch.Module] = false
		}
		for name, v := range running {
			if v == nil {
				continue
			}
			m := c.module(name)
			if m == nil {
				continue
			}
			if rel := data[p[0]]; dStep && rel != nil && slices.Contains(rel.Requirements.DisabledModules, name) {
				c.add("R33", name, "runs through the step to DKP %s, whose disabledModules lists it", p[0])
			}
			if rel := data[p[0]]; dStep && rel != nil && builtIn[name] && slices.Contains(rel.Requirements.MigratedModules, name) {
				c.add("R33", name, "runs built in through the step to DKP %s, whose migratedModules lists it", p[0])
			}
			if why := c.refusesPoint(m, v, p); why != "" {
				c.add("R33", name, "runs %s through the step to %s/%s, which it does not admit: %s", v, p[0], p[1], why)
			}
		}
		at = p
	}
	if at != to {
		c.add("R33", "", "the route ends at %s/%s, not at the answer's %s/%s", at[0], at[1], to[0], to[1])
	}
}

// checkRouteChange checks one module change before route step i.
func (c *checker) checkRouteChange(i int, ch model.PlanStep, at, p [2]model.MajorMinor, running map[string]model.Version, builtIn bool) {
	m := c.module(ch.Module)
	cur, on := running[ch.Module]
	if m == nil || !on || cur == nil {
		c.add("R33", ch.Module, "route step %d changes a module that does not run there", i+1)
		return
	}
	if ch.Action == model.ActionDisable {
		if _, after := c.on[ch.Module]; after {
			c.add("R33", ch.Module, "route step %d turns it off, but the answer keeps it on", i+1)
		}
		running[ch.Module] = nil
		return
	}
	v, err := model.ParseVersion(ch.ToVersion)
	final := c.on[ch.Module]
	switch {
	case err != nil || m.Release(v) == nil || (ch.Action != model.ActionUpdate && !builtIn):
		c.add("R33", ch.Module, "route step %d: %s %s is no update to a release of it", i+1, ch.Action, ch.ToVersion)
		return
	case builtIn && (final == nil || !model.SameVersion(v, final)):
		c.add("R33", ch.Module, "route step %d moves it from built in to %s, not to the answer's %v", i+1, v, final)
	case !builtIn && (v.Compare(cur) <= 0 || final == nil || v.Compare(final) > 0):
		c.add("R33", ch.Module, "route step %d moves it from %s to %s, not up towards the answer's %v", i+1, cur, v, final)
	}
	if why := c.refusesPoint(m, v, at); why != "" {
		c.add("R33", ch.Module, "route step %d deploys %s at %s/%s, which it does not admit: %s", i+1, v, at[0], at[1], why)
	}
	running[ch.Module] = v
}

// refusesPoint says why release v of m does not admit the platform point
// p, or "": its own DKP and Kubernetes requirements, read at the point's
// versions (the answer's or the cluster's where the minor is theirs,
// else the minor's first patch).
func (c *checker) refusesPoint(m *model.Module, v model.Version, p [2]model.MajorMinor) string {
	rel := m.Release(v)
	if rel == nil {
		return ""
	}
	pick := func(mm model.MajorMinor, answer, cluster model.Version) model.Version {
		if mm == model.MinorOf(answer) {
			return answer
		}
		if mm == model.MinorOf(cluster) {
			return cluster
		}
		return mm.Version()
	}
	dkp, kube := pick(p[0], c.dkp, c.cluster.Deckhouse), pick(p[1], c.kube, c.cluster.Kubernetes)
	if k := rel.Requirements.Deckhouse; k != nil && !k.Allows(model.Core(dkp)) {
		return "it requires deckhouse " + k.Text
	}
	if k := rel.Requirements.Kubernetes; k != nil && !k.Allows(kube) {
		return "it requires kubernetes " + k.Text
	}
	return ""
}

// pointOf reads a route step's minors.
func pointOf(st model.RouteStep) ([2]model.MajorMinor, error) {
	d, err := model.ParseMajorMinor(model.MinorText(st.Deckhouse))
	if err != nil {
		return [2]model.MajorMinor{}, fmt.Errorf("deckhouse %q: %w", st.Deckhouse, err)
	}
	k, err := model.ParseMajorMinor(model.MinorText(st.Kubernetes))
	if err != nil {
		return [2]model.MajorMinor{}, fmt.Errorf("kubernetes %q: %w", st.Kubernetes, err)
	}
	return [2]model.MajorMinor{d, k}, nil
}

// nextMinor reports whether b is the minor after a: the next of the same
// major, or, across majors, the next minor that data knows (or b itself).
func nextMinor(a, b model.MajorMinor, data model.PlatformReleases) bool {
	if a.Major == b.Major {
		return b.Minor == a.Minor+1
	}
	if b.Compare(a) <= 0 {
		return false
	}
	for m := range data {
		if m.Compare(a) > 0 && m.Compare(b) < 0 {
			return false
		}
	}
	return true
}
