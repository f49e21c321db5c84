package solver

import (
	"cmp"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modsolver/modsolver/model"
)

// intent is what the inputs say about whether a module is on (R8).
type intent int

const (
	// intentOff: the module must stay off (a hard fact).
	intentOff intent = iota
	// intentOn: the module must be on (a hard fact).
	intentOn
	// intentDefaultOn: on by bundle default; off costs at R14 level 2.
	intentDefaultOn
	// intentKeepSoft: enabled, but allowDisable lets it go at a cost (level 2).
	intentKeepSoft
	// intentAuto: off unless required; on costs at R14 level 4 (autoEnable).
	intentAuto
)

// problem is one resolution: its inputs, read once, and, for every
// module it touches, a view with the module's role, head and static
// facts. Its parts are named and have walls of their own: the inputs
// (in) never change once read; the fact store (store) only grows, in the
// order of making; the check cache (checks) only remembers.
type problem struct {
	in     inputs
	store  factStore
	checks checkCache

	views    map[string]*view
	releases int // releases of the viewed modules, for the size estimate
	// explainClosure is the closure over every release (closure): the
	// same for every explain encoding of the problem, which held-back
	// questions build one per module (whyNot).
	explainClosure []*view
	// reqFacts are the requirement facts of the compiled groups that
	// explain encodings made, one per group: each held-back question's
	// cone encodes the same modules again (requirementFact).
	reqFacts map[*reqGroup]*fact
	boolSlab []bool // backing store of the views' allowed filters
	// deferring, while closure walks, leaves the views it makes for
	// pending, which it filters a step at a time (filterPending); from
	// sideBySide of them (settings.sideBySide; 0: never) in two halves.
	deferring  bool
	pending    []*view
	sideBySide int
	// lazyStatics: a view's static facts are made only when something
	// reads them (staticFacts); until then only its allowed filter is
	// computed. An answer that needs no explanation never makes them.
	lazyStatics bool
	// hooks are the switches only tests set (keepFrozen).
	hooks testHooks
	// memo is how the problem uses the memo of its cluster state
	// (statememo.go), given when it is made and never changed.
	memo memoUse
}

// inputs are what a problem is asked: the catalog, the cluster state and
// the request, and the platform versions they make effective.
type inputs struct {
	cat      *model.Catalog
	compiled *Compiled // the catalog compiled (compiled.go)
	cluster  *model.ClusterState
	req      *model.Request

	deckhouse  model.Version // effective DKP version (R12)
	kubernetes model.Version // effective Kubernetes version (R12)
	// components are the effective versions of other platform components
	// (R22): the cluster's, overridden by the request's candidates.
	components map[string]model.Version
	sequential bool
	// way are the DKP minors with release data the answer moves through
	// (R31, addReleaseFacts); none when DKP does not move up a minor.
	way []model.MajorMinor
}

// factStore holds the facts a problem makes (facts.go), in the order of
// making, and the sink that takes a view's static facts while they are
// read (sink.go).
type factStore struct {
	facts    []*fact
	factSlab []fact // backing store of facts, see newFact
	// seq orders facts (see fact.seq).
	seq int
	// making is the sink that makes a view's static facts while one does
	// (staticFacts): the facts made meanwhile take that view's place.
	making *making
	// staticCount counts the static facts made; the size estimate leaves
	// them out (budget.go).
	staticCount int
}

// checkCache remembers the checks of constraints against versions that a
// problem makes again and again (facts.go).
type checkCache struct {
	// mu guards the views made on first use while the problem is read in
	// halves side by side (readMode).
	mu sync.Mutex
	// platformOK remembers, per interned DKP or Kubernetes requirement
	// text (tables.texts), whether the effective version meets it: 0 not
	// checked yet, 1 yes, 2 no.
	platformOK [2][]atomic.Int32
	// memo remembers constraint checks; a shared what-if encoding hands
	// the same memo to every problem it answers.
	memo    map[allowKey]bool
	whyMemo map[allowKey]string
}

// readMode says whether code reads the problem alone or in one of two
// halves side by side (inHalves), which inHalves passes to each half:
// beside another half, the caches of checks are only read (what they
// lack is checked again, not kept), a view made on first use is made
// under checks.mu, and an allowed filter is made apart from the
// problem's block.
type readMode bool

const (
	alone  readMode = false // the problem is read by this code alone
	beside readMode = true  // by one half beside another
)

// view is one module as this resolution sees it: the module and its
// releases, then its parts, each of which one step of reading the inputs
// fills in (newView).
type view struct {
	m    *model.Module
	name string
	// rels are the module's releases; a built-in module has one, at the
	// effective DKP version (R5).
	rels []*model.Release
	// takes says which prereleases R6 lets v take as it takes a final
	// release (D140, D141): beside the deployed one, a pin and the
	// channel's version, as the newest when v follows no channel, as
	// update steps below the head and for the bundle default; develSteps:
	// the request's devel makes them more than the compiled stepper knows.
	takes      func(*model.Release) bool
	develSteps bool

	deployment // what the cluster runs (R9, D73, R23)
	role       // what the request and the cluster say of the module (R8, R9, R14)
	heading    // the channel followed and its head (R10)
	statics    // the static facts and the filter they make (facts.go)

	p   *problem     // the problem that owns the view
	tab *moduleTable // the compiled table of m
	own bool         // rels are m's own releases, so the table's indices apply

	stepCache *updateSteps // see steps

	src sourcePlace // R23: where the module's releases come from (sources.go)
}

// deployment is what the cluster runs of a view's module.
type deployment struct {
	before       bool           // enabled before, with a deployed version
	configuredOn bool           // the cluster says enabled: true (D43)
	unlisted     bool           // the deployed release is not in the catalog (D73)
	running      *model.Release // on a move (R23), the deployed release in its own source, or nil
	deployedDKP  model.Version  // for a built-in module: the DKP version running now
	deployed     int            // index of the deployed release, or -1
}

// role is what the request and the cluster state say of a view's module.
type role struct {
	pinned     int           // index of the pinned release, or -1
	pinVersion model.Version // the request's pin, even one the module's source does not list (R23), or nil
	inUpdate   bool          // in the request's update set (R9)
	named      bool          // named by the request (R14 level 3)

	intent     intent
	intentFact *fact // the hard fact behind intentOn or intentOff
}

// heading is the channel a view's module follows and its head.
type heading struct {
	channel     string        // the channel followed, "" for none
	headVersion model.Version // the channel's version, or the newest release
	head        int           // index of the highest release at or below headVersion, or -1
	noChannel   bool          // a channel applies but lists no release that stable
}

// statics are the static facts of a view's module and the filter they
// make.
type statics struct {
	// staticList holds the facts that forbid releases of this module;
	// read it through staticFacts, which makes them on first use.
	staticList []*fact
	factsMade  bool
	staticSeq  int    // the place of the static facts in the fact order
	allowed    []bool // releases no static fact forbids
	// allowedList lists the allowed releases once candidates has
	// (closure.go), or is nil.
	allowedList []int
	only        int // while static facts are read: the one release they read, or -1 for all
	// sink takes the static facts addStaticFacts finds about the view
	// (sink.go): nil while only its allowed filter is computed.
	sink factSink
}

func newProblem(c *Compiled, cluster *model.ClusterState, req *model.Request) *problem {
	p := &problem{in: inputs{cat: c.cat, compiled: c, cluster: cluster, req: req}, views: map[string]*view{},
		checks: checkCache{memo: map[allowKey]bool{}, whyMemo: map[allowKey]string{}}}
	p.in.deckhouse, p.in.kubernetes = cluster.Deckhouse, cluster.Kubernetes
	if req.Platform.Deckhouse != nil {
		p.in.deckhouse = req.Platform.Deckhouse
	}
	if req.Platform.Kubernetes != nil {
		p.in.kubernetes = req.Platform.Kubernetes
	}
	p.in.components = cluster.Platform
	if len(req.Platform.Components) > 0 {
		p.in.components = maps.Clone(cluster.Platform)
		maps.Copy(p.in.components, req.Platform.Components)
	}
	p.in.sequential = req.EffectiveStrategy() == model.StrategySequential
	p.in.way = p.in.cat.PlatformReleases().OnTheWay(cluster.Deckhouse, p.in.deckhouse) // R31
	return p
}

// view returns the view of module name, building it on first use, or nil
// when the catalog has no such module.
func (p *problem) view(name string) *view { return p.viewOf(name, alone) }

// viewOf is view for code that reads the problem as mode says.
func (p *problem) viewOf(name string, mode readMode) *view {
	if mode == beside {
		p.checks.mu.Lock()
		defer p.checks.mu.Unlock()
	}
	if v, ok := p.views[name]; ok {
		return v
	}
	m := p.in.cat.Module(name)
	if m == nil {
		return nil
	}
	v := p.newView(m)
	p.views[name] = v
	p.releases += len(v.rels)
	return v
}

func (p *problem) newView(m *model.Module) *view {
	v := &view{m: m, name: m.Name, deployment: deployment{deployed: -1}, role: role{pinned: -1}, heading: heading{head: -1}, p: p}
	v.placeSource()
	v.rels, v.tab = v.m.Releases, p.in.compiled.t.table(v.m)
	v.own = v.tab != nil
	if bm := v.m; bm.Embedded { // a module of several sources, one of which carries it built in, too (R29)
		v.rels = []*model.Release{{Version: p.in.deckhouse, Requirements: bm.Requirements, Accessibility: bm.Accessibility, Stage: bm.Stage, Disable: bm.Disable, Source: bm.Source,
			Settings: bm.SettingsFor(p.in.deckhouse), Origin: bm.Origin, Lines: bm.Lines}}
		v.deployedDKP, v.own = p.in.cluster.Deckhouse, false
	}
	st := p.in.cluster.Modules[m.Name]
	v.configuredOn = st.On()
	if v.src.leftPlatform { // it runs built in now: the built-in release's R26 holds (R29)
		bm := m.ForSource(v.src.from)
		v.deployedDKP = p.in.cluster.Deckhouse
		v.running = &model.Release{Version: p.in.cluster.Deckhouse, Requirements: bm.Requirements, Stage: bm.Stage, Disable: bm.Disable, Source: bm.Source}
	}
	if dv, ok := p.in.cluster.Deployed(m); ok && !v.src.leftPlatform { // leaving the platform, it installs anew (R29)
		v.before = true
		v.deployed = v.indexOf(dv)
		if v.m.Embedded {
			v.deployed = 0
		} else if v.deployed < 0 {
			v.addUnlisted(dv)
		}
		// D73 warns when the deployed version is not listed in the source
		// it runs from, moved or not; a move to a source that lacks a
		// listed version is D76's own fact, not a warning.
		own := m.ReleaseIn(v.src.from, dv)
		v.unlisted = !v.m.Embedded && own == nil
		if !v.m.Embedded && v.src.moved {
			// The release that runs is the left source's; when that source
			// does not list it either, nothing is known of it (D73).
			v.running = cmp.Or(own, &model.Release{Version: dv})
		}
	}
	if pv := p.in.req.Pin[m.Name]; pv != nil {
		v.pinVersion, v.pinned = pv, v.indexOf(pv)
	}
	v.inUpdate = v.pinVersion != nil || slices.Contains(p.in.req.Update, m.Name) || (p.in.req.UpdateAll && st.On())
	// The update set lets a module change; it names the module for R14
	// level 3 only when the cluster enables it, since it asks for no
	// install (D65).
	v.named = v.pinVersion != nil || slices.Contains(p.in.req.Enable, m.Name) || (v.inUpdate && st.On())
	v.takes, v.develSteps = p.in.takenPrereleases(v), p.in.req.Devel && !v.m.Reading().PrereleasesOrdinary()
	if v.src.free {
		v.setSourceHeads()
	} else {
		p.setHead(v)
	}
	p.setIntent(v)
	v.staticSeq = p.store.seq
	p.store.seq++
	switch {
	case p.lazyStatics && p.deferring:
		p.pending = append(p.pending, v) // filtered with the others of its step (closure)
	case p.lazyStatics:
		p.filter(v, alone)
	default:
		v.staticFacts()
	}
	return v
}

// addUnlisted adds the deployed version the catalog no longer lists as a
// release of its own, in version order, with no requirements: nothing is
// known about them (D73). It may stay (R9) or update from there (R11).
func (v *view) addUnlisted(ver model.Version) {
	at := 0
	for at < len(v.rels) && model.CompareVersions(v.rels[at].Version, ver) < 0 {
		at++
	}
	v.rels = slices.Insert(slices.Clone(v.rels), at, &model.Release{Version: ver})
	v.deployed, v.own = at, false
}

// indexOf is the index of the first release at exactly ver, or -1.
// Releases are sorted by CompareVersions, which tells apart what
// SameVersion does.
func (v *view) indexOf(ver model.Version) int {
	i := sort.Search(len(v.rels), func(i int) bool { return model.CompareVersions(v.rels[i].Version, ver) >= 0 })
	if i < len(v.rels) && model.SameVersion(v.rels[i].Version, ver) {
		return i
	}
	return -1
}

// setHead finds the channel the module follows and its head (R10, D10).
func (p *problem) setHead(v *view) {
	if v.m.Embedded {
		v.headVersion, v.head = p.in.deckhouse, 0
		return
	}
	v.channel = p.in.cluster.ChannelOf(v.name)
	h := headEntry{index: -1}
	if v.channel != "" && len(v.m.Channels) > 0 {
		h = v.channelHead(v.channel)
	}
	if h.version == nil && v.m.DefaultChannel != "" && p.in.cluster.Modules[v.name].Channel == "" {
		// The cluster-wide channel is not one the module has (D32).
		v.channel, h = v.m.DefaultChannel, v.channelHead(v.m.DefaultChannel)
	}
	switch {
	case v.channel == "" || len(v.m.Channels) == 0:
		v.channel = ""
	case h.version == nil:
		v.noChannel = true
	}
	if h.version == nil {
		h = p.newestHead(v)
	}
	v.headVersion, v.head = h.version, h.index
	if v.noChannel {
		v.head = -1
	}
}

// channelHead is the version of channel and its head among v's releases,
// from the compiled table when the releases are the module's own.
func (v *view) channelHead(channel string) headEntry {
	if v.own {
		if h, ok := v.tab.channels[channel]; ok {
			return h
		}
		return headEntry{index: -1}
	}
	return v.headAt(v.m.ChannelVersion(channel))
}

// newestHead is the head of a module that follows no channel (R10): its
// newest release that is final or a prerelease R6 lets it take (D1,
// D140), or its newest release when there is none, and its index.
func (p *problem) newestHead(v *view) headEntry {
	if v.own && !p.in.req.Devel && v.m.Reading() == model.ReadingDKP {
		return v.tab.newest // DKP's reading: the newest final release, compiled
	}
	return v.headAt(newestWhere(v.rels, func(r *model.Release) bool { return !model.IsPrerelease(r.Version) || v.takes(r) }))
}

// headAt is hv with the index of the last release at or below it.
func (v *view) headAt(hv model.Version) headEntry {
	if hv == nil {
		return headEntry{index: -1}
	}
	return headEntry{hv, headIndex(v.rels, hv)}
}

// setIntent reads R8: the request first, then the cluster's configuration,
// then the bundle default.
func (p *problem) setIntent(v *view) {
	st := p.in.cluster.Modules[v.name]
	switch {
	case slices.Contains(p.in.req.Disable, v.name):
		v.intent, v.intentFact = intentOff, p.store.newFact(model.FactRequestDisable, v)
	case v.pinVersion != nil:
		v.intent, v.intentFact = intentOn, p.store.newFact(model.FactRequestPin, v)
	case slices.Contains(p.in.req.Enable, v.name):
		v.intent, v.intentFact = intentOn, p.store.newFact(model.FactRequestEnable, v)
	case st.On() && p.in.req.AllowDisable && !v.confirmsDisable():
		v.intent = intentKeepSoft // R26: not a module that asks for confirmation
	case st.On():
		v.intent, v.intentFact = intentOn, p.store.newFact(model.FactClusterEnabled, v)
	case st.Off():
		v.intent, v.intentFact = intentOff, p.store.newFact(model.FactClusterDisabled, v)
	case p.onByDefault(v):
		v.intent = intentDefaultOn
	case p.in.req.AutoEnable:
		v.intent = intentAuto
	default:
		v.intent, v.intentFact = intentOff, p.store.newFact(model.FactNotEnabled, v)
	}
}

// onByDefault reads enabledInBundles of the newest release that may be
// selected in the cluster's edition (R7).
func (p *problem) onByDefault(v *view) bool {
	if p.in.cluster.Bundle == "" {
		return false
	}
	off := v.offChannels()
	for i := len(v.rels) - 1; i >= 0; i-- {
		r := v.rels[i]
		available, bundles := v.m.Access(r).For(p.in.cluster.Edition)
		if !available || (model.IsPrerelease(r.Version) && !v.isChannelVersion(i) && i != v.head && !v.takes(r)) || off(i) || p.in.forbidsStage(v.name, r) {
			continue
		}
		return slices.Contains(bundles, p.in.cluster.Bundle)
	}
	return false
}

// forbidsStage reports whether r, a release of module name, is
// Experimental on a cluster that does not allow it (R25).
func (in *inputs) forbidsStage(name string, r *model.Release) bool {
	return r.Stage == model.StageExperimental && !in.cluster.ExperimentalAllowed(name)
}

// releasesText lists release versions as a person reads them: a run of
// three or more releases that follow one another in the module's list as
// first–last, the others one by one, and the count when there are more
// than six ("0.1.0–0.1.3", "0.3.0, 0.4.1–0.5.2 (9 releases)").
func releasesText(v *view, rels []int) string {
	const most, run = 6, 3
	var parts []string
	for i := 0; i < len(rels); {
		j := i
		for j+1 < len(rels) && rels[j+1] == rels[j]+1 {
			j++
		}
		if j-i+1 >= run {
			parts = append(parts, v.versionText(rels[i])+"–"+v.versionText(rels[j]))
		} else {
			for k := i; k <= j; k++ {
				parts = append(parts, v.versionText(rels[k]))
			}
		}
		i = j + 1
	}
	if len(parts) > most {
		parts = append(append(parts[:most/2:most/2], "…"), parts[len(parts)-most/2:]...)
	}
	s := strings.Join(parts, ", ")
	if len(rels) > most {
		s += " (" + strconv.Itoa(len(rels)) + " releases)"
	}
	return s
}

func viewNames(vs []*view) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.name
	}
	return out
}

// versionText is release i's version as text (model.VersionString), from
// the compiled table when the releases are the module's own.
func (v *view) versionText(i int) string {
	if v.own {
		return v.tab.versionText(v.rels, i)
	}
	return model.VersionString(v.rels[i].Version)
}

// recording reports whether a sink takes v's facts, rather than only its
// allowed filter being computed.
func (v *view) recording() bool { return v.sink != nil }

// fromVersion is the version an answer reports the module runs before:
// the deployed one; for a module moving out of the platform (R29), which
// the move installs anew in its source, the DKP version only when the
// answer turns it off.
func (v *view) fromVersion(sel int) model.Version {
	if v.src.leftPlatform {
		if sel < 0 {
			return v.deployedDKP
		}
		return nil
	}
	return v.deployedVersion()
}

// deployedVersion is the version running now; a built-in module runs at
// the cluster's DKP version even when the request names a candidate.
func (v *view) deployedVersion() model.Version {
	if v.deployed < 0 {
		return nil
	}
	if v.m.Embedded {
		return v.deployedDKP
	}
	return v.rels[v.deployed].Version
}

// candidates lists the releases of v the encoding offers: every release
// for an explanation, the allowed ones otherwise.
// The allowed ones are computed once per view and shared: they are read
// by the closure, by detaching and by the encoder, and never changed.
func (v *view) candidates(explain bool) []int {
	if !explain && v.allowedList != nil {
		return v.allowedList
	}
	n := len(v.rels)
	if !explain {
		n = 0
		for i := range v.rels {
			if v.allowed[i] && v.intent != intentOff {
				n++
			}
		}
	}
	out := make([]int, 0, n)
	for i := range v.rels {
		if explain || (v.allowed[i] && v.intent != intentOff) {
			out = append(out, i)
		}
	}
	if !explain {
		v.allowedList = out
	}
	return out
}

// runsEdge reports whether v runs, deployed and listed, a release that
// requires next.
func (v *view) runsEdge(next string) bool {
	if !v.before || v.deployed < 0 || v.unlisted {
		return false
	}
	return model.LoopEdge(v.m, v.rels[v.deployed].Requirements, next)
}

// confirmsDisable reports whether v's deployed release asks for
// confirmation before the module is disabled (R26).
func (v *view) confirmsDisable() bool {
	return (v.deployed >= 0 || v.src.leftPlatform) && v.runningRelease().Disable.Confirmation
}

// runningRelease is the release v runs now, read from the source it runs
// from: on a move (R23) the view's releases are the new source's, but
// R26 reads the release that runs.
func (v *view) runningRelease() *model.Release {
	if v.running != nil {
		return v.running
	}
	return v.rels[v.deployed]
}

// stepped reports whether an update of v is bounded by steps: v's update
// policy is the sequential rule (R11) or an update graph (R21), and the
// request's strategy does not lift it. A module whose importer set the
// direct policy (a Helm chart, an OLM package in semver mode, D66) may go
// to any release up to its head, as `strategy: direct` allows every module.
func (in *inputs) stepped(v *view) bool {
	return in.sequential && v.policy() != model.UpdateDirect
}

// policy is v's module's update policy, from the compiled table when there
// is one: the module's own reading scans every release.
func (v *view) policy() model.UpdatePolicy {
	if v.tab != nil {
		return v.tab.policy
	}
	return v.m.Policy()
}

// steps returns v's update steps from its deployed release.
func (v *view) steps() *updateSteps {
	if v.stepCache == nil {
		v.stepCache = v.stepper().stepsFrom(v.deployed)
	}
	return v.stepCache
}

// stepper returns the update rule over v's releases up to its head: the
// compiled one when the releases are the module's own and the request's
// devel takes no more prereleases than the catalog does.
func (v *view) stepper() *stepper {
	if v.own && !v.develSteps && v.tab.steppers[v.head] != nil {
		return v.tab.steppers[v.head]
	}
	st := newStepper(v.rels, v.head, v.m, v.policy(), v.takes)
	return &st
}

// platformQuestion reports whether the request asks about other platform
// versions than the cluster's (R12, R22).
func (in *inputs) platformQuestion() bool {
	pl := in.req.Platform
	return pl.Deckhouse != nil || pl.Kubernetes != nil || len(pl.Components) > 0
}

// takenPrereleases says which prereleases R6 lets v take as it takes a
// final release (D140, D141): every one under devel, else those the
// catalog's reading lets it take.
func (in *inputs) takenPrereleases(v *view) func(*model.Release) bool {
	if in.req.Devel {
		return func(*model.Release) bool { return true }
	}
	return catalogPrereleases(v.m, in.compiled.t.named[v.name])
}

// checksSettings reports whether release i of v is one the module would
// move to: not the release it runs, and for a built-in module, only when
// the DKP version moves.
func (in *inputs) checksSettings(v *view, i int) bool {
	if v.m.Embedded {
		return in.cluster.Deckhouse == nil || !model.SameVersion(model.Core(in.deckhouse), model.Core(in.cluster.Deckhouse))
	}
	return i != v.deployed
}

// lowersPlatform reports whether the request asks about a lower version
// of a platform component than the cluster runs: a downgrade question.
func (in *inputs) lowersPlatform() bool {
	pl := in.req.Platform
	if lowers(in.cluster.Deckhouse, pl.Deckhouse) || lowers(in.cluster.Kubernetes, pl.Kubernetes) {
		return true
	}
	for name, v := range pl.Components {
		if lowers(in.cluster.Platform[name], v) {
			return true
		}
	}
	return false
}
