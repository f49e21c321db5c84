package catalog

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// The readers of each kind of DKP resource, and how what they read
// becomes a KubectlDump. Each file struct holds only the keys modsolver
// reads (D151).

// placedText is a string value with its line, for an error about what
// the text means rather than about its YAML type.
type placedText struct {
	Text string
	Line int
}

func (p *placedText) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want a string, not a %s", n.Line, nodeKindName(n))
	}
	p.Text, p.Line = n.Value, n.Line
	return nil
}

func nodeKindName(n *yaml.Node) string {
	if n.Kind == yaml.SequenceNode {
		return "list"
	}
	return "mapping"
}

// kubeModuleConfig is a ModuleConfig: the operator's configuration of one
// module, named by metadata.name.
type kubeModuleConfig struct {
	Spec struct {
		Enabled      *bool  `yaml:"enabled"`
		UpdatePolicy string `yaml:"updatePolicy"`
		Source       string `yaml:"source"`
		// Settings are the module's settings (R34); the deckhouse
		// ModuleConfig's also say the cluster's bundle and channel.
		Settings yaml.Node `yaml:"settings"`
		// Version is the settings version the settings are written for.
		Version yaml.Node `yaml:"version"`
	} `yaml:"spec"`
}

// kubeDeckhouseSettings are the deckhouse ModuleConfig's settings that
// say the cluster's bundle and release channel.
type kubeDeckhouseSettings struct {
	Bundle         string     `yaml:"bundle"`
	ReleaseChannel placedText `yaml:"releaseChannel"`
	// AllowExperimentalModules and AllowedExperimentalModules say which
	// modules may run an Experimental release (R25).
	AllowExperimentalModules   bool     `yaml:"allowExperimentalModules"`
	AllowedExperimentalModules []string `yaml:"allowedExperimentalModules"`
}

// kubeModule is a Module (v1alpha1): DKP's view of one module. Its
// EnabledByModuleManager condition says whether DKP runs it, after the
// bundle, the ModuleConfig and the module's own enabled script.
type kubeModule struct {
	Properties struct {
		Source  string     `yaml:"source"`
		Version placedText `yaml:"version"`
	} `yaml:"properties"`
	Status struct {
		Phase      string `yaml:"phase"`
		Conditions []struct {
			Type   string `yaml:"type"`
			Status string `yaml:"status"`
		} `yaml:"conditions"`
	} `yaml:"status"`
}

// conditionEnabled is the Module condition that says DKP runs it.
const conditionEnabled = "EnabledByModuleManager"

// enabled is what the Module's EnabledByModuleManager condition says;
// false for known when it has none, or its status is neither True nor
// False.
func (m *kubeModule) enabled() (on, known bool) {
	for _, c := range m.Status.Conditions {
		if c.Type == conditionEnabled && (c.Status == "True" || c.Status == "False") {
			return c.Status == "True", true
		}
	}
	return false, false
}

// kubeModuleRelease is a ModuleRelease: one release of a module from a
// source, Deployed when it runs.
type kubeModuleRelease struct {
	Spec struct {
		ModuleName string     `yaml:"moduleName"`
		Version    placedText `yaml:"version"`
	} `yaml:"spec"`
	Status struct {
		Phase string `yaml:"phase"`
	} `yaml:"status"`
}

// kubeModuleSource is a ModuleSource; its status lists its modules with
// the update policy each follows.
type kubeModuleSource struct {
	Status struct {
		Modules []struct {
			Name   string `yaml:"name"`
			Policy string `yaml:"policy"`
		} `yaml:"modules"`
	} `yaml:"status"`
}

// kubeUpdatePolicy is a ModuleUpdatePolicy: a release channel, bound to
// modules by their ModuleConfig's spec.updatePolicy (v1alpha2) or by a
// label selector over ModuleReleases (v1alpha1).
type kubeUpdatePolicy struct {
	Spec struct {
		ReleaseChannel        placedText `yaml:"releaseChannel"`
		ModuleReleaseSelector struct {
			LabelSelector struct {
				MatchLabels map[string]string `yaml:"matchLabels"`
			} `yaml:"labelSelector"`
		} `yaml:"moduleReleaseSelector"`
	} `yaml:"spec"`
}

// kubeDeckhouseRelease is a DeckhouseRelease; the Deployed one is the DKP
// version the cluster runs.
type kubeDeckhouseRelease struct {
	Spec struct {
		Version placedText `yaml:"version"`
	} `yaml:"spec"`
	Status struct {
		Phase string `yaml:"phase"`
	} `yaml:"status"`
}

// DKP's names of its own things.
const (
	phaseDeployed     = "Deployed"
	moduleReady       = "Ready"
	sourceEmbedded    = "Embedded" // Module properties.source of a built-in module
	globalConfig      = "global"   // the ModuleConfig of global settings, not a module
	deckhouseConfig   = "deckhouse"
	labelSource       = "source"
	labelModule       = "module"
	labelUpdatePolicy = "modules.deckhouse.io/update-policy"
	// defaultBundle is the bundle DKP runs when the deckhouse ModuleConfig
	// names none.
	defaultBundle = "Default"
)

// kubeChannels maps DKP's release channel names, as ModuleUpdatePolicy and
// the deckhouse ModuleConfig spell them, to modsolver's (R10).
var kubeChannels = map[string]string{
	"Alpha":       "alpha",
	"Beta":        "beta",
	"EarlyAccess": "early-access",
	"Stable":      "stable",
	"RockSolid":   "rock-solid",
}

// channelOf reads a DKP channel name; modsolver's own spelling is accepted
// too.
func (r *dumpReader) channelOf(p placedText) (string, error) {
	if ch, ok := kubeChannels[p.Text]; ok {
		return ch, nil
	}
	if model.IsChannel(p.Text) {
		return p.Text, nil
	}
	return "", &ParseError{File: r.file, Line: p.Line, Err: fmt.Errorf("%w: unknown release channel %q (want one of Alpha, Beta, EarlyAccess, Stable, RockSolid)", model.ErrInvalidValue, p.Text)}
}

// versionOf reads a DKP version such as "v1.4.3".
func (r *dumpReader) versionOf(p placedText) (model.Version, error) {
	v, err := model.ParseVersion(p.Text)
	if err != nil {
		return nil, &ParseError{File: r.file, Line: p.Line, Err: err}
	}
	return v, nil
}

// dumpReader gathers what the resources of a dump say, in any order, and
// finish puts it together.
type dumpReader struct {
	file string
	dump *KubectlDump
	// read counts the resources read (kubeKinds), the others being
	// skipped.
	read int
	// live gathers what the objects of the live cluster say (R32).
	live liveObjects

	configs  map[string]*kubeModuleConfig
	settings map[string]*model.Settings // of the ModuleConfigs that give them (R34)
	modules  map[string]*kubeModule
	deployed map[string]deployedRelease
	// origins are the objects the cluster's fields were read from.
	origins map[string]model.Origin
	// sources are the ModuleSources' names; sourcePolicy the policy a
	// ModuleSource's status gives each of its modules.
	sources      map[string]bool
	sourcePolicy map[string]string
	policies     map[string]updatePolicy
	deckhouse    model.Version
	// deckhouseSettings is set when the dump holds the deckhouse
	// ModuleConfig.
	deckhouseSettings *kubeDeckhouseSettings
}

type deployedRelease struct {
	version model.Version
	labels  map[string]string
	line    int
}

type updatePolicy struct {
	channel string
	// selector is a v1alpha1 policy's label selector over ModuleReleases.
	selector map[string]string
}

func newDumpReader(file string) *dumpReader {
	return &dumpReader{
		file:         file,
		dump:         &KubectlDump{Sources: map[string]string{}, Observed: map[string]bool{}, Skipped: map[string]int{}, file: file},
		configs:      map[string]*kubeModuleConfig{},
		settings:     map[string]*model.Settings{},
		modules:      map[string]*kubeModule{},
		deployed:     map[string]deployedRelease{},
		sources:      map[string]bool{},
		sourcePolicy: map[string]string{},
		policies:     map[string]updatePolicy{},
		origins:      map[string]model.Origin{},
	}
}

func (r *dumpReader) moduleConfig(node *yaml.Node, meta kubeMeta) error {
	var mc kubeModuleConfig
	if err := decode(r.file, node, &mc); err != nil {
		return err
	}
	if meta.Name == deckhouseConfig {
		r.deckhouseSettings = &kubeDeckhouseSettings{}
		if !mc.Spec.Settings.IsZero() {
			if err := decode(r.file, &mc.Spec.Settings, r.deckhouseSettings); err != nil {
				return err
			}
		}
	}
	if meta.Name == globalConfig {
		return nil
	}
	r.configs[meta.Name] = &mc
	r.origins[model.Field("cluster", "modules", meta.Name, "enabled").String()] = model.Origin{Object: "ModuleConfig/" + meta.Name, Line: node.Line}
	settings, err := r.settingsOf(meta.Name, &mc)
	if err != nil {
		return err
	}
	if settings != nil {
		r.settings[meta.Name] = settings
	}
	return nil
}

// settingsOf reads a ModuleConfig's spec.settings and the settings
// version spec.version gives them (R34); nil when it has no settings.
func (r *dumpReader) settingsOf(name string, mc *kubeModuleConfig) (*model.Settings, error) {
	version, err := r.settingsVersion(name, &mc.Spec.Version)
	if err != nil {
		return nil, err
	}
	n := resolveAlias(&mc.Spec.Settings)
	if n.IsZero() || isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, r.errAt(n, model.ErrInvalidValue, "ModuleConfig %s: spec.settings is %s, not a mapping", name, describeNode(n))
	}
	var raw any // not a map[string]any, which would take any key as a string
	if err := decode(r.file, n, &raw); err != nil {
		return nil, err
	}
	value, err := jsonValue("spec.settings", raw)
	if err != nil {
		return nil, r.errAt(n, model.ErrInvalidValue, "ModuleConfig %s: %v", name, err)
	}
	values, ok := value.(map[string]any)
	if !ok {
		return nil, r.errAt(n, model.ErrInvalidValue, "ModuleConfig %s: spec.settings is not a mapping", name)
	}
	s, err := model.NewSettings(version, values)
	if err != nil {
		return nil, &ParseError{File: r.file, Line: n.Line, Err: fmt.Errorf("ModuleConfig %s: %w", name, err)}
	}
	return s, nil
}

// settingsVersion reads a ModuleConfig's spec.version, a whole number of
// 0 or more; 0 when not given.
func (r *dumpReader) settingsVersion(name string, n *yaml.Node) (int, error) {
	n = resolveAlias(n)
	if n.IsZero() || isNull(n) {
		return 0, nil
	}
	var v int
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&v) != nil || v < 0 {
		return 0, r.errAt(n, model.ErrInvalidValue, "ModuleConfig %s: spec.version is %s, not a settings version (a whole number of 0 or more)", name, describeNode(n))
	}
	return v, nil
}

// describeNode names a value in an error: a scalar by its text, anything
// else by its kind.
func describeNode(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return strconv.Quote(n.Value)
	}
	return "a " + nodeKindName(n)
}

// jsonValue gives a value YAML decoded the shape encoding/json would give
// it, which settings are made of: mappings keyed by strings, numbers as
// float64. A key that is not a string, or a number or value JSON cannot
// hold, is an error at path.
func jsonValue(path string, v any) (any, error) {
	switch v := v.(type) {
	case nil, bool, string:
		return v, nil
	case int:
		return float64(v), nil
	case int64:
		return float64(v), nil
	case uint64:
		return float64(v), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s: %v is not a JSON number", path, v)
		}
		return v, nil
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			e, err := jsonValue(path+"."+k, v[k])
			if err != nil {
				return nil, err
			}
			v[k] = e
		}
		return v, nil
	case map[any]any:
		m := make(map[string]any, len(v))
		var bad []string // named in order, so that the error is the same each time
		for k, e := range v {
			if ks, ok := k.(string); ok {
				m[ks] = e
				continue
			}
			bad = append(bad, fmt.Sprint(k))
		}
		if len(bad) > 0 {
			return nil, fmt.Errorf("%s: key %s is not a string", path, slices.Min(bad))
		}
		return jsonValue(path, m)
	case []any:
		for i, e := range v {
			j, err := jsonValue(path+"["+strconv.Itoa(i)+"]", e)
			if err != nil {
				return nil, err
			}
			v[i] = j
		}
		return v, nil
	}
	return nil, fmt.Errorf("%s: a %T is not a JSON value", path, v)
}

func (r *dumpReader) module(node *yaml.Node, meta kubeMeta) error {
	var m kubeModule
	if err := decode(r.file, node, &m); err != nil {
		return err
	}
	r.modules[meta.Name] = &m
	return nil
}

func (r *dumpReader) moduleRelease(node *yaml.Node, meta kubeMeta) error {
	var mr kubeModuleRelease
	if err := decode(r.file, node, &mr); err != nil {
		return err
	}
	if mr.Status.Phase != phaseDeployed {
		return nil // Pending, Superseded and the rest do not run
	}
	name := mr.Spec.ModuleName
	if name == "" {
		return r.errAt(node, model.ErrMissingField, "ModuleRelease %s has no spec.moduleName", meta.Name)
	}
	v, err := r.versionOf(mr.Spec.Version)
	if err != nil {
		return err
	}
	if prev, dup := r.deployed[name]; dup {
		return r.errAt(node, model.ErrDuplicate, "module %s has two Deployed ModuleReleases, %s (line %d) and %s", name, prev.version, prev.line, v)
	}
	r.deployed[name] = deployedRelease{version: v, labels: meta.Labels, line: node.Line}
	r.origins[model.Field("cluster", "modules", name, "version").String()] = model.Origin{Object: "ModuleRelease/" + meta.Name, Line: node.Line}
	return nil
}

func (r *dumpReader) moduleSource(node *yaml.Node, meta kubeMeta) error {
	var ms kubeModuleSource
	if err := decode(r.file, node, &ms); err != nil {
		return err
	}
	r.sources[meta.Name] = true
	for _, m := range ms.Status.Modules {
		if m.Policy != "" {
			r.sourcePolicy[m.Name] = m.Policy
		}
	}
	return nil
}

func (r *dumpReader) updatePolicy(node *yaml.Node, meta kubeMeta) error {
	var up kubeUpdatePolicy
	if err := decode(r.file, node, &up); err != nil {
		return err
	}
	p := updatePolicy{selector: up.Spec.ModuleReleaseSelector.LabelSelector.MatchLabels}
	if up.Spec.ReleaseChannel.Text != "" {
		ch, err := r.channelOf(up.Spec.ReleaseChannel)
		if err != nil {
			return err
		}
		p.channel = ch
	}
	r.policies[meta.Name] = p
	return nil
}

func (r *dumpReader) deckhouseRelease(node *yaml.Node, meta kubeMeta) error {
	var dr kubeDeckhouseRelease
	if err := decode(r.file, node, &dr); err != nil {
		return err
	}
	if dr.Status.Phase != phaseDeployed {
		return nil
	}
	v, err := r.versionOf(dr.Spec.Version)
	if err != nil {
		return err
	}
	if r.deckhouse != nil {
		return r.errAt(node, model.ErrDuplicate, "two Deployed DeckhouseReleases, %s and %s (%s)", r.deckhouse, v, meta.Name)
	}
	r.deckhouse = v
	return nil
}

// finish puts together what the resources said.
func (r *dumpReader) finish() (*KubectlDump, error) {
	c := &model.ClusterState{Deckhouse: r.deckhouse, Modules: map[string]model.ModuleState{}}
	if s := r.deckhouseSettings; s != nil {
		c.AllowExperimentalModules, c.AllowedExperimentalModules = s.AllowExperimentalModules, s.AllowedExperimentalModules
		c.Bundle = s.Bundle
		if c.Bundle == "" {
			c.Bundle = defaultBundle
		}
		if s.ReleaseChannel.Text != "" {
			ch, err := r.channelOf(s.ReleaseChannel)
			if err != nil {
				return nil, err
			}
			c.ReleaseChannel = ch
		}
	}
	names := slices.Collect(maps.Keys(r.configs))
	for name := range r.deployed {
		if r.configs[name] == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names) // warnings come in module order
	for _, name := range names {
		c.Modules[name] = r.moduleState(name)
	}
	for _, name := range slices.Sorted(maps.Keys(r.modules)) {
		if on, known := r.modules[name].enabled(); known && r.configs[name] == nil {
			r.dump.Observed[name] = on
		}
	}
	r.live.finish(r.dump, c)
	for field, o := range r.origins {
		if c.Origins == nil {
			c.Origins = map[string]model.Origin{}
		}
		o.Field = field
		c.Origins[field] = o
	}
	r.dump.Cluster = c
	return r.dump, nil
}

// moduleState is what the dump says of one module: enabled and set by
// its ModuleConfig, running its Deployed release (or, with none in the dump,
// the version its Ready Module shows), from its source, on its update
// policy's channel.
func (r *dumpReader) moduleState(name string) model.ModuleState {
	s := model.ModuleState{}
	mc := r.configs[name]
	if mc != nil {
		s.Enabled = mc.Spec.Enabled
		s.Settings = r.settings[name]
	}
	source := r.sourceOf(name)
	if source != "" {
		r.dump.Sources[name] = source
		if len(r.sources) > 0 && !r.sources[source] {
			r.dump.warn("module %s comes from source %s, which the dump holds no ModuleSource for", name, source)
		}
	}
	v := r.runningVersion(name, source)
	switch {
	case v != nil && s.On():
		s.Version = v
	case v != nil:
		r.dump.warn("module %s runs %s, but no ModuleConfig enables it; it is read as not running", name, v)
	}
	s.Channel = r.channelOfModule(name, source)
	return s
}

// sourceOf is the source a module came from: its Deployed release's
// label, its Module's properties.source, or its ModuleConfig's
// spec.source.
func (r *dumpReader) sourceOf(name string) string {
	if d, ok := r.deployed[name]; ok && d.labels[labelSource] != "" {
		return d.labels[labelSource]
	}
	if m := r.modules[name]; m != nil && m.Properties.Source != "" && m.Properties.Source != sourceEmbedded {
		return m.Properties.Source
	}
	if mc := r.configs[name]; mc != nil {
		return mc.Spec.Source
	}
	return ""
}

// runningVersion is the Deployed release's version, or a Ready Module's
// from a source when the dump holds no release of it. A built-in module
// has none: it runs at the DKP version (R5).
func (r *dumpReader) runningVersion(name, source string) model.Version {
	if d, ok := r.deployed[name]; ok {
		return d.version
	}
	m := r.modules[name]
	if m == nil || source == "" || m.Status.Phase != moduleReady || m.Properties.Version.Text == "" {
		return nil
	}
	v, err := model.ParseVersion(m.Properties.Version.Text)
	if err != nil {
		r.dump.warn("module %s: properties.version %q is not a version; it is read as not running", name, m.Properties.Version.Text)
		return nil
	}
	return v
}

// channelOfModule is the channel of the update policy a module follows:
// the one its ModuleConfig names, its Deployed release's label names, its
// ModuleSource's status names, or a v1alpha1 policy whose selector matches
// it. "" follows the cluster's channel.
func (r *dumpReader) channelOfModule(name, source string) string {
	policy := ""
	if mc := r.configs[name]; mc != nil {
		policy = mc.Spec.UpdatePolicy
	}
	if d, ok := r.deployed[name]; ok && policy == "" {
		policy = d.labels[labelUpdatePolicy]
	}
	if policy == "" {
		policy = r.sourcePolicy[name]
	}
	if policy == "" {
		policy = r.selectingPolicy(name, source)
	}
	if policy == "" {
		return ""
	}
	p, ok := r.policies[policy]
	if !ok {
		r.dump.warn("module %s follows update policy %s, which the dump does not hold; it follows the cluster's channel", name, policy)
	}
	return p.channel
}

// selectingPolicy is the v1alpha1 policy whose label selector matches the
// module's labels, module and source; "" when none or several do.
func (r *dumpReader) selectingPolicy(name, source string) string {
	labels := map[string]string{labelModule: name, labelSource: source}
	var found []string
	for _, pname := range slices.Sorted(maps.Keys(r.policies)) {
		sel := r.policies[pname].selector
		if len(sel) > 0 && matches(sel, labels) {
			found = append(found, pname)
		}
	}
	if len(found) > 1 {
		r.dump.warn("module %s is selected by several update policies (%v), so DKP does not update it; it follows the cluster's channel", name, found)
		return ""
	}
	if len(found) == 1 {
		return found[0]
	}
	return ""
}

func matches(selector, labels map[string]string) bool {
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func (d *KubectlDump) warn(format string, args ...any) {
	d.Warnings = append(d.Warnings, fmt.Sprintf(format, args...))
}
