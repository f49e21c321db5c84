package checker

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// checkVersions checks the version of every enabled module that has a
// release list: stability (R9), the channel head (R10), prereleases (D1)
// and update steps (R11). Built-in modules are exempt: their version is
// the platform's (R5).
func (c *checker) checkVersions() {
	for _, name := range c.enabledNames() {
		m, v := c.module(name), c.on[name]
		if m.Embedded || v == nil || m.Release(v) == nil {
			continue
		}
		c.checkStability(m, v)
		c.checkChannel(m, v)
		c.checkPrerelease(m, v)
		c.checkSteps(m, v)
	}
}

// checkStability checks R9: a deployed module outside the update set keeps
// its version, and nothing goes below the deployed version without a pin.
func (c *checker) checkStability(m *model.Module, v model.Version) {
	v0, deployed := c.cluster.Deployed(m)
	if !deployed || c.pinned(m.Name) != nil {
		return
	}
	switch {
	case !c.inUpdateSet(m.Name) && !model.SameVersion(v, v0):
		c.add("R9", m.Name, "at %s: it is not in the update set, so it keeps %s", v, v0)
	case model.CompareVersions(v, v0) < 0:
		c.add("R9", m.Name, "downgraded from %s to %s without a pin", v0, v)
	}
}

// inUpdateSet reports whether the request lets name change version. It is
// asked only of modules enabled before, which updateAll covers.
func (c *checker) inUpdateSet(name string) bool {
	return c.req.UpdateAll || c.pinned(name) != nil || slices.Contains(c.req.Update, name)
}

// checkChannel checks R10 with D10–D12: nothing above the channel head,
// except the deployed version and a pin.
func (c *checker) checkChannel(m *model.Module, v model.Version) {
	if c.deployedOrPinned(m, v) {
		return
	}
	ch := c.cluster.ChannelOf(m.Name)
	switch head, bounded := c.head(m); {
	case !bounded:
	case head == nil:
		c.add("R10", m.Name, "at %s: channel %s has no release of it, nor does any more stable channel", v, ch)
	case model.CompareVersions(v, head) > 0:
		c.add("R10", m.Name, "at %s, above the head %s of channel %s", v, head, ch)
	}
	c.checkChannelSet(m, v)
}

// head returns the head of m's channel (D10): the channel's version, else
// that of the nearest more stable channel listed. bounded is false when no
// channel is set or m has no channel data; a bounded nil head means no
// release is on the channel.
//
// A module with channels of its own (D32) follows the named channel when it
// lists it, and its default channel when the cluster-wide channel names
// none it lists.
func (c *checker) head(m *model.Module) (head model.Version, bounded bool) {
	if len(m.Channels) == 0 {
		return nil, false
	}
	ch, ok := c.followed(m)
	if ok {
		return m.Channels[ch], true
	}
	return nil, ch != ""
}

// followed names the channel whose version bounds m (D10, D32), with ok
// set; without ok, the channel the cluster names for m, which m does not
// list.
func (c *checker) followed(m *model.Module) (channel string, ok bool) {
	ch := c.cluster.ChannelOf(m.Name)
	if _, ok := m.Channels[ch]; ok {
		return ch, true
	}
	if i := slices.Index(model.Channels, ch); i >= 0 {
		for _, more := range model.Channels[i:] {
			if _, ok := m.Channels[more]; ok {
				return more, true
			}
		}
	}
	if _, ok := m.Channels[m.DefaultChannel]; ok && c.cluster.Modules[m.Name].Channel == "" {
		return m.DefaultChannel, true
	}
	return ch, false
}

// checkChannelSet checks D182: where the channel m follows lists its
// entries, v is one of them and no other entry skips it (a deployed or
// pinned version is exempt, as from the head).
func (c *checker) checkChannelSet(m *model.Module, v model.Version) {
	ch, ok := c.followed(m)
	set := m.ChannelSets[ch]
	if !ok || set == nil {
		return
	}
	same := func(w model.Version) bool { return model.SameVersion(v, w) }
	switch {
	case !slices.ContainsFunc(set.Entries, same):
		c.add("R10", m.Name, "at %s, which is not an entry of channel %s (D182)", v, ch)
	case slices.ContainsFunc(set.Skipped, same):
		c.add("R10", m.Name, "at %s, which another entry of channel %s skips (D182)", v, ch)
	}
}

// deployedOrPinned reports whether v is m's deployed or pinned version.
func (c *checker) deployedOrPinned(m *model.Module, v model.Version) bool {
	v0, deployed := c.cluster.Deployed(m)
	if deployed && model.SameVersion(v, v0) {
		return true
	}
	pin := c.pinned(m.Name)
	return pin != nil && model.SameVersion(v, pin)
}

// checkPrerelease checks D1 and D140: a prerelease is taken only when it
// is deployed, pinned, or the version m's channel points at; or when the
// request says devel, or m's reading takes prereleases as any other
// version (blang), or, under the semver reading, a range of the catalog
// names it (R6).
func (c *checker) checkPrerelease(m *model.Module, v model.Version) {
	if !model.IsPrerelease(v) || c.deployedOrPinned(m, v) || c.prereleaseTaken(m, v) {
		return
	}
	if head, _ := c.head(m); head != nil && model.SameVersion(v, head) {
		return
	}
	c.add("D1", m.Name, "at prerelease %s, which is neither deployed, pinned, nor its channel's version", v)
}

// prereleaseTaken reports whether R6 lets m be at the prerelease v
// wherever a final release could be: under devel, under the blang
// reading, or under the semver reading when a range names v.
func (c *checker) prereleaseTaken(m *model.Module, v model.Version) bool {
	switch m.Versions {
	case model.ReadingBlang:
		return true
	case model.ReadingSemver:
		return c.req.Devel || c.namedByRange(m.Name, v)
	}
	return c.req.Devel
}

// namedByRange reports whether a module requirement that a semver-reading
// module of the catalog writes on name admits the prerelease v: a range
// that does not allow every version, and admits v whole without devel.
func (c *checker) namedByRange(name string, v model.Version) bool {
	for _, m := range c.cat.Modules() {
		if m.Versions != model.ReadingSemver {
			continue
		}
		for _, r := range m.Releases {
			for _, d := range r.Requirements.Modules {
				if d.Module == name && !d.Constraint.AnyVersion() && d.Constraint.Allows(v) {
					return true
				}
			}
		}
	}
	return false
}
