package randscen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Scenario is one generated input: a catalog, a cluster state and a
// request that pass the loaders' validation.
type Scenario struct {
	Seed    uint64
	Catalog *model.Catalog
	Cluster *model.ClusterState
	Request *model.Request
}

// The pools the generator draws from. Small pools make modules meet:
// requirements name versions that exist, groups and capabilities collide.
var (
	moduleNames  = []string{"api", "db", "gw", "log", "mon"}
	finalPool    = []string{"0.1.0", "0.1.1", "0.2.0", "0.3.3", "1.0.0", "1.0.1", "1.1.0", "1.2.1", "1.3.0", "2.0.0"}
	prePool      = []string{"1.1.0-rc.1", "2.0.0-rc.1"}
	dkpPool      = []string{"1.70.0", "1.71.2", "1.72.0", "1.73.1"}
	kubePool     = []string{"1.29.6", "1.30.2", "1.31.0"}
	openshift    = []string{"4.14.2", "4.16.0", "4.17.1"}
	capabilities = []string{"x.io/v1/Foo", "x.io/v1/Bar"}
	// missingCapability is provided by no module, so that requiring it
	// makes a release unselectable (R19).
	missingCapability = "x.io/v1/Gone"
	// ghostModule is in no catalog (a requirement on it fails unless optional).
	ghostModule = "ghost"
)

// maxAttempts bounds the redraws of one seed; the draws are valid by
// construction almost always, so reaching it is a generator bug.
const maxAttempts = 100

// Generate returns the scenario of seed. A draw that the loaders would
// refuse as bad input is drawn again from the same seed's stream.
func Generate(seed uint64) *Scenario {
	for attempt := range uint64(maxAttempts) {
		g := &gen{rng: rand.New(rand.NewPCG(seed, attempt)), crng: stream(compoundStream, seed, attempt), srng: stream(sourceStream, seed, attempt),
			grng: stream(groupStream, seed, attempt), lrng: stream(loopStream, seed, attempt), brng: stream(builtInStream, seed, attempt),
			vrng: stream(versionStream, seed, attempt), chrng: stream(channelStream, seed, attempt),
			setrng: stream(settingsStream, seed, attempt), rrng: stream(releaseStream, seed, attempt)}
		if sc, err := g.scenario(); err == nil {
			sc.Seed = seed
			return sc
		}
	}
	panic(fmt.Sprintf("internal error: seed %d gives no valid scenario in %d attempts", seed, maxAttempts))
}

// stream is the stream of one attempt at a seed for the kind of draw that
// salt names: each kind has a stream of its own, so that drawing a new
// kind leaves every other draw of a seed as it was.
func stream(salt, seed, attempt uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed^salt, attempt))
}

// gen draws one scenario from rng.
type gen struct {
	rng *rand.Rand
	// crng draws compound requirements (R24, compound.go).
	crng *rand.Rand
	// chrng draws channel sets (D182, channels.go).
	chrng *rand.Rand
	// srng draws sources (R23, sources.go).
	srng *rand.Rand
	// grng draws DKP v2 groups (R28, groups.go).
	grng *rand.Rand
	// lrng draws each catalog's loop rule (R27, loops.go), and loops the
	// rule the catalog being drawn states.
	lrng  *rand.Rand
	loops model.LoopRule
	// brng draws built-in modules that the second source lists (R29,
	// sources.go).
	brng *rand.Rand
	// vrng draws the version reading, its prereleases and ranges, and
	// devel (R6, versions.go); reading is the catalog's.
	vrng    *rand.Rand
	reading model.VersionReading
	// setrng draws settings schemas and the cluster's settings (R34,
	// settings.go).
	setrng *rand.Rand
	// rrng draws DKP's release data (R31, releases.go).
	rrng *rand.Rand
	// versions holds each module's release versions as text; a built-in
	// module has the DKP pool, the versions it may run at.
	versions map[string][]string
	embedded map[string]bool
	names    []string
	// components are the platform components the cluster declares (R22).
	components map[string]string
}

func (g *gen) chance(p float64) bool { return g.rng.Float64() < p }

func (g *gen) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

// pickN returns n distinct elements of xs, in xs's order.
func (g *gen) pickN(xs []string, n int) []string {
	idx := g.rng.Perm(len(xs))[:min(n, len(xs))]
	slices.Sort(idx)
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = xs[j]
	}
	return out
}

func (g *gen) scenario() (*Scenario, error) {
	g.reading = g.drawReading()
	g.names = g.pickN(moduleNames, 2+g.rng.IntN(4))
	g.versions = map[string][]string{}
	g.embedded = map[string]bool{}
	for i, name := range g.names {
		if i > 0 && g.chance(0.2) {
			g.embedded[name] = true
			g.versions[name] = dkpPool
			continue
		}
		vs := g.pickN(finalPool, 1+g.rng.IntN(4))
		if g.chance(0.15) {
			vs = append(vs, g.pick(prePool))
		}
		if pre := g.extraPrerelease(); pre != "" {
			vs = append(vs, pre)
		}
		slices.SortFunc(vs, func(a, b string) int {
			return model.MustParseVersion(a).Compare(model.MustParseVersion(b))
		})
		g.versions[name] = slices.Compact(vs)
	}
	g.loops = g.loopRule()
	mods := make([]*model.Module, 0, len(g.names))
	for _, name := range g.names {
		mods = append(mods, g.module(name))
	}
	cat, err := model.NewCatalog(mods)
	if err != nil {
		return nil, err
	}
	cluster := g.cluster(cat)
	if err := g.drawSettings(g.setrng, cat, cluster); err != nil {
		return nil, err
	}
	req := g.request(cat, cluster)
	sources := g.secondSource(cat)
	if releases := g.drawReleases(g.rrng, cat, cluster, req); releases != nil && sources == nil {
		cat = cat.WithKnownPlatform(&model.KnownPlatform{Releases: releases})
	}
	if !cluster.AllowExperimentalModules && g.rrng.Float64() < 0.3 { // R25: DKP's allowedExperimentalModules
		cluster.AllowedExperimentalModules = []string{g.names[g.rrng.IntN(len(g.names))]}
	}
	if sources != nil {
		if cat, err = model.Merge(sources); err != nil {
			return nil, err
		}
		g.placeSources(cat, cluster, req)
	}
	g.dropDeckhouse(cat, cluster)
	if err := cluster.Validate(cat); err != nil {
		return nil, err
	}
	if err := req.Validate(cat, cluster); err != nil {
		return nil, err
	}
	return &Scenario{Catalog: cat, Cluster: cluster, Request: req}, nil
}

func (g *gen) module(name string) *model.Module {
	m := &model.Module{Name: name, Embedded: g.embedded[name], DependencyLoops: g.loops, Versions: g.reading}
	if g.chance(0.25) {
		m.ExclusiveGroup = "cni"
	}
	if g.chance(0.35) {
		m.Accessibility = g.accessibility()
	}
	if m.Embedded {
		m.Requirements = g.requirements(name)
		m.Stage, m.Disable = g.stage(), g.disable()
		return m
	}
	if g.chance(0.15) {
		m.UpdatePolicy = model.UpdatePolicies[g.rng.IntN(len(model.UpdatePolicies))] // D66
	}
	graph := g.chance(0.15)
	vs := g.versions[name]
	for i, text := range vs {
		r := &model.Release{Version: model.MustParseVersion(text), Requirements: g.requirements(name)}
		if g.chance(0.1) {
			r.Accessibility = g.accessibility()
		}
		if g.chance(0.15) {
			r.Provides = g.pickN(capabilities, 1)
		}
		if mm := model.MinorOf(r.Version); mm.Major > 0 && g.chance(0.15) {
			r.UpdateRules = []model.UpdateRule{{From: model.MajorMinor{Major: 0, Minor: uint64(g.rng.IntN(3))}, To: mm}}
		}
		if graph && i > 0 {
			r.Edges = g.edges(vs[:i])
		}
		r.Stage, r.Disable = g.stage(), g.disable()
		m.Releases = append(m.Releases, r)
	}
	if g.chance(0.4) {
		m.Channels = map[string]model.Version{}
		for _, ch := range g.pickN(model.Channels, 1+g.rng.IntN(3)) {
			m.Channels[ch] = model.MustParseVersion(g.pick(vs))
		}
		g.channelSets(m)
	}
	return m
}

// stage draws a release's stage (R25): mostly General Availability.
func (g *gen) stage() model.Stage {
	if !g.chance(0.2) {
		return model.StageGeneralAvailability
	}
	return []model.Stage{model.StagePreview, model.StageExperimental, model.StageExperimental, model.StageDeprecated}[g.rng.IntN(4)]
}

// disable draws a release's disable declaration (R26): now and then one
// that asks for confirmation.
func (g *gen) disable() model.Disable {
	if !g.chance(0.1) {
		return model.Disable{}
	}
	return model.Disable{Confirmation: true, Message: "disabling it stops the platform"}
}

// edges draws update edges into a release from the older versions (R21).
func (g *gen) edges(older []string) *model.UpdateEdges {
	e := &model.UpdateEdges{}
	if g.chance(0.7) {
		e.Replaces = model.MustParseVersion(older[len(older)-1])
	}
	if g.chance(0.3) {
		e.Skips = []model.Version{model.MustParseVersion(g.pick(older))}
	}
	if g.chance(0.2) {
		c := model.MustParseConstraint("< " + older[len(older)-1])
		e.SkipRange = &c
	}
	if e.Replaces == nil && e.Skips == nil && e.SkipRange == nil {
		return nil // a release with no edge in
	}
	return e
}

func (g *gen) accessibility() *model.Accessibility {
	a := &model.Accessibility{Editions: map[string]model.EditionAccess{}}
	yes, no := true, false
	def := model.EditionAccess{Available: &yes}
	if g.chance(0.6) {
		def.EnabledInBundles = []string{g.pick([]string{"Default", "Minimal"})}
	}
	a.Editions[model.DefaultEdition] = def
	if g.chance(0.4) {
		ee := model.EditionAccess{Available: &no}
		if g.chance(0.5) {
			ee = model.EditionAccess{EnabledInBundles: []string{"Default"}}
		}
		a.Editions["ee"] = ee
	}
	return a
}

// requirements draws what one release (or a built-in module) needs.
func (g *gen) requirements(self string) model.Requirements {
	var req model.Requirements
	for _, other := range g.names {
		if other != self && g.chance(0.22) {
			req.Modules = append(req.Modules, model.Dependency{Module: other, Constraint: g.depConstraint(other)})
		}
	}
	if g.chance(0.04) {
		req.Modules = append(req.Modules, model.Dependency{Module: ghostModule, Constraint: g.depConstraint(ghostModule)})
	}
	if g.chance(0.15) {
		req.Deckhouse = mustConstraint(g.rangeOver(dkpPool, true))
	}
	if g.chance(0.15) {
		req.Kubernetes = mustConstraint(g.rangeOver(kubePool, true))
	}
	if g.chance(0.08) {
		text := g.rangeOver(openshift, true)
		if g.chance(0.5) {
			text += " !optional" // D69: holds where the cluster runs no openshift
		}
		req.Platform = map[string]*model.Constraint{"openshift": mustConstraint(text)}
	}
	if !g.embedded[self] && g.chance(0.12) {
		capability := g.pick(capabilities)
		if g.chance(0.15) {
			capability = missingCapability
		}
		req.Capabilities = []string{capability}
	}
	req.Compound = append(g.compounds(self), g.groups(self, req)...)
	return req
}

func mustConstraint(text string) *model.Constraint {
	c := model.MustParseConstraint(text)
	return &c
}

// depConstraint draws a requirement's constraint on module d, optional
// about a third of the time (R3).
func (g *gen) depConstraint(d string) model.Constraint {
	vs, ok := g.versions[d]
	if !ok {
		vs = finalPool
	}
	text := g.rangeOver(vs, false)
	if pre := g.prereleaseRange(vs); pre != "" {
		text = pre
	}
	switch {
	case text == "":
		text = "!optional"
	case g.chance(0.35):
		text += " !optional"
	}
	return model.MustParseConstraint(text)
}

// rangeOver draws a constraint over versions near vs in modsolver's
// grammar (R6): comparisons, AND, ||, ~, ^, x-ranges, hyphen ranges and
// OLM-style exclusions. It returns "" for "any version" when platform is
// false (a bare "!optional" then).
func (g *gen) rangeOver(vs []string, platform bool) string {
	x := core(g.pick(vs))
	y := core(g.pick(vs))
	if model.MustParseVersion(y).LessThan(model.MustParseVersion(x)) {
		x, y = y, x
	}
	forms := []func() string{
		func() string { return ">= " + x },
		func() string { return "> " + x },
		func() string { return "< " + y },
		func() string { return "<= " + x },
		func() string { return ">= " + x + ", < " + y },
		func() string { return "~" + minorText(x) },
		func() string { return "^" + x },
		func() string { return "> " + x + " !" + y },
		func() string { return ">= 0.0.0 !" + x },
		func() string { return "< " + x + " || >= " + y },
		func() string { return "= " + x },
		func() string { return x + " - " + y },
		func() string { return majorText(x) + ".x" },
		func() string { return ">= " + minorText(x) },
		func() string { return ">= 0.0.0" },
	}
	if !platform && g.chance(0.08) {
		return ""
	}
	return forms[g.rng.IntN(len(forms))]()
}

// core drops a prerelease, so that constraints name final versions.
func core(v string) string { s, _, _ := strings.Cut(v, "-"); return s }

func minorText(v string) string {
	mm := model.MinorOf(model.MustParseVersion(v))
	return fmt.Sprintf("%d.%d", mm.Major, mm.Minor)
}

func majorText(v string) string {
	return fmt.Sprintf("%d", model.MustParseVersion(v).Major())
}
