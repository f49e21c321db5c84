package model

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Source is one catalog a resolution draws on, as DKP's ModuleSource and
// OLM's CatalogSource (R23): a name, an integer priority (higher wins) and
// the catalog it serves.
type Source struct {
	Name     string
	Priority int
	Catalog  *Catalog
}

// SourceInfo names a source of a merged catalog, without its modules.
type SourceInfo struct {
	Name     string
	Priority int
}

// compareSources is the source order: priority descending, then name.
func compareSources(a, b SourceInfo) int {
	if c := cmp.Compare(b.Priority, a.Priority); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

// Merge returns one catalog that holds the modules of every source (R23,
// D74). A module in several sources has every source's releases, each
// tagged with its source, sorted by version and, for equal versions, by
// source order (priority descending, then name); ForSource returns one
// source's own module, whose channels, steps and update policy apply to
// its releases. A release with no accessibility of its own gets its
// source module's, so that R7 reads the source it comes from. One source
// gives a catalog without source names: a single catalog is what it was.
func Merge(sources []Source) (*Catalog, error) {
	if len(sources) == 1 {
		return sources[0].Catalog, nil
	}
	infos, err := sourceInfos(sources)
	if err != nil {
		return nil, err
	}
	bySource := map[string]*Catalog{}
	for _, s := range sources {
		bySource[s.Name] = s.Catalog
	}
	byName := map[string][]*Module{}
	var names []string
	for _, info := range infos {
		for _, m := range bySource[info.Name].Modules() {
			if _, seen := byName[m.Name]; !seen {
				names = append(names, m.Name)
			}
			byName[m.Name] = append(byName[m.Name], copiesIn(m, info.Name)...)
		}
	}
	slices.Sort(names)
	var errs InputErrors
	for _, name := range names {
		errs = append(errs, checkHomeNames(byName[name], infos)...)
	}
	modules := make([]*Module, 0, len(names))
	for _, name := range names {
		m, err := mergeModule(byName[name])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		modules = append(modules, m)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	known, err := mergeKnown(infos, bySource)
	if err != nil {
		return nil, err
	}
	c := &Catalog{modules: modules, index: make(map[string]*Module, len(modules)), sources: infos, names: mergeNames(sources), known: known}
	for _, m := range modules {
		c.index[m.Name] = m
	}
	c.indexProviders()
	return c, nil
}

// mergeKnown is the platform data of a merged catalog: DKP's, which one
// source carries (the DKP tree's, or a single-file catalog's
// platformReleases:), kept whole, since it says what the platform does
// whatever serves the modules; the highest-priority source's when
// several carry the same. Two sources with different release data (R31)
// are bad input: which DKP runs is not a per-source question.
func mergeKnown(infos []SourceInfo, bySource map[string]*Catalog) (*KnownPlatform, error) {
	var known *KnownPlatform
	var from string
	for _, info := range infos {
		k := bySource[info.Name].known
		switch {
		case k == nil:
		case known == nil:
			known, from = k, info.Name
		case known.Releases != nil && k.Releases != nil && !reflect.DeepEqual(known.Releases, k.Releases):
			return nil, fieldErr(Field("catalogs"), ErrConflict, "sources %s and %s carry different DKP release data (platformReleases); give it in one source", from, info.Name)
		case known.Releases == nil && k.Releases != nil:
			known, from = k, info.Name
		}
	}
	return known, nil
}

func sourceInfos(sources []Source) ([]SourceInfo, error) {
	var errs InputErrors
	infos := make([]SourceInfo, 0, len(sources))
	for i, s := range sources {
		field := Field("catalogs").Index(i)
		switch {
		case s.Name == "":
			errs = append(errs, fieldErr(field.Field("name"), ErrMissingField, "a source has no name"))
		case slices.ContainsFunc(infos, func(o SourceInfo) bool { return o.Name == s.Name }):
			errs = append(errs, fieldErr(field.Field("name"), ErrDuplicate, "source %s is listed twice", s.Name))
		case s.Catalog == nil:
			errs = append(errs, fieldErr(field.Field("catalog"), ErrMissingField, "source %s has no catalog", s.Name))
		default:
			infos = append(infos, SourceInfo{Name: s.Name, Priority: s.Priority})
		}
	}
	slices.SortFunc(infos, compareSources)
	return infos, errs.Err()
}

// copiesIn is what source's module m adds to a merged module: m tagged
// by source, or for a module source's catalog holds under sources of its
// own (JoinSources, D350), each of its copies: the one that lists
// releases is source's, as source is the module source that serves them,
// and the built-in copy keeps its own name, its home source (the tree
// that carries it) recorded, since the platform is not one of the
// sources.
func copiesIn(m *Module, source string) []*Module {
	if m.builtIn == "" || len(m.sources) != 2 {
		return []*Module{tagged(m, source)}
	}
	out := make([]*Module, 0, len(m.sources))
	for _, name := range m.sources {
		c := m.bySource[name]
		if !c.Embedded {
			out = append(out, tagged(c, source))
			continue
		}
		b := tagged(c, name)
		b.home = source
		out = append(out, b)
	}
	return out
}

// checkHomeNames refuses a built-in copy's own name (copiesIn) that is
// also the name of a source: one name would stand for two places.
func checkHomeNames(copies []*Module, infos []SourceInfo) InputErrors {
	for _, c := range copies {
		if c.home != "" && slices.ContainsFunc(infos, func(i SourceInfo) bool { return i.Name == c.Source }) {
			return InputErrors{fieldErr(Field("catalogs"), ErrDuplicate, "source %s carries module %s built in as %q, which is also the name of a source: name the source otherwise", c.home, c.Name, c.Source)}
		}
	}
	return nil
}

// tagged copies m with every release tagged by source: the source's
// catalog stays as it was.
func tagged(m *Module, source string) *Module {
	out := *m
	out.Source = source
	out.Releases = make([]*Release, len(m.Releases))
	for i, r := range m.Releases {
		rc := *r
		rc.Source = source
		if rc.Accessibility == nil {
			rc.Accessibility = m.Accessibility
		}
		out.Releases[i] = &rc
	}
	return &out
}

// mergeModule joins one module's copies, given in source order. One
// copy may be built in (R29): the merged module is then the other copies'
// releases, and the built-in copy is its source's own module, which a
// cluster that runs it built in keeps until the request moves it.
func mergeModule(copies []*Module) (*Module, error) {
	if len(copies) == 1 {
		return copies[0], nil
	}
	var builtIn *Module
	listed := make([]*Module, 0, len(copies))
	for _, m := range copies {
		switch {
		case !m.Embedded:
			listed = append(listed, m)
		case builtIn != nil:
			return nil, fieldErr(Field("modules").Key(m.Name), ErrDuplicate, "module %s is built in in sources %s and %s; a module is built in in one source at most", m.Name, builtIn.Source, m.Source)
		default:
			builtIn = m
		}
	}
	first := listed[0]
	for _, m := range listed { // a built-in copy runs at the DKP version, read as DKP reads it
		if m.Reading() != first.Reading() {
			return nil, fieldErr(Field("modules").Key(m.Name).Field("versions"), ErrInvalidValue, "module %s reads versions as %s in source %s and as %s in source %s: one module has one version reading (R6)", m.Name, first.Reading(), first.Source, m.Reading(), m.Source)
		}
	}
	out := *first
	out.Source = ""
	out.Channels, out.ChannelSets, out.DefaultChannel, out.Accessibility = nil, nil, "", nil
	out.Releases = nil
	out.bySource = map[string]*Module{}
	for _, m := range copies {
		out.bySource[m.Source] = m
		out.Releases = append(out.Releases, m.Releases...)
	}
	if builtIn != nil {
		out.builtIn = builtIn.Source
	}
	// Stable: equal versions keep the source order of copies.
	slices.SortStableFunc(out.Releases, func(a, b *Release) int { return CompareVersions(a.Version, b.Version) })
	out.sources = make([]string, len(copies))
	for i, m := range copies {
		out.sources[i] = m.Source
	}
	return &out, nil
}

// SourceCopy is one copy of a module that a single catalog holds under a
// source name of its own, for JoinSources.
type SourceCopy struct {
	Source string
	Module *Module
}

// JoinSources returns one module from two copies of it that a single
// catalog holds, each under a source name of its own, one built in and
// one that lists releases, given in the order in which a deployed version
// is looked up (D75): a DKP tree that carries a module both built in and
// in its external folder (R29, D350). The module is what Merge makes of
// a module built in in one source and listed in another, its copies and
// their releases tagged with their sources, so that R29 reads it the same
// way; the catalog stays a single one, and only this module names
// sources.
func JoinSources(copies []SourceCopy) (*Module, error) {
	if len(copies) == 0 {
		panic("internal error: JoinSources of no copies")
	}
	mods := make([]*Module, len(copies))
	builtIn := 0
	for i, c := range copies {
		mods[i] = tagged(c.Module, c.Source)
		if c.Module.Embedded {
			builtIn++
		}
	}
	if len(mods) != 2 || builtIn != 1 || mods[0].Source == mods[1].Source {
		return nil, fieldErr(Field("modules").Key(mods[0].Name), ErrDuplicate, "module %s is listed twice, and not as a built-in module and its releases", mods[0].Name)
	}
	return mergeModule(mods)
}

func sourceNames(copies []*Module) string {
	names := ""
	for i, m := range copies {
		if i > 0 {
			names += ", "
		}
		names += m.Source
	}
	return names
}

// Sources lists the sources of a merged catalog in source order
// (priority descending, then name); nil for a single catalog.
func (c *Catalog) Sources() []SourceInfo { return c.sources }

// Source returns the source called name, and whether there is one.
func (c *Catalog) Source(name string) (SourceInfo, bool) {
	i := slices.IndexFunc(c.sources, func(s SourceInfo) bool { return s.Name == name })
	if i < 0 {
		return SourceInfo{}, false
	}
	return c.sources[i], true
}

// SourceRank is the position of source name in the source order, or -1.
func (c *Catalog) SourceRank(name string) int {
	return slices.IndexFunc(c.sources, func(s SourceInfo) bool { return s.Name == name })
}

// ModuleSources lists the sources that hold m, in source order: several
// for a module of several sources, one for a module of one source of a
// merged catalog, none in a single catalog.
func (m *Module) ModuleSources() []string {
	if m.sources != nil {
		return m.sources
	}
	if m.Source != "" {
		return []string{m.Source}
	}
	return nil
}

// BuiltInSource is, for a module that one source carries built in and
// others list releases of (R29), the source that carries it built in;
// "" for any other module.
func (m *Module) BuiltInSource() string { return m.builtIn }

// CarriedBuiltIn reports whether DKP version dkp carries m built in: for
// a module one source carries built in while others list its releases
// (R29), the built-in copy's DKP requirement says which versions carry
// it (D161); a version outside it has moved the module to a source.
// Any other module is carried as it is.
func (m *Module) CarriedBuiltIn(dkp Version) bool {
	if m.builtIn == "" || dkp == nil {
		return true
	}
	c := m.bySource[m.builtIn].Requirements.Deckhouse
	return c == nil || ReadingDKP.Admits(c, dkp, false)
}

// CarriedOnTheWay reports whether DKP, moving from version from to to,
// still carries m built in at to: its built-in copy admits to
// (CarriedBuiltIn), and no DKP release on the way lists it in its
// migratedModules (R31), which DKP moves to a source as it moves to that
// release.
func (m *Module) CarriedOnTheWay(data PlatformReleases, from, to Version) bool {
	if !m.CarriedBuiltIn(to) {
		return false
	}
	for _, minor := range data.OnTheWay(from, to) {
		if slices.Contains(data[minor].Requirements.MigratedModules, m.Name) {
			return false
		}
	}
	return true
}

// MovedTo is the source a module that DKP version dkp no longer carries
// built in moves to (R29, D161): the first other source, in source order,
// that lists it.
func (m *Module) MovedTo() string {
	for _, s := range m.sources {
		if s != m.builtIn {
			return s
		}
	}
	return ""
}

// MayBeBuiltIn reports whether m runs built in, at the DKP version, in
// some resolution: a built-in module, or one a source carries built in
// (R29).
func (m *Module) MayBeBuiltIn() bool { return m.Embedded || m.builtIn != "" }

// BuiltInOf returns, in a merged catalog, the built-in copy of m that
// source's catalog holds under a name of its own beside the releases it
// lists (D350), or nil: what source's catalog holds of m besides
// ForSource(source).
func (m *Module) BuiltInOf(source string) *Module {
	if b := m.bySource[m.builtIn]; b != nil && source != "" && b.home == source {
		return b
	}
	return nil
}

// BuiltInFrom reports whether m runs built in, at the DKP version, when
// it comes from source (an answer's toSource): a built-in module, or one
// whose built-in source serves it (R29).
func (m *Module) BuiltInFrom(source string) bool {
	return m.Embedded || (m.builtIn != "" && source == m.builtIn)
}

// BuiltInRequirements are the requirements m has when it runs built in
// (R5); none for a module that never does.
func (m *Module) BuiltInRequirements() Requirements {
	if m.builtIn != "" {
		return m.bySource[m.builtIn].Requirements
	}
	return m.Requirements
}

// BuiltInSettings are the settings schemas m reads when it runs built in,
// by DKP version (R34): those of the copy a source carries built in
// (R29), or m's own.
func (m *Module) BuiltInSettings() []PlatformSettings {
	if m.builtIn != "" {
		return m.bySource[m.builtIn].Settings
	}
	return m.Settings
}

// MultiSource reports whether m is in more than one source, so that
// messages name the source of its releases.
func (m *Module) MultiSource() bool { return len(m.sources) > 1 }

// ForSource returns source's own module m: its releases, channels and
// update policy. It is m itself when m is in one source only, and nil when
// source does not hold m.
func (m *Module) ForSource(source string) *Module {
	if m.bySource != nil {
		return m.bySource[source]
	}
	if m.Source == source {
		return m
	}
	return nil
}

// ReleaseIn returns the release of m with version v in source ("" for any
// source), or nil.
func (m *Module) ReleaseIn(source string, v Version) *Release {
	if source != "" {
		if sm := m.ForSource(source); sm != nil {
			return sm.Release(v)
		}
		return nil
	}
	return m.Release(v)
}

// ReleaseName names release r of m for messages: its version, and its
// source when m is in more than one (R23).
func (m *Module) ReleaseName(r *Release) string {
	if m.MultiSource() && r.Source != "" {
		return fmt.Sprintf("%s (source %s)", r.Version, r.Source)
	}
	return r.Version.String()
}

// validateSource checks the source of a configured module (R23).
func (c *ClusterState) validateSource(cat *Catalog, name string) InputErrors {
	s := c.Modules[name]
	if s.Source == "" {
		return nil
	}
	return checkSource(cat, Field("cluster", "modules").Key(name).Field("source"), name, s.Source)
}

// validateSources checks request.sources (R23).
func (r *Request) validateSources(cat *Catalog) InputErrors {
	var errs InputErrors
	for _, name := range slices.Sorted(maps.Keys(r.Sources)) {
		field := Field("request", "sources").Key(name)
		if cat.Module(name) == nil {
			errs = append(errs, fieldErr(field, ErrUnknownModule, "%s", cat.unknownModule(name)))
			continue
		}
		errs = append(errs, checkSource(cat, field, name, r.Sources[name])...)
	}
	return errs
}

// validateIntoPlatform refuses a move into the platform (R29): DKP moves
// modules out of it into module sources, never a module that runs from a
// source back in.
func (r *Request) validateIntoPlatform(cat *Catalog, cluster *ClusterState) InputErrors {
	var errs InputErrors
	for _, name := range slices.Sorted(maps.Keys(r.Sources)) {
		m := cat.Module(name)
		if m == nil || m.builtIn == "" || r.Sources[name] != m.builtIn {
			continue
		}
		if _, on := cluster.Deployed(m); on && cluster.DeployedSource(m) != m.builtIn {
			errs = append(errs, fieldErr(Field("request", "sources").Key(name), ErrInvalidValue, "module %s runs from source %s and cannot move into the platform (source %s carries it built in): DKP moves modules out of the platform, not in", name, cluster.DeployedSource(m), m.builtIn))
		}
	}
	return errs
}

func checkSource(cat *Catalog, field Path, module, source string) InputErrors {
	m := cat.Module(module)
	switch {
	case len(cat.sources) == 0 && m != nil && m.MultiSource(): // a single catalog's module of its own sources (D350)
		if !slices.Contains(m.sources, source) {
			return InputErrors{fieldErr(field, ErrInvalidValue, "unknown source %q of module %s (its sources: %s)", source, module, strings.Join(m.sources, ", "))}
		}
	case len(cat.sources) == 0:
		return InputErrors{fieldErr(field, ErrInvalidValue, "module %s names source %q, but the resolution has a single catalog", module, source)}
	case cat.SourceRank(source) < 0:
		return InputErrors{fieldErr(field, ErrInvalidValue, "unknown source %q (sources: %s)", source, cat.sourceList())}
	case m != nil && m.ForSource(source) == nil:
		return InputErrors{fieldErr(field, ErrInvalidValue, "source %s has no module %s (it is in %s)", source, module, strings.Join(m.ModuleSources(), ", "))}
	}
	return nil
}

func (c *Catalog) sourceList() string {
	names := make([]string, len(c.sources))
	for i, s := range c.sources {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// DeployedSource returns the source module name was deployed from: the
// cluster's source, or when the state names none, the first source in
// source order that lists the deployed version, or else the first that
// holds the module (D75). It is "" in a single catalog.
func (c *ClusterState) DeployedSource(m *Module) string {
	if s := c.Modules[m.Name].Source; s != "" {
		return s
	}
	if m.builtIn != "" && c.Modules[m.Name].Version == nil {
		return m.builtIn // R29: a version names a release of a source; none, the platform's
	}
	srcs := m.ModuleSources()
	if len(srcs) == 0 {
		return ""
	}
	if v := c.Modules[m.Name].Version; v != nil {
		for _, s := range srcs {
			if m.ForSource(s).Release(v) != nil {
				return s
			}
		}
	}
	return srcs[0]
}
