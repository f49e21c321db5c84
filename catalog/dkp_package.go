package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// dkpPackageFile is DKP's v2 package manifest (R28), read beside or
// instead of module.yaml.
const dkpPackageFile = "package.yaml"

// v2DefaultWeight is the weight DKP's v2 scheduler gives a package that
// declares none: it runs after the weighted ones (D133).
const v2DefaultWeight = 999

// dkpPackage is the part of package.yaml that resolution reads. Like
// DKP's own decoder it is not strict: other keys (apiVersion, version,
// descriptions, category, subscribe…) are ignored. The release's version
// is its tag, as DKP takes it from the tag and not from the file.
type dkpPackage struct {
	Name           string             `yaml:"name"`
	Type           string             `yaml:"type"`
	Stage          string             `yaml:"stage"`
	Weight         int                `yaml:"weight"`
	Critical       bool               `yaml:"critical"`
	ExclusiveGroup string             `yaml:"exclusiveGroup"`
	Licensing      *fileAccessibility `yaml:"licensing"`
	Disable        *fileDisable       `yaml:"disable"`
	Requirements   struct {
		Kubernetes v2Constraint `yaml:"kubernetes"`
		Deckhouse  v2Constraint `yaml:"deckhouse"`
		Modules    v2Modules    `yaml:"modules"`
	} `yaml:"requirements"`
}

// v2Constraint is package.yaml's {constraint: C}; the legacy bare text is
// refused, as DKP's decoder refuses it.
type v2Constraint struct {
	Constraint string `yaml:"constraint"`

	line int
}

// UnmarshalYAML refuses anything but a mapping, in yaml's words.
func (vc *v2Constraint) UnmarshalYAML(n *yaml.Node) error {
	vc.line = n.Line
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: cannot unmarshal %s `%s` into {constraint: C}: package.yaml writes a platform requirement as an object", n.Line, n.ShortTag(), n.Value)
	}
	type plain v2Constraint
	return decodeNode(n, (*plain)(vc))
}

// moduleHead is what a release's manifest says of its whole module; the
// newest release's applies (D4).
type moduleHead struct {
	weight         int
	exclusiveGroup string
	typ            model.PackageType
	critical       bool
}

// manifest is one release folder's reading: the release, what it says of
// its module, and ok false when the folder holds neither manifest.
type manifest struct {
	rel  *model.Release
	head moduleHead
	// requirements, stage and disable, for a built-in module (R5).
	req     model.Requirements
	stage   model.Stage
	disable model.Disable
	ok      bool
}

// readManifest reads dir's package.yaml, or else its module.yaml. Where
// both exist, package.yaml is read, as DKP reads it, and a disagreement
// of module.yaml with it is a warning (R28).
func (l *dkpLoader) readManifest(dir, module string, loc place) (manifest, error) {
	pkgPath := filepath.Join(dir, dkpPackageFile)
	data, err := os.ReadFile(pkgPath)
	if errors.Is(err, fs.ErrNotExist) {
		return l.readLegacy(filepath.Join(dir, dkpModuleFile), module, loc)
	}
	if err != nil {
		return manifest{}, fmt.Errorf("%w: catalog: %w", model.ErrInvalidInput, err)
	}
	loc.file = pkgPath
	mf, err := l.readPackage(pkgPath, data, module, loc)
	if err != nil {
		return manifest{}, err
	}
	if mf.ok && mf.rel.Refused == "" {
		l.compareLegacy(filepath.Join(dir, dkpModuleFile), module, loc, mf)
	}
	return mf, nil
}

// readPackage reads one package.yaml.
func (l *dkpLoader) readPackage(path string, data []byte, module string, loc place) (manifest, error) {
	node, err := parseNode(path, data)
	if err != nil {
		return manifest{}, err
	}
	var dp dkpPackage
	if err := decode(path, node, &dp); err != nil {
		return manifest{}, err
	}
	l.checkName(path, dp.Name, module)
	mf := manifest{ok: true, disable: dp.Disable.toModel()}
	if mf.head, err = l.packageHead(path, &dp); err != nil {
		return manifest{}, err
	}
	mf.stage = l.stage(loc, dp.Stage)
	if mf.req, err = l.packageRequirements(loc, &dp); err != nil {
		return manifest{}, err
	}
	mf.rel = &model.Release{Accessibility: dp.Licensing.toModel(), Disable: mf.disable, Stage: mf.stage, Requirements: mf.req, Manifest: model.ManifestV2,
		Origin: model.Origin{File: path, Line: 1}, Lines: fieldLines(node)}
	return l.refuseSelfLoop(path, loc, dp.modules(), mf), nil
}

// refuseSelfLoop marks a release whose package names its own module in
// mandatory or conditional: a package DKP never registers (R27, D347).
// The release stays with its module, set aside, so that an answer can
// name it; a built-in module has no release to set aside, and is left
// out. Either way the rest of the tree loads.
func (l *dkpLoader) refuseSelfLoop(path string, loc place, fm *fileModuleReqs, mf manifest) manifest {
	reason, line, ok := loc.v2SelfLoop(fm)
	switch {
	case !ok:
		return mf
	case loc.release == "":
		l.rep.warn("%s:%d: %s; DKP never registers the package, so built-in module %s is left out", path, line, reason, loc.module)
		return manifest{}
	}
	l.rep.warn("%s:%d: %s; DKP never registers the package, so release %s of %s is left out", path, line, reason, loc.release, loc.module)
	mf.rel.Refused = reason
	return mf
}

// modules is requirements.modules as the single-file format's v2 form
// holds it.
func (dp *dkpPackage) modules() *fileModuleReqs {
	rq := &dp.Requirements.Modules
	return &fileModuleReqs{Mandatory: rq.Mandatory, Conditional: rq.Conditional, AnyOf: rq.AnyOf, NoneOf: rq.NoneOf, v2: true}
}

// packageHead reads type, weight, critical and exclusiveGroup. Only a
// Module carries the last three (D131): on an Application they are
// ignored with a warning.
func (l *dkpLoader) packageHead(path string, dp *dkpPackage) (moduleHead, error) {
	typ, err := model.ParsePackageType(dp.Type)
	if err != nil {
		return moduleHead{}, &ParseError{File: path, Err: err}
	}
	h := moduleHead{typ: typ, weight: dp.Weight, critical: dp.Critical, exclusiveGroup: dp.ExclusiveGroup}
	if typ == model.PackageApplication {
		if h.weight != 0 || h.critical || h.exclusiveGroup != "" {
			l.rep.warn("%s: an Application has no weight, critical or exclusiveGroup; ignored", path)
		}
		return moduleHead{typ: typ}, nil
	}
	if h.weight == 0 {
		h.weight = v2DefaultWeight
	}
	return h, nil
}

// packageRequirements reads package.yaml's requirements with DKP's
// checks, in DKP's order: kubernetes, deckhouse, then the buckets. A
// module that requires itself is refused afterwards (refuseSelfLoop).
func (l *dkpLoader) packageRequirements(loc place, dp *dkpPackage) (model.Requirements, error) {
	var req model.Requirements
	rq := &dp.Requirements
	var err error
	if req.Kubernetes, err = loc.v2Platform("kubernetes", rq.Kubernetes.Constraint, rq.Kubernetes.line); err != nil {
		return req, err
	}
	if req.Deckhouse, err = loc.v2Platform("deckhouse", rq.Deckhouse.Constraint, rq.Deckhouse.line); err != nil {
		return req, err
	}
	req.Modules, req.Compound, err = loc.v2Requirements(dp.modules())
	return req, err
}

// readLegacy reads one module.yaml (ok false when there is none).
func (l *dkpLoader) readLegacy(path, module string, loc place) (manifest, error) {
	dm, ok, err := l.readModule(path, module)
	if err != nil || !ok {
		return manifest{}, err
	}
	loc.file = path
	mf := manifest{ok: true, disable: dm.Disable.toModel(), stage: l.stage(loc, dm.Stage),
		head: moduleHead{weight: dm.Weight, exclusiveGroup: dm.ExclusiveGroup}}
	if mf.req, err = l.requirements(path, loc, &dm.Requirements); err != nil {
		return manifest{}, err
	}
	mf.rel = &model.Release{Accessibility: dm.Accessibility.toModel(), Disable: mf.disable, Stage: mf.stage, Requirements: mf.req,
		Origin: model.Origin{File: path, Line: 1}, Lines: dm.lines}
	if dm.Update != nil {
		if mf.rel.UpdateRules, err = parseUpdateRules(dm.Update.Versions); err != nil {
			return manifest{}, &ParseError{File: path, Err: fmt.Errorf("update: %w", err)}
		}
	}
	return mf, nil
}

// stage reads a stage with DKP's tolerance (D134): DKP publishes any
// stage text, and gates only Experimental, so an unknown one reads as
// General Availability, with a warning.
func (l *dkpLoader) stage(loc place, text string) model.Stage {
	s, err := model.ParseStage(text)
	if err != nil {
		l.rep.warn("%s: stage %q is none of DKP's stages; read as %s", loc.file, strings.TrimSpace(text), model.StageGeneralAvailability)
		return model.StageGeneralAvailability
	}
	return s
}

// checkName warns when a manifest names another module than its folder.
func (l *dkpLoader) checkName(path, name, module string) {
	if name != "" && name != module {
		l.rep.warn("%s: name %q differs from its folder; the folder name %q is used", path, name, module)
	}
}

// compareLegacy reads the module.yaml beside a package.yaml, if any, and
// warns where it disagrees with the package.yaml that is read, as DKP's
// linter reports it. A module.yaml that cannot be read is named too:
// DKP never parses it.
func (l *dkpLoader) compareLegacy(path, module string, loc place, pkg manifest) {
	if _, err := os.Stat(path); err != nil {
		return
	}
	sub := &dkpLoader{root: l.root, rep: &Report{}}
	legacy, err := sub.readLegacy(path, module, loc)
	if err != nil {
		l.rep.warn("%s: not read, since %s beside it is (it would not load: %v)", path, dkpPackageFile, err)
		return
	}
	if diffs := manifestDiffs(pkg, legacy); len(diffs) > 0 {
		l.rep.warn("%s: disagrees with %s beside it, which is read: %s", path, dkpPackageFile, strings.Join(diffs, "; "))
	}
}

// manifestDiffs lists where a module.yaml disagrees with its package.yaml
// on what resolution reads.
func manifestDiffs(pkg, legacy manifest) []string {
	var out []string
	differ := func(what, a, b string) {
		if compact(a) != compact(b) {
			out = append(out, fmt.Sprintf("%s %q in package.yaml, %q in module.yaml", what, a, b))
		}
	}
	differ("exclusiveGroup", pkg.head.exclusiveGroup, legacy.head.exclusiveGroup)
	differ("stage", pkg.stage.String(), legacy.stage.String())
	differ("requirements.deckhouse", constraintOf(pkg.req.Deckhouse), constraintOf(legacy.req.Deckhouse))
	differ("requirements.kubernetes", constraintOf(pkg.req.Kubernetes), constraintOf(legacy.req.Kubernetes))
	names := map[string]bool{}
	for _, d := range slices.Concat(pkg.req.Modules, legacy.req.Modules) {
		names[d.Module] = true
	}
	for _, name := range sortedKeys(names) {
		differ("requirement on "+name, dependencyOf(pkg.req.Modules, name), dependencyOf(legacy.req.Modules, name))
	}
	if n := len(pkg.req.Compound); n > 0 {
		out = append(out, fmt.Sprintf("%d anyOf/noneOf group(s) module.yaml cannot express", n))
	}
	return out
}

// constraintOf is a constraint's text; "" for none.
func constraintOf(c *model.Constraint) string {
	if c == nil {
		return ""
	}
	return c.Text
}

// compact drops the blanks of a text, so that ">=1.28" and ">= 1.28"
// agree.
func compact(text string) string { return strings.Join(strings.Fields(text), "") }

// dependencyOf is the constraint text of the requirement on name; "" for
// none.
func dependencyOf(deps []model.Dependency, name string) string {
	for _, d := range deps {
		if d.Module == name {
			return constraintOf(&d.Constraint)
		}
	}
	return ""
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
