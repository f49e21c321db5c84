package model

import (
	"maps"
	"slices"
)

// Strategy chooses how far one resolution may move a module (R11).
type Strategy string

const (
	// StrategySequential allows one DKP update step at a time (the default).
	StrategySequential Strategy = "sequential"
	// StrategyDirect allows any release between the deployed one and the head.
	StrategyDirect Strategy = "direct"
)

// Request is what the operator asks for.
type Request struct {
	Enable  []string
	Disable []string
	// Update lists the modules allowed to change version.
	Update []string
	// UpdateAll puts every enabled module in the update set.
	UpdateAll bool
	// Pin fixes a module at one version, and may go below the deployed one.
	Pin map[string]Version
	// Platform holds candidate versions for a platform upgrade (R12).
	Platform Platform
	Strategy Strategy
	// AllowDisable lets the resolver disable enabled modules, as few as
	// possible, to reach a consistent answer.
	AllowDisable bool
	// AutoEnable lets the resolver enable a module the cluster does not
	// configure when a selected release requires it.
	AutoEnable bool
	// Report chooses which modules the answer lists; "" is ReportAll.
	Report Report
	// Sources fixes the source a module must come from (R23): a move when
	// the module is deployed from another one.
	Sources map[string]string
	// Devel makes every range admit prereleases and every prerelease
	// selectable, as Helm's --devel does (R6).
	Devel bool
}

// Platform holds candidate platform versions; nil means "as now".
type Platform struct {
	Deckhouse  Version
	Kubernetes Version
	// Components holds candidate versions of other platform components,
	// such as openshift (R22), by name.
	Components map[string]Version
}

// PinnedNames returns the pinned modules, sorted.
func (r *Request) PinnedNames() []string {
	return slices.Sorted(maps.Keys(r.Pin))
}

// Validate checks the request against the catalog and the cluster state:
// every module exists, nothing is asked twice or both ways, and a pin names
// a real release.
func (r *Request) Validate(cat *Catalog, cluster *ClusterState) error {
	errs := r.validateAlone(cat)
	errs = append(errs, r.validateIntoPlatform(cat, cluster)...)
	errs = append(errs, validateComponents(Field("request", "platform"), r.Platform.Components)...)
	for _, name := range slices.Sorted(maps.Keys(r.Platform.Components)) {
		if _, runs := cluster.Platform[name]; !runs {
			errs = append(errs, fieldErr(Field("request", "platform").Key(name), ErrInvalidValue, "platform component %s: the cluster state does not declare it (set cluster.platform.%s)", name, name))
		}
	}
	return errs.Err()
}

// ValidateAlone makes the checks of Validate that read the catalog alone,
// not the cluster state: for a request whose cluster state is itself bad
// input, so that each bad field of the two is reported at once, and
// none of the request's for want of a cluster (D413).
func (r *Request) ValidateAlone(cat *Catalog) error {
	return r.validateAlone(cat).Err()
}

func (r *Request) validateAlone(cat *Catalog) InputErrors {
	var errs InputErrors
	switch r.Strategy {
	case "", StrategySequential, StrategyDirect:
	default:
		errs = append(errs, fieldErr(Field("request", "strategy"), ErrInvalidValue, "unknown strategy %q (want sequential or direct)", r.Strategy))
	}
	errs = append(errs, r.validateReport()...)
	lists := []struct {
		field Path
		names []string
	}{{Field("request", "enable"), r.Enable}, {Field("request", "disable"), r.Disable}, {Field("request", "update"), r.Update}}
	for _, l := range lists {
		errs = append(errs, checkNames(cat, l.field, l.names)...)
	}
	for _, name := range r.Enable {
		if slices.Contains(r.Disable, name) {
			errs = append(errs, fieldErr(Field("request", "disable"), ErrConflict, "module %s is both enabled and disabled by the request", name))
		}
	}
	for _, name := range r.PinnedNames() {
		errs = append(errs, r.validatePin(cat, name)...)
	}
	return append(errs, r.validateSources(cat)...)
}

func checkNames(cat *Catalog, field Path, names []string) InputErrors {
	var errs InputErrors
	for i, name := range names {
		f := field.Index(i)
		switch {
		case cat.Module(name) == nil:
			errs = append(errs, fieldErr(f, ErrUnknownModule, "%s", cat.unknownModule(name)))
		case slices.Index(names, name) < i:
			errs = append(errs, fieldErr(f, ErrDuplicate, "module %s is listed twice", name))
		}
	}
	return errs
}

func (r *Request) validatePin(cat *Catalog, name string) InputErrors {
	field := Field("request", "pin").Key(name)
	m := cat.Module(name)
	v := r.Pin[name]
	switch {
	case m == nil:
		return InputErrors{fieldErr(field, ErrUnknownModule, "%s", cat.unknownModule(name))}
	case m.Embedded:
		return InputErrors{fieldErr(field, ErrInvalidValue, "module %s is built in: its version is the DKP version and cannot be pinned", name)}
	case v == nil:
		return InputErrors{fieldErr(field, ErrMissingField, "pin of %s has no version", name)}
	case m.Release(v) == nil && m.RefusedAt(v) == nil:
		// A pin on a refused release is a request no answer meets,
		// explained with the refusal (D348), not bad input.
		return InputErrors{fieldErr(field, ErrUnknownVersion, "module %s has no release %s (releases: %s)", name, v, releaseList(m))}
	case slices.Contains(r.Disable, name):
		return InputErrors{fieldErr(field, ErrConflict, "module %s is both pinned and disabled by the request", name)}
	}
	return nil
}

// EffectiveStrategy is the request's strategy, sequential when unset.
func (r *Request) EffectiveStrategy() Strategy {
	if r.Strategy == "" {
		return StrategySequential
	}
	return r.Strategy
}

// Clone returns a copy that shares no slices or maps with r.
func (r *Request) Clone() *Request {
	out := *r
	out.Enable = slices.Clone(r.Enable)
	out.Disable = slices.Clone(r.Disable)
	out.Update = slices.Clone(r.Update)
	out.Pin = maps.Clone(r.Pin)
	out.Sources = maps.Clone(r.Sources)
	out.Platform.Components = maps.Clone(r.Platform.Components)
	return &out
}
