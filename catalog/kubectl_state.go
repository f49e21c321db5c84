package catalog

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// Fact is one thing a cluster state needs that a kubectl dump may not
// say: a dump never holds the Kubernetes version or the edition, and holds
// the DKP version and the bundle only when it has the Deployed
// DeckhouseRelease and the deckhouse ModuleConfig.
type Fact int

// The facts, in the order errors name them.
const (
	FactDeckhouse Fact = iota
	FactKubernetes
	FactEdition
	FactBundle
)

// facts describes each Fact: what it is, and how to tell whether a
// cluster state has it and copy it from one state to another.
var facts = [...]struct {
	what string
	has  func(*model.ClusterState) bool
	copy func(to, from *model.ClusterState)
}{
	FactDeckhouse: {"the DKP version (a dump holds it as the Deployed DeckhouseRelease)",
		func(c *model.ClusterState) bool { return c.Deckhouse != nil },
		func(to, from *model.ClusterState) { to.Deckhouse = from.Deckhouse }},
	FactKubernetes: {"the Kubernetes version (a dump holds it as its Nodes' kubelet version)",
		func(c *model.ClusterState) bool { return c.Kubernetes != nil },
		func(to, from *model.ClusterState) { to.Kubernetes = from.Kubernetes }},
	FactEdition: {"the DKP edition (a dump of DKP's resources does not hold it)",
		func(c *model.ClusterState) bool { return c.Edition != "" },
		func(to, from *model.ClusterState) { to.Edition = from.Edition }},
	FactBundle: {"the bundle (a dump holds it in the deckhouse ModuleConfig)",
		func(c *model.ClusterState) bool { return c.Bundle != "" },
		func(to, from *model.ClusterState) { to.Bundle = from.Bundle }},
}

// Facts lists every Fact.
func Facts() []Fact { return []Fact{FactDeckhouse, FactKubernetes, FactEdition, FactBundle} }

func (f Fact) String() string { return facts[f].what }

// FactNames names, for each Fact, how the caller's user gives it: a flag
// such as "--kubernetes", or a request field such as cluster.kubernetes,
// as a path the gRPC service can render as a field violation.
type FactNames map[Fact]model.Path

// MissingFactError is a fact that neither the dump nor its caller gives.
// It unwraps to model.ErrMissingField.
type MissingFactError struct {
	File string
	Fact Fact
	// Give is how to give it, from the caller's FactNames.
	Give model.Path
}

func (e *MissingFactError) Error() string {
	return fmt.Sprintf("%s: %v: %s is not known; give it with %s", e.File, model.ErrMissingField, e.Fact, e.Give)
}

func (e *MissingFactError) Unwrap() error { return model.ErrMissingField }

// State returns the cluster state of a resolution against cat. given holds
// what the caller's user said beside the dump (flags, request fields):
// each of its platform versions, edition, bundle and release channel that
// is set wins over the dump (D152), its platform components are added, and
// its AllowExperimentalModules is kept; its modules are not read. A fact
// that neither gives is a *MissingFactError naming how to give it; all
// missing facts are reported at once.
//
// A module's source is kept only when cat has several sources (R23): with
// one catalog there is nothing to choose, and DKP names a source for every
// module it installed from one (D153).
func (d *KubectlDump) State(cat *model.Catalog, given *model.ClusterState, names FactNames) (*model.ClusterState, error) {
	c := d.Cluster.Clone()
	if given != nil {
		ApplyFacts(c, given)
		if given.ReleaseChannel != "" {
			c.ReleaseChannel = given.ReleaseChannel
		}
		c.Platform = given.Platform
		c.AllowExperimentalModules = given.AllowExperimentalModules || c.AllowExperimentalModules
		if len(given.AllowedExperimentalModules) > 0 {
			c.AllowedExperimentalModules = given.AllowedExperimentalModules
		}
		c.KubernetesAutomatic = given.KubernetesAutomatic || c.KubernetesAutomatic
		if len(given.Facts) > 0 { // what the user says of the live cluster wins
			c.Facts = maps.Clone(c.Facts)
			if c.Facts == nil {
				c.Facts = map[string]string{}
			}
			maps.Copy(c.Facts, given.Facts)
		}
	}
	d.applyObserved(cat, c)
	var errs model.InputErrors
	for _, f := range Facts() {
		if !facts[f].has(c) {
			errs = append(errs, &MissingFactError{File: d.file, Fact: f, Give: names[f]})
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if len(cat.Sources()) > 0 {
		for _, name := range slices.Sorted(maps.Keys(d.Sources)) {
			if s, ok := c.Modules[name]; ok && s.On() {
				s.Source = d.Sources[name]
				c.Modules[name] = s
			}
		}
	}
	return c, nil
}

// applyObserved lets a built-in module's Module object outrank the
// bundle's default (D391): where DKP runs a module that the cluster state
// would read as off, or does not run one it would read as on by default
// (its enabled script decided, or a ModuleConfig the dump lacks), the
// module is read as enabled or disabled in the cluster.
func (d *KubectlDump) applyObserved(cat *model.Catalog, c *model.ClusterState) {
	for _, name := range slices.Sorted(maps.Keys(d.Observed)) {
		m := cat.Module(name)
		if m == nil || !(m.Embedded || m.BuiltInSource() != "") {
			continue // a module from a source runs by its releases
		}
		on := d.Observed[name]
		if _, runs := c.Deployed(m); runs == on {
			continue
		}
		st := c.Modules[name]
		st.Enabled = &on
		c.Modules[name] = st
		verb := "does not run"
		if on {
			verb = "runs"
		}
		d.warn("module %s: its Module object says DKP %s it, against the bundle's default; it is read as enabled: %v", name, verb, on)
	}
}

// ApplyFacts sets on c each Fact that given sets: what a user gives beside
// a cluster state wins over what the state says.
func ApplyFacts(c, given *model.ClusterState) {
	for _, f := range Facts() {
		if facts[f].has(given) {
			facts[f].copy(c, given)
		}
	}
}

// LoadClusterOrDump reads a cluster state file in either form: modsolver's
// own (a *model.ClusterState) or a kubectl dump of DKP's resources (a
// *KubectlDump), told apart by IsKubectlDump. Exactly one result is set
// when the error is nil.
func LoadClusterOrDump(path string) (*model.ClusterState, *KubectlDump, error) {
	data, err := readInput("cluster state", path)
	if err != nil {
		return nil, nil, err
	}
	return ParseClusterOrDump(path, data)
}

// ParseClusterOrDump reads a cluster state named name (a file, or
// "standard input") in either form, as LoadClusterOrDump does.
func ParseClusterOrDump(path string, data []byte) (*model.ClusterState, *KubectlDump, error) {
	if IsKubectlDump(data) {
		d, err := ParseKubectl(path, data)
		return nil, d, err
	}
	c, err := ParseCluster(path, data)
	return c, nil, err
}

// KubectlParser returns a reader of kubectl dumps for a service whose
// requests carry one beside the other fields of a cluster state: it reads
// the dump and returns its State, with each problem a *model.FieldError:
// a missing fact under the field names gives for it, any other under the
// field the dump came from.
func KubectlParser(names FactNames) func(field model.Path, data []byte, given *model.ClusterState, cat *model.Catalog) (*model.ClusterState, error) {
	return func(field model.Path, data []byte, given *model.ClusterState, cat *model.Catalog) (*model.ClusterState, error) {
		d, err := ParseKubectl(field.String(), data)
		if err != nil {
			return nil, &model.FieldError{Path: field, Err: err}
		}
		c, err := d.State(cat, given, names)
		if err == nil {
			return c, nil
		}
		problems, ok := err.(model.InputErrors)
		if !ok {
			problems = model.InputErrors{err}
		}
		out := make(model.InputErrors, len(problems))
		for i, e := range problems {
			out[i] = &model.FieldError{Path: field, Err: e}
			var mf *MissingFactError
			if errors.As(e, &mf) {
				out[i] = &model.FieldError{Path: mf.Give, Err: e}
			}
		}
		return nil, out.Err()
	}
}
