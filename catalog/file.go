package catalog

import (
	"fmt"
	"maps"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// fileCatalog is modsolver's single-file catalog format (DESIGN.md §2).
type fileCatalog struct {
	Modules []fileModule `yaml:"modules"`
	// PlatformReleases is DKP's release data, by minor (R31).
	PlatformReleases map[string]filePlatformRelease `yaml:"platformReleases"`
	// DependencyLoops is refuse (the default, as DKP) or allow (R27); it
	// applies to every module of the file.
	DependencyLoops string `yaml:"dependencyLoops"`
	// Versions is the catalog's version reading (R6): dkp (the default),
	// semver or blang.
	Versions string `yaml:"versions"`
}

type fileModule struct {
	Name           string `yaml:"name"`
	Embedded       bool   `yaml:"embedded"`
	Weight         int    `yaml:"weight"`
	ExclusiveGroup string `yaml:"exclusiveGroup"`
	// Type is Module (the default) or Application, and Critical DKP's
	// flag, as package.yaml writes them (R28).
	Type           string             `yaml:"type"`
	Critical       bool               `yaml:"critical"`
	Accessibility  *fileAccessibility `yaml:"accessibility"`
	Channels       map[string]string  `yaml:"channels"`
	DefaultChannel string             `yaml:"defaultChannel"`
	// ChannelSets lists, per channel, the releases it holds (D182).
	ChannelSets map[string]fileChannelSet `yaml:"channelSets"`
	// UpdatePolicy is sequential, graph or direct (D66); unset, the
	// module's update edges choose.
	UpdatePolicy string        `yaml:"updatePolicy"`
	Releases     []fileRelease `yaml:"releases"`
	// Requirements of a built-in module (D5).
	Requirements *fileRequirements `yaml:"requirements"`
	// Stage and Disable of a built-in module, which has no releases to
	// carry them (R25, R26).
	Stage   string       `yaml:"stage"`
	Disable *fileDisable `yaml:"disable"`
	// Settings are a built-in module's settings schemas (R34).
	Settings []*fileSettings `yaml:"settings"`

	line  int
	lines map[string]int
}

// fileChannelSet is a channel as a set of releases (D182): its entries,
// and the versions another entry skips.
type fileChannelSet struct {
	Entries []string `yaml:"entries"`
	Skipped []string `yaml:"skipped"`
}

type fileRelease struct {
	Version       string             `yaml:"version"`
	Requirements  *fileRequirements  `yaml:"requirements"`
	Update        *fileUpdate        `yaml:"update"`
	Accessibility *fileAccessibility `yaml:"accessibility"`
	// Provides lists capabilities (R19).
	Provides []string `yaml:"provides"`
	// Replaces, Skips and SkipRange are update edges (R21).
	Replaces  string   `yaml:"replaces"`
	Skips     []string `yaml:"skips"`
	SkipRange string   `yaml:"skipRange"`
	// Stage gates the release (R25); Disable asks for confirmation before
	// the module is disabled (R26).
	Stage   string       `yaml:"stage"`
	Disable *fileDisable `yaml:"disable"`
	// Settings is the release's settings schema (R34).
	Settings *fileSettings `yaml:"settings"`

	line  int
	lines map[string]int
}

type fileRequirements struct {
	// Deckhouse and Kubernetes are a constraint, or DKP v2's
	// {constraint: C}; Modules the legacy map or v2's buckets (R28).
	Deckhouse    *fileConstraint   `yaml:"deckhouse"`
	Kubernetes   *fileConstraint   `yaml:"kubernetes"`
	Modules      *fileModuleReqs   `yaml:"modules"`
	Capabilities []string          `yaml:"capabilities"`
	Platform     map[string]string `yaml:"platform"`
	// Compound are predicates over one other release (R24).
	Compound []*fileCompound `yaml:"compound"`
}

type fileUpdate struct {
	Versions []fileUpdateRule `yaml:"versions"`
}

type fileUpdateRule struct {
	From string `yaml:"from"`
	To   string `yaml:"to"`
}

type fileAccessibility struct {
	Editions map[string]fileEdition `yaml:"editions"`
}

type fileEdition struct {
	Available        *bool    `yaml:"available"`
	EnabledInBundles []string `yaml:"enabledInBundles"`
}

// decodeYAML records the line of a module, for error messages.
func (m *fileModule) decodeYAML(w *walker, n *yaml.Node) error {
	type plain fileModule
	m.line, m.lines = n.Line, fieldLines(n)
	return w.into(n, (*plain)(m))
}

// UnmarshalYAML decodes m as decodeNode does.
func (m *fileModule) UnmarshalYAML(n *yaml.Node) error { return decodeNode(n, m) }

// decodeYAML records the line of a release, for error messages.
func (r *fileRelease) decodeYAML(w *walker, n *yaml.Node) error {
	type plain fileRelease
	r.line, r.lines = n.Line, fieldLines(n)
	return w.into(n, (*plain)(r))
}

// UnmarshalYAML decodes r as decodeNode does.
func (r *fileRelease) UnmarshalYAML(n *yaml.Node) error { return decodeNode(n, r) }

// mappingOnly: a module and a release are mappings (mappingDecoder).
func (m *fileModule) mappingOnly()  {}
func (r *fileRelease) mappingOnly() {}

// parseFile reads a catalog in the single-file format.
func parseFile(file string, node *yaml.Node) (*model.Catalog, *Report, error) {
	var fc fileCatalog
	if err := decodeStrict(file, node, &fc); err != nil {
		return nil, nil, err
	}
	rep := &Report{Source: file, Format: FormatFile}
	loops, err := model.ParseLoopRule(fc.DependencyLoops)
	if err != nil {
		return nil, nil, &ParseError{File: file, Line: keyLine(node, "dependencyLoops"), Err: err}
	}
	reading, err := model.ParseVersionReading(fc.Versions)
	if err != nil {
		return nil, nil, &ParseError{File: file, Line: keyLine(node, "versions"), Err: fmt.Errorf("versions: %w", err)}
	}
	modules := make([]*model.Module, 0, len(fc.Modules))
	parsed := constraintCache{}
	for i := range fc.Modules {
		m, err := fc.Modules[i].toModel(file, parsed)
		if err != nil {
			return nil, nil, err
		}
		if !fc.Modules[i].reportRefused(file, m, rep) {
			continue
		}
		m.DependencyLoops = loops
		m.Versions = reading
		modules = append(modules, m)
	}
	cat, err := model.NewCatalog(modules)
	if err != nil {
		return nil, nil, &ParseError{File: file, Err: err}
	}
	releases, err := platformReleases(fc.PlatformReleases)
	if err != nil {
		return nil, nil, &ParseError{File: file, Line: keyLine(node, "platformReleases"), Err: fmt.Errorf("%w: platformReleases: %w", model.ErrInvalidValue, err)}
	}
	if releases != nil {
		cat = cat.WithKnownPlatform(&model.KnownPlatform{Releases: releases})
	}
	rep.count(cat)
	return cat, rep, nil
}

func (fm *fileModule) toModel(file string, parsed constraintCache) (*model.Module, error) {
	if fm.Name == "" {
		return nil, &ParseError{File: file, Line: fm.line, Err: fmt.Errorf("%w: a module has no name", model.ErrMissingField)}
	}
	m := &model.Module{
		Name:           fm.Name,
		Embedded:       fm.Embedded,
		Weight:         fm.Weight,
		ExclusiveGroup: fm.ExclusiveGroup,
		Critical:       fm.Critical,
		Accessibility:  fm.Accessibility.toModel(),
		DefaultChannel: fm.DefaultChannel,
	}
	var err error
	if m.Type, err = model.ParsePackageType(fm.Type); err != nil {
		return nil, &ParseError{File: file, Line: fm.line, Err: fmt.Errorf("module %s: %w", fm.Name, err)}
	}
	if m.UpdatePolicy, err = model.ParseUpdatePolicy(fm.UpdatePolicy); err != nil {
		return nil, &ParseError{File: file, Line: fm.line, Err: fmt.Errorf("module %s: updatePolicy: %w", fm.Name, err)}
	}
	if m.Channels, err = parseChannels(fm.Channels); err != nil {
		return nil, &ParseError{File: file, Line: fm.line, Err: fmt.Errorf("module %s: %w", fm.Name, err)}
	}
	if m.ChannelSets, err = parseChannelSets(fm.ChannelSets); err != nil {
		return nil, &ParseError{File: file, Line: fm.line, Err: fmt.Errorf("module %s: %w", fm.Name, err)}
	}
	loc := place{file: file, module: fm.Name, parsed: parsed}
	if fm.Embedded {
		m.Origin, m.Lines = model.Origin{File: file, Line: fm.line}, fm.lines
	}
	if m.Requirements, err = fm.Requirements.toModel(loc); err != nil {
		return nil, err
	}
	if fm.Requirements.v2() {
		m.Manifest = model.ManifestV2
	}
	if (fm.Stage != "" || fm.Disable != nil) && !fm.Embedded {
		return nil, &ParseError{File: file, Line: fm.line, Err: fmt.Errorf("%w: module %s: stage and disable belong to each release; only a built-in module sets them for itself", model.ErrInvalidValue, fm.Name)}
	}
	if m.Stage, err = stageAt(loc, fm.line, fm.Stage); err != nil {
		return nil, err
	}
	m.Disable = fm.Disable.toModel()
	if len(fm.Settings) > 0 && !fm.Embedded {
		return nil, &ParseError{File: file, Line: fm.line, Err: fmt.Errorf("%w: module %s: settings belong to each release; only a built-in module lists them for itself", model.ErrInvalidValue, fm.Name)}
	}
	if m.Settings, err = builtInSettings(loc, fm.line, fm.Settings); err != nil {
		return nil, err
	}
	for _, fr := range fm.Releases {
		r, err := fr.toModel(loc)
		if err != nil {
			return nil, err
		}
		m.Releases = append(m.Releases, r)
	}
	return m, nil
}

// reportRefused warns of every release of m that the v2 form refuses as
// DKP refuses its package (R27, D347), and reports whether m is kept: a
// built-in module whose own requirements name it has no release to set
// aside, and is left out, as the DKP tree leaves its package.yaml out.
func (fm *fileModule) reportRefused(file string, m *model.Module, rep *Report) bool {
	loc := place{file: file, module: fm.Name}
	if reason, line, ok := loc.v2SelfLoop(fm.Requirements.modules()); ok && fm.Embedded {
		rep.warn("%s:%d: module %s: %s; DKP never registers the package, so the built-in module is left out", file, line, fm.Name, reason)
		return false
	}
	for i, r := range m.Releases {
		if r.Refused != "" {
			rep.warn("%s:%d: module %s: release %s: %s; DKP never registers the package, so the release is left out", file, fm.Releases[i].line, fm.Name, model.VersionString(r.Version), r.Refused)
		}
	}
	return true
}

func (fr *fileRelease) toModel(loc place) (*model.Release, error) {
	v, err := model.ParseVersion(fr.Version)
	if err != nil {
		return nil, &ParseError{File: loc.file, Line: fr.line, Err: fmt.Errorf("module %s: release: %w", loc.module, err)}
	}
	loc.release = model.VersionString(v)
	r := &model.Release{Version: v, Accessibility: fr.Accessibility.toModel(), Provides: fr.Provides, Disable: fr.Disable.toModel(),
		Origin: model.Origin{File: loc.file, Line: fr.line}, Lines: fr.lines}
	if r.Stage, err = stageAt(loc, fr.line, fr.Stage); err != nil {
		return nil, err
	}
	if r.Requirements, err = fr.Requirements.toModel(loc); err != nil {
		return nil, err
	}
	if fr.Requirements.v2() {
		r.Manifest = model.ManifestV2
	}
	r.Refused, _, _ = loc.v2SelfLoop(fr.Requirements.modules())
	if r.Settings, err = fr.Settings.toModel(loc, fr.line); err != nil {
		return nil, err
	}
	if r.Edges, err = fr.edges(loc); err != nil {
		return nil, &ParseError{File: loc.file, Line: fr.line, Err: err}
	}
	if fr.Update != nil {
		if r.UpdateRules, err = parseUpdateRules(fr.Update.Versions); err != nil {
			return nil, &ParseError{File: loc.file, Line: fr.line, Err: fmt.Errorf("module %s: release %s: update: %w", loc.module, loc.release, err)}
		}
	}
	return r, nil
}

// edges reads the release's update edges (R21), or nil when it has none.
func (fr *fileRelease) edges(loc place) (*model.UpdateEdges, error) {
	if fr.Replaces == "" && len(fr.Skips) == 0 && fr.SkipRange == "" {
		return nil, nil
	}
	e := &model.UpdateEdges{}
	var err error
	if e.Replaces, err = optionalVersion(fr.Replaces); err != nil {
		return nil, fmt.Errorf("module %s: release %s: replaces: %w", loc.module, loc.release, err)
	}
	for _, text := range fr.Skips {
		v, err := model.ParseVersion(text)
		if err != nil {
			return nil, fmt.Errorf("module %s: release %s: skips: %w", loc.module, loc.release, err)
		}
		e.Skips = append(e.Skips, v)
	}
	if fr.SkipRange != "" {
		c, err := loc.constraint("skipRange", fr.SkipRange)
		if err != nil {
			return nil, err
		}
		e.SkipRange = &c
	}
	return e, nil
}

// place is where a requirement was read, for *model.ConstraintError,
// and the load's parsed constraints.
type place struct {
	file, module, release string
	parsed                constraintCache
}

func (p place) constraint(field, text string) (model.Constraint, error) {
	c, err := p.parsed.parse(text)
	if err != nil {
		return c, &model.ConstraintError{File: p.file, Module: p.module, Release: p.release, Field: field, Text: text, Err: err}
	}
	return c, nil
}

func (fr *fileRequirements) toModel(loc place) (model.Requirements, error) {
	var req model.Requirements
	if fr == nil {
		return req, nil
	}
	var err error
	if req.Kubernetes, err = loc.requirementConstraint("kubernetes", fr.Kubernetes); err != nil {
		return req, err
	}
	if req.Deckhouse, err = loc.requirementConstraint("deckhouse", fr.Deckhouse); err != nil {
		return req, err
	}
	var groups []model.CompoundRequirement
	if req.Modules, groups, err = loc.moduleRequirements(fr.Modules); err != nil {
		return req, err
	}
	req.Capabilities = fr.Capabilities
	if req.Compound, err = loc.compounds(fr.Compound); err != nil {
		return req, err
	}
	req.Compound = append(req.Compound, groups...)
	for _, name := range slices.Sorted(maps.Keys(fr.Platform)) {
		text := fr.Platform[name]
		c, err := loc.platform("platform."+name, &text)
		if err != nil {
			return req, err
		}
		if req.Platform == nil {
			req.Platform = map[string]*model.Constraint{}
		}
		req.Platform[name] = c
	}
	return req, nil
}

// v2 reports whether fr is written in DKP's v2 form, in any part (R28).
// modules is requirements.modules; nil for none.
func (fr *fileRequirements) modules() *fileModuleReqs {
	if fr == nil {
		return nil
	}
	return fr.Modules
}

func (fr *fileRequirements) v2() bool {
	return fr != nil && ((fr.Deckhouse != nil && fr.Deckhouse.v2) || (fr.Kubernetes != nil && fr.Kubernetes.v2) || (fr.Modules != nil && fr.Modules.v2))
}

// platform parses an optional deckhouse or kubernetes requirement.
func (p place) platform(field string, text *string) (*model.Constraint, error) {
	if text == nil {
		return nil, nil
	}
	c, err := p.constraint(field, *text)
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// dependencies parses module requirements, sorted by module name.
func (p place) dependencies(deps map[string]string) ([]model.Dependency, error) {
	names := slices.Sorted(maps.Keys(deps))
	out := make([]model.Dependency, 0, len(names))
	for _, name := range names {
		c, err := p.constraint("modules."+name, deps[name])
		if err != nil {
			return nil, err
		}
		out = append(out, model.Dependency{Module: name, Constraint: c})
	}
	return out, nil
}

func (fa *fileAccessibility) toModel() *model.Accessibility {
	if fa == nil {
		return nil
	}
	a := &model.Accessibility{Editions: make(map[string]model.EditionAccess, len(fa.Editions))}
	for name, e := range fa.Editions {
		a.Editions[name] = model.EditionAccess{Available: e.Available, EnabledInBundles: e.EnabledInBundles}
	}
	return a
}

func parseChannels(channels map[string]string) (map[string]model.Version, error) {
	out, bad, err := parseVersions(channels)
	if err != nil {
		return nil, fmt.Errorf("channel %s: %w", bad, err)
	}
	return out, nil
}

// parseChannelSets reads the channel sets of a module (D182); nil for
// none.
func parseChannelSets(sets map[string]fileChannelSet) (map[string]*model.ChannelSet, error) {
	if len(sets) == 0 {
		return nil, nil
	}
	out := make(map[string]*model.ChannelSet, len(sets))
	for _, ch := range slices.Sorted(maps.Keys(sets)) {
		entries, err := parseVersionList(sets[ch].Entries)
		if err != nil {
			return nil, fmt.Errorf("channelSets.%s.entries: %w", ch, err)
		}
		skipped, err := parseVersionList(sets[ch].Skipped)
		if err != nil {
			return nil, fmt.Errorf("channelSets.%s.skipped: %w", ch, err)
		}
		out[ch] = &model.ChannelSet{Entries: entries, Skipped: skipped}
	}
	return out, nil
}

// parseVersionList reads a list of versions.
func parseVersionList(texts []string) ([]model.Version, error) {
	out := make([]model.Version, 0, len(texts))
	for _, t := range texts {
		v, err := model.ParseVersion(t)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// parseVersions reads a map of names to versions; nil for none. On error
// it names the key whose version is bad.
func parseVersions(texts map[string]string) (out map[string]model.Version, bad string, err error) {
	if len(texts) == 0 {
		return nil, "", nil
	}
	out = make(map[string]model.Version, len(texts))
	for _, name := range slices.Sorted(maps.Keys(texts)) {
		if out[name], err = model.ParseVersion(texts[name]); err != nil {
			return nil, name, err
		}
	}
	return out, "", nil
}

func parseUpdateRules(rules []fileUpdateRule) ([]model.UpdateRule, error) {
	out := make([]model.UpdateRule, 0, len(rules))
	for _, r := range rules {
		from, err := model.ParseMajorMinor(r.From)
		if err != nil {
			return nil, fmt.Errorf("from: %w", err)
		}
		to, err := model.ParseMajorMinor(r.To)
		if err != nil {
			return nil, fmt.Errorf("to: %w", err)
		}
		out = append(out, model.UpdateRule{From: from, To: to})
	}
	return out, nil
}

// keyLine is the line of key's value in the mapping node (or a document
// holding one), or 0 when the key is not there.
func keyLine(node *yaml.Node, key string) int {
	if node.Kind == yaml.DocumentNode && len(node.Content) == 1 {
		node = node.Content[0]
	}
	if node.Kind != yaml.MappingNode {
		return 0
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		if node.Content[i].Value == key {
			return node.Content[i+1].Line
		}
	}
	return 0
}
