package catalog

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// Reading a Helm repository index (FormatHelmIndex).
//
// An index.yaml lists every published version of every chart in a
// repository, each with its Chart.yaml metadata. It is tolerant input, as a
// DKP module-source directory is: only the fields below are read, every
// other key (description, urls, digest, maintainers…) is
// ignored (annotations are read for Rancher's keys, helm_rancher.go), and a
// chart version that cannot be read is skipped and reported.
// A file that is not YAML, has a read field of the wrong type, or names no
// apiVersion is an error; an apiVersion other than v1 is a warning. The
// mapping:
//
//   - A chart is a module named by its entries key. An entry whose name
//     differs from its key keeps the key, with a warning. A chart with no
//     loadable version is skipped.
//   - A chart version is a release. A "v" prefix is allowed. A version that
//     is not semver is skipped; so is a version listed twice in one chart
//     ("v1.2.3" and "1.2.3" are the same), the first one being kept.
//   - kubeVersion is Requirements.Kubernetes, parsed exactly as written, so
//     a "-0" prerelease floor keeps its meaning: ">= 1.19.0-0" admits
//     1.31.0-gke.1 and ">= 1.19.0" does not. An invalid one skips the
//     version.
//   - Dependencies are subcharts, which Helm packages inside the parent
//     chart (`helm dependency update` vendors them): by default
//     (SubchartsBundled, D67) none is a requirement on another module,
//     and every one is counted as bundled. With SubchartsInstalled, for
//     users who install subcharts as releases of their own, they are
//     requirements, as follows.
//   - A dependency whose repository is empty or starts with "file://" is a
//     subchart bundled inside the chart archive, not a requirement; it is
//     counted. Any other dependency is a requirement on the chart it names
//     (never its alias), with its version range. It is optional (R3) when
//     it has a condition or tags: the other chart's version must match
//     only if that chart is enabled. An empty range means any version,
//     prereleases included (helmAnyVersion, ">= 0.0.0-0"). An invalid range,
//     or one carrying the grammar's own "!optional", skips the version.
//   - Several dependencies on one chart (under different aliases, or
//     repeated) are one requirement: their distinct ranges joined with ", "
//     (all of them must hold), optional only if every one is. Ranges that
//     contain "||" cannot be joined so: the first required one is kept
//     (else the first one), with a warning.
//   - A dependency on the chart itself is dropped, with a warning.
//   - A dependency on a chart outside the index stays a requirement, which
//     the solver explains as "not in the catalog"; such requirements (after
//     merging) are counted in total and per repository, so that the report
//     names the repositories the index does not hold.
//   - Deprecated versions (`deprecated: true`) are loaded as Deprecated
//     releases (R25), and counted: selectable, with a warning.
//
// Every chart reads versions by Helm's rules (model.ReadingSemver, R6,
// D140): Masterminds', on whole versions, so that a range admits a
// prerelease only where a comparator of its AND group carries one; its
// ecosystem is Helm's (D143).
//
// There are no channels, editions or built-in modules. The report's counts
// account for every dependency edge of the index: each is a requirement, a
// bundled subchart, merged into another requirement, a self-dependency, or
// one of a skipped version.

// helmAnyVersion is the range of a dependency that names no version: every
// version, prereleases included.
const helmAnyVersion = ">= 0.0.0-0"

// helmOptional is the constraint grammar's optional marker (R3). Helm's own
// ranges never carry it.
const helmOptional = "!optional"

// Count phrases of a Helm index report.
const (
	helmBundled     = "bundled subchart dependencies"
	helmMerged      = "dependencies merged by alias"
	helmSelf        = "dependencies on the chart itself"
	helmOutside     = "dependencies on charts outside the index"
	helmDeprecated  = "deprecated chart versions"
	helmSkippedDeps = "dependencies of skipped chart versions"
)

// helmIndex is the part of index.yaml that resolution reads.
type helmIndex struct {
	APIVersion string                 `yaml:"apiVersion"`
	Entries    map[string][]helmEntry `yaml:"entries"`
}

// helmEntry is one chart version.
type helmEntry struct {
	Name         string           `yaml:"name"`
	Version      string           `yaml:"version"`
	KubeVersion  string           `yaml:"kubeVersion"`
	Dependencies []helmDependency `yaml:"dependencies"`
	Deprecated   bool             `yaml:"deprecated"`
	// Annotations are read for Rancher's keys (helm_rancher.go).
	Annotations map[string]yaml.Node `yaml:"annotations"`
}

// helmDependency is one entry of a chart version's dependencies.
type helmDependency struct {
	Name       string   `yaml:"name"`
	Version    string   `yaml:"version"`
	Repository string   `yaml:"repository"`
	Condition  string   `yaml:"condition"`
	Tags       []string `yaml:"tags"`
	Alias      string   `yaml:"alias"`
}

// parseHelmIndex reads a Helm repository index.yaml (FormatHelmIndex).
func parseHelmIndex(name string, data []byte, opts ...Option) (*model.Catalog, *Report, error) {
	idx, err := readHelmIndex(name, data)
	if err != nil {
		return nil, nil, err
	}
	o := newOptions(opts)
	h := &helmImporter{
		subcharts:   o.helmSubcharts,
		rep:         &Report{Source: name, Format: FormatHelmIndex, HelmSubcharts: o.helmSubcharts},
		constraints: constraintCache{},
		targets:     map[string]map[string]int{},
	}
	if idx.APIVersion != "v1" {
		h.rep.warn("apiVersion %q is not v1; the index is read as v1", idx.APIVersion)
	}
	cat, err := model.NewCatalog(h.charts(idx.Entries))
	if err != nil {
		return nil, nil, &ParseError{File: name, Err: err}
	}
	h.countOutside(cat)
	h.rep.count(cat)
	return cat, h.rep, nil
}

// readHelmIndex decodes data, which must name an apiVersion as every Helm
// index does.
func readHelmIndex(name string, data []byte) (*helmIndex, error) {
	node, err := parseNode(name, data)
	if err != nil {
		return nil, err
	}
	var idx helmIndex
	if err := decode(name, node, &idx); err != nil {
		return nil, err
	}
	if idx.APIVersion == "" {
		return nil, &ParseError{File: name, Line: node.Line, Err: fmt.Errorf("%w: apiVersion: not set, so this is not a Helm repository index", model.ErrMissingField)}
	}
	return &idx, nil
}

// helmImporter converts a decoded index and keeps the report.
type helmImporter struct {
	rep *Report
	// subcharts says whether dependencies are bundled in their chart or
	// installed as releases of their own (D67).
	subcharts HelmSubcharts
	// constraints caches each distinct constraint text: an index repeats a
	// few hundred ranges tens of thousands of times.
	constraints constraintCache
	// targets counts the requirements of loaded versions by chart, then by
	// repository, to report those on charts outside the index.
	targets map[string]map[string]int
}

// constraint parses text once per import.
func (h *helmImporter) constraint(text string) (model.Constraint, error) {
	return h.constraints.parse(text)
}

// helmRange parses a range as Helm writes it, which never carries the
// optional marker.
func (h *helmImporter) helmRange(text string) (model.Constraint, error) {
	c, err := h.constraint(text)
	if err == nil && c.Optional {
		err = fmt.Errorf("%w: %q: %s is not part of a Helm range", model.ErrInvalidConstraint, text, helmOptional)
	}
	return c, err
}

// add counts n more of what; a zero count adds no phrase.
func (h *helmImporter) add(what string, n int) {
	if n != 0 {
		h.rep.add(what, n)
	}
}

// charts converts every chart, in name order so that the report is stable.
func (h *helmImporter) charts(entries map[string][]helmEntry) []*model.Module {
	modules := make([]*model.Module, 0, len(entries))
	for _, key := range slices.Sorted(maps.Keys(entries)) {
		if m := h.chart(key, entries[key]); m != nil {
			modules = append(modules, m)
		}
	}
	return modules
}

// chart converts one chart, or skips it and returns nil.
func (h *helmImporter) chart(key string, entries []helmEntry) *model.Module {
	if key == "" {
		h.rep.skip("entries", "a chart has an empty name; its %d versions are not loaded", len(entries))
		for i := range entries {
			h.add(helmSkippedDeps, len(entries[i].Dependencies))
		}
		return nil
	}
	m := &model.Module{Name: key, UpdatePolicy: model.UpdateDirect, Versions: model.ReadingSemver, Ecosystem: model.EcosystemHelm,
		DependencyLoops: model.LoopsAllow} // Helm installs charts that need each other together (R27)
	seen := make(map[string]string, len(entries))
	for i := range entries {
		if r := h.release(key, i, &entries[i], seen); r != nil {
			m.Releases = append(m.Releases, r)
		}
	}
	if len(m.Releases) == 0 {
		h.rep.skip(key, "chart %s has no loadable version", key)
		return nil
	}
	return m
}

// release converts one chart version, or skips it and returns nil. seen
// maps each version kept so far to its text.
func (h *helmImporter) release(chart string, i int, e *helmEntry, seen map[string]string) *model.Release {
	path := chart + "@" + e.Version
	if e.Version == "" {
		path = fmt.Sprintf("%s[%d]", chart, i)
	}
	hr := &helmRelease{chart: chart, path: path}
	if err := h.convert(hr, e, seen); err != nil {
		h.rep.skip(path, "%v", err)
		h.add(helmSkippedDeps, len(e.Dependencies))
		return nil
	}
	h.commit(hr)
	if e.Deprecated {
		h.add(helmDeprecated, 1)
		hr.release.Stage = model.StageDeprecated
	}
	return hr.release
}

// helmRelease is one chart version being converted. Its tallies reach the
// report only if the version is kept, so that every dependency edge is
// counted once.
type helmRelease struct {
	chart, path string
	release     *model.Release
	bundled     int
	merged      int
	self        int
	targets     []helmTarget
	warnings    []string
	// ignored lists the annotation keys with no resolution meaning.
	ignored []string
	// normalised is 1 when the version is read in another form (D71).
	normalised int
}

// helmTarget is the chart and repository a requirement names.
type helmTarget struct {
	chart, repo string
}

// warn records a warning about the version, to be reported if it is kept.
func (hr *helmRelease) warn(format string, args ...any) {
	hr.warnings = append(hr.warnings, hr.path+": "+fmt.Sprintf(format, args...))
}

// convert fills hr from e, or says why the version is skipped.
func (h *helmImporter) convert(hr *helmRelease, e *helmEntry, seen map[string]string) error {
	v, err := model.ParseVersion(e.Version)
	if err != nil {
		return err
	}
	key := model.VersionString(v)
	if first, dup := seen[key]; dup {
		if first == e.Version {
			return errors.New("listed twice")
		}
		return fmt.Errorf("listed twice, first as %s", first)
	}
	hr.release = &model.Release{Version: v}
	if w := normalised(hr.path, e.Version, v); w != "" {
		hr.normalised++
		hr.warnings = append(hr.warnings, w)
	}
	if hr.release.Requirements.Kubernetes, err = h.kubernetes(e.KubeVersion); err != nil {
		return err
	}
	if err := h.dependencies(hr, e.Dependencies); err != nil {
		return err
	}
	if err := h.annotations(hr, e.Annotations); err != nil {
		return err
	}
	if e.Name != "" && e.Name != hr.chart {
		hr.warn("named %q; the entries key %s is used", e.Name, hr.chart)
	}
	seen[key] = e.Version
	return nil
}

// commit adds a kept version's tallies and warnings to the report.
func (h *helmImporter) commit(hr *helmRelease) {
	h.add(helmBundled, hr.bundled)
	h.add(helmMerged, hr.merged)
	h.add(helmSelf, hr.self)
	h.add(versionsNormalised, hr.normalised)
	for _, key := range hr.ignored {
		h.add(helmIgnoredAnnotation+key, 1)
	}
	for _, t := range hr.targets {
		if h.targets[t.chart] == nil {
			h.targets[t.chart] = map[string]int{}
		}
		h.targets[t.chart][t.repo]++
	}
	h.rep.Warnings = append(h.rep.Warnings, hr.warnings...)
}

// kubernetes parses a kubeVersion; empty means none.
func (h *helmImporter) kubernetes(text string) (*model.Constraint, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	c, err := h.helmRange(text)
	if err != nil {
		return nil, fmt.Errorf("kubeVersion: %w", err)
	}
	return &c, nil
}

// helmGroup is the dependencies of one chart version on one other chart:
// more than one when the chart is used under several aliases.
type helmGroup struct {
	chart, repo string // repo is the first dependency's
	ranges      []string
	optional    []bool
	aliases     []string
}

// dependencies turns a version's dependencies into its requirements.
func (h *helmImporter) dependencies(hr *helmRelease, deps []helmDependency) error {
	if h.subcharts == SubchartsBundled {
		hr.bundled += len(deps) // packaged inside the chart: not modules of the cluster
		return nil
	}
	groups, err := hr.group(deps)
	if err != nil {
		return err
	}
	slices.SortFunc(groups, func(a, b *helmGroup) int { return cmp.Compare(a.chart, b.chart) })
	for _, g := range groups {
		c, err := h.requirement(hr, g)
		if err != nil {
			return fmt.Errorf("dependency %s: %w", g.chart, err)
		}
		hr.release.Requirements.Modules = append(hr.release.Requirements.Modules, model.Dependency{Module: g.chart, Constraint: c})
		hr.targets = append(hr.targets, helmTarget{chart: g.chart, repo: g.repo})
	}
	return nil
}

// group sorts out bundled subcharts and self-dependencies, and groups the
// rest by the chart they name.
func (hr *helmRelease) group(deps []helmDependency) ([]*helmGroup, error) {
	var groups []*helmGroup
	for i := range deps {
		d := &deps[i]
		switch {
		case d.Repository == "" || strings.HasPrefix(d.Repository, "file://"):
			hr.bundled++
		case d.Name == "":
			return nil, fmt.Errorf("dependency %d: it has no name", i+1)
		case d.Name == hr.chart:
			hr.self++
			hr.warn("chart %s depends on itself; the dependency is dropped", hr.chart)
		default:
			groups = d.addTo(groups)
		}
	}
	return groups, nil
}

// addTo adds d to the group of its chart, starting one if needed.
func (d *helmDependency) addTo(groups []*helmGroup) []*helmGroup {
	i := slices.IndexFunc(groups, func(g *helmGroup) bool { return g.chart == d.Name })
	if i < 0 {
		i = len(groups)
		groups = append(groups, &helmGroup{chart: d.Name, repo: d.Repository})
	}
	g := groups[i]
	text := strings.TrimSpace(d.Version)
	if text == "" {
		text = helmAnyVersion
	}
	g.ranges = append(g.ranges, text)
	g.optional = append(g.optional, d.Condition != "" || len(d.Tags) > 0)
	g.aliases = append(g.aliases, cmp.Or(d.Alias, d.Name))
	return groups
}

// requirement is a group's constraint: its ranges, each checked on its
// own, then joined.
func (h *helmImporter) requirement(hr *helmRelease, g *helmGroup) (model.Constraint, error) {
	for _, text := range g.ranges {
		if _, err := h.helmRange(text); err != nil {
			return model.Constraint{}, err
		}
	}
	hr.merged += len(g.ranges) - 1
	text, optional := g.join(hr)
	if optional {
		text += " " + helmOptional
	}
	return h.constraint(text)
}

// join is the group's range and whether it is optional: only if every
// dependency in it is.
func (g *helmGroup) join(hr *helmRelease) (string, bool) {
	optional := !slices.Contains(g.optional, false)
	var distinct []string
	for _, text := range g.ranges {
		if !slices.Contains(distinct, text) {
			distinct = append(distinct, text)
		}
	}
	if len(distinct) == 1 {
		return distinct[0], optional
	}
	if !slices.ContainsFunc(distinct, func(text string) bool { return strings.Contains(text, "||") }) {
		return strings.Join(distinct, ", "), optional
	}
	keep := max(slices.Index(g.optional, false), 0)
	hr.warn("dependencies on %s (as %s) have ranges %q; a range with || cannot be joined with others, so only %q is kept",
		g.chart, strings.Join(g.aliases, ", "), distinct, g.ranges[keep])
	return g.ranges[keep], optional
}

// countOutside counts the requirements on charts the catalog does not
// hold, in total and per repository.
func (h *helmImporter) countOutside(cat *model.Catalog) {
	for chart, repos := range h.targets {
		if cat.Module(chart) != nil {
			continue
		}
		for repo, n := range repos {
			h.add(helmOutside, n)
			h.add(helmOutside+": "+repo, n)
		}
	}
}
