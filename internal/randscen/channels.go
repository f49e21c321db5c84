package randscen

import (
	"maps"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// channelStream is mixed into the seed of the stream that draws channel
// sets (D182), so that drawing them leaves every other draw of a seed as
// it was before the generator knew them.
const channelStream = 0x0d18_2c4a

// channelSets draws now and then, for each of m's channels, the releases
// it holds, as an OLM channel lists its entries (D182): the head, and
// each other release with even odds; and now and then an entry skipped by
// another (OLM's skips), never the head.
func (g *gen) channelSets(m *model.Module) {
	if len(m.Channels) == 0 || g.chrng.Float64() >= 0.35 {
		return
	}
	m.ChannelSets = map[string]*model.ChannelSet{}
	for _, ch := range slices.Sorted(maps.Keys(m.Channels)) {
		head := m.Channels[ch]
		set := &model.ChannelSet{}
		for _, r := range m.Releases {
			switch {
			case model.SameVersion(r.Version, head):
				set.Entries = append(set.Entries, r.Version)
			case g.chrng.Float64() < 0.5:
				set.Entries = append(set.Entries, r.Version)
				if g.chrng.Float64() < 0.3 {
					set.Skipped = append(set.Skipped, r.Version)
				}
			}
		}
		m.ChannelSets[ch] = set
	}
}
