package model

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// DefaultWeight is the weight of a module that does not declare one. It
// orders plan steps (R18) and matches the weight DKP gives external modules.
const DefaultWeight = 900

// DefaultEdition is the accessibility key that applies to every edition
// without an entry of its own (R7).
const DefaultEdition = "_default"

// Channels lists DKP's release channels from the least to the most stable
// (R10). A module may also name channels of its own, as OLM packages do
// (D32).
var Channels = []string{"alpha", "beta", "early-access", "stable", "rock-solid"}

// IsChannel reports whether name is one of DKP's Channels.
func IsChannel(name string) bool { return slices.Contains(Channels, name) }

// Catalog is a read-only set of modules, sorted by name. Build it with
// NewCatalog; it is safe to share between goroutines.
type Catalog struct {
	modules []*Module
	index   map[string]*Module
	// providers maps a capability to the modules that provide it in some
	// release, sorted by name (R19).
	providers map[string][]string
	// sources names the sources of a merged catalog (R23), in source
	// order; nil for a single catalog.
	sources []SourceInfo
	// needsDeckhouse: some module is built in or some release requires a
	// DKP version (R4, R5).
	needsDeckhouse bool
	// known is the platform data the catalog was read with (D212); nil
	// when its format carries none.
	known *KnownPlatform
	// names are the editions and bundles that platform data lists (D351);
	// nil when it lists none. WithKnownPlatform does not copy it: set it
	// after, with WithPlatformNames.
	names *PlatformNames
	// derived holds what other packages compute from the catalog once,
	// such as the solver's compiled tables (Derived). A field added above
	// is copied by WithKnownPlatform too.
	derived derivedValues
}

// derivedValues are Derived's values, by key.
type derivedValues struct {
	mu sync.Mutex
	m  map[any]any
}

// Derived returns the value kept with c under key, made by make on first
// use. A catalog is never changed once made, so what is computed from it
// alone stays true while it lives, and goes with it: no cache outside
// the catalog holds it (D221). Two goroutines that ask at once may both
// make it; the first one kept is returned to both. key should be a value
// of a type of the caller's own, as for context keys.
func (c *Catalog) Derived(key any, make func() any) any {
	c.derived.mu.Lock()
	v, ok := c.derived.m[key]
	c.derived.mu.Unlock()
	if ok {
		return v
	}
	v = make()
	c.derived.mu.Lock()
	defer c.derived.mu.Unlock()
	if held, ok := c.derived.m[key]; ok {
		return held
	}
	if c.derived.m == nil {
		c.derived.m = map[any]any{}
	}
	c.derived.m[key] = v
	return v
}

// Module is one module: either built in (Embedded, R5) with a single
// version equal to the DKP version, or a list of releases.
type Module struct {
	Name     string
	Embedded bool
	// Origin and Lines are where a built-in module was read from, as a
	// release's are (Release.Origin, Release.Lines).
	Origin         Origin
	Lines          map[string]int
	Weight         int
	ExclusiveGroup string
	// Type is Module or Application, as DKP's package.yaml says (R28,
	// D131); Critical is its `critical` flag, which orders DKP's startup
	// and not what is selected.
	Type     PackageType
	Critical bool
	// Accessibility applies to every release that has none of its own (R7).
	// Nil means: available in every edition, off by default.
	Accessibility *Accessibility
	// Channels maps a channel name to the version it points at (R10).
	Channels map[string]Version
	// ChannelSets holds, for a channel whose catalog lists its entries
	// (OLM), the releases the channel holds (D182); a channel without
	// one is only its head.
	ChannelSets map[string]*ChannelSet
	// DefaultChannel is the channel the module follows when the cluster
	// names none that the module has (OLM's defaultChannel, D32).
	DefaultChannel string
	// Releases are sorted by ascending version; empty for a built-in module.
	Releases []*Release
	// Refused are the releases the module's ecosystem never registers
	// (R27), by ascending version: NewCatalog moves a release marked
	// Refused here, so that no answer selects it and an answer that would
	// have taken it can name it (D347). Read them through Refusals.
	Refused []RefusedRelease
	// Requirements of a built-in module, which travel with the platform (R5).
	Requirements Requirements
	// Stage and Disable of a built-in module, which has no releases to
	// carry them (R25, R26); read them through StageOf and DisableOf.
	Stage   Stage
	Disable Disable
	// Settings are a built-in module's settings schemas (R34), each for
	// the DKP versions its constraint admits; the first that admits the
	// DKP version the answer runs applies.
	Settings []PlatformSettings
	// Manifest is the form a built-in module's requirements were written
	// in (R28); read it through ManifestOf.
	Manifest Manifest
	// UpdatePolicy is how an update may move the module; "" lets Policy
	// choose (D66).
	UpdatePolicy UpdatePolicy
	// DependencyLoops says whether the module may take part in a
	// dependency loop (R27); "" refuses, as DKP does.
	DependencyLoops LoopRule
	// Versions is how the module's own constraints compare versions (R6);
	// "" is DKP's reading. Read it through Reading.
	Versions VersionReading
	// Ecosystem is where the module's data comes from, for messages in
	// that ecosystem's words; "" is DKP.
	Ecosystem Ecosystem
	// Source is the source this module comes from in a merged catalog
	// (R23); "" for a single catalog or a module of several sources.
	Source string
	// bySource and sources hold, for a module of several sources, each
	// source's own module and the source names in source order.
	bySource map[string]*Module
	sources  []string
	// builtIn names the source that carries the module built in while
	// other sources list its releases (R29); "" otherwise.
	builtIn string
	// home is, for the built-in copy of a module that a source's catalog
	// holds under a name of its own (D350), that source; "" otherwise.
	home string
}

// Release is one version of a module.
type Release struct {
	Version      Version
	Requirements Requirements
	// UpdateRules are the from-to jumps declared by this release (R11).
	UpdateRules []UpdateRule
	// Edges are the update edges into this release (R21); nil when it
	// declares none.
	Edges *UpdateEdges
	// Provides lists the capabilities this release provides, such as the
	// GVKs of an OLM bundle (R19, R20); sorted.
	Provides []string
	// Accessibility overrides the module's, if set.
	Accessibility *Accessibility
	// Stage gates the release (R25); the zero value is General Availability.
	Stage Stage
	// Disable says whether disabling the module at this release needs
	// confirmation (R26).
	Disable Disable
	// Source is the source the release comes from in a merged catalog
	// (R23); "" for a single catalog.
	Source string
	// Manifest is the form its requirements were written in (R28).
	Manifest Manifest
	// Settings is the release's settings schema (R34); nil when it has
	// none, and then any settings are accepted.
	Settings *SettingsSchema
	// Origin is where the release was read from: its file and the line
	// it starts at; zero for a release no file holds.
	Origin Origin
	// Lines gives the line of each field the release's file writes, by
	// its path from the release (requirements.kubernetes, stage); nil
	// when not known. Facts read from a field say its line.
	Lines map[string]int
	// Refused is why the release's ecosystem never registers it, in that
	// ecosystem's words (R27: `dependency cycle through: vault`); "" for
	// a release it takes. An importer marks it; NewCatalog moves the
	// release to Module.Refused.
	Refused string
}

// PlatformSettings is a built-in module's settings schema for the DKP
// versions Deckhouse admits (nil: every version) (R34).
type PlatformSettings struct {
	Deckhouse *Constraint
	Schema    *SettingsSchema
}

// Requirements are what a release needs (R2–R4, R19, R22). Nil
// constraints mean none.
type Requirements struct {
	Deckhouse  *Constraint
	Kubernetes *Constraint
	// Modules are sorted by module name.
	Modules []Dependency
	// Capabilities must each be provided by an enabled module (R19); sorted.
	Capabilities []string
	// Platform holds requirements on platform components other than DKP
	// and Kubernetes, such as openshift (R22), by component name.
	Platform map[string]*Constraint
	// Compound are predicates over one other release (R24), in the order
	// written.
	Compound []CompoundRequirement
}

// UpdateEdges are the update edges a release declares, as OLM's replaces,
// skips and skipRange do (R21): each names the versions an update may come
// from in one step.
type UpdateEdges struct {
	Replaces  Version
	Skips     []Version
	SkipRange *Constraint
}

// From reports whether one update step may go from v to the release that
// declares e. A skipRange is OLM's, so under the blang reading it admits
// a prerelease as blang/semver does; otherwise it is checked by the
// Masterminds rules, on the whole version (R6, R21).
func (e *UpdateEdges) From(v Version, rd VersionReading) bool {
	if e == nil {
		return false
	}
	if e.Replaces != nil && SameVersion(e.Replaces, v) {
		return true
	}
	if slices.ContainsFunc(e.Skips, func(s Version) bool { return SameVersion(s, v) }) {
		return true
	}
	if e.SkipRange == nil {
		return false
	}
	if rd.PrereleasesOrdinary() {
		return e.SkipRange.AllowsPrereleases(v)
	}
	return e.SkipRange.Allows(v)
}

// Dependency is a requirement on another module (R2, or R3 when optional).
type Dependency struct {
	Module     string
	Constraint Constraint
}

// UpdateRule allows a jump from any version in [From, To) to the declaring
// release, whose major.minor is To (R11).
type UpdateRule struct {
	From, To MajorMinor
}

// Accessibility is a module's per-edition availability and bundle defaults.
type Accessibility struct {
	Editions map[string]EditionAccess
}

// EditionAccess is the accessibility entry of one edition. Unset fields
// fall back to the "_default" entry.
type EditionAccess struct {
	Available        *bool
	EnabledInBundles []string
}

// For resolves the accessibility of edition: whether a release is available
// there, and the bundles that enable it by default (R7).
func (a *Accessibility) For(edition string) (available bool, bundles []string) {
	if a == nil {
		return true, nil
	}
	own, hasOwn := a.Editions[edition]
	def := a.Editions[DefaultEdition]
	switch {
	case hasOwn && own.Available != nil:
		available = *own.Available
	case def.Available != nil:
		available = *def.Available
	}
	bundles = def.EnabledInBundles
	if hasOwn && own.EnabledInBundles != nil {
		bundles = own.EnabledInBundles
	}
	return available, bundles
}

// Access returns the release's accessibility, or the module's.
func (m *Module) Access(r *Release) *Accessibility {
	if r != nil && r.Accessibility != nil {
		return r.Accessibility
	}
	return m.Accessibility
}

// HasCapabilityRequirements reports whether m, or any release of it,
// requires a capability (R19).
func (m *Module) HasCapabilityRequirements() bool {
	return len(m.Requirements.Capabilities) > 0 ||
		slices.ContainsFunc(m.Releases, func(r *Release) bool { return len(r.Requirements.Capabilities) > 0 })
}

// HasUpdateGraph reports whether any release of m declares update edges,
// which then replace the sequential rule for m (R21).
func (m *Module) HasUpdateGraph() bool {
	return slices.ContainsFunc(m.Releases, func(r *Release) bool { return r.Edges != nil })
}

// ChannelVersion returns the version channel points at for m: the channel
// itself, or for a DKP channel the nearest more stable one m lists (D10).
// It returns nil when m has no such channel.
func (m *Module) ChannelVersion(channel string) Version {
	return m.Channels[m.HeadChannel(channel)]
}

// Release returns the release with exactly version v, or nil.
func (m *Module) Release(v Version) *Release {
	i, ok := slices.BinarySearchFunc(m.Releases, v, func(r *Release, v Version) int {
		return CompareVersions(r.Version, v)
	})
	if !ok {
		return nil
	}
	return m.Releases[i]
}

// NewCatalog validates modules and returns them as a catalog. It sorts
// modules and releases, so the input order never matters (R15).
func NewCatalog(modules []*Module) (*Catalog, error) {
	c := &Catalog{modules: slices.Clone(modules), index: make(map[string]*Module, len(modules))}
	slices.SortFunc(c.modules, func(a, b *Module) int { return cmp.Compare(a.Name, b.Name) })
	var errs InputErrors
	for _, m := range c.modules {
		if _, dup := c.index[m.Name]; dup {
			errs = append(errs, fieldErr(Field("modules").Key(m.Name), ErrDuplicate, "module %s is listed twice", m.Name))
			continue
		}
		c.index[m.Name] = m
		errs = append(errs, m.normalize()...)
	}
	if len(errs) == 0 {
		errs = c.checkApplications()
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	c.indexProviders()
	return c, nil
}

func (c *Catalog) indexProviders() {
	c.providers = map[string][]string{}
	for _, m := range c.modules {
		c.needsDeckhouse = c.needsDeckhouse || m.MayBeBuiltIn()
		for _, r := range m.Releases {
			c.needsDeckhouse = c.needsDeckhouse || r.Requirements.Deckhouse != nil
			for _, cap := range r.Provides {
				ps := c.providers[cap]
				if len(ps) == 0 || ps[len(ps)-1] != m.Name {
					c.providers[cap] = append(ps, m.Name)
				}
			}
		}
	}
}

// Providers returns the modules that provide capability in some release,
// sorted by name. The slice is shared: do not modify it.
func (c *Catalog) Providers(capability string) []string { return c.providers[capability] }

// normalize sorts a module's releases and checks what a single module can
// get wrong on its own.
func (m *Module) normalize() InputErrors {
	var errs InputErrors
	field := Field("modules").Key(m.Name)
	if m.Name == "" {
		errs = append(errs, fieldErr(Field("modules"), ErrMissingField, "a module has no name"))
	}
	if m.Weight == 0 {
		m.Weight = DefaultWeight
	}
	if _, err := ParseUpdatePolicy(string(m.UpdatePolicy)); err != nil {
		errs = append(errs, &FieldError{Path: field.Field("updatePolicy"), Err: err})
	}
	if _, err := ParseLoopRule(string(m.DependencyLoops)); err != nil {
		errs = append(errs, &FieldError{Path: field.Field("dependencyLoops"), Err: err})
	}
	if _, err := ParseVersionReading(string(m.Versions)); err != nil {
		errs = append(errs, &FieldError{Path: field.Field("versions"), Err: err})
	}
	if m.Embedded && len(m.Releases) > 0 {
		errs = append(errs, fieldErr(field.Field("releases"), ErrInvalidValue, "built-in module %s cannot list releases: its version is the DKP version", m.Name))
	}
	slices.SortFunc(m.Releases, func(a, b *Release) int { return CompareVersions(a.Version, b.Version) })
	errs = append(errs, m.setAsideRefused(field)...)
	// A channel may point at a refused release that has no release below
	// it (setAsideRefused): it still bounds the module (D347).
	for _, ch := range slices.Sorted(maps.Keys(m.Channels)) {
		switch {
		case ch == "":
			errs = append(errs, fieldErr(field.Field("channels"), ErrInvalidValue, "a channel has no name"))
		case !m.Embedded && m.Release(m.Channels[ch]) == nil && m.RefusedAt(m.Channels[ch]) == nil:
			errs = append(errs, fieldErr(field.Field("channels").Key(ch), ErrUnknownVersion, "channel %s points at %s, which is not a release of %s", ch, m.Channels[ch], m.Name))
		}
	}
	errs = append(errs, m.checkChannelSets(field)...)
	if _, ok := m.Channels[m.DefaultChannel]; m.DefaultChannel != "" && !ok {
		errs = append(errs, fieldErr(field.Field("defaultChannel"), ErrInvalidValue, "default channel %q is not one of the module's channels", m.DefaultChannel))
	}
	for i, r := range m.Releases {
		slices.Sort(r.Provides)
		r.Provides = slices.Compact(r.Provides)
		if i > 0 && SameVersion(m.Releases[i-1].Version, r.Version) {
			errs = append(errs, fieldErr(field.Field("releases"), ErrDuplicate, "release %s is listed twice", r.Version))
		}
		errs = append(errs, m.checkRequirements(func() Path { return field.Field("releases").Item(r.Version.String()) }, r.Requirements)...)
	}
	errs = append(errs, m.checkRequirements(func() Path { return field }, m.Requirements)...)
	return errs
}

// checkRequirements checks one set of requirements; field builds the
// path they are at, which only an error needs (a catalog of 500,000
// releases would otherwise build as many paths to throw away).
func (m *Module) checkRequirements(field func() Path, req Requirements) InputErrors {
	var errs InputErrors
	slices.Sort(req.Capabilities)
	for name := range req.Platform {
		if name == "" || name == PlatformDeckhouse || name == PlatformKubernetes {
			errs = append(errs, fieldErr(field().Field("requirements", "platform"), ErrInvalidValue, "platform component %q: use requirements.deckhouse and requirements.kubernetes for DKP and Kubernetes", name))
		}
	}
	if len(req.Compound) > 0 {
		errs = append(errs, checkCompound(field(), req)...)
	}
	slices.SortFunc(req.Modules, func(a, b Dependency) int { return cmp.Compare(a.Module, b.Module) })
	for i, d := range req.Modules {
		switch {
		case d.Module == m.Name:
			errs = append(errs, fieldErr(field().Field("requirements", "modules"), ErrInvalidValue, "module %s requires itself", m.Name))
		case i > 0 && req.Modules[i-1].Module == d.Module:
			errs = append(errs, fieldErr(field().Field("requirements", "modules"), ErrDuplicate, "requirement on %s is listed twice", d.Module))
		}
	}
	return errs
}

// NeedsDeckhouse reports whether answers over c depend on the DKP version:
// some module is built in (R5) or some release requires a DKP version
// (R4). A catalog from another ecosystem, which never mentions DKP, does
// not need one.
func (c *Catalog) NeedsDeckhouse() bool { return c.needsDeckhouse }

// Modules returns every module, sorted by name. The slice is shared: do
// not modify it.
func (c *Catalog) Modules() []*Module { return c.modules }

// Module returns the module called name, or nil.
func (c *Catalog) Module(name string) *Module { return c.index[name] }

// Len is the number of modules.
func (c *Catalog) Len() int { return len(c.modules) }

// ReleaseCount is the number of releases over all modules.
func (c *Catalog) ReleaseCount() int {
	n := 0
	for _, m := range c.modules {
		n += len(m.Releases)
	}
	return n
}

// String names the catalog's size, for logs.
func (c *Catalog) String() string {
	return fmt.Sprintf("catalog(%d modules, %d releases)", c.Len(), c.ReleaseCount())
}
