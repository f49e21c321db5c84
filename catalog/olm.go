package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// OLM catalogs, the bundle-metadata dump (FormatOLMBundles, this file) and
// the file-based catalog (FormatOLMFBC, olm_fbc.go), map to the model so:
//
//   - A package is a module, never built in. A bundle is a release whose
//     version is the bundle's version; prereleases stay. Versions are read
//     as OLM's blang/semver reads them (model.ReadingBlang, R6, D140): in
//     a versionRange and a skipRange a prerelease is a version like any
//     other. A bundle whose
//     version does not parse is skipped, and of two bundles with the same
//     version in a package the first in file order is kept, the other
//     skipped.
//   - A channel points at the version of its head (D32). For the dump the
//     head is the channel's semverHead; for an FBC, or a dump channel
//     without one, it is the entry that no other entry of the channel
//     replaces or skips, the newest by semver when there are several. A
//     channel whose head is not a loaded release is dropped with a
//     warning. The default channel is the package's defaultChannel if that
//     channel survived; otherwise there is none, with a warning.
//   - A channel is also the set of its entries (D182): a module that
//     follows it takes only a loaded bundle that is an entry of the
//     channel and that no other entry of it skips (skips; replaces and
//     skipRange, which say where an update may come from, do not take an
//     entry out). Entries that are not loaded bundles are left out; the
//     skipped entries are counted.
//   - replaces, skips and skipRange are update edges (R21). replaces and
//     skips name bundles of the same package, read as their versions; a
//     name that is not a loaded bundle is left out and counted as
//     dangling. The dump takes them from each bundle; an FBC from the
//     channel entries, a bundle in several channels getting the union:
//     the first replaces is Replaces, further ones join Skips, and
//     different skipRanges are joined with "||". An invalid skipRange
//     skips the bundle. A package updates along its graph (policy
//     graph, D66), so a bundle without an edge out of it stays. The
//     dump's semver-mode packages get no edges, counted: their update
//     graph is a chain in semver order, each bundle replacing the one
//     below it, and followed over several edges in one resolution that
//     chain reaches every newer release, which is the direct policy
//     (D66). A release without edges has nil Edges.
//   - An olm.package dependency (FBC: olm.package.required) requires the
//     module in its versionRange; two on one package are joined with ", "
//     (AND). An invalid range skips the bundle. A dependency on the
//     bundle's own package is dropped with a warning; one on a package
//     outside the catalog stays a requirement, and is counted.
//   - olm.gvk dependencies (olm.gvk.required), requiredCRDs and
//     requiredAPIServices require capabilities named "group/version/Kind"
//     (R19); providedGVKs and providedAPIServices (olm.gvk) provide them.
//   - An olm.constraint naming one package or one GVK is read as that
//     dependency. A compound one (all, any, not) is a compound requirement
//     (R24); one with a cel expression is skipped with a warning
//     (olm_compound.go).
//   - minKubeVersion X requires kubernetes ">= X", as written; an empty
//     one is counted.
//   - openshiftVersions and maxOpenShiftVersion (FBC: the
//     olm.maxOpenShiftVersion property) require platform "openshift"
//     (R22): "v4.6-v4.8" is ">= 4.6, < 4.9" (the upper minor included),
//     "v4.12" is ">= 4.12" (that and later, as OpenShift reads it),
//     "=v4.10" is ">= 4.10, < 4.11", and a maximum "4.8" is "< 4.9"; both
//     together are joined with ", ". The requirement is optional (D69):
//     it holds on a cluster that does not run OpenShift, and binds on one
//     that does. One that does not parse skips the
//     bundle.
//   - The dump's ignoredDependencies, which opm ignores, its nativeAPIs,
//     bundleProperties, and csvOlmProperties other than
//     olm.maxOpenShiftVersion (which the maxOpenShiftVersion field
//     already holds) are counted, not read. Its problems and bundle quirks
//     are warnings; quirks are grouped by package and text.
//   - An FBC's olm.deprecations make releases Deprecated (R25, D55): every
//     release of a deprecated package, a deprecated bundle's, and one that
//     every channel listing it deprecates.
//   - FBC objects of other schemas, and bundle properties of other types,
//     are counted and ignored.

// olmPlatform is the platform component that OpenShift version gates
// require (R22).
const olmPlatform = "openshift"

// Counts that the OLM importers put in the report.
const (
	olmDanglingReplaces = "dangling replaces"
	olmDanglingSkips    = "dangling skips"
	olmSemverModeEdges  = "update edges ignored in semver-mode packages"
	olmOutsideDeps      = "package dependencies outside the catalog"
	olmIgnoredDeps      = "dependencies ignored by opm"
	olmEmptyMinKube     = "empty minKubeVersion"
	olmEmptyOpenShift   = "empty openshiftVersions"
	olmNativeAPIs       = "native APIs ignored"
	olmSkippedEntries   = "channel entries another entry skips (not offered, D182)"
)

// olmBundle is one bundle in the form both OLM formats reduce to.
type olmBundle struct {
	pkg, name, version string
	// replaces and skips are bundle names; skipRanges are alternatives.
	replaces, skips, skipRanges []string
	deps                        []olmPackageDep
	compounds                   []model.CompoundRequirement // R24
	required, provided          []string
	minKube                     *string
	openShift, maxOpenShift     *string
	// bad is why the bundle cannot be loaded, found while reading it.
	bad string
	// notes (warnings) and tally (counts) apply only if it is loaded.
	notes []string
	tally map[string]int
	// parsed is the load's constraint cache (D321).
	parsed constraintCache
}

// olmPackageDep is an olm.package dependency as written.
type olmPackageDep struct {
	pkg, versionRange string
}

// fail records why b cannot be loaded; the first reason wins.
func (b *olmBundle) fail(format string, args ...any) {
	if b.bad == "" {
		b.bad = fmt.Sprintf(format, args...)
	}
}

// count adds n to what, for when b is loaded.
func (b *olmBundle) count(what string, n int) {
	if n == 0 {
		return
	}
	if b.tally == nil {
		b.tally = map[string]int{}
	}
	b.tally[what] += n
}

// path names b in the report.
func (b *olmBundle) path() string {
	if b.name != "" {
		return b.name
	}
	return fmt.Sprintf("unnamed bundle %s of package %s", b.version, b.pkg)
}

// olmGVK is a group, version and kind, as both formats write them.
type olmGVK struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// capability names g as a capability: "group/version/Kind".
func (g olmGVK) capability() (string, error) {
	if g.Version == "" || g.Kind == "" {
		return "", fmt.Errorf("GVK %q has no version or kind", g.Group+"/"+g.Version+"/"+g.Kind)
	}
	return g.Group + "/" + g.Version + "/" + g.Kind, nil
}

// require adds g to the capabilities b requires.
func (b *olmBundle) require(g olmGVK) {
	c, err := g.capability()
	if err != nil {
		b.fail("required %v", err)
		return
	}
	b.required = append(b.required, c)
}

// provide adds g to the capabilities b provides.
func (b *olmBundle) provide(g olmGVK) {
	c, err := g.capability()
	if err != nil {
		b.fail("provided %v", err)
		return
	}
	b.provided = append(b.provided, c)
}

// olmConstraint is the value of a simple olm.constraint, and the atoms of
// a compound one (olmConstraintNode).
type olmConstraint struct {
	FailureMessage string `json:"failureMessage"`
	Package        *struct {
		PackageName  string `json:"packageName"`
		VersionRange string `json:"versionRange"`
	} `json:"package"`
	GVK *olmGVK `json:"gvk"`
}

// constraint reads an olm.constraint: one package or one GVK is that
// dependency; anything else is compound (olm_compound.go).
func (b *olmBundle) constraint(raw json.RawMessage) {
	var fields map[string]json.RawMessage
	var c olmConstraint
	if err := json.Unmarshal(raw, &fields); err != nil {
		b.fail("olm.constraint: %v", err)
		return
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		b.fail("olm.constraint: %v", err)
		return
	}
	delete(fields, "failureMessage")
	switch {
	case len(fields) == 1 && c.Package != nil:
		b.deps = append(b.deps, olmPackageDep{pkg: c.Package.PackageName, versionRange: c.Package.VersionRange})
	case len(fields) == 1 && c.GVK != nil:
		b.require(*c.GVK)
	default:
		b.compound(raw) // R24, olm_compound.go
	}
}

// release builds b's release at version v, without replaces and skips,
// which need every bundle of the package (olmLoader.edges).
func (b *olmBundle) release(v model.Version) (*model.Release, error) {
	rel := &model.Release{Version: v, Provides: olmSorted(b.provided)}
	var err error
	if rel.Requirements, err = b.requirements(); err != nil {
		return nil, err
	}
	skipRange, err := b.skipRange()
	if err != nil {
		return nil, err
	}
	if skipRange != nil {
		rel.Edges = &model.UpdateEdges{SkipRange: skipRange}
	}
	return rel, nil
}

// requirements builds b's requirements.
func (b *olmBundle) requirements() (model.Requirements, error) {
	req := model.Requirements{Capabilities: olmSorted(b.required), Compound: b.compounds}
	var err error
	if req.Kubernetes, err = b.kubernetes(); err != nil {
		return req, err
	}
	if req.Platform, err = b.platform(); err != nil {
		return req, err
	}
	req.Modules, err = b.dependencies()
	return req, err
}

// kubernetes reads minKubeVersion as ">= X".
func (b *olmBundle) kubernetes() (*model.Constraint, error) {
	if b.minKube == nil {
		return nil, nil
	}
	text := strings.TrimSpace(*b.minKube)
	if text == "" {
		b.count(olmEmptyMinKube, 1)
		return nil, nil
	}
	if _, err := model.ParseVersion(text); err != nil {
		return nil, fmt.Errorf("minKubeVersion: %w", err)
	}
	c, err := b.parsed.parse(">= " + text)
	if err != nil {
		return nil, fmt.Errorf("minKubeVersion: %w", err)
	}
	return &c, nil
}

// platform reads the OpenShift gates as one "openshift" requirement.
func (b *olmBundle) platform() (map[string]*model.Constraint, error) {
	var parts []string
	if b.openShift != nil && strings.TrimSpace(*b.openShift) == "" {
		b.count(olmEmptyOpenShift, 1)
	} else if b.openShift != nil {
		r, err := openShiftRange(*b.openShift)
		if err != nil {
			return nil, fmt.Errorf("openshiftVersions %q: %w", *b.openShift, err)
		}
		parts = append(parts, r)
	}
	if b.maxOpenShift != nil {
		r, err := openShiftMax(*b.maxOpenShift)
		if err != nil {
			return nil, fmt.Errorf("maxOpenShiftVersion %q: %w", *b.maxOpenShift, err)
		}
		if len(parts) == 0 || !strings.HasSuffix(parts[0], ", "+r) {
			parts = append(parts, r) // unless the range already ends there
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	// Optional (D69): an OpenShift gate says nothing on a cluster that
	// does not run OpenShift, as on every DKP cluster.
	c, err := b.parsed.parse(strings.Join(parts, ", ") + " !optional")
	if err != nil {
		return nil, fmt.Errorf("openshift: %w", err)
	}
	return map[string]*model.Constraint{olmPlatform: &c}, nil
}

// openShiftRangeRE matches OpenShift's version-range annotation: "v4.6",
// "=v4.6" or "v4.6-v4.8", each "v" optional.
var openShiftRangeRE = regexp.MustCompile(`^(=?)v?(\d{1,9})\.(\d{1,9})(?:-v?(\d{1,9})\.(\d{1,9}))?$`)

// errOpenShift is a malformed OpenShift version gate.
var errOpenShift = fmt.Errorf("%w: want vX.Y, =vX.Y or vX.Y-vX.Y", model.ErrInvalidValue)

// openShiftRange turns an openshiftVersions annotation into a constraint
// text.
func openShiftRange(text string) (string, error) {
	m := openShiftRangeRE.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil || (m[1] == "=" && m[4] != "") {
		return "", errOpenShift
	}
	low := openShiftMinor(m[2], m[3])
	switch {
	case m[1] == "=":
		return fmt.Sprintf(">= %s, < %s", low, openShiftNext(low)), nil
	case m[4] == "":
		return fmt.Sprintf(">= %s", low), nil
	}
	high := openShiftMinor(m[4], m[5])
	if high.Compare(low) < 0 {
		return "", fmt.Errorf("%w: the range is empty", model.ErrInvalidValue)
	}
	return fmt.Sprintf(">= %s, < %s", low, openShiftNext(high)), nil
}

// openShiftMaxRE matches a maxOpenShiftVersion: "4.8", "v4.8" or "4.8.0".
var openShiftMaxRE = regexp.MustCompile(`^v?(\d{1,9})\.(\d{1,9})(?:\.\d{1,9})?$`)

// openShiftMax turns a maxOpenShiftVersion into a constraint text: the
// named minor is the last one allowed.
func openShiftMax(text string) (string, error) {
	m := openShiftMaxRE.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return "", fmt.Errorf("%w: want X.Y", model.ErrInvalidValue)
	}
	return fmt.Sprintf("< %s", openShiftNext(openShiftMinor(m[1], m[2]))), nil
}

// openShiftMinor reads a major.minor from digits the caller has matched (at most
// nine each, so they fit).
func openShiftMinor(major, minor string) model.MajorMinor {
	x, _ := strconv.ParseUint(major, 10, 64)
	y, _ := strconv.ParseUint(minor, 10, 64)
	return model.MajorMinor{Major: x, Minor: y}
}

// openShiftNext is the minor after m, the first one an inclusive upper bound
// excludes.
func openShiftNext(m model.MajorMinor) string {
	return model.MajorMinor{Major: m.Major, Minor: m.Minor + 1}.String()
}

// dependencies builds b's module requirements, one per package.
func (b *olmBundle) dependencies() ([]model.Dependency, error) {
	ranges := map[string][]string{}
	var order []string
	for _, d := range b.deps {
		switch {
		case d.pkg == "":
			return nil, fmt.Errorf("%w: an olm.package dependency has no packageName", model.ErrMissingField)
		case d.pkg == b.pkg:
			b.notes = append(b.notes, fmt.Sprintf("bundle %s depends on its own package %s; the dependency is dropped", b.path(), b.pkg))
			continue
		}
		if _, seen := ranges[d.pkg]; !seen {
			order = append(order, d.pkg)
		}
		if r := strings.TrimSpace(d.versionRange); !slices.Contains(ranges[d.pkg], r) {
			ranges[d.pkg] = append(ranges[d.pkg], r)
		}
	}
	var out []model.Dependency
	for _, pkg := range order {
		c, err := b.joinRanges(ranges[pkg])
		if err != nil {
			return nil, fmt.Errorf("dependency on %s: %w", pkg, err)
		}
		out = append(out, model.Dependency{Module: pkg, Constraint: c})
	}
	return out, nil
}

// joinRanges parses each range, then all of them as one AND.
func (b *olmBundle) joinRanges(ranges []string) (model.Constraint, error) {
	for _, r := range ranges {
		if _, err := b.parsed.parse(r); err != nil {
			return model.Constraint{}, err
		}
		if len(ranges) > 1 && strings.Contains(r, "||") {
			return model.Constraint{}, fmt.Errorf("%w: %q: a range with || cannot be joined with another", model.ErrInvalidConstraint, r)
		}
	}
	return b.parsed.parse(strings.Join(ranges, ", "))
}

// skipRange parses b's skipRanges as one constraint, or nil for none.
func (b *olmBundle) skipRange() (*model.Constraint, error) {
	if len(b.skipRanges) == 0 {
		return nil, nil
	}
	c, err := b.parsed.parse(strings.Join(b.skipRanges, " || "))
	if err != nil {
		return nil, fmt.Errorf("skipRange: %w", err)
	}
	return &c, nil
}

// olmSorted returns the distinct strings of s, sorted; nil for none.
func olmSorted(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}

// olmAppend appends the non-empty strings of add that s lacks.
func olmAppend(s []string, add ...string) []string {
	for _, a := range add {
		if a != "" && !slices.Contains(s, a) {
			s = append(s, a)
		}
	}
	return s
}

// olmLoader collects the packages of one OLM catalog as it is read, then
// builds the catalog.
type olmLoader struct {
	source string
	rep    *Report
	pkgs   map[string]*olmPackage
	// parsed holds the constraints the bundles share (D321).
	parsed constraintCache
}

// olmPackage is one package while it is read.
type olmPackage struct {
	name           string
	defaultChannel string
	// semverMode marks a package whose update graph is semver order (D66).
	semverMode bool
	channels   []olmChannel
	// known maps each bundle name to its version, for every bundle whose
	// version parses, loaded or not: heads are ranked by it.
	known map[string]model.Version
	// bundles are the loaded bundles in file order; byName and byVersion
	// index them, the first of a name or version winning.
	bundles   []*olmLoaded
	byName    map[string]*olmLoaded
	byVersion map[string]string
}

// olmLoaded is a loaded bundle whose replaces and skips are still names.
type olmLoaded struct {
	rel             *model.Release
	replaces, skips []string
}

// olmChannel is one channel: its head if the format names it, and its
// entries.
type olmChannel struct {
	name, head string
	entries    []olmEntry
}

// olmEntry is one channel entry.
type olmEntry struct {
	Name      string   `json:"name"`
	Replaces  string   `json:"replaces"`
	Skips     []string `json:"skips"`
	SkipRange string   `json:"skipRange"`
}

func newOLMLoader(source string, format Format) *olmLoader {
	return &olmLoader{source: source, rep: &Report{Source: source, Format: format}, pkgs: map[string]*olmPackage{}, parsed: constraintCache{}}
}

// pkg returns the package called name, adding it if new.
func (l *olmLoader) pkg(name string) *olmPackage {
	p := l.pkgs[name]
	if p == nil {
		p = &olmPackage{name: name, known: map[string]model.Version{}, byName: map[string]*olmLoaded{}, byVersion: map[string]string{}}
		l.pkgs[name] = p
	}
	return p
}

// addBundle loads b as a release of its package, or skips it with the
// reason.
func (l *olmLoader) addBundle(b *olmBundle) {
	if b.pkg == "" {
		l.rep.skip(b.path(), "bundle has no package")
		return
	}
	p := l.pkg(b.pkg)
	v, verr := model.ParseVersion(b.version)
	if _, ok := p.known[b.name]; verr == nil && !ok {
		p.known[b.name] = v
	}
	if b.bad != "" {
		l.rep.skip(b.path(), "%s", b.bad)
		return
	}
	if verr != nil {
		l.rep.skip(b.path(), "version: %v", verr)
		return
	}
	b.parsed = l.parsed
	rel, err := b.release(v)
	if err != nil {
		l.rep.skip(b.path(), "%v", err)
		return
	}
	l.keep(p, b, rel)
}

// keep adds rel, read from b, to p unless p already has its version.
func (l *olmLoader) keep(p *olmPackage, b *olmBundle, rel *model.Release) {
	key := model.VersionString(rel.Version)
	if first, dup := p.byVersion[key]; dup {
		l.rep.skip(b.path(), "version %s repeats bundle %s of package %s; the first is kept", key, first, p.name)
		return
	}
	lb := &olmLoaded{rel: rel, replaces: b.replaces, skips: b.skips}
	if w := normalised(b.path(), b.version, rel.Version); w != "" {
		l.rep.warn("%s", w)
		l.rep.add(versionsNormalised, 1)
	}
	p.byVersion[key] = b.name
	p.bundles = append(p.bundles, lb)
	if first, dup := p.byName[b.name]; dup {
		l.rep.warn("package %s: bundle name %s is both %s and %s; replaces, skips and channels naming it mean %s",
			p.name, b.name, first.rel.Version, key, first.rel.Version)
	} else {
		p.byName[b.name] = lb
	}
	for _, n := range b.notes {
		l.rep.warn("%s", n)
	}
	for what, n := range b.tally {
		l.rep.add(what, n)
	}
}

// finish builds the catalog from every package with a loaded bundle.
func (l *olmLoader) finish() (*model.Catalog, *Report, error) {
	var modules []*model.Module
	for _, name := range slices.Sorted(maps.Keys(l.pkgs)) {
		p := l.pkgs[name]
		switch {
		case name == "":
			l.rep.skip(l.source, "a package has no name")
		case len(p.bundles) == 0:
			l.rep.skip(name, "package %s has no loadable bundle", name)
		default:
			modules = append(modules, l.module(p))
		}
	}
	l.countOutside(modules)
	cat, err := model.NewCatalog(modules)
	if err != nil {
		return nil, nil, &ParseError{File: l.source, Err: err}
	}
	l.rep.count(cat)
	return cat, l.rep, nil
}

// module builds p's module: releases with their edges, then channels.
func (l *olmLoader) module(p *olmPackage) *model.Module {
	m := &model.Module{Name: p.name, UpdatePolicy: model.UpdateGraph, Versions: model.ReadingBlang, Ecosystem: model.EcosystemOLM,
		DependencyLoops: model.LoopsAllow} // OLM resolves loops (R27)
	if p.semverMode {
		m.UpdatePolicy = model.UpdateDirect
	}
	for _, lb := range p.bundles {
		l.edges(p, lb)
		m.Releases = append(m.Releases, lb.rel)
	}
	for _, ch := range p.channels {
		l.channel(p, m, ch)
	}
	l.defaultChannel(p, m)
	return m
}

// edges resolves lb's replaces and skips to versions of p.
func (l *olmLoader) edges(p *olmPackage, lb *olmLoaded) {
	replaces := l.resolve(p, lb.replaces, olmDanglingReplaces)
	skips := l.resolve(p, lb.skips, olmDanglingSkips)
	if len(replaces) == 0 && len(skips) == 0 {
		return
	}
	e := lb.rel.Edges
	if e == nil {
		e = &model.UpdateEdges{}
		lb.rel.Edges = e
	}
	if len(replaces) > 0 {
		e.Replaces = replaces[0]
		skips = append(replaces[1:], skips...)
	}
	for _, v := range skips {
		if !model.SameVersion(v, e.Replaces) && !slices.ContainsFunc(e.Skips, func(s model.Version) bool { return model.SameVersion(s, v) }) {
			e.Skips = append(e.Skips, v)
		}
	}
}

// resolve maps bundle names to versions of p; a name that is not a
// loaded bundle is counted under dangling.
func (l *olmLoader) resolve(p *olmPackage, names []string, dangling string) []model.Version {
	var out []model.Version
	for _, name := range names {
		lb := p.byName[name]
		if lb == nil {
			l.rep.add(dangling, 1)
			continue
		}
		out = append(out, lb.rel.Version)
	}
	return out
}

// channel adds ch to m if its head is a loaded release.
func (l *olmLoader) channel(p *olmPackage, m *model.Module, ch olmChannel) {
	head := ch.head
	if head == "" {
		head = p.headOf(ch.entries)
	}
	lb := p.byName[head]
	switch {
	case ch.name == "":
		l.rep.warn("package %s: a channel has no name; it is dropped", p.name)
	case head == "":
		l.rep.warn("package %s: channel %s has no head; the channel is dropped", p.name, ch.name)
	case lb == nil:
		l.rep.warn("package %s: channel %s: head %s is not a loaded bundle; the channel is dropped", p.name, ch.name, head)
	default:
		if m.Channels == nil {
			m.Channels = map[string]model.Version{}
			m.ChannelSets = map[string]*model.ChannelSet{}
		}
		m.Channels[ch.name] = lb.rel.Version
		m.ChannelSets[ch.name] = l.channelSet(p, ch, head)
	}
}

// channelSet is ch as the set of its loaded entries, less those another
// entry skips (D182); the head, which OLM offers, always stays.
func (l *olmLoader) channelSet(p *olmPackage, ch olmChannel, head string) *model.ChannelSet {
	set := &model.ChannelSet{Entries: []model.Version{p.byName[head].rel.Version}}
	skipped := map[string]bool{}
	for _, e := range ch.entries {
		if lb := p.byName[e.Name]; lb != nil {
			set.Entries = append(set.Entries, lb.rel.Version)
		}
		for _, s := range e.Skips {
			if s != e.Name && s != head {
				skipped[s] = true
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(skipped)) {
		lb := p.byName[name]
		if lb == nil || !slices.ContainsFunc(set.Entries, func(v model.Version) bool { return model.SameVersion(v, lb.rel.Version) }) {
			continue // not an entry: not offered anyway
		}
		set.Skipped = append(set.Skipped, lb.rel.Version)
		l.rep.add(olmSkippedEntries, 1)
	}
	return set
}

// headOf returns the newest entry that no other entry replaces or skips,
// among bundles with a known version; "" if there is none.
func (p *olmPackage) headOf(entries []olmEntry) string {
	replaced := map[string]bool{}
	for _, e := range entries {
		replaced[e.Replaces] = true
		for _, s := range e.Skips {
			replaced[s] = true
		}
	}
	var head string
	var newest model.Version
	for _, e := range entries {
		v, ok := p.known[e.Name]
		if ok && !replaced[e.Name] && (newest == nil || model.CompareVersions(v, newest) > 0) {
			head, newest = e.Name, v
		}
	}
	return head
}

// defaultChannel sets m's default channel to p's, if that survived.
func (l *olmLoader) defaultChannel(p *olmPackage, m *model.Module) {
	if _, ok := m.Channels[p.defaultChannel]; ok && p.defaultChannel != "" {
		m.DefaultChannel = p.defaultChannel
		return
	}
	if p.defaultChannel == "" {
		l.rep.warn("package %s names no default channel", p.name)
		return
	}
	l.rep.warn("package %s: default channel %s is not a loaded channel; the module has no default channel", p.name, p.defaultChannel)
}

// countOutside counts the requirements on packages outside the catalog;
// they stay, and the solver explains them as missing.
func (l *olmLoader) countOutside(modules []*model.Module) {
	in := make(map[string]bool, len(modules))
	for _, m := range modules {
		in[m.Name] = true
	}
	n := 0
	for _, m := range modules {
		for _, r := range m.Releases {
			for _, d := range r.Requirements.Modules {
				if !in[d.Module] {
					n++
				}
			}
		}
	}
	if n > 0 {
		l.rep.add(olmOutsideDeps, n)
	}
}

// olmJSONError turns an encoding/json error into a *ParseError with the line
// where it happened.
func olmJSONError(file string, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &ParseError{File: file, Line: olmLineAt(data, se.Offset), Err: fmt.Errorf("%w: %v", ErrSyntax, err)}
	case errors.As(err, &te):
		return &ParseError{File: file, Line: olmLineAt(data, te.Offset), Err: fmt.Errorf("%w: %s", ErrSyntax, olmJSONReason(err))}
	}
	return &ParseError{File: file, Err: fmt.Errorf("%w: %v", ErrSyntax, err)}
}

// olmLineAt is the line of byte offset off in data, counting from 1.
func olmLineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}
