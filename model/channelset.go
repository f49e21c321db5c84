package model

import (
	"maps"
	"slices"
)

// ChannelSet is a channel as the set of releases it holds, where the
// catalog lists them, as OLM's channels do (D182): a module that follows
// the channel may take only a release that is one of its Entries and
// that no other entry skips (Skipped; OLM's `skips`). The channel's head
// stays its version in Module.Channels (R10). A channel without a set is
// only its head, as DKP's channels are.
type ChannelSet struct {
	// Entries are the versions of the channel's entries, sorted.
	Entries []Version
	// Skipped are the versions another entry of the channel skips,
	// sorted; each is also an entry or a version the module does not list.
	Skipped []Version
}

// Holds reports whether a module that follows the channel may take v: an
// entry that no other entry skips.
func (s *ChannelSet) Holds(v Version) bool {
	return s == nil || (containsVersion(s.Entries, v) && !containsVersion(s.Skipped, v))
}

// Skips reports whether another entry of the channel skips v.
func (s *ChannelSet) Skips(v Version) bool {
	return s != nil && containsVersion(s.Skipped, v)
}

// containsVersion reports whether sorted vs holds v.
func containsVersion(vs []Version, v Version) bool {
	_, ok := slices.BinarySearchFunc(vs, v, CompareVersions)
	return ok
}

// HeadChannel is the channel whose version bounds m when it follows
// channel: channel itself, or for a DKP channel the nearest more stable
// one m lists (D10); "" when m has none.
func (m *Module) HeadChannel(channel string) string {
	if _, ok := m.Channels[channel]; ok {
		return channel
	}
	if !IsChannel(channel) {
		return ""
	}
	for _, ch := range Channels[slices.Index(Channels, channel):] {
		if _, ok := m.Channels[ch]; ok {
			return ch
		}
	}
	return ""
}

// ChannelHolds reports whether m, following channel, may take version v
// by the channel's set (D182): true when the channel that bounds it has
// no set.
func (m *Module) ChannelHolds(channel string, v Version) bool {
	return m.ChannelSets[m.HeadChannel(channel)].Holds(v)
}

// checkChannelSets validates the sets: each names a channel of m, lists
// only releases of m, and holds the channel's own version.
func (m *Module) checkChannelSets(field Path) InputErrors {
	var errs InputErrors
	for _, ch := range slices.Sorted(maps.Keys(m.ChannelSets)) {
		s, f := m.ChannelSets[ch], field.Field("channelSets").Key(ch)
		head, ok := m.Channels[ch]
		if !ok {
			errs = append(errs, fieldErr(f, ErrInvalidValue, "channel set %s is not one of the module's channels", ch))
			continue
		}
		if s == nil {
			errs = append(errs, fieldErr(f, ErrInvalidValue, "channel set %s is empty", ch))
			continue
		}
		slices.SortFunc(s.Entries, CompareVersions)
		s.Entries = slices.CompactFunc(s.Entries, SameVersion)
		slices.SortFunc(s.Skipped, CompareVersions)
		s.Skipped = slices.CompactFunc(s.Skipped, SameVersion)
		for _, v := range s.Entries {
			if m.Release(v) == nil {
				errs = append(errs, fieldErr(f.Field("entries"), ErrUnknownVersion, "channel %s lists %s, which is not a release of %s", ch, v, m.Name))
			}
		}
		if head != nil && !s.Holds(head) {
			errs = append(errs, fieldErr(f, ErrInvalidValue, "channel %s points at %s, %s", ch, head, notHeldReason(s, head)))
		}
	}
	return errs
}

// notHeldReason says why s does not hold v.
func notHeldReason(s *ChannelSet, v Version) string {
	if !containsVersion(s.Entries, v) {
		return "which is not an entry of it"
	}
	return "which another entry of it skips"
}
