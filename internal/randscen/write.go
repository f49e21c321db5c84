package randscen

import (
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// File is the header and expectation of a scenario file to write: what it
// checks, and the answer the rules give.
type File struct {
	Name        string
	Description string
	Rules       []string
	Expect      Expect
}

// Expect is a scenario's expect section (DESIGN.md §7), as far as a
// differential test can state it: the status and every module's action
// and version.
type Expect struct {
	Status  string                  `yaml:"status"`
	Modules map[string]ExpectModule `yaml:"modules,omitempty"`
}

// ExpectModule is one module's expected action and version.
type ExpectModule struct {
	Action  string `yaml:"action"`
	Version string `yaml:"version,omitempty"`
}

// Write writes sc with f's header and expectation as a scenario file that
// catalog.LoadScenario reads back to the same inputs.
func Write(w io.Writer, sc *Scenario, f File) error {
	out := fileScenario{
		Name: f.Name, Description: f.Description, Rules: f.Rules,
		Cluster: clusterOf(sc.Cluster), Request: requestOf(sc.Request),
		Expect: f.Expect,
	}
	if len(sc.Catalog.Sources()) == 0 {
		c := catalogOf(sc.Catalog.Modules())
		c.PlatformReleases = releasesOf(sc.Catalog.PlatformReleases())
		out.Catalog = &c
	}
	for _, s := range sc.Catalog.Sources() {
		var mods []*model.Module
		for _, m := range sc.Catalog.Modules() {
			if sm := m.ForSource(s.Name); sm != nil {
				mods = append(mods, sm)
			}
		}
		out.Catalogs = append(out.Catalogs, fileSource{Name: s.Name, Priority: s.Priority, Catalog: catalogOf(mods)})
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(out); err != nil {
		return err
	}
	return enc.Close()
}

// WriteCatalog writes cat, a single catalog (not merged from sources), in
// modsolver's single-file format, which catalog.Load reads back: for the
// benchmarks that time loading a generated catalog from its file.
func WriteCatalog(w io.Writer, cat *model.Catalog) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(catalogOf(cat.Modules())); err != nil {
		return err
	}
	return enc.Close()
}

type fileScenario struct {
	Name        string       `yaml:"name"`
	Description string       `yaml:"description"`
	Rules       []string     `yaml:"rules,flow"`
	Catalog     *fileCatalog `yaml:"catalog,omitempty"`
	Catalogs    []fileSource `yaml:"catalogs,omitempty"`
	Cluster     fileCluster  `yaml:"cluster"`
	Request     fileRequest  `yaml:"request"`
	Expect      Expect       `yaml:"expect"`
}

// fileSource is one source of a scenario's catalogs list (R23).
type fileSource struct {
	Name     string      `yaml:"name"`
	Priority int         `yaml:"priority"`
	Catalog  fileCatalog `yaml:"catalog"`
}

type fileCatalog struct {
	Modules []fileModule `yaml:"modules"`
	// PlatformReleases is DKP's release data (R31).
	PlatformReleases map[string]filePlatformRelease `yaml:"platformReleases,omitempty"`
	DependencyLoops  string                         `yaml:"dependencyLoops,omitempty"`
	// Versions is the catalog's reading (R6); DKP's is left out.
	Versions string `yaml:"versions,omitempty"`
}

type fileModule struct {
	Name           string             `yaml:"name"`
	Embedded       bool               `yaml:"embedded,omitempty"`
	ExclusiveGroup string             `yaml:"exclusiveGroup,omitempty"`
	UpdatePolicy   string             `yaml:"updatePolicy,omitempty"`
	Accessibility  *fileAccessibility `yaml:"accessibility,omitempty"`
	Channels       map[string]string  `yaml:"channels,omitempty"`
	// ChannelSets are the channels' releases (D182).
	ChannelSets  map[string]fileChannelSet `yaml:"channelSets,omitempty"`
	Releases     []fileRelease             `yaml:"releases,omitempty"`
	Requirements *fileRequirements         `yaml:"requirements,omitempty"`
	Stage        string                    `yaml:"stage,omitempty"`
	Disable      *fileDisable              `yaml:"disable,omitempty"`
	Settings     []*fileSettings           `yaml:"settings,omitempty"`
}

// fileSettings is a settings schema (R34).
type fileSettings struct {
	Deckhouse   string              `yaml:"deckhouse,omitempty"`
	Schema      map[string]any      `yaml:"schema"`
	Conversions map[string][]string `yaml:"conversions,omitempty"`
}

// settingsOf writes a schema; nil for none.
func settingsOf(s *model.SettingsSchema, deckhouse *model.Constraint) *fileSettings {
	if s == nil {
		return nil
	}
	out := &fileSettings{Schema: s.Schema}
	if deckhouse != nil {
		out.Deckhouse = deckhouse.Text
	}
	for v, exprs := range s.Conversions {
		if out.Conversions == nil {
			out.Conversions = map[string][]string{}
		}
		out.Conversions[strconv.Itoa(v)] = exprs
	}
	return out
}

type fileChannelSet struct {
	Entries []string `yaml:"entries"`
	Skipped []string `yaml:"skipped,omitempty"`
}

// channelSetsOf writes a module's channel sets (D182); nil for none.
func channelSetsOf(sets map[string]*model.ChannelSet) map[string]fileChannelSet {
	if len(sets) == 0 {
		return nil
	}
	out := make(map[string]fileChannelSet, len(sets))
	for ch, s := range sets {
		out[ch] = fileChannelSet{Entries: model.VersionStrings(s.Entries), Skipped: model.VersionStrings(s.Skipped)}
	}
	return out
}

type fileDisable struct {
	Confirmation bool   `yaml:"confirmation"`
	Message      string `yaml:"message,omitempty"`
}

type fileRelease struct {
	Version       string             `yaml:"version"`
	Requirements  *fileRequirements  `yaml:"requirements,omitempty"`
	Update        *fileUpdate        `yaml:"update,omitempty"`
	Accessibility *fileAccessibility `yaml:"accessibility,omitempty"`
	Provides      []string           `yaml:"provides,omitempty,flow"`
	Replaces      string             `yaml:"replaces,omitempty"`
	Skips         []string           `yaml:"skips,omitempty,flow"`
	SkipRange     string             `yaml:"skipRange,omitempty"`
	Stage         string             `yaml:"stage,omitempty"`
	Disable       *fileDisable       `yaml:"disable,omitempty"`
	Settings      *fileSettings      `yaml:"settings,omitempty"`
}

type fileRequirements struct {
	Deckhouse  string `yaml:"deckhouse,omitempty"`
	Kubernetes string `yaml:"kubernetes,omitempty"`
	// Modules is the legacy map, or the v2 form for a release with
	// groups (R28).
	Modules      any               `yaml:"modules,omitempty"`
	Capabilities []string          `yaml:"capabilities,omitempty,flow"`
	Platform     map[string]string `yaml:"platform,omitempty"`
	Compound     []*fileCompound   `yaml:"compound,omitempty"`
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
	Available        *bool    `yaml:"available,omitempty"`
	EnabledInBundles []string `yaml:"enabledInBundles,omitempty,flow"`
}

type fileCluster struct {
	Deckhouse           string                     `yaml:"deckhouse,omitempty"`
	Kubernetes          string                     `yaml:"kubernetes"`
	Edition             string                     `yaml:"edition,omitempty"`
	Bundle              string                     `yaml:"bundle,omitempty"`
	ReleaseChannel      string                     `yaml:"releaseChannel,omitempty"`
	AllowExperimental   bool                       `yaml:"allowExperimentalModules,omitempty"`
	AllowedExperimental []string                   `yaml:"allowedExperimentalModules,omitempty"`
	KubernetesVersion   string                     `yaml:"kubernetesVersion,omitempty"`
	Facts               map[string]string          `yaml:"facts,omitempty"`
	Platform            map[string]string          `yaml:"platform,omitempty"`
	Modules             map[string]fileModuleState `yaml:"modules,omitempty"`
}

type fileModuleState struct {
	Enabled         *bool          `yaml:"enabled,omitempty"`
	Version         string         `yaml:"version,omitempty"`
	Channel         string         `yaml:"channel,omitempty"`
	Source          string         `yaml:"source,omitempty"`
	SettingsVersion int            `yaml:"settingsVersion,omitempty"`
	Settings        map[string]any `yaml:"settings,omitempty"`
}

type fileRequest struct {
	Enable       []string          `yaml:"enable,omitempty,flow"`
	Disable      []string          `yaml:"disable,omitempty,flow"`
	Update       []string          `yaml:"update,omitempty,flow"`
	UpdateAll    bool              `yaml:"updateAll,omitempty"`
	Pin          map[string]string `yaml:"pin,omitempty"`
	Platform     map[string]string `yaml:"platform,omitempty"`
	Strategy     string            `yaml:"strategy,omitempty"`
	AllowDisable bool              `yaml:"allowDisable,omitempty"`
	AutoEnable   bool              `yaml:"autoEnable,omitempty"`
	Sources      map[string]string `yaml:"sources,omitempty"`
	Devel        bool              `yaml:"devel,omitempty"`
}

// catalogOf writes modules, one catalog's or one source's (R23): a
// release whose accessibility is its module's, as a merged catalog's are,
// leaves it out.
func catalogOf(mods []*model.Module) fileCatalog {
	out := fileCatalog{DependencyLoops: loopRuleOf(mods)}
	for _, m := range mods {
		if m.Reading() != model.ReadingDKP {
			out.Versions = string(m.Reading()) // one reading a catalog (the generator draws one)
		}
		fm := fileModule{Name: m.Name, Embedded: m.Embedded, ExclusiveGroup: m.ExclusiveGroup, UpdatePolicy: string(m.UpdatePolicy),
			Accessibility: accessibilityOf(m.Accessibility), Channels: versionTexts(m.Channels), ChannelSets: channelSetsOf(m.ChannelSets)}
		if m.Embedded {
			fm.Requirements = requirementsOf(m.Requirements)
			fm.Stage, fm.Disable = stageText(m.Stage), disableOf(m.Disable)
			for _, ps := range m.Settings {
				fm.Settings = append(fm.Settings, settingsOf(ps.Schema, ps.Deckhouse))
			}
		}
		for _, r := range m.Releases {
			fr := releaseOf(r)
			if r.Accessibility == m.Accessibility {
				fr.Accessibility = nil
			}
			fm.Releases = append(fm.Releases, fr)
		}
		out.Modules = append(out.Modules, fm)
	}
	return out
}

func releaseOf(r *model.Release) fileRelease {
	fr := fileRelease{Version: model.VersionString(r.Version), Requirements: requirementsOf(r.Requirements),
		Accessibility: accessibilityOf(r.Accessibility), Provides: r.Provides,
		Stage: stageText(r.Stage), Disable: disableOf(r.Disable), Settings: settingsOf(r.Settings, nil)}
	if len(r.UpdateRules) > 0 {
		fr.Update = &fileUpdate{}
		for _, u := range r.UpdateRules {
			fr.Update.Versions = append(fr.Update.Versions, fileUpdateRule{From: u.From.String(), To: u.To.String()})
		}
	}
	if e := r.Edges; e != nil {
		fr.Replaces = model.VersionString(e.Replaces)
		fr.Skips = model.VersionStrings(e.Skips)
		if e.SkipRange != nil {
			fr.SkipRange = e.SkipRange.Text
		}
	}
	return fr
}

func requirementsOf(req model.Requirements) *fileRequirements {
	var compounds, groups []model.CompoundRequirement
	for _, c := range req.Compound {
		if c.Group != nil {
			groups = append(groups, c)
		} else {
			compounds = append(compounds, c)
		}
	}
	out := &fileRequirements{Capabilities: req.Capabilities, Compound: compoundsOf(compounds)}
	if len(groups) > 0 {
		out.Modules = v2ModulesOf(req.Modules, groups)
	} else if legacy := legacyModulesOf(req.Modules); legacy != nil {
		out.Modules = legacy
	}
	if req.Deckhouse != nil {
		out.Deckhouse = req.Deckhouse.Text
	}
	if req.Kubernetes != nil {
		out.Kubernetes = req.Kubernetes.Text
	}
	for name, c := range req.Platform {
		if out.Platform == nil {
			out.Platform = map[string]string{}
		}
		out.Platform[name] = c.Text
	}
	if out.Deckhouse == "" && out.Kubernetes == "" && out.Modules == nil && out.Capabilities == nil && out.Platform == nil && out.Compound == nil {
		return nil
	}
	return out
}

// legacyModulesOf writes deps as the legacy map; nil for none.
func legacyModulesOf(deps []model.Dependency) map[string]string {
	var out map[string]string
	for _, d := range deps {
		if out == nil {
			out = map[string]string{}
		}
		out[d.Module] = d.Constraint.Text
	}
	return out
}

func accessibilityOf(a *model.Accessibility) *fileAccessibility {
	if a == nil {
		return nil
	}
	out := &fileAccessibility{Editions: map[string]fileEdition{}}
	for name, e := range a.Editions {
		out.Editions[name] = fileEdition{Available: e.Available, EnabledInBundles: e.EnabledInBundles}
	}
	return out
}

func clusterOf(c *model.ClusterState) fileCluster {
	out := fileCluster{Deckhouse: model.VersionString(c.Deckhouse), Kubernetes: model.VersionString(c.Kubernetes),
		Edition: c.Edition, Bundle: c.Bundle, ReleaseChannel: c.ReleaseChannel, Platform: versionTexts(c.Platform),
		AllowExperimental: c.AllowExperimentalModules, AllowedExperimental: c.AllowedExperimentalModules}
	if c.KubernetesAutomatic {
		out.KubernetesVersion = "Automatic"
	}
	out.Facts = c.Facts
	for _, name := range c.ModuleNames() {
		s := c.Modules[name]
		if out.Modules == nil {
			out.Modules = map[string]fileModuleState{}
		}
		fs := fileModuleState{Enabled: s.Enabled, Version: model.VersionString(s.Version), Channel: s.Channel, Source: s.Source}
		if s.Settings != nil {
			fs.SettingsVersion, fs.Settings = s.Settings.Version, s.Settings.Values
		}
		out.Modules[name] = fs
	}
	return out
}

func requestOf(r *model.Request) fileRequest {
	out := fileRequest{Enable: r.Enable, Disable: r.Disable, Update: r.Update, UpdateAll: r.UpdateAll,
		Pin: versionTexts(r.Pin), Platform: versionTexts(r.Platform.Components), Strategy: string(r.Strategy),
		AllowDisable: r.AllowDisable, AutoEnable: r.AutoEnable, Sources: r.Sources, Devel: r.Devel}
	for name, v := range map[string]model.Version{model.PlatformDeckhouse: r.Platform.Deckhouse, model.PlatformKubernetes: r.Platform.Kubernetes} {
		if v != nil {
			if out.Platform == nil {
				out.Platform = map[string]string{}
			}
			out.Platform[name] = model.VersionString(v)
		}
	}
	return out
}

// versionTexts renders a map of versions, or nil for an empty one.
func versionTexts(vs map[string]model.Version) map[string]string {
	if len(vs) == 0 {
		return nil
	}
	out := make(map[string]string, len(vs))
	for _, k := range slices.Sorted(maps.Keys(vs)) {
		out[k] = model.VersionString(vs[k])
	}
	return out
}

// stageText writes a stage, leaving General Availability (the default)
// out.
func stageText(s model.Stage) string {
	if s == model.StageGeneralAvailability {
		return ""
	}
	return s.String()
}

func disableOf(d model.Disable) *fileDisable {
	if !d.Confirmation && d.Message == "" {
		return nil
	}
	return &fileDisable{Confirmation: d.Confirmation, Message: d.Message}
}

// filePlatformRelease is one DKP minor's release data (R31).
type filePlatformRelease struct {
	Kubernetes   map[string]string `yaml:"kubernetes"`
	Requirements map[string]string `yaml:"requirements,omitempty"`
}

// releasesOf writes DKP's release data; nil for none.
func releasesOf(pr model.PlatformReleases) map[string]filePlatformRelease {
	if pr == nil {
		return nil
	}
	out := map[string]filePlatformRelease{}
	for minor, r := range pr {
		fr := filePlatformRelease{Kubernetes: map[string]string{}}
		for k, status := range r.Kubernetes {
			fr.Kubernetes[k.String()] = string(status)
		}
		req := map[string]string{}
		if r.Requirements.K8s != (model.MajorMinor{}) {
			req["k8s"] = r.Requirements.K8s.String()
		}
		if r.Requirements.AutoK8sVersion != (model.MajorMinor{}) {
			req["autoK8sVersion"] = r.Requirements.AutoK8sVersion.String()
		}
		if len(r.Requirements.DisabledModules) > 0 {
			req["disabledModules"] = strings.Join(r.Requirements.DisabledModules, ",")
		}
		if len(r.Requirements.MigratedModules) > 0 {
			req["migratedModules"] = strings.Join(r.Requirements.MigratedModules, ",")
		}
		maps.Copy(req, r.Requirements.Other)
		if len(req) > 0 {
			fr.Requirements = req
		}
		out[minor.String()] = fr
	}
	return out
}
