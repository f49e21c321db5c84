package catalog

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/settings"
)

// payloadTables are a payload's versions, constraints and settings
// schemas, each distinct one parsed or compiled once, which every chunk's
// modules refer to.
type payloadTables struct {
	versions    []model.Version
	constraints []model.Constraint
	settings    []*model.SettingsSchema
}

// payloadReader builds model values from a compiled payload, one chunk
// of modules at a time. A reference out of range is kept in err, the
// first one only, and reads as none.
type payloadReader struct {
	*payloadTables
	err error
	// slab and deps are allocated in chunks that many values share, as
	// one allocation each shows in the load time of large catalogs.
	slab []model.Constraint
	deps []model.Dependency
}

// slabChunk is how many values one chunk of a payloadReader's slabs holds.
const slabChunk = 4096

// toModel builds the catalog a compiled payload holds, as the load that
// was compiled built it: each source's modules through model.NewCatalog,
// the sources through model.Merge, and the platform data last.
func (p *compiledCatalog) toModel() (*model.Catalog, error) {
	t, err := newPayloadTables(p)
	if err != nil {
		return nil, err
	}
	if len(p.Sources) == 0 {
		return nil, fmt.Errorf("%w: the payload holds no catalog", model.ErrInvalidInput)
	}
	sources := make([]model.Source, len(p.Sources))
	for i, s := range p.Sources {
		mods, err := t.modules(s.Chunks)
		if err == nil {
			mods, err = joinCopies(mods)
		}
		if err != nil {
			return nil, err
		}
		cat, err := model.NewCatalog(mods)
		if err != nil {
			return nil, err
		}
		sources[i] = model.Source{Name: s.Name, Priority: s.Priority, Catalog: cat}
	}
	cat, err := model.Merge(sources)
	if err != nil {
		return nil, err
	}
	if p.Known != nil {
		cat = cat.WithKnownPlatform(p.Known)
	}
	if p.Names != nil {
		cat = cat.WithPlatformNames(p.Names) // after WithKnownPlatform, which does not copy it
	}
	return cat, nil
}

// joinCopies joins the copies of a module that a single catalog holds
// under sources of its own, which the payload writes one after the other
// (sourceModules, D350).
func joinCopies(mods []*model.Module) ([]*model.Module, error) {
	out := mods[:0]
	for i := 0; i < len(mods); {
		j := i + 1
		for j < len(mods) && mods[j].Name == mods[i].Name && mods[i].Source != "" {
			j++
		}
		if j == i+1 {
			out = append(out, mods[i])
			i = j
			continue
		}
		copies := make([]model.SourceCopy, 0, j-i)
		for _, m := range mods[i:j] {
			copies = append(copies, model.SourceCopy{Source: m.Source, Module: m})
		}
		joined, err := model.JoinSources(copies)
		if err != nil {
			return nil, err
		}
		out = append(out, joined)
		i = j
	}
	return out, nil
}

func newPayloadTables(p *compiledCatalog) (*payloadTables, error) {
	t := &payloadTables{versions: make([]model.Version, len(p.Versions)), constraints: make([]model.Constraint, len(p.Constraints))}
	for i, text := range p.Versions {
		v, err := model.ParseVersion(text)
		if err != nil {
			return nil, err
		}
		t.versions[i] = v
	}
	err := eachOnCores(len(p.Constraints), func(i int) (err error) {
		t.constraints[i], err = model.ParseConstraint(p.Constraints[i])
		return err
	})
	if err != nil {
		return nil, err
	}
	t.settings = make([]*model.SettingsSchema, len(p.Settings))
	err = eachOnCores(len(p.Settings), func(i int) (err error) {
		t.settings[i], err = settingsFrom(&p.Settings[i])
		return err
	})
	return t, err
}

// settingsFrom compiles a schema of the payload again, as the load that
// was compiled compiled it.
func settingsFrom(c *compiledSettings) (*model.SettingsSchema, error) {
	s := &model.SettingsSchema{Conversions: c.Conversions}
	if err := json.Unmarshal(c.Schema, &s.Schema); err != nil {
		return nil, fmt.Errorf("%w: a settings schema: %v", model.ErrInvalidInput, err)
	}
	if err := settings.Compile(s); err != nil {
		return nil, err
	}
	return s, nil
}

// eachOnCores calls fn for 0 … n-1, with one worker per core taking the
// next index until none is left, and returns the error of the lowest
// index that failed.
func eachOnCores(n int, fn func(i int) error) error {
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				errs[i] = fn(i)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// modules decodes and builds the modules of chunks, in order, on every
// core at once.
func (t *payloadTables) modules(chunks [][]byte) ([]*model.Module, error) {
	parts := make([][]*model.Module, len(chunks))
	err := eachOnCores(len(chunks), func(i int) (err error) {
		r := &payloadReader{payloadTables: t}
		parts[i], err = r.chunk(chunks[i])
		return err
	})
	if err != nil {
		return nil, err
	}
	return slices.Concat(parts...), nil
}

// chunk decodes and builds one chunk's modules.
func (r *payloadReader) chunk(data []byte) ([]*model.Module, error) {
	var cms []compiledModule
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&cms); err != nil {
		return nil, fmt.Errorf("%w: a chunk of modules does not decode: %v", model.ErrInvalidInput, err)
	}
	out := make([]*model.Module, len(cms))
	for i := range cms {
		out[i] = r.module(&cms[i])
	}
	return out, r.err
}

func (r *payloadReader) module(c *compiledModule) *model.Module {
	m := &model.Module{
		Name: c.Name, Embedded: c.Embedded, Weight: c.Weight, ExclusiveGroup: c.ExclusiveGroup,
		Type: c.Type, Critical: c.Critical, Accessibility: accessFrom(c.Accessibility),
		DefaultChannel: c.DefaultChannel,
		Stage:          c.Stage, Disable: c.Disable, Manifest: c.Manifest, UpdatePolicy: c.UpdatePolicy, Origin: c.Origin, Lines: c.Lines,
		DependencyLoops: c.DependencyLoops, Versions: c.Versions, Ecosystem: c.Ecosystem, Source: c.Source,
	}
	if c.Channels != nil {
		m.Channels = make(map[string]model.Version, len(c.Channels))
		for ch, n := range c.Channels {
			m.Channels[ch] = r.requiredVersion(n)
		}
	}
	if c.ChannelSets != nil {
		m.ChannelSets = make(map[string]*model.ChannelSet, len(c.ChannelSets))
		for ch, s := range c.ChannelSets {
			m.ChannelSets[ch] = &model.ChannelSet{Entries: r.versionList(s.Entries), Skipped: r.versionList(s.Skipped)}
		}
	}
	deps := c.Dependencies
	m.Requirements = r.requirements(&c.Requirements, &deps)
	for _, ps := range c.Settings {
		m.Settings = append(m.Settings, model.PlatformSettings{Deckhouse: r.constraintRef(ps.Deckhouse), Schema: r.settingsRef(ps.Schema)})
	}
	if len(c.Releases) > 0 {
		rels := make([]model.Release, len(c.Releases))
		m.Releases = make([]*model.Release, len(c.Releases))
		for i := range c.Releases {
			r.release(&rels[i], &c.Releases[i], &deps)
			m.Releases[i] = &rels[i]
		}
	}
	for _, rr := range c.Refused {
		m.Refused = append(m.Refused, model.RefusedRelease{Version: r.requiredVersion(rr.Version), Reason: rr.Reason})
	}
	if len(deps) > 0 && r.err == nil {
		r.err = fmt.Errorf("%w: module %s has %d dependencies no requirement takes", model.ErrInvalidInput, c.Name, len(deps))
	}
	return m
}

func (r *payloadReader) release(rel *model.Release, c *compiledRelease, deps *[]compiledDependency) {
	*rel = model.Release{
		Version: r.requiredVersion(c.Version), Requirements: r.requirements(&c.Requirements, deps), UpdateRules: c.UpdateRules,
		Provides: c.Provides, Accessibility: accessFrom(c.Accessibility), Stage: c.Stage, Disable: c.Disable,
		Source: c.Source, Manifest: c.Manifest, Settings: r.settingsRef(c.Settings), Refused: c.Refused,
		Origin: c.Origin, Lines: c.Lines,
	}
	if e := c.Edges; e != nil {
		rel.Edges = &model.UpdateEdges{Replaces: r.version(e.Replaces), Skips: r.versionList(e.Skips), SkipRange: r.constraintRef(e.SkipRange)}
	}
}

// requirements builds c, taking its module requirements from the front
// of deps.
func (r *payloadReader) requirements(c *compiledRequirements, deps *[]compiledDependency) model.Requirements {
	req := model.Requirements{
		Deckhouse: r.constraintRef(c.Deckhouse), Kubernetes: r.constraintRef(c.Kubernetes),
		Capabilities: c.Capabilities,
	}
	if n := int(c.Modules); n > 0 {
		if n > len(*deps) {
			if r.err == nil {
				r.err = fmt.Errorf("%w: %d dependencies of %d left", model.ErrInvalidInput, n, len(*deps))
			}
			return req
		}
		req.Modules = r.dependencies(n)
		for i, d := range (*deps)[:n] {
			req.Modules[i] = model.Dependency{Module: d.Module, Constraint: r.constraint(d.Constraint)}
		}
		*deps = (*deps)[n:]
	}
	if c.Platform != nil {
		req.Platform = make(map[string]*model.Constraint, len(c.Platform))
		for name, n := range c.Platform {
			req.Platform[name] = r.constraintRef(n)
		}
	}
	for _, cc := range c.Compound {
		if cc.Predicate == nil && r.err == nil {
			r.err = fmt.Errorf("%w: a compound requirement has no predicate", model.ErrInvalidInput)
		}
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

// requiredVersion is the version numbered n, where none is not an
// answer: a release's, a channel's or a list's.
func (r *payloadReader) requiredVersion(n int32) model.Version {
	if n == 0 && r.err == nil {
		r.err = fmt.Errorf("%w: a version is missing", model.ErrInvalidInput)
	}
	return r.version(n)
}

func (r *payloadReader) versionList(ns []int32) []model.Version {
	if ns == nil {
		return nil
	}
	out := make([]model.Version, len(ns))
	for i, n := range ns {
		out[i] = r.requiredVersion(n)
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
	if len(r.slab) == cap(r.slab) {
		r.slab = make([]model.Constraint, 0, slabChunk)
	}
	r.slab = append(r.slab, r.constraints[n-1])
	return &r.slab[len(r.slab)-1]
}

// settingsRef is the settings schema numbered n, or nil for 0. Releases
// that refer to the same one share it.
func (r *payloadReader) settingsRef(n int32) *model.SettingsSchema {
	if !r.inRange(n, len(r.settings), "settings schema") {
		return nil
	}
	return r.settings[n-1]
}

// dependencies is a list of n dependencies of its own, cut from a chunk.
func (r *payloadReader) dependencies(n int) []model.Dependency {
	if n > slabChunk/4 {
		return make([]model.Dependency, n)
	}
	if cap(r.deps)-len(r.deps) < n {
		r.deps = make([]model.Dependency, 0, slabChunk)
	}
	start := len(r.deps)
	r.deps = r.deps[:start+n]
	return r.deps[start : start+n : start+n]
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
