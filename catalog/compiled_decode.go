package catalog

import (
	"fmt"
	"maps"

	"github.com/modsolver/modsolver/model"
)

// payloadReader builds model values from a compiled payload. Each
// distinct version and constraint was parsed once; a reference out of
// range is kept in err, the first one only, and reads as none.
type payloadReader struct {
	versions    []model.Version
	constraints []model.Constraint
	err         error
}

// toModel builds the catalog a compiled payload holds, as the load that
// was compiled built it: each source's modules through model.NewCatalog,
// the sources through model.Merge, and the platform data last.
func (p *compiledCatalog) toModel() (*model.Catalog, error) {
	r, err := newPayloadReader(p)
	if err != nil {
		return nil, err
	}
	sources := make([]model.Source, len(p.Sources))
	for i, s := range p.Sources {
		mods := make([]*model.Module, len(s.Modules))
		for j := range s.Modules {
			mods[j] = r.module(&s.Modules[j])
		}
		if r.err != nil {
			return nil, r.err
		}
		cat, err := model.NewCatalog(mods)
		if err != nil {
			return nil, err
		}
		sources[i] = model.Source{Name: s.Name, Priority: s.Priority, Catalog: cat}
	}
	if len(sources) == 0 {
		return nil, fmt.Errorf("%w: the payload holds no catalog", model.ErrInvalidInput)
	}
	cat, err := model.Merge(sources)
	if err != nil {
		return nil, err
	}
	if p.Known != nil {
		cat = cat.WithKnownPlatform(p.Known)
	}
	return cat, nil
}

func newPayloadReader(p *compiledCatalog) (*payloadReader, error) {
	r := &payloadReader{versions: make([]model.Version, len(p.Versions)), constraints: make([]model.Constraint, len(p.Constraints))}
	for i, text := range p.Versions {
		v, err := model.ParseVersion(text)
		if err != nil {
			return nil, err
		}
		r.versions[i] = v
	}
	for i, text := range p.Constraints {
		c, err := model.ParseConstraint(text)
		if err != nil {
			return nil, err
		}
		r.constraints[i] = c
	}
	return r, nil
}

func (r *payloadReader) module(c *compiledModule) *model.Module {
	m := &model.Module{
		Name: c.Name, Embedded: c.Embedded, Weight: c.Weight, ExclusiveGroup: c.ExclusiveGroup,
		Type: c.Type, Critical: c.Critical, Accessibility: accessFrom(c.Accessibility),
		DefaultChannel: c.DefaultChannel, Requirements: r.requirements(&c.Requirements),
		Stage: c.Stage, Disable: c.Disable, Manifest: c.Manifest, UpdatePolicy: c.UpdatePolicy,
		DependencyLoops: c.DependencyLoops, Versions: c.Versions, Ecosystem: c.Ecosystem, Source: c.Source,
	}
	if c.Channels != nil {
		m.Channels = make(map[string]model.Version, len(c.Channels))
		for ch, n := range c.Channels {
			m.Channels[ch] = r.version(n)
		}
	}
	if c.ChannelSets != nil {
		m.ChannelSets = make(map[string]*model.ChannelSet, len(c.ChannelSets))
		for ch, s := range c.ChannelSets {
			m.ChannelSets[ch] = &model.ChannelSet{Entries: r.versionList(s.Entries), Skipped: r.versionList(s.Skipped)}
		}
	}
	if len(c.Releases) > 0 {
		m.Releases = make([]*model.Release, len(c.Releases))
		for i := range c.Releases {
			m.Releases[i] = r.release(&c.Releases[i])
		}
	}
	return m
}

func (r *payloadReader) release(c *compiledRelease) *model.Release {
	rel := &model.Release{
		Version: r.version(c.Version), Requirements: r.requirements(&c.Requirements), UpdateRules: c.UpdateRules,
		Provides: c.Provides, Accessibility: accessFrom(c.Accessibility), Stage: c.Stage, Disable: c.Disable,
		Source: c.Source, Manifest: c.Manifest,
	}
	if e := c.Edges; e != nil {
		rel.Edges = &model.UpdateEdges{Replaces: r.version(e.Replaces), Skips: r.versionList(e.Skips), SkipRange: r.constraintRef(e.SkipRange)}
	}
	if rel.Version == nil && r.err == nil {
		r.err = fmt.Errorf("%w: a release has no version", model.ErrInvalidInput)
	}
	return rel
}

func (r *payloadReader) requirements(c *compiledRequirements) model.Requirements {
	req := model.Requirements{
		Deckhouse: r.constraintRef(c.Deckhouse), Kubernetes: r.constraintRef(c.Kubernetes),
		Capabilities: c.Capabilities,
	}
	if len(c.Modules) > 0 {
		req.Modules = make([]model.Dependency, len(c.Modules))
		for i, d := range c.Modules {
			req.Modules[i] = model.Dependency{Module: d.Module, Constraint: r.constraint(d.Constraint)}
		}
	}
	if c.Platform != nil {
		req.Platform = make(map[string]*model.Constraint, len(c.Platform))
		for name, n := range c.Platform {
			req.Platform[name] = r.constraintRef(n)
		}
	}
	for _, cc := range c.Compound {
		req.Compound = append(req.Compound, model.CompoundRequirement{Predicate: r.predicate(cc.Predicate), Message: cc.Message, Group: cc.Group})
	}
	return req
}

func (r *payloadReader) predicate(c *compiledPredicate) *model.Predicate {
	if c == nil {
		return nil
	}
	p := &model.Predicate{Op: c.Op, Module: c.Module, Version: r.constraintRef(c.Version), Capability: c.Capability}
	for _, o := range c.Operands {
		p.Operands = append(p.Operands, r.predicate(o))
	}
	return p
}

// version is the version numbered n, or nil for 0.
func (r *payloadReader) version(n int32) model.Version {
	if !r.inRange(n, len(r.versions), "version") {
		return nil
	}
	return r.versions[n-1]
}

func (r *payloadReader) versionList(ns []int32) []model.Version {
	if ns == nil {
		return nil
	}
	out := make([]model.Version, len(ns))
	for i, n := range ns {
		out[i] = r.version(n)
	}
	return out
}

// constraint is the constraint numbered n, or the zero constraint for 0.
func (r *payloadReader) constraint(n int32) model.Constraint {
	if !r.inRange(n, len(r.constraints), "constraint") {
		return model.Constraint{}
	}
	return r.constraints[n-1]
}

// constraintRef is a fresh copy of the constraint numbered n, or nil
// for 0, so that no two requirements share a pointer.
func (r *payloadReader) constraintRef(n int32) *model.Constraint {
	if !r.inRange(n, len(r.constraints), "constraint") {
		return nil
	}
	c := r.constraints[n-1]
	return &c
}

// inRange reports whether n refers to one of size entries; 0 refers to
// none, and anything else beyond them is kept as r's error.
func (r *payloadReader) inRange(n int32, size int, what string) bool {
	if n > 0 && int(n) <= size {
		return true
	}
	if n != 0 && r.err == nil {
		r.err = fmt.Errorf("%w: %s %d of %d", model.ErrInvalidInput, what, n, size)
	}
	return false
}

func accessFrom(c *compiledAccess) *model.Accessibility {
	if c == nil {
		return nil
	}
	a := &model.Accessibility{}
	if c.Editions != nil {
		a.Editions = make(map[string]model.EditionAccess, len(c.Editions))
	}
	for name, e := range c.Editions {
		ea := model.EditionAccess{EnabledInBundles: e.EnabledInBundles}
		if e.HasBundles && ea.EnabledInBundles == nil {
			ea.EnabledInBundles = []string{}
		}
		switch e.Available {
		case availableYes:
			ea.Available = new(true)
		case availableNo:
			ea.Available = new(false)
		}
		a.Editions[name] = ea
	}
	return a
}

// reportOf is the report of reading a compiled catalog from name: the
// notes of the load that was compiled, with totals counted from cat.
func reportOf(name string, r compiledReport, cat *model.Catalog) *Report {
	rep := &Report{Source: name, Format: FormatCompiled, Skipped: r.Skipped, Warnings: r.Warnings,
		Counts: maps.Clone(r.Counts), HelmSubcharts: r.HelmSubcharts}
	rep.count(cat)
	return rep
}
