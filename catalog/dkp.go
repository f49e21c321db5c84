package catalog

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// The DKP module-source layout (DESIGN.md §2).
const (
	dkpEmbedded   = "embedded"
	dkpExternal   = "external"
	dkpModuleFile = "module.yaml"
	dkpChannels   = "channels.yaml"
)

// dkpModule is the part of DKP's module.yaml that resolution reads. Other
// keys (descriptions, namespace, tags…) are ignored, as DKP's own
// resolution ignores them.
type dkpModule struct {
	Name           string             `yaml:"name"`
	Weight         int                `yaml:"weight"`
	ExclusiveGroup string             `yaml:"exclusiveGroup"`
	Accessibility  *fileAccessibility `yaml:"accessibility"`
	Requirements   yaml.Node          `yaml:"requirements"`
	Update         *fileUpdate        `yaml:"update"`
	// Stage gates a release (R25); Disable asks for confirmation before
	// the module is disabled (R26).
	Stage   string       `yaml:"stage"`
	Disable *fileDisable `yaml:"disable"`

	lines map[string]int
}

// LoadDir reads a directory in DKP's module-source layout, with DKP's
// tolerance: a tag folder that is not semver is skipped, and a
// requirement key DKP does not read is ignored; both are in the report.
// A requirement that cannot be parsed is still an error.
func LoadDir(root string) (*model.Catalog, *Report, error) {
	l := &dkpLoader{root: root, rep: &Report{Source: root, Format: FormatDKP}}
	if err := l.checkRoot(); err != nil {
		return nil, nil, err
	}
	embedded, err := l.embedded()
	if err != nil {
		return nil, nil, err
	}
	external, err := l.external()
	if err != nil {
		return nil, nil, err
	}
	l.inferBundleDefaults(embedded)
	modules, err := l.merge(embedded, external)
	if err != nil {
		return nil, nil, &ParseError{File: root, Err: err}
	}
	cat, err := model.NewCatalog(modules)
	if err != nil {
		return nil, nil, &ParseError{File: root, Err: err}
	}
	cat = cat.WithKnownPlatform(l.platform()).WithPlatformNames(l.platformNames())
	l.rep.count(cat)
	return cat, l.rep, nil
}

type dkpLoader struct {
	root string
	rep  *Report
	// schemas holds the settings read so far, by the content of their
	// files (dkp_settings.go).
	schemas map[[sha256.Size]byte]openAPIRead
}

func (l *dkpLoader) checkRoot() error {
	found := false
	for _, sub := range []string{dkpEmbedded, dkpExternal} {
		if info, err := os.Stat(filepath.Join(l.root, sub)); err == nil && info.IsDir() {
			found = true
		}
	}
	if !found {
		return &ParseError{File: l.root, Err: fmt.Errorf("%w: not a DKP module-source directory: it has neither %s/ nor %s/", model.ErrInvalidInput, dkpEmbedded, dkpExternal)}
	}
	return nil
}

// subdirs lists the folders in dir, sorted; a missing dir has none.
func (l *dkpLoader) subdirs(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: catalog: %w", model.ErrInvalidInput, err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names, nil // os.ReadDir sorts by name
}

// embedded reads embedded/<module>/: built-in modules (R5), each from its
// package.yaml or module.yaml.
func (l *dkpLoader) embedded() ([]*model.Module, error) {
	dir := filepath.Join(l.root, dkpEmbedded)
	names, err := l.subdirs(dir)
	if err != nil {
		return nil, err
	}
	var modules []*model.Module
	for _, name := range names {
		mf, err := l.readManifest(filepath.Join(dir, name), name, place{module: name})
		if err != nil {
			return nil, err
		}
		if !mf.ok {
			continue
		}
		m := &model.Module{Name: name, Embedded: true, Weight: mf.head.weight, ExclusiveGroup: mf.head.exclusiveGroup,
			Type: mf.head.typ, Critical: mf.head.critical, Accessibility: mf.rel.Accessibility, Disable: mf.disable,
			Stage: mf.stage, Requirements: mf.req, Manifest: mf.rel.Manifest, Origin: mf.rel.Origin, Lines: mf.rel.Lines}
		s, err := l.settings(filepath.Join(dir, name), place{module: name})
		if err != nil {
			return nil, err
		}
		if s != nil {
			m.Settings = []model.PlatformSettings{{Schema: s}} // one schema, for every DKP version
		}
		modules = append(modules, m)
	}
	return modules, nil
}

// external reads external/<module>/<tag>/module.yaml, one release per tag.
func (l *dkpLoader) external() ([]*model.Module, error) {
	dir := filepath.Join(l.root, dkpExternal)
	names, err := l.subdirs(dir)
	if err != nil {
		return nil, err
	}
	var modules []*model.Module
	for _, name := range names {
		m, err := l.externalModule(filepath.Join(dir, name), name)
		if err != nil {
			return nil, err
		}
		if m != nil {
			modules = append(modules, m)
		}
	}
	return modules, nil
}

func (l *dkpLoader) externalModule(dir, name string) (*model.Module, error) {
	tags, err := l.subdirs(dir)
	if err != nil {
		return nil, err
	}
	m := &model.Module{Name: name}
	var newest moduleHead
	for _, tag := range tags {
		r, dm, err := l.release(filepath.Join(dir, tag), name, tag)
		if err != nil {
			return nil, err
		}
		if r == nil {
			continue
		}
		if len(m.Releases) == 0 || model.CompareVersions(r.Version, m.Releases[len(m.Releases)-1].Version) > 0 {
			newest = dm
		}
		m.Releases = append(m.Releases, r)
		slices.SortFunc(m.Releases, func(a, b *model.Release) int { return model.CompareVersions(a.Version, b.Version) })
	}
	if len(m.Releases) == 0 {
		l.rep.skip(dir, "module %s has no loadable release", name)
		return nil, nil
	}
	// Module-level fields come from the newest release (D4).
	m.Weight, m.ExclusiveGroup, m.Type, m.Critical = newest.weight, newest.exclusiveGroup, newest.typ, newest.critical
	if m.Channels, err = l.channels(filepath.Join(dir, dkpChannels)); err != nil {
		return nil, err
	}
	return m, nil
}

// release reads one tag folder, from its package.yaml or module.yaml;
// it returns a nil release for a folder that DKP would skip.
func (l *dkpLoader) release(dir, module, tag string) (*model.Release, moduleHead, error) {
	v, err := model.ParseVersion(tag)
	if err != nil {
		l.rep.skip(dir, "tag %q is not a semantic version", tag)
		return nil, moduleHead{}, nil
	}
	loc := place{module: module, release: model.VersionString(v)}
	mf, err := l.readManifest(dir, module, loc)
	if err != nil || !mf.ok {
		return nil, moduleHead{}, err
	}
	mf.rel.Version = v
	if mf.rel.Settings, err = l.settings(dir, loc); err != nil {
		return nil, moduleHead{}, err
	}
	return mf.rel, mf.head, nil
}

// readModule reads one module.yaml; ok is false when there is none.
func (l *dkpLoader) readModule(path, module string) (*dkpModule, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		l.rep.skip(filepath.Dir(path), "no %s or %s", dkpModuleFile, dkpPackageFile)
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%w: catalog: %w", model.ErrInvalidInput, err)
	}
	node, err := parseNode(path, data)
	if err != nil {
		return nil, false, err
	}
	var dm dkpModule
	if err := decode(path, node, &dm); err != nil {
		return nil, false, err
	}
	dm.lines = fieldLines(node)
	l.checkName(path, dm.Name, module)
	return &dm, true, nil
}

// requirements reads a requirements mapping with DKP's tolerance (D4).
func (l *dkpLoader) requirements(path string, loc place, node *yaml.Node) (model.Requirements, error) {
	var fr fileRequirements
	if node.Kind == 0 {
		return model.Requirements{}, nil
	}
	if node.Kind != yaml.MappingNode {
		return model.Requirements{}, &ParseError{File: path, Line: node.Line, Err: fmt.Errorf("%w: requirements must be a mapping", ErrSyntax)}
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		key, value := node.Content[i], node.Content[i+1]
		var err error
		switch key.Value {
		case "deckhouse":
			err = decode(path, value, &fr.Deckhouse)
		case "kubernetes":
			err = decode(path, value, &fr.Kubernetes)
		case "modules":
			err = decode(path, value, &fr.Modules)
		case "bootstrapped":
			// Holds: modsolver answers questions about running clusters (D4).
		default:
			l.rep.warn("%s:%d: requirements.%s is not a requirement DKP reads; ignored", path, key.Line, key.Value)
		}
		if err != nil {
			return model.Requirements{}, err
		}
	}
	if _, self := fr.Modules.legacy()[loc.module]; self {
		l.rep.warn("%s: module %s requires itself; the requirement is dropped", path, loc.module)
		delete(fr.Modules.Legacy, loc.module)
	}
	return fr.toModel(loc)
}

// channels reads an optional channels.yaml: channel name to version.
func (l *dkpLoader) channels(path string) (map[string]model.Version, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: catalog: %w", model.ErrInvalidInput, err)
	}
	node, err := parseNode(path, data)
	if err != nil {
		return nil, err
	}
	var raw map[string]string
	if err := decode(path, node, &raw); err != nil {
		return nil, err
	}
	channels, err := parseChannels(raw)
	if err != nil {
		return nil, &ParseError{File: path, Err: err}
	}
	return channels, nil
}

// merge joins built-in and external modules. A module that is both is
// one module of two sources, named after the tree's folders (R29, D350):
// its built-in copy runs at the DKP version until a request moves it to
// its external releases, or the DKP version no longer carries it.
func (l *dkpLoader) merge(embedded, external []*model.Module) ([]*model.Module, error) {
	builtIn := make(map[string]*model.Module, len(embedded))
	for _, m := range embedded {
		builtIn[m.Name] = m
	}
	out := make([]*model.Module, 0, len(embedded)+len(external))
	for _, m := range external {
		b := builtIn[m.Name]
		if b == nil {
			out = append(out, m)
			continue
		}
		delete(builtIn, m.Name)
		// The external folder comes first: a deployed version it no
		// longer lists is still a release of that source (D75).
		joined, err := model.JoinSources([]model.SourceCopy{{Source: dkpExternal, Module: m}, {Source: dkpEmbedded, Module: b}})
		if err != nil {
			return nil, err
		}
		l.rep.warn("module %s is both built in and external: a cluster that runs it runs the built-in one, until the request moves it to source %s (R29)", m.Name, dkpExternal)
		out = append(out, joined)
	}
	for _, m := range embedded {
		if builtIn[m.Name] != nil {
			out = append(out, m)
		}
	}
	return out, nil
}
