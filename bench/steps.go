package bench

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// versionRules tie a module's version to its deployed version, its
// channel and a pin: R9 (stability), R10 (channel head), R11 (update
// steps), D1 (prereleases). All of them depend on the inputs alone, so a
// peer solver gets them as a filter on the releases it may pick.
type versionRules struct {
	rels     []*model.Release
	embedded bool
	// deployed, pinned and head are release indices, -1 for none.
	deployed, pinned, head int
	// channelVersion is the version the module's channel names, nil when
	// the module follows no channel.
	channelVersion   model.Version
	before, inUpdate bool
	sequential       bool
	steps            []int // releases one sequential step from deployed reaches
}

func (ds *domains) versions(m *model.Module) versionRules {
	v := versionRules{rels: m.Releases, embedded: m.Embedded, deployed: -1, pinned: -1, head: -1,
		sequential: ds.sequential && m.Policy() != model.UpdateDirect}
	st := ds.cluster.Modules[m.Name]
	if m.Embedded {
		v.head = 0
		if st.On() {
			v.before, v.deployed = true, 0
		}
		return v
	}
	if dv, ok := ds.cluster.Deployed(m); ok {
		v.before, v.deployed = true, indexOf(m.Releases, dv)
	}
	if pv := ds.req.Pin[m.Name]; pv != nil {
		v.pinned = indexOf(m.Releases, pv)
	}
	v.inUpdate = v.pinned >= 0 || slices.Contains(ds.req.Update, m.Name) || (ds.req.UpdateAll && st.On())
	v.setHead(m, ds.cluster.ChannelOf(m.Name))
	if v.before && v.deployed >= 0 && v.sequential {
		v.steps = stepTargets(m.Releases, v.head, v.deployed)
	}
	return v
}

func indexOf(rels []*model.Release, ver model.Version) int {
	return slices.IndexFunc(rels, func(r *model.Release) bool { return model.SameVersion(r.Version, ver) })
}

// setHead finds the head of the module's channel (R10, D10): the
// channel's version, or that of the nearest more stable channel listed;
// the newest final release when the module has no channel data; no
// release at all when it has channel data but none for this channel.
func (v *versionRules) setHead(m *model.Module, channel string) {
	var head model.Version
	none := false
	if channel != "" && len(m.Channels) > 0 {
		head = m.ChannelVersion(channel)
		none = head == nil
		v.channelVersion = head
	}
	if head == nil {
		head = newestFinal(m.Releases)
		if none {
			v.channelVersion = head
			return
		}
	}
	for i, r := range m.Releases {
		if head != nil && model.CompareVersions(r.Version, head) <= 0 {
			v.head = i
		}
	}
}

func newestFinal(rels []*model.Release) model.Version {
	for i := len(rels) - 1; i >= 0; i-- {
		if !model.IsPrerelease(rels[i].Version) {
			return rels[i].Version
		}
	}
	if len(rels) > 0 {
		return rels[len(rels)-1].Version
	}
	return nil
}

// allows reports whether release i may be selected under these rules.
func (v versionRules) allows(i int) bool {
	if v.embedded {
		return true
	}
	r := v.rels[i]
	switch {
	case model.IsPrerelease(r.Version) && i != v.deployed && i != v.pinned && !model.SameVersion(r.Version, v.channelVersion):
		return false // D1
	case v.pinned >= 0:
		return i == v.pinned
	case i > v.head && i != v.deployed:
		return false // R10
	case !v.before:
		return true
	case !v.inUpdate:
		return i == v.deployed // R9: outside the update set
	case i < v.deployed:
		return false // R9: no downgrade
	case v.sequential && i > v.deployed:
		return slices.Contains(v.steps, i) // R11
	}
	return true
}

// stepTargets lists the releases one sequential step from release from
// may reach (R11, D13): the highest patch of its own minor, of the next
// minor of its major that has a release, of the lowest 1.x minor from
// 0.x, and any release whose from-to rule covers it. Steps land only on
// releases up to the head, and not on prereleases other than the head.
func stepTargets(rels []*model.Release, head, from int) []int {
	eligible := func(i int) bool { return i == head || (i < head && !model.IsPrerelease(rels[i].Version)) }
	highest := func(match func(model.MajorMinor) bool) int {
		best := -1
		for i, r := range rels {
			if eligible(i) && match(model.MinorOf(r.Version)) {
				best = i
			}
		}
		return best
	}
	v0 := rels[from].Version
	own := model.MinorOf(v0)
	next, one := model.MajorMinor{}, model.MajorMinor{}
	for i := len(rels) - 1; i >= 0; i-- { // the lowest eligible minors above own and of 1.x
		mm := model.MinorOf(rels[i].Version)
		if eligible(i) && mm.Major == own.Major && mm.Compare(own) > 0 {
			next = mm
		}
		if eligible(i) && mm.Major == 1 {
			one = mm
		}
	}
	var out []int
	add := func(i int) {
		if i > from && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	add(highest(func(mm model.MajorMinor) bool { return mm == own }))
	if next != (model.MajorMinor{}) {
		add(highest(func(mm model.MajorMinor) bool { return mm == next }))
	}
	if own.Major == 0 && one != (model.MajorMinor{}) {
		add(highest(func(mm model.MajorMinor) bool { return mm == one }))
	}
	for i := from + 1; i < len(rels); i++ {
		if eligible(i) && jumpCovers(rels[i], v0) {
			add(i)
		}
	}
	return out
}

// jumpCovers reports whether r declares a from-to rule that covers v0:
// to is r's major.minor and from <= v0 < to.0.
func jumpCovers(r *model.Release, v0 model.Version) bool {
	for _, u := range r.UpdateRules {
		if u.To == model.MinorOf(r.Version) && model.MinorOf(v0).Compare(u.From) >= 0 && model.Core(v0).LessThan(u.To.Version()) {
			return true
		}
	}
	return false
}
