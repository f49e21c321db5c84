package solver

import (
	"cmp"
	"maps"
	"slices"
	"sync/atomic"

	"github.com/modsolver/modsolver/model"
)

// fact is one user-facing input fact (R16). Every clause the encoder adds
// for a fact is guarded by the fact's selector when explanations are
// wanted, and added plainly (or applied as a domain filter) otherwise.
type fact struct {
	id   int
	kind model.FactKind
	v    *view // the module the fact is about; nil for a group fact
	// rels are the releases of v the fact concerns: the releases it forbids
	// for a static fact, the releases that carry the requirement otherwise.
	rels []int
	dep  string            // the required module, for requirement facts
	cons *model.Constraint // the constraint, for requirement facts
	// group and members describe an exclusive-group fact (R13).
	group   string
	members []*view
	// at is a release index for preference facts; -1 means "disabled".
	at int
	// compound is the requirement of an R24 fact; members are then the
	// modules that may satisfy its predicate.
	compound *model.CompoundRequirement
	// seq and sub order the facts of a problem as they would be made one
	// after another: a view's static facts, made whenever they are first
	// read, take the place the view reserved for them when it was built
	// (factOrder). Explanations try facts in that order.
	seq, sub int
	// choice is the R23 source choice of a source-preference fact.
	choice *sourceChoice
	// loop is what a dependency-loop fact says of its circle (R27); its
	// members are the circle's modules, group its text.
	loop *loopShape
	// settings is the field a settings fact names and what is wrong with
	// it (R34); dep is then its path.
	settings *model.SettingsProblem
	// platform is the DKP release requirement of a platform-release fact
	// (R31).
	platform *releaseReq
}

// factOrder compares facts by their place in the order of making (see
// fact.seq).
func factOrder(a, b *fact) int {
	return cmp.Or(cmp.Compare(a.seq, b.seq), cmp.Compare(a.sub, b.sub))
}

// forbid records a static fact that forbids releases rels of v, unless it
// forbids nothing, in the sink that takes v's facts, or only in v's
// allowed filter.
func (p *problem) forbid(v *view, kind model.FactKind, rels []int, shape factShape) {
	if len(rels) == 0 {
		return
	}
	if sink := p.store.sinkOf(v); sink != nil {
		sink.take(p, v, kind, rels, shape)
		return
	}
	v.disallow(rels)
}

// platformFacts returns v's platform facts (R4, R22) as staticFacts would
// list them, in their order, without making v's static facts: a path
// note (pathnote.go) names them, and only those that forbid one of the
// releases of want (nil: all). They are copies that belong to no
// explanation; once v's static facts are made, all of those are returned.
// With a scratch, the copies last until its next use (collect).
func (p *problem) platformFacts(v *view, want []int, sc *copyScratch, mode readMode) []*fact {
	if v.factsMade {
		return slices.DeleteFunc(slices.Clone(v.staticList), func(f *fact) bool { return kindOf(f).platform == nil })
	}
	return p.collect(v, want, sc, func() {
		v.only = v.readsFirst()
		p.addPlatformFacts(v, model.FactDeckhouseRequirement, axisDeckhouse, model.Core(p.in.deckhouse), mode)
		p.addPlatformFacts(v, model.FactKubernetesRequirement, axisKubernetes, p.in.kubernetes, mode)
		p.addComponentFacts(v, mode)
	})
}

// staticCopies returns v's static facts that forbid release rel, as
// staticFacts would list them, in their order, without making them: a
// held-back reason that only quotes them (staticReason) then makes no
// facts, which on an update of every module would be most of its
// allocation. Once v's static facts are made, all of them are returned; a
// pin's fact and a move's source fact are facts of the view itself, so
// for those views the facts are made (staticMade). The copies are read
// and dropped: they last until sc's next use (collect).
func (p *problem) staticCopies(v *view, rel int, sc *copyScratch, mode readMode) []*fact {
	if staticMade(v) {
		return v.staticFacts()
	}
	return p.collect(v, []int{rel}, sc, func() { p.addStaticFacts(v, mode) })
}

// staticMade reports whether staticCopies returns v's static facts
// themselves, made on first use, rather than copies.
func staticMade(v *view) bool { return v.factsMade || v.pinVersion != nil || v.src.moved }

// collect runs read, which adds static facts of v, with those facts
// copied into a sink of their own (sink.go) and returned; v's filter and
// the releases it reads are left as they were. When want is not nil, only
// the facts that forbid one of its releases are copied (the others are
// not even listed). Transient copies, read once and dropped (a held-back
// reason's, a path note's), are cut from the block of sc and listed in
// its list, both reused by its next use; with no scratch, the copies are
// the caller's to keep.
func (p *problem) collect(v *view, want []int, sc *copyScratch, read func()) []*fact {
	only, allowed := v.only, v.allowed
	c := &copying{v: v, want: want}
	if sc != nil {
		sc.block = sc.block[:0]
		c.block, c.out = &sc.block, sc.list[:0]
	}
	p.store.within(v, c, read)
	v.only, v.allowed = only, allowed
	if sc != nil {
		sc.list = c.out
	}
	return c.out
}

// copyScratch is where a renderer's transient copies of static facts are
// cut from (collect): one per session, so that sessions that render side
// by side keep apart.
type copyScratch struct {
	block []fact
	list  []*fact
}

// forbidWhere is forbid over the releases for which pred holds; the
// filter alone needs no list of them.
func (p *problem) forbidWhere(v *view, kind model.FactKind, pred func(int, *model.Release) bool) {
	if sink := p.store.sinkOf(v); sink != nil {
		// The predicate is read here, not by the sink, so that it does
		// not escape: each view's passes make a handful of them.
		if want := sink.wanted(); want == nil || slices.ContainsFunc(want, func(i int) bool { return v.reads(i) && pred(i, v.rels[i]) }) {
			p.forbid(v, kind, v.where(pred), factShape{})
		}
		return
	}
	for i, r := range v.rels {
		if v.reads(i) && pred(i, r) {
			v.allowed[i] = false
		}
	}
}

// forbidWith makes f forbid releases rels of v.
func (v *view) forbidWith(f *fact, rels []int) {
	f.rels = rels
	v.staticList = append(v.staticList, f)
	v.disallow(rels)
}

func (v *view) disallow(rels []int) {
	for _, i := range rels {
		v.allowed[i] = false
	}
}

// staticFacts returns the facts that forbid releases of v by themselves,
// making them on first use (problem.lazyStatics).
func (v *view) staticFacts() []*fact {
	if v.factsMade {
		return v.staticList
	}
	p := v.p
	v.staticList = nil
	p.store.within(v, &making{v: v}, func() { p.addStaticFacts(v, alone) })
	v.factsMade = true
	return v.staticList
}

// filter computes v's allowed filter without making its static facts.
func (p *problem) filter(v *view, mode readMode) {
	p.store.within(v, nil, func() { p.addStaticFacts(v, mode) })
}

// newAllowed returns n releases' allowed filter, all true, cut from a
// block shared by the problem's views.
func (p *problem) newAllowed(n int, mode readMode) []bool {
	if n > 512 || mode == beside { // a half beside another makes its own
		return fill(make([]bool, n))
	}
	if cap(p.boolSlab)-len(p.boolSlab) < n {
		p.boolSlab = make([]bool, 0, 8192)
	}
	at := len(p.boolSlab)
	p.boolSlab = p.boolSlab[:at+n]
	return fill(p.boolSlab[at : at+n : at+n])
}

func fill(out []bool) []bool {
	for i := range out {
		out[i] = true
	}
	return out
}

// ruleFacts reads the static facts of the rules that have files of
// their own, each the problem phase's part of its rule: stages (R25,
// stages.go), settings (R34, settings.go), DKP's release data (R31,
// releases.go) and sources (R23, sources.go). It holds the problem whose
// views it reads (a pointer back).
type ruleFacts struct {
	p *problem
}

// addStaticFacts computes every fact that forbids releases of v by itself,
// without looking at other modules: editions, prereleases, platform
// requirements, Experimental stages (R25), channels, the update rules and
// pins.
//
// A module that keeps its deployed release (R9) has every other release
// forbidden by that alone, so the other facts are read for the deployed
// release only: on a large cluster most modules are such, and reading
// every release of each would dominate a one-module install.
func (p *problem) addStaticFacts(v *view, mode readMode) {
	v.allowed = p.newAllowed(len(v.rels), mode)
	v.only = v.readsFirst()
	p.forbidWhere(v, model.FactEdition, func(i int, r *model.Release) bool {
		ok, _ := v.m.Access(r).For(p.in.cluster.Edition)
		return !ok
	})
	p.forbidWhere(v, model.FactPrerelease, func(i int, r *model.Release) bool {
		pinned := v.pinVersion != nil && model.SameVersion(r.Version, v.pinVersion)
		return !v.m.Embedded && model.IsPrerelease(r.Version) && i != v.deployed && !pinned && !v.isChannelVersion(i) && !v.takes(r)
	})
	p.addPlatformFacts(v, model.FactDeckhouseRequirement, axisDeckhouse, model.Core(p.in.deckhouse), mode)
	p.addPlatformFacts(v, model.FactKubernetesRequirement, axisKubernetes, p.in.kubernetes, mode)
	p.addComponentFacts(v, mode)
	rules := ruleFacts{p}
	rules.addStageFacts(v)
	rules.addSettingsFacts(v)
	rules.addReleaseFacts(v, mode)
	p.addMissingModuleFacts(v)
	p.addMissingCapabilityFacts(v)
	p.addVersionFacts(v)
	rules.addSourceFacts(v)
}

// readsFirst is the release the static facts read first (see only): the
// deployed one of a module that keeps it, or -1 for all.
func (v *view) readsFirst() int {
	if v.before && !v.inUpdate && v.pinned < 0 && !v.m.Embedded && v.deployed >= 0 {
		return v.deployed
	}
	return -1
}

// where lists the releases of v for which pred holds.
func (v *view) where(pred func(int, *model.Release) bool) []int {
	var out []int
	for i, r := range v.rels {
		if v.reads(i) && pred(i, r) {
			out = append(out, i)
		}
	}
	return out
}

// reads reports whether the static facts read release i (see
// addStaticFacts).
func (v *view) reads(i int) bool { return v.only < 0 || i == v.only }

func (v *view) isChannelVersion(i int) bool {
	if v.src.free { // the channel of the release's own source (R23)
		s := v.rels[i].Source
		hv := v.src.headVersions[s]
		return v.src.channeled[s] && hv != nil && model.SameVersion(v.rels[i].Version, hv)
	}
	return v.channel != "" && v.headVersion != nil && model.SameVersion(v.rels[i].Version, v.headVersion)
}

// failing is one reason a release fails, for forbidEach: what it names
// (a constraint text, a capability, a module) and the constraint, if any.
type failing struct {
	component, name string
	cons            *model.Constraint
}

// forbidEach adds one fact of kind per distinct reason that failures names
// for the releases of v the static facts read, forbidding the releases
// that have it, in the order the reasons are first met (D20: releases that
// share a requirement share the fact).
func (p *problem) forbidEach(v *view, kind model.FactKind, failures func(r *model.Release, fail func(failing))) {
	var groups []textGroup // a module fails for a handful of reasons: a list beats a map
	i := 0
	if !v.recording() {
		mark := func(failing) { v.allowed[i] = false }
		for ; i < len(v.rels); i++ {
			if v.reads(i) {
				failures(v.rels[i], mark)
			}
		}
		return
	}
	fail := func(f failing) { groups = addToGroup(groups, f, i) }
	for ; i < len(v.rels); i++ {
		if v.reads(i) {
			failures(v.rels[i], fail)
		}
	}
	for _, g := range groups {
		dep := g.why.component
		if g.why.cons == nil {
			dep = g.why.name
		}
		p.forbid(v, kind, g.rels, factShape{cons: g.why.cons, dep: dep})
	}
}

// textGroup is one reason for which releases of a module fail, with the
// releases: the first failing seen carries the constraint.
type textGroup struct {
	why  failing
	rels []int
}

// addToGroup adds release i to the group of reason f, which it starts
// when f is new, keeping the groups in the order first met.
func addToGroup(groups []textGroup, f failing, i int) []textGroup {
	for k := range groups {
		if groups[k].why.component == f.component && groups[k].why.name == f.name {
			groups[k].rels = append(groups[k].rels, i)
			return groups
		}
	}
	return append(groups, textGroup{why: f, rels: []int{i}})
}

// addPlatformFacts adds R4 for one platform: one fact per distinct failing
// constraint text. Every release of every module in the closure passes
// through here twice, so it keeps its own loop rather than forbidEach's
// callbacks, which cost an allocation per call.
func (p *problem) addPlatformFacts(v *view, kind model.FactKind, axis int, platform model.Version, mode readMode) {
	if v.own {
		p.addCompiledPlatformFacts(v, kind, axis, platform, mode)
		return
	}
	var groups []textGroup
	get := platformGetters[axis]
	for i, r := range v.rels {
		c := get(r.Requirements)
		if c == nil || !v.reads(i) || p.platformAllows(v, i, axis, c, platform, mode) {
			continue
		}
		if !v.recording() {
			v.allowed[i] = false
			continue
		}
		groups = addToGroup(groups, failing{name: c.Text, cons: c}, i)
	}
	for _, g := range groups {
		p.forbid(v, kind, g.rels, factShape{cons: g.why.cons})
	}
}

// addCompiledPlatformFacts is addPlatformFacts over the compiled groups
// of releases that share a requirement text: one check per text, and the
// group's releases forbidden together.
func (p *problem) addCompiledPlatformFacts(v *view, kind model.FactKind, axis int, platform model.Version, mode readMode) {
	groups := v.tab.platformGroups[axis]
	if v.only >= 0 {
		// One release is read: its text names its group.
		id := v.tab.textID(axis, v.only)
		for k := range groups {
			if g := &groups[k]; g.text == id {
				if !p.textAllows(axis, g.text, g.cons, platform, mode) {
					p.forbid(v, kind, v.tab.every[v.only:v.only+1:v.only+1], factShape{cons: g.cons}) // shared and never written
				}
				return
			}
		}
		return
	}
	for k := range groups {
		g := &groups[k]
		if !p.textAllows(axis, g.text, g.cons, platform, mode) {
			p.forbid(v, kind, g.rels, factShape{cons: g.cons})
		}
	}
}

// addComponentFacts adds R22: one fact per platform component and
// failing constraint text, in component order. A component the cluster
// does not run fails every requirement on it (D33) but an optional one,
// which holds (D69).
func (p *problem) addComponentFacts(v *view, mode readMode) {
	if v.own && !v.tab.components {
		return
	}
	p.forbidEach(v, model.FactPlatformRequirement, func(r *model.Release, fail func(failing)) {
		if len(r.Requirements.Platform) == 0 {
			return
		}
		for _, name := range slices.Sorted(maps.Keys(r.Requirements.Platform)) {
			if c := r.Requirements.Platform[name]; p.componentFails(name, c, mode) {
				fail(failing{component: name, name: c.Text, cons: c})
			}
		}
	})
}

// componentFails reports whether the cluster's platform component name
// fails c (R22, D33, D69).
func (p *problem) componentFails(name string, c *model.Constraint, mode readMode) bool {
	ver := p.in.components[name]
	return (ver == nil && !c.Optional) || (ver != nil && !p.allows(c, ver, mode))
}

// platformForbids reports whether a platform requirement of release i of
// v fails (R4, R22): what the platform facts of v say of i, without
// making them.
func (p *problem) platformForbids(v *view, i int, mode readMode) bool {
	req := v.rels[i].Requirements
	if c := req.Deckhouse; c != nil && !p.platformAllows(v, i, axisDeckhouse, c, model.Core(p.in.deckhouse), mode) {
		return true
	}
	if c := req.Kubernetes; c != nil && !p.platformAllows(v, i, axisKubernetes, c, p.in.kubernetes, mode) {
		return true
	}
	for name, c := range req.Platform {
		if p.componentFails(name, c, mode) {
			return true
		}
	}
	return false
}

// addMissingCapabilityFacts forbids releases that require a capability no
// module in the catalog provides (R19).
func (p *problem) addMissingCapabilityFacts(v *view) {
	if (v.tab != nil && !v.tab.capabilities) || (v.tab == nil && !v.m.HasCapabilityRequirements()) {
		return
	}
	p.forbidEach(v, model.FactMissingCapability, func(r *model.Release, fail func(failing)) {
		for _, c := range r.Requirements.Capabilities {
			if len(p.in.cat.Providers(c)) == 0 {
				fail(failing{name: c})
			}
		}
	})
}

// addMissingModuleFacts forbids releases that require a module the
// catalog does not have; optional requirements on it impose nothing.
func (p *problem) addMissingModuleFacts(v *view) {
	if v.own && !v.tab.missingModules {
		return
	}
	p.forbidEach(v, model.FactMissingModule, func(r *model.Release, fail func(failing)) {
		for _, d := range r.Requirements.Modules {
			if !d.Constraint.Optional && p.in.cat.Module(d.Module) == nil {
				fail(failing{name: d.Module})
			}
		}
	})
}

// addVersionFacts adds the facts that tie a module's version to its
// deployed version, channel and pin (R9–R11, D11–D13).
func (p *problem) addVersionFacts(v *view) {
	if v.m.Embedded {
		return
	}
	if v.pinVersion != nil {
		// A pin the view does not list (its fixed source lacks it, R23)
		// forbids every release: pinned is -1.
		v.intentFact.at = v.pinned
		// Every release at the pinned version stays: with several sources
		// each (source, release) pair is a candidate (R23).
		others := v.where(func(_ int, r *model.Release) bool { return !model.SameVersion(r.Version, v.pinVersion) })
		if v.recording() {
			v.forbidWith(v.intentFact, others)
		} else {
			v.disallow(others)
		}
		return
	}
	off := v.offChannels()
	p.forbidWhere(v, model.FactChannelHead, func(i int, _ *model.Release) bool { return off(i) && i != v.deployed })
	if !v.before {
		return
	}
	if !v.inUpdate {
		v.only = -1 // every other release, which this fact alone forbids
		p.forbidWhere(v, model.FactKeepVersion, func(i int, _ *model.Release) bool { return i != v.deployed })
		return
	}
	p.forbidWhere(v, model.FactNoDowngrade, func(i int, _ *model.Release) bool { return i < v.deployed })
	if p.in.stepped(v) {
		steps := v.steps().targets
		p.forbidWhere(v, model.FactUpdateStep, func(i int, _ *model.Release) bool {
			return i > v.deployed && !slices.Contains(steps, i)
		})
	}
}

var platformGetters = [2]func(model.Requirements) *model.Constraint{
	func(r model.Requirements) *model.Constraint { return r.Deckhouse },
	func(r model.Requirements) *model.Constraint { return r.Kubernetes },
}

// platformAllows reports whether the effective version of platform axis
// meets c, release i's requirement on it. The catalog's distinct texts
// are interned when it is compiled, so each is checked once per request.
func (p *problem) platformAllows(v *view, i, axis int, c *model.Constraint, platform model.Version, mode readMode) bool {
	if !v.own {
		return p.allows(c, platform, mode)
	}
	return p.textAllows(axis, v.tab.textID(axis, i), c, platform, mode)
}

// textAllows is platformAllows for the interned requirement text id on
// axis, whose constraint is c.
func (p *problem) textAllows(axis int, id int32, c *model.Constraint, platform model.Version, mode readMode) bool {
	known := p.platformChecks(axis)
	if k := known[id].Load(); k != 0 {
		return k == 1
	}
	ok := p.allows(c, platform, mode)
	known[id].Store(int32(2 - b2i(ok))) // the same answer, whoever stores it
	return ok
}

// platformChecks is platformOK's list for axis, made on first use; a
// problem read in halves has made both (inHalves).
func (p *problem) platformChecks(axis int) []atomic.Int32 {
	if p.checks.platformOK[axis] == nil {
		p.checks.platformOK[axis] = make([]atomic.Int32, len(p.in.compiled.t.texts))
	}
	return p.checks.platformOK[axis]
}

// allows is c.Allows(v), remembered by constraint text and version: many
// releases share a requirement text, and a shared what-if encoding meets
// the same candidate versions again and again.
func (p *problem) allows(c *model.Constraint, v model.Version, mode readMode) bool {
	return p.allowsText(c, v, model.VersionString(v), mode)
}

// allowsText is allows for a caller that holds v's text already.
func (p *problem) allowsText(c *model.Constraint, v model.Version, text string, mode readMode) bool {
	if c.Cheap() && !model.IsPrerelease(v) {
		return c.Allows(v)
	}
	key := allowKey{c.Text, text}
	ok, seen := p.checks.memo[key]
	if !seen {
		ok = c.Allows(v)
		if mode == alone {
			p.checks.memo[key] = ok
		}
	}
	return ok
}

// why is c.Why(v), remembered like allows: the held-back reasons of many
// modules quote the same platform requirement.
func (p *problem) why(c *model.Constraint, v model.Version, mode readMode) string {
	key := allowKey{c.Text, model.VersionString(v)}
	text, seen := p.checks.whyMemo[key]
	if !seen {
		text = c.Why(v)
		if mode == alone {
			p.checks.whyMemo[key] = text
		}
	}
	return text
}

type allowKey struct{ constraint, version string }

// admits reports whether version ver of module d satisfies c, a range that
// module v wrote, read by v's version reading and the request's devel
// (R6). A built-in module's version is the DKP version, which is read as
// DKP reads it.
func (p *problem) admits(v *view, c *model.Constraint, d *view, ver model.Version) bool {
	return readingFor(v, d).Admits(c, ver, p.in.req.Devel)
}

// readingFor is the reading of a range that v wrote on module d.
func readingFor(v, d *view) model.VersionReading { return moduleReading(v.m, d.m) }

// moduleReading is the reading of a range that module m wrote on module
// d: a built-in module's version is DKP's (R5).
func moduleReading(m, d *model.Module) model.VersionReading {
	if d.Embedded {
		return model.ReadingDKP
	}
	return m.Reading()
}

// compiledRequirementFact is the fact of v's compiled requirement group g
// over every release, made once per problem and shared by the explain
// encodings that encode v and by local questions (localcore.go): it says
// the same in each, and a fact's place among a module's facts is the
// order they were made, the same each time.
func (p *problem) compiledRequirementFact(v *view, g *reqGroup) *fact {
	if f := p.reqFacts[g]; f != nil {
		return f
	}
	f := p.store.newFact(model.FactModuleRequirement, v)
	f.rels = slices.Clone(g.poss) // the positions are the release indices
	f.dep, f.cons = g.dep.Module, &g.dep.Constraint
	if p.reqFacts == nil {
		p.reqFacts = map[*reqGroup]*fact{}
	}
	p.reqFacts[g] = f
	return f
}

func (s factShape) fill(f *fact) {
	f.cons, f.dep, f.settings, f.platform = s.cons, s.dep, s.settings, s.platform
	if s.made != nil {
		*s.made = f
	}
}

// static returns v's static fact of kind, or nil.
func (v *view) static(kind model.FactKind) *fact {
	for _, f := range v.staticFacts() {
		if f.kind == kind {
			return f
		}
	}
	return nil
}

// loopShape is what a loop fact says of its circle: for each member (in
// fact.members), the releases that require the next one, and whether
// the cluster runs the circle already.
type loopShape struct {
	rels    [][]int
	running bool
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
