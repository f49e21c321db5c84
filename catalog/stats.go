package catalog

import (
	"regexp"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Stats describe a loaded catalog: its size, its edges and the forms its
// constraints take, with what the load skipped. `modsolver catalog stats`
// prints them.
type Stats struct {
	Source string `json:"source"`
	Format Format `json:"format"`
	// HelmSubcharts is how a Helm index's dependencies were read: bundled
	// in their chart or installed as releases of their own (D67).
	HelmSubcharts HelmSubcharts `json:"helmSubcharts,omitempty"`
	// BundledSubcharts counts the Helm dependencies packaged inside their
	// chart, which are not requirements.
	BundledSubcharts int `json:"bundledSubcharts,omitempty"`
	// UpdatePolicies count modules by how an update may move them (D66).
	UpdatePolicies map[model.UpdatePolicy]int `json:"updatePolicies"`
	Modules        int                        `json:"modules"`
	BuiltIn        int                        `json:"builtIn"`
	Releases       int                        `json:"releases"`
	// Prereleases are releases with a prerelease part (D1).
	Prereleases int `json:"prereleases"`
	// Channels counts channel entries over all modules (R10, D32): a
	// module's own channels, each naming a version of it, not the
	// platform's release channels.
	Channels int `json:"channels"`
	// Stages count releases per stage (R25), a built-in module as one;
	// BuiltInStages count the built-in modules among them, so that the
	// releases of a stage are the difference (D369).
	Stages        map[string]int `json:"stages"`
	BuiltInStages map[string]int `json:"builtInStages"`
	// DisableConfirmations count releases, a built-in module as one,
	// whose module asks for confirmation before it is disabled (R26);
	// BuiltInDisableConfirmations the built-in modules among them.
	DisableConfirmations        int `json:"disableConfirmations"`
	BuiltInDisableConfirmations int `json:"builtInDisableConfirmations"`

	RequiredDependencies int `json:"requiredDependencies"`
	OptionalDependencies int `json:"optionalDependencies"`
	// DependenciesOutside are requirements on modules the catalog lacks.
	DependenciesOutside int `json:"dependenciesOutside"`

	RequiredCapabilities int `json:"requiredCapabilities"`
	// ProvidedCapabilities counts distinct capabilities; ProvidedEntries
	// counts them per release.
	ProvidedCapabilities int `json:"providedCapabilities"`
	ProvidedEntries      int `json:"providedEntries"`
	// SharedCapabilities are capabilities more than one module provides.
	SharedCapabilities int `json:"sharedCapabilities"`

	// CompoundRequirements count compound requirements (R24), of which
	// CompoundConflicts are top-level nots.
	CompoundRequirements int `json:"compoundRequirements"`
	CompoundConflicts    int `json:"compoundConflicts"`

	// V2Modules count modules with a release, or a built-in module, written
	// in DKP's v2 form (R28), and V2Releases those releases (a built-in
	// module as one); Applications count Application packages.
	V2Modules    int `json:"v2Modules"`
	V2Releases   int `json:"v2Releases"`
	Applications int `json:"applications"`
	// Groups count DKP v2 groups by bucket (anyOf, noneOf), and
	// GroupMembers their members over all groups.
	Groups       map[string]int `json:"groups"`
	GroupMembers int            `json:"groupMembers"`

	Replaces   int `json:"replaces"`
	Skips      int `json:"skips"`
	SkipRanges int `json:"skipRanges"`
	// ModulesWithGraph are modules that update along their edges (R21).
	ModulesWithGraph int `json:"modulesWithGraph"`
	// FromToRules are DKP's update.versions rules (R11).
	FromToRules int `json:"fromToRules"`

	// PlatformRequirements count releases, a built-in module as one, with
	// a requirement on each platform component: deckhouse, kubernetes and
	// others (R4, R22); BuiltInPlatformRequirements the built-in modules
	// among them.
	PlatformRequirements        map[string]int `json:"platformRequirements"`
	BuiltInPlatformRequirements map[string]int `json:"builtInPlatformRequirements"`
	// DependencyForms count module requirements by the form of their
	// constraint (ConstraintForm).
	DependencyForms map[string]int `json:"dependencyForms"`

	Skipped int `json:"skipped"`
	// SkippedBy counts skipped items by the reason's first clause.
	SkippedBy map[string]int `json:"skippedBy,omitempty"`
	Warnings  int            `json:"warnings"`
	// Counts are the importer's own tallies (Report.Counts).
	Counts map[string]int `json:"counts,omitempty"`
}

// NewStats computes the stats of cat, as loaded with report rep.
func NewStats(cat *model.Catalog, rep *Report) Stats {
	s := Stats{
		Source: rep.Source, Format: rep.Format, HelmSubcharts: rep.HelmSubcharts,
		Modules: rep.Modules, BuiltIn: rep.Embedded, Releases: rep.Releases, Prereleases: rep.Prereleases,
		PlatformRequirements: map[string]int{}, BuiltInPlatformRequirements: map[string]int{}, DependencyForms: map[string]int{},
		Stages: map[string]int{}, BuiltInStages: map[string]int{},
		UpdatePolicies: map[model.UpdatePolicy]int{}, Groups: map[string]int{}, BundledSubcharts: rep.Counts[helmBundled],
		Skipped: len(rep.Skipped), Warnings: len(rep.Warnings), Counts: rep.Counts,
	}
	for _, sk := range rep.Skipped {
		if s.SkippedBy == nil {
			s.SkippedBy = map[string]int{}
		}
		first, _, _ := strings.Cut(sk.Reason, ": ")
		s.SkippedBy[first]++
	}
	provided := map[string]bool{}
	for _, m := range cat.Modules() {
		s.addModule(cat, m, provided)
	}
	s.ProvidedCapabilities = len(provided)
	for c := range provided {
		if len(cat.Providers(c)) > 1 {
			s.SharedCapabilities++
		}
	}
	return s
}

func (s *Stats) addModule(cat *model.Catalog, m *model.Module, provided map[string]bool) {
	s.Channels += len(m.Channels)
	if !m.Embedded {
		s.UpdatePolicies[m.Policy()]++
	}
	if m.Embedded {
		s.addRequirements(cat, m.Requirements)
		s.addStage(m, nil)
		s.addBuiltIn(m)
	}
	s.addManifest(m)
	if m.HasUpdateGraph() {
		s.ModulesWithGraph++
	}
	for _, r := range m.Releases {
		s.FromToRules += len(r.UpdateRules)
		s.addEdges(r.Edges)
		s.ProvidedEntries += len(r.Provides)
		for _, c := range r.Provides {
			provided[c] = true
		}
		s.addRequirements(cat, r.Requirements)
		s.addStage(m, r)
	}
}

// addManifest counts m's v2 releases (R28), and m if it has one, or is
// an Application.
func (s *Stats) addManifest(m *model.Module) {
	if m.Type == model.PackageApplication {
		s.Applications++
	}
	v2 := 0
	if m.Embedded && m.Manifest == model.ManifestV2 {
		v2++
	}
	for _, r := range m.Releases {
		if m.ManifestOf(r) == model.ManifestV2 {
			v2++
		}
	}
	s.V2Releases += v2
	if v2 > 0 {
		s.V2Modules++
	}
}

// addBuiltIn counts built-in module m apart, beside addStage's and
// addRequirements' counts that take it as a release.
func (s *Stats) addBuiltIn(m *model.Module) {
	s.BuiltInStages[m.StageOf(nil).String()]++
	if m.DisableOf(nil).Confirmation {
		s.BuiltInDisableConfirmations++
	}
	for _, name := range platformNames(m.Requirements) {
		s.BuiltInPlatformRequirements[name]++
	}
}

// addStage counts the stage and the disable confirmation of release r of
// m, or of built-in module m for a nil r.
func (s *Stats) addStage(m *model.Module, r *model.Release) {
	s.Stages[m.StageOf(r).String()]++
	if m.DisableOf(r).Confirmation {
		s.DisableConfirmations++
	}
}

func (s *Stats) addEdges(e *model.UpdateEdges) {
	if e == nil {
		return
	}
	if e.Replaces != nil {
		s.Replaces++
	}
	s.Skips += len(e.Skips)
	if e.SkipRange != nil {
		s.SkipRanges++
	}
}

func (s *Stats) addRequirements(cat *model.Catalog, req model.Requirements) {
	for _, name := range platformNames(req) {
		s.PlatformRequirements[name]++
	}
	s.RequiredCapabilities += len(req.Capabilities)
	s.addCompound(req.Compound)
	for _, d := range req.Modules {
		if d.Constraint.Optional {
			s.OptionalDependencies++
		} else {
			s.RequiredDependencies++
		}
		if cat.Module(d.Module) == nil {
			s.DependenciesOutside++
		}
		s.DependencyForms[ConstraintForm(d.Constraint.Text)]++
	}
}

// platformNames names the platform components req requires: deckhouse,
// kubernetes and others (R4, R22).
func platformNames(req model.Requirements) []string {
	var out []string
	if req.Deckhouse != nil {
		out = append(out, model.PlatformDeckhouse)
	}
	if req.Kubernetes != nil {
		out = append(out, model.PlatformKubernetes)
	}
	for name := range req.Platform {
		out = append(out, name)
	}
	return out
}

var (
	wildcardRE = regexp.MustCompile(`(^|[.\s=<>~^])[xX*]($|[.\s,])`)
	exactRE    = regexp.MustCompile(`^=?\s*v?[0-9]+(\.[0-9]+){0,2}(-[0-9A-Za-z.-]+)?$`)
	compareRE  = regexp.MustCompile(`(>=|<=|!=|>|<|=)`)
	anyRE      = regexp.MustCompile(`^(>=?\s*v?0(\.0){0,2}(-0)?|\*|[xX])$`)
	excludeRE  = regexp.MustCompile(`(^|[\s,])!\s*v?[0-9]`)
)

// ConstraintForm names the form of a constraint's text: "any", "exact",
// "comparison" (one bound), "range" (several bounds, comma or space AND),
// "x-wildcard", "caret", "tilde", "hyphen", "or", "exclusion", or "other".
// An optional constraint's form is that of its range; a bare "!optional"
// is "any".
func ConstraintForm(text string) string {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "!optional"))
	switch {
	case t == "" || anyRE.MatchString(t):
		return "any"
	case strings.Contains(t, "||"):
		return "or"
	case excludeRE.MatchString(t):
		return "exclusion"
	case strings.Contains(t, " - "):
		return "hyphen"
	case wildcardRE.MatchString(t):
		return "x-wildcard"
	case strings.HasPrefix(t, "^"):
		return "caret"
	case strings.HasPrefix(t, "~"):
		return "tilde"
	case exactRE.MatchString(t):
		return "exact"
	case len(compareRE.FindAllString(t, -1)) > 1:
		return "range"
	case len(compareRE.FindAllString(t, -1)) == 1:
		return "comparison"
	}
	return "other"
}

// addCompound counts compound requirements and their conflicts (R24),
// and apart from them DKP v2 groups and their members (R28).
func (s *Stats) addCompound(cs []model.CompoundRequirement) {
	for _, c := range cs {
		switch {
		case c.Group != nil:
			s.Groups[c.Group.Kind.String()]++
			s.GroupMembers += len(c.Members())
		case c.Conflict():
			s.CompoundRequirements++
			s.CompoundConflicts++
		default:
			s.CompoundRequirements++
		}
	}
}
