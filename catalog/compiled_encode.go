package catalog

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"

	"github.com/modsolver/modsolver/model"
)

// payloadWriter turns a catalog into its compiled payload, numbering
// each distinct version and constraint text, and each distinct settings
// schema, once. err is the first schema that cannot be written.
type payloadWriter struct {
	out         *compiledCatalog
	versions    map[string]int32
	constraints map[string]int32
	// settings numbers each schema the catalog holds, and settingsText
	// each distinct one, by its JSON text and conversions.
	settings     map[*model.SettingsSchema]int32
	settingsText map[string]int32
	err          error
}

// compiledOf is cat, with the report of its load, as a compiled payload.
func compiledOf(cat *model.Catalog, rep *Report) (*compiledCatalog, error) {
	w := &payloadWriter{out: &compiledCatalog{Known: cat.KnownPlatform(), Names: cat.PlatformNames()}, versions: map[string]int32{}, constraints: map[string]int32{},
		settings: map[*model.SettingsSchema]int32{}, settingsText: map[string]int32{}}
	if rep != nil {
		w.out.Report = compiledReport{Source: rep.Source, Format: rep.Format, Skipped: rep.Skipped,
			Warnings: rep.Warnings, Counts: rep.Counts, HelmSubcharts: rep.HelmSubcharts}
	}
	infos := cat.Sources()
	if len(infos) == 0 {
		infos = []model.SourceInfo{{}} // a single catalog: one source without a name
	}
	for _, info := range infos {
		s, err := w.source(info, sourceModules(cat, info.Name))
		if err == nil {
			err = w.err
		}
		if err != nil {
			return nil, err
		}
		w.out.Sources = append(w.out.Sources, s)
	}
	return w.out, nil
}

// sourceModules lists the modules of source as it holds them: in a
// merged catalog its own copies, in a single catalog (source "") every
// module, and each copy of a module that names sources of its own (D350),
// one after the other, which reading joins again.
func sourceModules(cat *model.Catalog, source string) []*model.Module {
	var own []*model.Module
	if source == "" {
		for _, m := range cat.Modules() {
			if !m.MultiSource() {
				own = append(own, m)
				continue
			}
			for _, s := range m.ModuleSources() {
				own = append(own, m.ForSource(s))
			}
		}
		return own
	}
	for _, m := range cat.Modules() {
		if sm := m.ForSource(source); sm != nil {
			own = append(own, sm)
		}
		if b := m.BuiltInOf(source); b != nil {
			own = append(own, b) // read back beside its listed copy, joined again
		}
	}
	return own
}

// source writes one source's modules in chunks.
func (w *payloadWriter) source(info model.SourceInfo, mods []*model.Module) (compiledSource, error) {
	s := compiledSource{Name: info.Name, Priority: info.Priority}
	for lo := 0; lo < len(mods); lo += modulesPerChunk {
		part := mods[lo:min(lo+modulesPerChunk, len(mods))]
		out := make([]compiledModule, len(part))
		for i, m := range part {
			out[i] = w.module(m)
		}
		var chunk bytes.Buffer
		if err := gob.NewEncoder(&chunk).Encode(out); err != nil {
			return s, err
		}
		s.Chunks = append(s.Chunks, chunk.Bytes())
	}
	return s, nil
}

func (w *payloadWriter) module(m *model.Module) compiledModule {
	out := compiledModule{
		Name: m.Name, Embedded: m.Embedded, Weight: m.Weight, ExclusiveGroup: m.ExclusiveGroup,
		Type: m.Type, Critical: m.Critical, Accessibility: accessOf(m.Accessibility),
		DefaultChannel: m.DefaultChannel,
		Stage:          m.Stage, Disable: m.Disable, Manifest: m.Manifest, UpdatePolicy: m.UpdatePolicy, Origin: m.Origin, Lines: m.Lines,
		DependencyLoops: m.DependencyLoops, Versions: m.Versions, Ecosystem: m.Ecosystem, Source: m.Source,
	}
	if m.Channels != nil {
		out.Channels = make(map[string]int32, len(m.Channels))
		for ch, v := range m.Channels {
			out.Channels[ch] = w.version(v)
		}
	}
	if m.ChannelSets != nil {
		out.ChannelSets = make(map[string]compiledChannelSet, len(m.ChannelSets))
		for ch, s := range m.ChannelSets {
			out.ChannelSets[ch] = compiledChannelSet{Entries: w.versionList(s.Entries), Skipped: w.versionList(s.Skipped)}
		}
	}
	out.Requirements = w.requirements(m.Requirements, &out.Dependencies)
	for _, ps := range m.Settings {
		out.Settings = append(out.Settings, compiledPlatformSettings{Deckhouse: w.constraintRef(ps.Deckhouse), Schema: w.settingsRef(ps.Schema)})
	}
	out.Releases = make([]compiledRelease, len(m.Releases))
	for i, r := range m.Releases {
		out.Releases[i] = w.release(r, &out.Dependencies)
	}
	for _, r := range m.Refused {
		out.Refused = append(out.Refused, compiledRefused{Version: w.version(r.Version), Reason: r.Reason})
	}
	return out
}

func (w *payloadWriter) release(r *model.Release, deps *[]compiledDependency) compiledRelease {
	out := compiledRelease{
		Version: w.version(r.Version), Requirements: w.requirements(r.Requirements, deps), UpdateRules: r.UpdateRules,
		Provides: r.Provides, Accessibility: accessOf(r.Accessibility), Stage: r.Stage, Disable: r.Disable,
		Source: r.Source, Manifest: r.Manifest, Settings: w.settingsRef(r.Settings), Refused: r.Refused,
		Origin: r.Origin, Lines: r.Lines,
	}
	if e := r.Edges; e != nil {
		out.Edges = &compiledEdges{Replaces: w.version(e.Replaces), Skips: w.versionList(e.Skips), SkipRange: w.constraintRef(e.SkipRange)}
	}
	return out
}

// requirements writes req, its module requirements appended to deps.
func (w *payloadWriter) requirements(req model.Requirements, deps *[]compiledDependency) compiledRequirements {
	out := compiledRequirements{
		Deckhouse: w.constraintRef(req.Deckhouse), Kubernetes: w.constraintRef(req.Kubernetes),
		Modules: int32(len(req.Modules)), Capabilities: req.Capabilities,
	}
	for _, d := range req.Modules {
		*deps = append(*deps, compiledDependency{Module: d.Module, Constraint: w.constraint(d.Constraint)})
	}
	if req.Platform != nil {
		out.Platform = make(map[string]int32, len(req.Platform))
		for name, c := range req.Platform {
			out.Platform[name] = w.constraintRef(c)
		}
	}
	for _, c := range req.Compound {
		out.Compound = append(out.Compound, compiledCompound{Predicate: w.predicate(c.Predicate), Message: c.Message, Group: c.Group})
	}
	return out
}

func (w *payloadWriter) predicate(p *model.Predicate) *compiledPredicate {
	if p == nil {
		return nil
	}
	out := &compiledPredicate{Op: p.Op, Module: p.Module, Version: w.constraintRef(p.Version), Capability: p.Capability}
	for _, o := range p.Operands {
		out.Operands = append(out.Operands, w.predicate(o))
	}
	return out
}

// version numbers v's text: its position in Versions plus one, or 0
// for nil.
func (w *payloadWriter) version(v model.Version) int32 {
	if v == nil {
		return 0
	}
	return number(w.versions, &w.out.Versions, v.Original())
}

func (w *payloadWriter) versionList(vs []model.Version) []int32 {
	if vs == nil {
		return nil
	}
	out := make([]int32, len(vs))
	for i, v := range vs {
		out[i] = w.version(v)
	}
	return out
}

// constraint numbers c's text as version does; the zero constraint,
// which allows every version, is 0.
func (w *payloadWriter) constraint(c model.Constraint) int32 {
	if c.Text == "" {
		return 0
	}
	return number(w.constraints, &w.out.Constraints, c.Text)
}

func (w *payloadWriter) constraintRef(c *model.Constraint) int32 {
	if c == nil {
		return 0
	}
	return w.constraint(*c)
}

// settingsRef numbers s: its position in Settings plus one, or 0 for
// nil. Schemas of the same text and conversions are written once.
func (w *payloadWriter) settingsRef(s *model.SettingsSchema) int32 {
	if s == nil {
		return 0
	}
	if n, ok := w.settings[s]; ok {
		return n
	}
	schema, err := json.Marshal(s.Schema) // map keys sorted: the same schema gives the same text
	if err != nil {
		if w.err == nil {
			w.err = fmt.Errorf("settings schema: %w", err)
		}
		return 0
	}
	conv, _ := json.Marshal(s.Conversions) // a map of string lists always marshals
	key := string(schema) + "\x00" + string(conv)
	n, ok := w.settingsText[key]
	if !ok {
		w.out.Settings = append(w.out.Settings, compiledSettings{Schema: schema, Conversions: s.Conversions})
		n = int32(len(w.out.Settings))
		w.settingsText[key] = n
	}
	w.settings[s] = n
	return n
}

// number returns text's position in table plus one, adding it the first
// time.
func number(seen map[string]int32, table *[]string, text string) int32 {
	if n, ok := seen[text]; ok {
		return n
	}
	*table = append(*table, text)
	n := int32(len(*table))
	seen[text] = n
	return n
}

func accessOf(a *model.Accessibility) *compiledAccess {
	if a == nil {
		return nil
	}
	out := &compiledAccess{}
	if a.Editions != nil {
		out.Editions = make(map[string]compiledEdition, len(a.Editions))
	}
	for name, e := range a.Editions {
		ce := compiledEdition{HasBundles: e.EnabledInBundles != nil, EnabledInBundles: e.EnabledInBundles}
		switch {
		case e.Available == nil:
		case *e.Available:
			ce.Available = availableYes
		default:
			ce.Available = availableNo
		}
		out.Editions[name] = ce
	}
	return out
}
