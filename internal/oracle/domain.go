package oracle

import (
	"slices"

	"github.com/modsolver/modsolver/model"
)

// intent is what R8 makes of a module before any preference.
type intent int

const (
	mustOff     intent = iota // the request disables it, the cluster does, or nobody asks for it
	mustOn                    // the request enables or pins it, or the cluster enables it
	keepSoft                  // the cluster enables it and allowDisable lets it go (R14 level 2)
	defaultSoft               // on by bundle default, off if it cannot be (R7, R8)
	autoSoft                  // nobody configures it; autoEnable may turn it on (R14 level 4)
)

// problem is one resolution's inputs, with every module's options.
type problem struct {
	cat     *model.Catalog
	cluster *model.ClusterState
	req     *model.Request
	// dkp and kube are the effective platform versions: the request's
	// candidates, else the cluster's (R12).
	dkp, kube  model.Version
	components map[string]model.Version
	mods       []*mod // by name
	index      map[string]int
}

// mod is one module and what it may be.
type mod struct {
	m    *model.Module
	name string
	// rels are the releases; a built-in module has one, at the effective
	// DKP version, carrying the module's requirements (R5).
	rels   []*model.Release
	intent intent
	// named: the request names it (R14 level 3).
	named bool
	// options lists what the module may be: -1 for off, else a release
	// index; ascending.
	options []int
	// R23 (sources.go): free says each source's releases are candidates;
	// from is the deployed release's source, to the source the module
	// must come from, moved that they differ; forbidden is the index of
	// the deployed release when a move leaves it behind, else -1.
	free      bool
	from, to  string
	moved     bool
	forbidden int
	// leftPlatform: it ran built in and moves to a source (R29), where it
	// is installed anew.
	leftPlatform bool
}

func newProblem(cat *model.Catalog, cluster *model.ClusterState, req *model.Request) *problem {
	p := &problem{cat: cat, cluster: cluster, req: req, dkp: cluster.Deckhouse, kube: cluster.Kubernetes,
		components: map[string]model.Version{}, index: map[string]int{}}
	if req.Platform.Deckhouse != nil {
		p.dkp = req.Platform.Deckhouse
	}
	if req.Platform.Kubernetes != nil {
		p.kube = req.Platform.Kubernetes
	}
	for name, v := range cluster.Platform {
		p.components[name] = v
	}
	for name, v := range req.Platform.Components {
		p.components[name] = v
	}
	for _, m := range cat.Modules() {
		p.index[m.Name] = len(p.mods)
		p.mods = append(p.mods, p.newMod(m))
	}
	return p
}

func (p *problem) newMod(m *model.Module) *mod {
	x := &mod{m: m, name: m.Name, rels: m.Releases, forbidden: -1}
	p.placeSource(x)
	if bm := x.m; bm.Embedded { // R29: also a module one source carries built in
		x.rels = []*model.Release{{Version: p.dkp, Requirements: bm.Requirements, Accessibility: bm.Accessibility, Source: bm.Source}}
	}
	if v, ok := p.cluster.Deployed(m); ok && !x.m.Embedded && !x.leftPlatform && x.m.Release(v) == nil {
		// D73: a deployed version the catalog does not list is a release
		// with no requirements, in version order. R23 (D76): when a move
		// takes the module to a source that does not list its deployed
		// release, that release stays its own, from the source it
		// leaves, and may not be selected.
		ghost := &model.Release{Version: v, Source: x.to}
		if x.moved {
			ghost = p.runningRelease(x, -1)
		}
		x.rels = append([]*model.Release{ghost}, x.m.Releases...)
		x.sortRels()
		if x.moved {
			x.forbidden = slices.Index(x.rels, ghost)
		}
	}
	_, pinned := p.req.Pin[m.Name]
	x.named = slices.Contains(p.req.Enable, m.Name) || pinned || (p.inUpdateSet(m.Name) && p.cluster.Modules[m.Name].On()) // D65
	x.intent = p.intentOf(x)
	if x.intent != mustOn {
		x.options = append(x.options, -1)
	}
	if x.intent == mustOff {
		return x
	}
	for i := range x.rels {
		if p.selectable(x, i) {
			x.options = append(x.options, i)
		}
	}
	return x
}

func (x *mod) sortRels() {
	slices.SortStableFunc(x.rels, func(a, b *model.Release) int { return model.CompareVersions(a.Version, b.Version) })
}

// inUpdateSet reports whether the request lets name change version (R9):
// it is pinned, listed in update, or enabled in the cluster under
// updateAll.
func (p *problem) inUpdateSet(name string) bool {
	_, pinned := p.req.Pin[name]
	return pinned || slices.Contains(p.req.Update, name) || (p.req.UpdateAll && p.cluster.Modules[name].On())
}

// intentOf reads R8 with D15: the request's disable, pin and enable, then
// the cluster's enabled: true or false, then the bundle default, then
// autoEnable.
func (p *problem) intentOf(x *mod) intent {
	st := p.cluster.Modules[x.name]
	_, pinned := p.req.Pin[x.name]
	switch {
	case slices.Contains(p.req.Disable, x.name):
		return mustOff
	case pinned, slices.Contains(p.req.Enable, x.name):
		return mustOn
	case st.On() && p.req.AllowDisable && !p.confirmsDisable(x):
		return keepSoft
	case st.On():
		return mustOn
	case st.Off():
		return mustOff
	case p.onByDefault(x):
		return defaultSoft
	case p.req.AutoEnable:
		return autoSoft
	}
	return mustOff
}

// onByDefault reads R7: the cluster's bundle is listed in enabledInBundles
// of the newest release that may be selected in its edition, that is, one
// available there, not above the channel head and not a prerelease other
// than the channel's version or one R6 lets be taken (D141).
func (p *problem) onByDefault(x *mod) bool {
	if p.cluster.Bundle == "" {
		return false
	}
	for i := len(x.rels) - 1; i >= 0; i-- {
		r := x.rels[i]
		h := p.headOf(x, r)
		available, bundles := p.sourceModule(x, r).Access(r).For(p.cluster.Edition)
		experimental := p.stageOf(x, r) == model.StageExperimental && !p.cluster.ExperimentalAllowed(x.name) // D58
		if !available || experimental || (!x.m.Embedded && (h.off(r.Version) || (model.IsPrerelease(r.Version) && !h.isChannelVersion(r.Version) && !p.prereleaseAllowed(x, r)))) {
			continue
		}
		return slices.Contains(bundles, p.cluster.Bundle)
	}
	return false
}

// head is a module's channel bound (R10, D10), and the channel's set of
// releases where the catalog lists one (D182).
type head struct {
	bounded bool          // a channel with data applies
	version model.Version // the bound; nil when bounded and no channel that stable is listed
	set     *model.ChannelSet
}

// off reports whether v is off the channel: above the head, or, where the
// channel lists its entries, not one of them or one another entry skips.
func (h head) off(v model.Version) bool {
	if h.above(v) {
		return true
	}
	if h.set == nil {
		return false
	}
	listed := func(vs []model.Version) bool {
		return slices.ContainsFunc(vs, func(w model.Version) bool { return model.SameVersion(v, w) })
	}
	return !listed(h.set.Entries) || listed(h.set.Skipped)
}

// above reports whether v is above the head.
func (h head) above(v model.Version) bool {
	if h.version == nil {
		return h.bounded
	}
	return model.CompareVersions(v, h.version) > 0
}

func (h head) isChannelVersion(v model.Version) bool {
	return h.bounded && h.version != nil && model.SameVersion(v, h.version)
}

// headOf finds the head: the version of the module's channel (its own,
// else the cluster's), else of the nearest more stable DKP channel it
// lists (D10). With no channel set, or no channel data, the head is the
// newest release that is not a prerelease, or a prerelease R6 lets be
// taken (D140).
//
// A module with a default channel of its own (D32) follows it when the
// cluster names no channel for the module itself and the cluster-wide
// channel (if any) names none the module lists.
//
// With several sources the channels are those of the source release r
// comes from (R23): for a free module, its releases of that source.
func (p *problem) headOf(x *mod, r *model.Release) head {
	m, rels := x.m, x.rels
	if x.free {
		m = p.sourceModule(x, r)
		rels = m.Releases
	}
	own := p.cluster.Modules[x.name].Channel
	ch := own
	if ch == "" {
		ch = p.cluster.ReleaseChannel
	}
	if m.Embedded {
		return head{version: newestFinal(rels)}
	}
	if len(m.Channels) == 0 {
		return head{version: p.newestTaken(x, rels)}
	}
	if name, ok := channelOf(m, ch); ok {
		return head{bounded: true, version: m.Channels[name], set: m.ChannelSets[name]}
	}
	if v, ok := m.Channels[m.DefaultChannel]; ok && own == "" {
		return head{bounded: true, version: v, set: m.ChannelSets[m.DefaultChannel]}
	}
	if ch == "" {
		return head{version: p.newestTaken(x, rels)}
	}
	return head{bounded: true}
}

// newestTaken is the newest of rels that is final or a prerelease R6 lets
// be taken (prereleaseAllowed), else the newest.
func (p *problem) newestTaken(x *mod, rels []*model.Release) model.Version {
	var out model.Version
	for _, r := range rels {
		if !model.IsPrerelease(r.Version) || p.prereleaseAllowed(x, r) {
			out = r.Version
		}
	}
	if out == nil && len(rels) > 0 {
		out = rels[len(rels)-1].Version
	}
	return out
}

// channelOf is channel ch for m, else the nearest more stable DKP
// channel m lists (D10).
func channelOf(m *model.Module, ch string) (string, bool) {
	if _, ok := m.Channels[ch]; ok {
		return ch, true
	}
	for i, name := range model.Channels {
		if name != ch {
			continue
		}
		for _, stabler := range model.Channels[i+1:] {
			if _, ok := m.Channels[stabler]; ok {
				return stabler, true
			}
		}
	}
	return "", false
}

func newestFinal(rels []*model.Release) model.Version {
	var out model.Version
	for _, r := range rels {
		if !model.IsPrerelease(r.Version) {
			out = r.Version
		}
	}
	if out == nil && len(rels) > 0 {
		out = rels[len(rels)-1].Version
	}
	return out
}

// deployed returns the index of the release the cluster runs, or -1. A
// built-in module runs at the DKP version, which has no rule of its own
// besides its requirements.
func (p *problem) deployed(x *mod) int {
	v, ok := p.cluster.Deployed(x.m)
	if !ok || x.m.Embedded {
		return -1
	}
	for i, r := range x.rels {
		if model.SameVersion(r.Version, v) {
			return i
		}
	}
	return -1
}

// selectable reports whether release i of x may be selected, on its own.
func (p *problem) selectable(x *mod, i int) bool {
	r := x.rels[i]
	if i == x.forbidden {
		return false // R23, D76: the request moves the module away from it
	}
	if ok, _ := p.sourceModule(x, r).Access(r).For(p.cluster.Edition); !ok {
		return false // R7
	}
	if !p.platformAllows(r.Requirements) {
		return false // R4, R22
	}
	if p.stageOf(x, r) == model.StageExperimental && !p.cluster.ExperimentalAllowed(x.name) {
		return false // R25
	}
	if p.settingsRefuse(x, i) {
		return false // R34
	}
	if p.releaseRefuses(x, i) {
		return false // R31
	}
	if x.m.Embedded {
		return true
	}
	if pin, pinned := p.req.Pin[x.name]; pinned {
		return model.SameVersion(r.Version, pin) // D12: a pin bypasses R9–R11
	}
	dep := p.deployed(x)
	if i == dep {
		return true // kept: neither the head (D11) nor the steps bind it
	}
	h := p.headOf(x, r)
	switch {
	case model.IsPrerelease(r.Version) && !h.isChannelVersion(r.Version) && !p.prereleaseAllowed(x, r):
		return false // D1, D140
	case h.off(r.Version):
		return false // R10, D182
	case dep < 0:
		return true // an install
	case !p.inUpdateSet(x.name):
		return false // R9: it keeps its version
	case model.CompareVersions(r.Version, x.rels[dep].Version) < 0:
		return false // R9: no downgrade without a pin
	case p.req.EffectiveStrategy() == model.StrategyDirect:
		return true
	}
	return p.oneUpdate(x, dep, i, h)
}

// prereleaseAllowed reads R6 for a prerelease that is neither deployed,
// pinned nor the channel's version: devel allows every one; the blang
// reading takes it as any other version; the semver reading, where some
// range of the catalog written under it names it (D140).
func (p *problem) prereleaseAllowed(x *mod, r *model.Release) bool {
	switch {
	case p.req.Devel || x.m.Versions == model.ReadingBlang:
		return true
	case x.m.Versions != model.ReadingSemver:
		return false
	}
	for _, m := range p.cat.Modules() {
		for _, rel := range m.Releases {
			for _, d := range rel.Requirements.Modules {
				if m.Versions == model.ReadingSemver && d.Module == x.name && !d.Constraint.AnyVersion() && d.Constraint.Allows(r.Version) {
					return true
				}
			}
		}
	}
	return false
}

// platformAllows checks R4 (the DKP version stripped, Kubernetes as it
// is) and R22 (other components as they are; one the cluster does not
// declare fails, D33, unless the requirement is !optional, D69).
func (p *problem) platformAllows(req model.Requirements) bool {
	if req.Deckhouse != nil && !req.Deckhouse.Allows(model.Core(p.dkp)) {
		return false
	}
	if req.Kubernetes != nil && !req.Kubernetes.Allows(p.kube) {
		return false
	}
	for name, c := range req.Platform {
		v := p.components[name]
		switch {
		case v == nil && c.Optional: // D69: holds where the component is absent
		case v == nil || !c.Allows(v):
			return false
		}
	}
	return true
}

// stageOf is release r's stage (R25); a built-in module's own stage is
// that of its one release.
func (p *problem) stageOf(x *mod, r *model.Release) model.Stage {
	if x.m.Embedded {
		return x.m.Stage
	}
	return r.Stage
}

// confirmsDisable reports whether x's deployed release declares
// disable.confirmation (R26): allowDisable may not choose it.
func (p *problem) confirmsDisable(x *mod) bool {
	if x.m.Embedded {
		return x.m.Disable.Confirmation
	}
	if x.leftPlatform {
		return p.cat.Module(x.name).ForSource(x.from).Disable.Confirmation // it runs built in (R29)
	}
	if i := p.deployed(x); i >= 0 {
		return p.runningRelease(x, i).Disable.Confirmation
	}
	return false
}
