package model

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ClusterState is what the cluster runs now.
type ClusterState struct {
	Deckhouse  Version
	Kubernetes Version
	Edition    string
	Bundle     string
	// ReleaseChannel is the default channel of every module (R10).
	ReleaseChannel string
	Modules        map[string]ModuleState
	// Platform holds the versions of platform components other than DKP
	// and Kubernetes, such as openshift, by name (R22).
	Platform map[string]Version
	// AllowExperimentalModules lets Experimental releases be selected
	// (R25), as DKP's setting of that name does.
	AllowExperimentalModules bool
	// AllowedExperimentalModules lets the Experimental releases of the
	// modules it names be selected, as DKP's allowedExperimentalModules
	// does; names the catalog does not have are ignored (D393).
	AllowedExperimentalModules []string
	// KubernetesAutomatic: the cluster follows DKP's default Kubernetes
	// version (kubernetesVersion: Automatic), so a DKP release's
	// autoK8sVersion applies to it (R31).
	KubernetesAutomatic bool
	// Facts are what the live cluster says that the gates of DKP's
	// releases need (R32), named as DKP names them; values as text, a list
	// joined by commas.
	Facts map[string]string
	// Origins say, by a field's path (cluster.modules.csi-ceph.enabled),
	// where a field read from Kubernetes objects came from: the object
	// and its line in the dump. Nil for a cluster state in modsolver's
	// form, whose fields are where their paths say.
	Origins map[string]Origin
}

// The names of the two platform components every cluster has.
const (
	PlatformDeckhouse  = "deckhouse"
	PlatformKubernetes = "kubernetes"
)

// ModuleState is the cluster's configuration of one module. A module the
// cluster does not list follows its bundle default (R8).
type ModuleState struct {
	// Enabled is the operator's intent; nil means "not configured".
	Enabled *bool
	// Version is the deployed version; nil when nothing is deployed.
	Version Version
	// Channel overrides the cluster's release channel for this module.
	Channel string
	// Source is the source the deployed release came from, with several
	// sources (R23); "" lets the resolver infer it (D75).
	Source string
	// Settings are the module's ModuleConfig settings (R34); nil when the
	// cluster state gives none, and then no schema is checked.
	Settings *Settings
}

// Configured reports whether the operator set enabled: true or false.
func (s ModuleState) Configured() bool { return s.Enabled != nil }

// On reports whether the operator set enabled: true.
func (s ModuleState) On() bool { return s.Enabled != nil && *s.Enabled }

// Off reports whether the operator set enabled: false.
func (s ModuleState) Off() bool { return s.Enabled != nil && !*s.Enabled }

// ModuleNames returns the names the cluster configures, sorted.
func (c *ClusterState) ModuleNames() []string {
	return slices.Sorted(maps.Keys(c.Modules))
}

// Validate checks the cluster state against the catalog: versions are set
// (the DKP version only where the catalog needs one), the edition and
// bundle are ones the catalog's platform data lists, and every enabled
// module exists. A deployed version the catalog does not
// list (catalogs prune old tags) is not an error: it is answered, with a
// warning (D73). An edition or bundle the data lists in another case is
// spelled as the data spells it, in c itself (D351): Validate is where
// every entry point meets the catalog, so it is read once, there; it
// writes only a value spelled otherwise.
func (c *ClusterState) Validate(cat *Catalog) error {
	var errs InputErrors
	if c.Deckhouse == nil && cat.NeedsDeckhouse() {
		errs = append(errs, fieldErr(Field("cluster", "deckhouse"), ErrMissingField, "the DKP version is required: the catalog has built-in modules or DKP requirements"))
	}
	if c.Kubernetes == nil {
		errs = append(errs, fieldErr(Field("cluster", "kubernetes"), ErrMissingField, "the Kubernetes version is required"))
	}
	if c.ReleaseChannel != "" && !IsChannel(c.ReleaseChannel) {
		errs = append(errs, fieldErr(Field("cluster", "releaseChannel"), ErrInvalidValue, "unknown channel %q (want one of %s)", c.ReleaseChannel, strings.Join(Channels, ", ")))
	}
	errs = append(errs, c.validateNames(cat)...)
	errs = append(errs, validateComponents(Field("cluster", "platform"), c.Platform)...)
	for _, name := range c.ModuleNames() {
		errs = append(errs, c.validateModule(cat, name)...)
		errs = append(errs, c.validateSource(cat, name)...)
	}
	return errs.Err()
}

func (c *ClusterState) validateModule(cat *Catalog, name string) InputErrors {
	var errs InputErrors
	s := c.Modules[name]
	// The path is made only for an error: a cluster is validated on
	// every request, and most modules have none.
	field := func() Path { return Field("cluster", "modules").Key(name) }
	m := cat.Module(name)
	if s.Channel != "" && !IsChannel(s.Channel) && (m == nil || m.Channels[s.Channel] == nil) {
		errs = append(errs, fieldErr(field().Field("channel"), ErrInvalidValue, "unknown channel %q (want one of %s, or a channel of the module)", s.Channel, strings.Join(Channels, ", ")))
	}
	switch {
	case m == nil && (s.On() || s.Version != nil):
		errs = append(errs, fieldErr(field(), ErrUnknownModule, "module %s is enabled in the cluster, but the catalog has no module %s", name, name))
	case m == nil:
		// A disabled module the catalog does not know is harmless.
	case s.Off() && s.Version != nil:
		errs = append(errs, fieldErr(field().Field("version"), ErrInvalidValue, "module %s is disabled, so it cannot have a deployed version", name))
	case s.Version != nil && s.Enabled == nil:
		errs = append(errs, fieldErr(field().Field("enabled"), ErrMissingField, "module %s has a deployed version; say enabled: true", name))
	}
	return errs
}

// releaseList renders a module's versions for messages, shortened when long.
func releaseList(m *Module) string {
	const most = 8
	vs := make([]string, 0, most+1)
	for i, r := range m.Releases {
		if len(m.Releases) > most && i == most/2 {
			vs = append(vs, "…")
		}
		if len(m.Releases) <= most || i < most/2 || i >= len(m.Releases)-most/2 {
			vs = append(vs, r.Version.String())
		}
	}
	if len(vs) == 0 {
		return "none"
	}
	return strings.Join(vs, ", ")
}

// Deployed returns the version of name the cluster runs now, and whether it
// runs at all. A built-in module runs at the DKP version (R5).
func (c *ClusterState) Deployed(m *Module) (Version, bool) {
	s := c.Modules[m.Name]
	if m.Embedded {
		return c.Deckhouse, s.On() || (!s.Configured() && c.RunsByDefault(m))
	}
	if b := m.BuiltInSource(); b != "" && c.DeployedSource(m) == b {
		return c.Deckhouse, s.On() || (!s.Configured() && c.RunsByDefault(m.ForSource(b))) // R29: it runs built in
	}
	if !s.On() || s.Version == nil {
		return nil, false
	}
	return s.Version, true
}

// RunsByDefault reports whether DKP runs built-in module m without the
// cluster configuring it: m is available in the cluster's edition, its
// accessibility enables it in the cluster's bundle (R7), and its stage
// lets it run (R25). Such a module runs at the DKP version before any
// request (R8, D128), so an answer keeps it rather than installing it.
func (c *ClusterState) RunsByDefault(m *Module) bool {
	if !m.Embedded || c.Bundle == "" || (m.Stage == StageExperimental && !c.ExperimentalAllowed(m.Name)) {
		return false
	}
	available, bundles := m.Accessibility.For(c.Edition)
	return available && slices.Contains(bundles, c.Bundle)
}

// ChannelOf returns the channel module name follows: its own, or the
// cluster's default (R10). It is "" when neither is set.
func (c *ClusterState) ChannelOf(name string) string {
	if ch := c.Modules[name].Channel; ch != "" {
		return ch
	}
	return c.ReleaseChannel
}

// String names the platform versions, for logs.
func (c *ClusterState) String() string {
	return fmt.Sprintf("cluster(deckhouse %s, kubernetes %s, %d modules)", VersionString(c.Deckhouse), VersionString(c.Kubernetes), len(c.Modules))
}

// Clone returns a copy that shares no maps with c.
// ExperimentalAllowed reports whether the cluster lets module name run
// an Experimental release (R25): every module when it allows experimental
// modules, else the modules it names.
func (c *ClusterState) ExperimentalAllowed(name string) bool {
	return c.AllowExperimentalModules || slices.Contains(c.AllowedExperimentalModules, name)
}

func (c *ClusterState) Clone() *ClusterState {
	out := *c
	out.AllowedExperimentalModules = slices.Clone(c.AllowedExperimentalModules)
	out.Modules = maps.Clone(c.Modules)
	if out.Modules == nil {
		out.Modules = map[string]ModuleState{}
	}
	out.Platform = maps.Clone(c.Platform)
	out.Origins = maps.Clone(c.Origins)
	return &out
}

// validateComponents checks a map of platform component versions.
func validateComponents(field Path, components map[string]Version) InputErrors {
	var errs InputErrors
	for _, name := range slices.Sorted(maps.Keys(components)) {
		switch {
		case name == "" || name == PlatformDeckhouse || name == PlatformKubernetes:
			errs = append(errs, fieldErr(field, ErrInvalidValue, "platform component %q: DKP and Kubernetes have fields of their own", name))
		case components[name] == nil:
			errs = append(errs, fieldErr(field.Key(name), ErrMissingField, "platform component %s has no version", name))
		}
	}
	return errs
}
