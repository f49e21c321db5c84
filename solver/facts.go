package solver

import (
	"maps"
	"slices"

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
	// choice is the R23 source choice of a source-preference fact.
	choice *sourceChoice
}

func (p *problem) newFact(kind model.FactKind, v *view) *fact {
	if len(p.factSlab) == cap(p.factSlab) {
		p.factSlab = make([]fact, 0, 256) // facts come by the thousand: allocate them in blocks
	}
	p.factSlab = append(p.factSlab, fact{id: len(p.facts), kind: kind, v: v, at: -1})
	f := &p.factSlab[len(p.factSlab)-1]
	p.facts = append(p.facts, f)
	return f
}

// forbid records a static fact that forbids releases rels of v, unless it
// forbids nothing.
func (p *problem) forbid(v *view, kind model.FactKind, rels []int, shape func(*fact)) {
	if len(rels) == 0 {
		return
	}
	f := p.newFact(kind, v)
	if shape != nil {
		shape(f)
	}
	v.forbidWith(f, rels)
}

// forbidWith makes f forbid releases rels of v.
func (v *view) forbidWith(f *fact, rels []int) {
	f.rels = rels
	v.statics = append(v.statics, f)
	for _, i := range rels {
		v.allowed[i] = false
	}
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
func (p *problem) addStaticFacts(v *view) {
	v.allowed = make([]bool, len(v.rels))
	for i := range v.allowed {
		v.allowed[i] = true
	}
	v.only = -1
	if v.before && !v.inUpdate && v.pinned < 0 && !v.m.Embedded && v.deployed >= 0 {
		v.only = v.deployed
	}
	p.forbid(v, model.FactEdition, v.where(func(i int, r *model.Release) bool {
		ok, _ := v.m.Access(r).For(p.cluster.Edition)
		return !ok
	}), nil)
	p.forbid(v, model.FactPrerelease, v.where(func(i int, r *model.Release) bool {
		pinned := v.pinVersion != nil && model.SameVersion(r.Version, v.pinVersion)
		return !v.m.Embedded && model.IsPrerelease(r.Version) && i != v.deployed && !pinned && !v.isChannelVersion(i)
	}), nil)
	p.addPlatformFacts(v, model.FactDeckhouseRequirement, func(r model.Requirements) *model.Constraint { return r.Deckhouse }, model.Core(p.deckhouse))
	p.addPlatformFacts(v, model.FactKubernetesRequirement, func(r model.Requirements) *model.Constraint { return r.Kubernetes }, p.kubernetes)
	p.addComponentFacts(v)
	p.addStageFacts(v)
	p.addMissingModuleFacts(v)
	p.addMissingCapabilityFacts(v)
	p.addVersionFacts(v)
	p.addSourceFacts(v)
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
	var byReason map[failing][]int
	var order []failing
	i := 0
	fail := func(f failing) {
		key := failing{component: f.component, name: f.name}
		if byReason == nil {
			byReason = map[failing][]int{}
		}
		if _, seen := byReason[key]; !seen {
			order = append(order, f)
		}
		byReason[key] = append(byReason[key], i)
	}
	for ; i < len(v.rels); i++ {
		if v.reads(i) {
			failures(v.rels[i], fail)
		}
	}
	for _, f := range order {
		p.forbid(v, kind, byReason[failing{component: f.component, name: f.name}], func(x *fact) {
			x.cons = f.cons
			if x.dep = f.component; f.cons == nil {
				x.dep = f.name
			}
		})
	}
}

// addPlatformFacts adds R4 for one platform: one fact per distinct failing
// constraint text. Every release of every module in the closure passes
// through here twice, so it keeps its own loop rather than forbidEach's
// callbacks, which cost an allocation per call.
func (p *problem) addPlatformFacts(v *view, kind model.FactKind, get func(model.Requirements) *model.Constraint, platform model.Version) {
	var byText map[string][]int
	var texts []string
	platformText := ""
	for i, r := range v.rels {
		c := get(r.Requirements)
		if c == nil || !v.reads(i) {
			continue
		}
		if platformText == "" {
			platformText = model.VersionString(platform)
		}
		if p.allowsText(c, platform, platformText) {
			continue
		}
		if byText == nil {
			byText = map[string][]int{}
		}
		if _, seen := byText[c.Text]; !seen {
			texts = append(texts, c.Text)
		}
		byText[c.Text] = append(byText[c.Text], i)
	}
	for _, t := range texts {
		rels := byText[t]
		cons := get(v.rels[rels[0]].Requirements)
		p.forbid(v, kind, rels, func(f *fact) { f.cons = cons })
	}
}

// addComponentFacts adds R22: one fact per platform component and
// failing constraint text, in component order. A component the cluster
// does not run fails every requirement on it (D33) but an optional one,
// which holds (D69).
func (p *problem) addComponentFacts(v *view) {
	p.forbidEach(v, model.FactPlatformRequirement, func(r *model.Release, fail func(failing)) {
		if len(r.Requirements.Platform) == 0 {
			return
		}
		for _, name := range slices.Sorted(maps.Keys(r.Requirements.Platform)) {
			c := r.Requirements.Platform[name]
			if ver := p.components[name]; (ver == nil && !c.Optional) || (ver != nil && !p.allows(c, ver)) {
				fail(failing{component: name, name: c.Text, cons: c})
			}
		}
	})
}

// addMissingCapabilityFacts forbids releases that require a capability no
// module in the catalog provides (R19).
func (p *problem) addMissingCapabilityFacts(v *view) {
	if !v.m.HasCapabilityRequirements() {
		return
	}
	p.forbidEach(v, model.FactMissingCapability, func(r *model.Release, fail func(failing)) {
		for _, c := range r.Requirements.Capabilities {
			if len(p.cat.Providers(c)) == 0 {
				fail(failing{name: c})
			}
		}
	})
}

// addMissingModuleFacts forbids releases that require a module the
// catalog does not have; optional requirements on it impose nothing.
func (p *problem) addMissingModuleFacts(v *view) {
	p.forbidEach(v, model.FactMissingModule, func(r *model.Release, fail func(failing)) {
		for _, d := range r.Requirements.Modules {
			if !d.Constraint.Optional && p.cat.Module(d.Module) == nil {
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
		v.forbidWith(v.intentFact, v.where(func(_ int, r *model.Release) bool { return !model.SameVersion(r.Version, v.pinVersion) }))
		return
	}
	p.forbid(v, model.FactChannelHead, v.where(func(i int, _ *model.Release) bool { return v.aboveHead(i) && i != v.deployed }), nil)
	if !v.before {
		return
	}
	if !v.inUpdate {
		v.only = -1 // every other release, which this fact alone forbids
		p.forbid(v, model.FactKeepVersion, v.where(func(i int, _ *model.Release) bool { return i != v.deployed }), nil)
		return
	}
	p.forbid(v, model.FactNoDowngrade, v.where(func(i int, _ *model.Release) bool { return i < v.deployed }), nil)
	if p.stepped(v) {
		steps := v.steps().targets
		p.forbid(v, model.FactUpdateStep, v.where(func(i int, _ *model.Release) bool {
			return i > v.deployed && !slices.Contains(steps, i)
		}), nil)
	}
}

// allows is c.Allows(v), remembered by constraint text and version: many
// releases share a requirement text, and a shared what-if encoding meets
// the same candidate versions again and again.
func (p *problem) allows(c *model.Constraint, v model.Version) bool {
	return p.allowsText(c, v, model.VersionString(v))
}

// allowsText is allows for a caller that holds v's text already.
func (p *problem) allowsText(c *model.Constraint, v model.Version, text string) bool {
	if c.Cheap() && !model.IsPrerelease(v) {
		return c.Allows(v)
	}
	key := allowKey{c.Text, text}
	ok, seen := p.memo[key]
	if !seen {
		ok = c.Allows(v)
		p.memo[key] = ok
	}
	return ok
}

// why is c.Why(v), remembered like allows: the held-back reasons of many
// modules quote the same platform requirement.
func (p *problem) why(c *model.Constraint, v model.Version) string {
	key := allowKey{c.Text, model.VersionString(v)}
	text, seen := p.whyMemo[key]
	if !seen {
		text = c.Why(v)
		p.whyMemo[key] = text
	}
	return text
}

type allowKey struct{ constraint, version string }
