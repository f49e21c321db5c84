package solver

import (
	"fmt"
	"strings"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// Several sources (R23), as the problem reads them: where each module's
// releases come from, the heads and channels per source, and the static
// facts and labels that name a source. The encoder's side is in
// sources_encode.go, the optimizer's in sources_optimize.go, the
// suggestions' in sources_suggest.go, and the tie count across sources in
// sources_cross.go.

// sourcePlace is where one module's releases come from (R23, D74–D76).
type sourcePlace struct {
	// named: the catalog module is in several sources, so messages and
	// results name the source of its releases.
	named bool
	// free: the module may come from several sources, and R14 chooses
	// (sources_optimize.go's levels); its view holds every source's releases.
	free bool
	// from is the source of the deployed release; to the source the
	// module must come from when it is fixed (deployed, or named by
	// request.sources); moved says they differ.
	from, to string
	moved    bool
	// heads and headVersions are, for a free module, each source's head
	// (R10 per source): the index of its highest release at or below its
	// channel's version, or -1.
	heads        map[string]int
	headVersions map[string]model.Version
	// channeled holds the sources whose own module follows a channel, and
	// channels the channel each follows.
	channeled map[string]bool
	channels  map[string]string
	fact      *fact // FactSource, for a move to a source without the deployed release
	// leftPlatform: the module ran built in and moves to a source that
	// lists its releases (R29); it is installed there as new, whatever
	// the DKP version was (D160).
	leftPlatform bool
}

// placeSource reads R23 for v before anything else: a module of several
// sources that is deployed stays in its source unless the request moves
// it, and one the request names in sources comes from there; either way
// the view is that source's own module, so its channels, steps and update
// policy apply unchanged. Any other module of several sources is free.
func (v *view) placeSource() {
	p := v.p
	m := v.m
	v.src.named = m.MultiSource()
	if _, ok := p.in.cluster.Deployed(m); ok {
		v.src.from = p.in.cluster.DeployedSource(m)
	}
	v.src.to = v.src.from
	if s := p.in.req.Sources[m.Name]; s != "" {
		v.src.to = s
	}
	if !m.MultiSource() {
		if v.src.to == "" {
			v.src.to = m.Source
		}
		v.src.moved = v.src.from != "" && v.src.from != v.src.to
		return
	}
	if v.src.to == "" && m.BuiltInSource() != "" {
		v.src.to = m.BuiltInSource() // R29: DKP ships it, until a request moves it out
	}
	if v.src.to == m.BuiltInSource() && v.src.to != "" && p.in.req.Sources[m.Name] == "" && !m.CarriedOnTheWay(p.in.cat.PlatformReleases(), p.in.cluster.Deckhouse, p.in.deckhouse) {
		v.src.to = m.MovedTo() // the DKP version no longer carries it: DKP moves it (D161, R31's migratedModules)
	}
	if v.src.to == "" {
		v.src.free = true
		return
	}
	v.m = m.ForSource(v.src.to)
	v.src.moved = v.src.from != "" && v.src.from != v.src.to
	v.src.leftPlatform = v.src.moved && v.src.from == m.BuiltInSource()
}

// setSourceHeads finds each source's head for a free module: the channel
// and head of every source's own module (R10), read as setHead reads them.
func (v *view) setSourceHeads() {
	p := v.p
	v.src.heads = map[string]int{}
	v.src.headVersions = map[string]model.Version{}
	v.src.channeled = map[string]bool{}
	v.src.channels = map[string]string{}
	for _, s := range v.m.ModuleSources() {
		sv := &view{m: v.m.ForSource(s), name: v.name, rels: v.m.ForSource(s).Releases, deployment: deployment{deployed: -1}, role: role{pinned: -1}, heading: heading{head: -1}, takes: v.takes}
		p.setHead(sv)
		v.channel = sv.channel
		v.src.channeled[s] = sv.channel != ""
		v.src.channels[s] = sv.channel
		v.src.headVersions[s] = sv.headVersion
		v.src.heads[s] = -1
		if sv.noChannel {
			continue
		}
		for i, r := range v.rels {
			if r.Source == s && sv.headVersion != nil && model.CompareVersions(r.Version, sv.headVersion) <= 0 {
				v.src.heads[s] = i
			}
		}
		if h := v.src.heads[s]; h > v.head {
			v.head, v.headVersion = h, v.rels[h].Version
		}
	}
	if v.head < 0 {
		v.noChannel = v.channel != ""
	}
}

// aboveHead reports whether release i is above its channel's head (R10):
// for a free module, the head of the release's own source.
func (v *view) aboveHead(i int) bool {
	if v.src.free {
		return i > v.src.heads[v.rels[i].Source]
	}
	return i > v.head
}

// offChannel reports whether release i is off its channel: above its
// head (R10), or not held by the channel's set of releases, where the
// catalog lists one (D182).
func (v *view) offChannel(i int) bool {
	return v.aboveHead(i) || !v.channelSet(i).Holds(v.rels[i].Version)
}

// offChannels is offChannel for a pass over v's releases: the channel's
// set is looked up once, unless each release's source has its own or
// the pass reads one release.
func (v *view) offChannels() func(i int) bool {
	if v.src.free || v.only >= 0 {
		return v.offChannel // each release its own source's, or one release read
	}
	set := v.channelSet(-1)
	return func(i int) bool { return i > v.head || !set.Holds(v.rels[i].Version) }
}

// channelSet is the set of releases of the channel release i is read
// against (D182), or nil when that channel lists none: for a free module,
// its own source's; for any other, the same for every i.
func (v *view) channelSet(i int) *model.ChannelSet {
	m, ch := v.m, v.channel
	if v.src.free {
		s := v.rels[i].Source
		m, ch = v.m.ForSource(s), v.src.channels[s]
	}
	if ch == "" || m == nil {
		return nil
	}
	return m.ChannelSets[m.HeadChannel(ch)]
}

// headFor returns the head that applies to release sel: its source's for
// a free module, else the module's.
func (v *view) headFor(sel int) (int, model.Version) {
	if v.src.free && sel >= 0 {
		s := v.rels[sel].Source
		return v.src.heads[s], v.src.headVersions[s]
	}
	return v.head, v.headVersion
}

// sameSource reports whether releases i and j come from one source.
func (v *view) sameSource(i, j int) bool {
	return !v.src.free || v.rels[i].Source == v.rels[j].Source
}

// sourceOf names the source release i comes from; "" in a single catalog.
func (v *view) sourceOf(i int) string {
	if i < 0 || i >= len(v.rels) {
		return ""
	}
	if s := v.rels[i].Source; s != "" {
		return s
	}
	return v.src.to
}

// addSourceFacts forbids, on a move to a source that does not list the
// deployed release, that release: the module runs it from the source it
// leaves (D76).
func (rf ruleFacts) addSourceFacts(v *view) {
	if !v.src.moved || v.deployed < 0 || v.rels[v.deployed].Source == v.src.to {
		return
	}
	rf.p.forbid(v, model.FactSource, v.where(func(i int, _ *model.Release) bool { return i == v.deployed }), factShape{made: &v.src.fact})
}

func sourceMessage(f *fact) string {
	v := f.v
	return fmt.Sprintf("the request moves %s from source %s to source %s, which does not list its deployed release %s",
		v.name, v.src.from, v.src.to, v.deployedVersion())
}

// releaseLabel names releases rels of v for messages: the versions, and
// their source when the module is in several (R23).
func releaseLabel(v *view, rels []int) string {
	text := releasesText(v, rels)
	if !v.src.named || len(rels) == 0 {
		return text
	}
	srcs := map[string]bool{}
	for _, r := range rels {
		srcs[v.sourceOf(r)] = true
	}
	if len(srcs) == 1 {
		return fmt.Sprintf("%s (source %s)", text, v.sourceOf(rels[0]))
	}
	parts := make([]string, len(rels))
	for i, r := range rels {
		parts[i] = fmt.Sprintf("%s (source %s)", v.rels[r].Version, v.sourceOf(r))
	}
	return strings.Join(parts, ", ")
}

// freePath is the path of a free module's install: the chosen release,
// then its own source's head when that is newer.
func freePath(v *view, sel int) []int {
	if head, _ := v.headFor(sel); sel < head {
		return []int{sel, head}
	}
	return []int{sel}
}

// resultSources are a module result's sources (R23): where the deployed
// release came from, where the selected one comes from, and whether they
// differ.
func (v *view) resultSources(sel int) (from, to string, moved bool) {
	if v.before || v.src.leftPlatform {
		from = v.src.from
	}
	if sel < 0 {
		return from, "", false
	}
	to = v.sourceOf(sel)
	return from, to, from != "" && to != "" && from != to
}

// sourceChoice is the source R23 chose for a free module at level 3a or
// 5a, and what bound the choice committed.
type sourceChoice struct {
	v        *view
	src      string
	priority int
	// tied: several sources of that priority could serve v, and at most
	// cross requirements met across sources decided among them.
	tied  bool
	cross int
	// bound are the literals of the optimizer's encoding that hold the
	// count to cross, as the level committed them.
	bound []z.Lit
}

// message says which source R23 chose for the module, and by what.
func (c *sourceChoice) message() string {
	if !c.tied {
		return fmt.Sprintf("%s comes from source %s, the source of the highest priority (%d) that can serve it (R23)", c.v.name, c.src, c.priority)
	}
	count := "none"
	if c.cross > 0 {
		count = fmt.Sprint(c.cross)
	}
	return fmt.Sprintf("%s comes from source %s, which R23 prefers among the sources of priority %d that can serve it by the fewest requirements met across sources (here %s), then by name",
		c.v.name, c.src, c.priority, count)
}
