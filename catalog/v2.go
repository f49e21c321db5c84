package catalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"
	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// DKP's v2 requirement form (R28), shared by the single-file format and
// package.yaml: `deckhouse` and `kubernetes` as {constraint: C}, and
// `modules` in four buckets. Its validation follows DKP's own parser
// (dto.ModuleDefinition.Convert) check for check and word for word, so
// that a manifest DKP refuses is a load error that reads as DKP's.

// v2Buckets are the keys of requirements.modules in the v2 form, in the
// order DKP checks them.
var v2Buckets = []string{"mandatory", "conditional", "anyOf", "noneOf"}

// fileConstraint is a deckhouse or kubernetes requirement: the legacy
// text, or the v2 object {constraint: C} (R28). In package.yaml only the
// object is allowed (v2Constraint).
type fileConstraint struct {
	Constraint *string `yaml:"constraint"`

	text *string
	v2   bool
	line int
}

// decodeYAML reads either form.
func (fc *fileConstraint) decodeYAML(w *walker, n *yaml.Node) error {
	fc.line, fc.v2 = n.Line, n.Kind == yaml.MappingNode
	if !fc.v2 {
		return w.into(n, &fc.text)
	}
	type plain fileConstraint
	if err := w.into(n, (*plain)(fc)); err != nil {
		return err
	}
	fc.text = fc.Constraint
	return nil
}

// UnmarshalYAML decodes fc as decodeNode does.
func (fc *fileConstraint) UnmarshalYAML(n *yaml.Node) error { return decodeNode(n, fc) }

// requirementConstraint reads a deckhouse or kubernetes requirement in
// either form; the v2 form is checked as DKP checks it.
func (p place) requirementConstraint(what string, fc *fileConstraint) (*model.Constraint, error) {
	switch {
	case fc == nil || fc.text == nil:
		return nil, nil
	case fc.v2:
		return p.v2Platform(what, *fc.text, fc.line)
	}
	return p.platform(what, fc.text)
}

// moduleRequirements reads requirements.modules in either form.
func (p place) moduleRequirements(fm *fileModuleReqs) ([]model.Dependency, []model.CompoundRequirement, error) {
	switch {
	case fm == nil:
		return nil, nil, nil
	case fm.v2:
		return p.v2Requirements(fm)
	}
	deps, err := p.dependencies(fm.Legacy)
	return deps, nil, err
}

// fileModuleReqs is requirements.modules: the legacy map of module to
// constraint, or the v2 buckets, told apart by their values (a bucket is
// a list). Legacy holds the map for strict key checks.
type fileModuleReqs struct {
	Mandatory   []*fileDependency `yaml:"mandatory"`
	Conditional []*fileDependency `yaml:"conditional"`
	AnyOf       []*fileGroup      `yaml:"anyOf"`
	NoneOf      []*fileGroup      `yaml:"noneOf"`

	Legacy map[string]string `yaml:",inline"`

	v2   bool
	line int
	// badKey is a key of the v2 form that is no bucket, and its line.
	badKey  string
	badLine int
}

// legacy returns the legacy map; nil for none or for the v2 form.
func (fm *fileModuleReqs) legacy() map[string]string {
	if fm == nil {
		return nil
	}
	return fm.Legacy
}

// decodeYAML reads either form.
func (fm *fileModuleReqs) decodeYAML(w *walker, n *yaml.Node) error {
	fm.line = n.Line
	if n.Kind != yaml.MappingNode {
		return w.into(n, &fm.Legacy) // a type error, in yaml's words
	}
	for i := 1; i < len(n.Content); i += 2 {
		fm.v2 = fm.v2 || n.Content[i].Kind == yaml.SequenceNode
	}
	if !fm.v2 {
		return w.into(n, &fm.Legacy)
	}
	for i := 0; i < len(n.Content); i += 2 {
		if key := n.Content[i]; !slices.Contains(v2Buckets, key.Value) && fm.badKey == "" {
			fm.badKey, fm.badLine = key.Value, key.Line
		}
	}
	var b v2Modules
	if err := w.into(n, &b); err != nil {
		return err
	}
	fm.Mandatory, fm.Conditional, fm.AnyOf, fm.NoneOf = b.Mandatory, b.Conditional, b.AnyOf, b.NoneOf
	return nil
}

// UnmarshalYAML decodes fm as decodeNode does.
func (fm *fileModuleReqs) UnmarshalYAML(n *yaml.Node) error { return decodeNode(n, fm) }

// v2Modules is the v2 form of requirements.modules on its own, as
// package.yaml writes it.
type v2Modules struct {
	Mandatory   []*fileDependency `yaml:"mandatory"`
	Conditional []*fileDependency `yaml:"conditional"`
	AnyOf       []*fileGroup      `yaml:"anyOf"`
	NoneOf      []*fileGroup      `yaml:"noneOf"`
}

// fileDependency is one entry of a bucket or a group: {name, constraint?}.
type fileDependency struct {
	Name       string `yaml:"name"`
	Constraint string `yaml:"constraint"`

	line int
}

// decodeYAML records the entry's line.
func (fd *fileDependency) decodeYAML(w *walker, n *yaml.Node) error {
	type plain fileDependency
	fd.line = n.Line
	return w.into(n, (*plain)(fd))
}

// UnmarshalYAML decodes fd as decodeNode does.
func (fd *fileDependency) UnmarshalYAML(n *yaml.Node) error { return decodeNode(n, fd) }

// fileGroup is one anyOf or noneOf group.
type fileGroup struct {
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Modules     []*fileDependency `yaml:"modules"`

	line int
}

// decodeYAML records the group's line.
func (fg *fileGroup) decodeYAML(w *walker, n *yaml.Node) error {
	type plain fileGroup
	fg.line = n.Line
	return w.into(n, (*plain)(fg))
}

// UnmarshalYAML decodes fg as decodeNode does.
func (fg *fileGroup) UnmarshalYAML(n *yaml.Node) error { return decodeNode(n, fg) }

// ManifestError is a DKP v2 requirement that DKP's own validation
// refuses (R28). Reason is DKP's message, word for word where DKP has one.
type ManifestError struct {
	Module, Release string
	Reason          string
}

func (e *ManifestError) Error() string {
	where := "module " + e.Module
	if e.Release != "" {
		where += ": release " + e.Release
	}
	return where + ": " + e.Reason
}

// Unwrap places the error in ErrManifest.
func (e *ManifestError) Unwrap() error { return ErrManifest }

// manifestErr is a *ParseError at line holding a *ManifestError.
func (p place) manifestErr(line int, format string, args ...any) error {
	return &ParseError{File: p.file, Line: line, Err: &ManifestError{Module: p.module, Release: p.release, Reason: fmt.Sprintf(format, args...)}}
}

// v2Platform reads a v2 deckhouse or kubernetes constraint; "" is none.
// what is "deckhouse" or "kubernetes".
func (p place) v2Platform(what, text string, line int) (*model.Constraint, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	if _, err := semver.NewConstraint(text); err != nil {
		return nil, p.manifestErr(line, "parse %s requirement: %v", what, err)
	}
	c, err := p.constraint(what, text)
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// v2Requirements reads the four buckets (R28): mandatory as R2,
// conditional as R3, each group as a compound requirement (R24) that
// carries its group. It checks what DKP's parser checks, in its order:
// mandatory, conditional, anyOf, noneOf, then modules in two buckets.
func (p place) v2Requirements(fm *fileModuleReqs) ([]model.Dependency, []model.CompoundRequirement, error) {
	if fm.badKey != "" {
		return nil, nil, &ParseError{File: p.file, Line: fm.badLine, Err: fmt.Errorf("%w %q in requirements.modules: DKP's v2 form has %s", ErrUnknownKey, fm.badKey, strings.Join(v2Buckets, ", "))}
	}
	mandatory, err := p.v2Dependencies(fm.Mandatory, "mandatory")
	if err != nil {
		return nil, nil, err
	}
	conditional, err := p.v2Dependencies(fm.Conditional, "conditional")
	if err != nil {
		return nil, nil, err
	}
	anyOf, err := p.v2Groups(fm.AnyOf, model.GroupAnyOf)
	if err != nil {
		return nil, nil, err
	}
	noneOf, err := p.v2Groups(fm.NoneOf, model.GroupNoneOf)
	if err != nil {
		return nil, nil, err
	}
	if err := p.v2Collisions(fm, mandatory, conditional); err != nil {
		return nil, nil, err
	}
	return append(mandatory, conditional...), append(anyOf, noneOf...), nil
}

// v2SelfLoop is DKP's reason for refusing a v2 release whose mandatory
// or conditional bucket names its own module, and the entry's line: its
// scheduler's one-module cycle, `dependency cycle through: m` (R27). A
// group that names the module is no such cycle. ok is false for the
// legacy form, whose reader drops the entry instead.
func (p place) v2SelfLoop(fm *fileModuleReqs) (reason string, line int, ok bool) {
	if fm == nil || !fm.v2 {
		return "", 0, false
	}
	for _, d := range slices.Concat(fm.Mandatory, fm.Conditional) {
		if d != nil && strings.TrimSpace(d.Name) == p.module {
			return "dependency cycle through: " + p.module, d.line, true
		}
	}
	return "", 0, false
}

// v2Dependencies reads the mandatory or conditional bucket. A mandatory
// entry without a constraint means any version (R2's ">= 0.0.0"); a
// conditional one needs a constraint, which reads as R3's "C !optional".
func (p place) v2Dependencies(list []*fileDependency, bucket string) ([]model.Dependency, error) {
	var out []model.Dependency
	for i, fd := range list {
		if fd == nil {
			return nil, p.manifestErr(0, "parse %s module requirement [%d]: name is required", bucket, i)
		}
		name, text := strings.TrimSpace(fd.Name), strings.TrimSpace(fd.Constraint)
		switch {
		case name == "":
			return nil, p.manifestErr(fd.line, "parse %s module requirement [%d]: name is required", bucket, i)
		case bucket == "conditional" && text == "":
			return nil, p.manifestErr(fd.line, "parse conditional module requirement '%s': constraint is required", name)
		case inDeps(out, name):
			return nil, p.manifestErr(fd.line, "parse %s module requirement '%s': listed twice", bucket, name)
		}
		c, err := p.v2Constraint(fd.line, fmt.Sprintf("parse %s module requirement '%s'", bucket, name), text, bucket == "conditional")
		if err != nil {
			return nil, err
		}
		out = append(out, model.Dependency{Module: name, Constraint: c})
	}
	return out, nil
}

// v2Constraint parses a v2 constraint as DKP does, with Masterminds'
// grammar alone (no !optional, no exclusions); "" is any version. An
// optional one reads as R3's "C !optional".
func (p place) v2Constraint(line int, what, text string, optional bool) (model.Constraint, error) {
	if text == "" {
		text = ">= 0.0.0"
	}
	if _, err := semver.NewConstraint(text); err != nil {
		return model.Constraint{}, p.manifestErr(line, "%s: %v", what, err)
	}
	if optional {
		text += " !optional"
	}
	return p.parsed.parse(text)
}

// v2Groups reads the anyOf or noneOf bucket.
func (p place) v2Groups(list []*fileGroup, kind model.GroupKind) ([]model.CompoundRequirement, error) {
	var out []model.CompoundRequirement
	seen := map[string]bool{}
	for i, fg := range list {
		if fg == nil || strings.TrimSpace(fg.Name) == "" {
			line := 0
			if fg != nil {
				line = fg.line
			}
			return nil, p.manifestErr(line, "parse %s group [%d]: name is required", kind, i)
		}
		name := strings.TrimSpace(fg.Name)
		if seen[name] {
			return nil, p.manifestErr(fg.line, "parse %s group '%s': duplicate group name", kind, name)
		}
		seen[name] = true
		members, err := p.v2Members(fg, kind, name)
		if err != nil {
			return nil, err
		}
		out = append(out, model.NewGroup(kind, name, strings.TrimSpace(fg.Description), members))
	}
	return out, nil
}

// v2Members reads the members of one group as module atoms.
func (p place) v2Members(fg *fileGroup, kind model.GroupKind, group string) ([]*model.Predicate, error) {
	if len(fg.Modules) == 0 {
		return nil, p.manifestErr(fg.line, "parse %s group '%s': at least one member is required", kind, group)
	}
	var out []*model.Predicate
	for _, fd := range fg.Modules {
		if fd == nil || strings.TrimSpace(fd.Name) == "" {
			return nil, p.manifestErr(fg.line, "parse %s group '%s': member name is required", kind, group)
		}
		name, text := strings.TrimSpace(fd.Name), strings.TrimSpace(fd.Constraint)
		if slices.ContainsFunc(out, func(m *model.Predicate) bool { return m.Module == name }) {
			return nil, p.manifestErr(fd.line, "parse %s group '%s': duplicate member '%s'", kind, group, name)
		}
		atom := &model.Predicate{Op: model.PredicateModule, Module: name}
		if text != "" {
			c, err := p.v2Constraint(fd.line, fmt.Sprintf("parse %s group '%s' member '%s'", kind, group, name), text, false)
			if err != nil {
				return nil, err
			}
			atom.Version = &c
		}
		out = append(out, atom)
	}
	return out, nil
}

// v2Collisions refuses a module in two buckets, as DKP does: mandatory and
// conditional exclude each other, an anyOf member may be in neither, and
// a noneOf member in no other bucket. The same module in two groups of
// one bucket is allowed. Entries are checked in the order written.
func (p place) v2Collisions(fm *fileModuleReqs, mandatory, conditional []model.Dependency) error {
	required := []struct {
		bucket string
		deps   []model.Dependency
	}{{"mandatory", mandatory}, {"conditional", conditional}}
	for _, fd := range fm.Conditional {
		if name := strings.TrimSpace(fd.Name); inDeps(mandatory, name) {
			return p.manifestErr(fd.line, "module '%s' appears in both mandatory and conditional", name)
		}
	}
	for _, bucket := range []struct {
		kind   model.GroupKind
		groups []*fileGroup
	}{{model.GroupAnyOf, fm.AnyOf}, {model.GroupNoneOf, fm.NoneOf}} {
		for _, g := range bucket.groups {
			for _, fd := range g.Modules {
				name, group := strings.TrimSpace(fd.Name), strings.TrimSpace(g.Name)
				for _, r := range required {
					if inDeps(r.deps, name) {
						return p.manifestErr(fd.line, "module '%s' appears in both %s and %s group '%s'", name, r.bucket, bucket.kind, group)
					}
				}
				if ag := groupWith(fm.AnyOf, name); bucket.kind == model.GroupNoneOf && ag != nil {
					return p.manifestErr(fd.line, "module '%s' appears in both anyOf group '%s' and noneOf group '%s'", name, strings.TrimSpace(ag.Name), group)
				}
			}
		}
	}
	return nil
}

// inDeps reports whether deps hold a requirement on name.
func inDeps(deps []model.Dependency, name string) bool {
	return slices.ContainsFunc(deps, func(d model.Dependency) bool { return d.Module == name })
}

// groupWith returns the first group that has name as a member, or nil.
func groupWith(groups []*fileGroup, name string) *fileGroup {
	for _, g := range groups {
		if slices.ContainsFunc(g.Modules, func(m *fileDependency) bool { return strings.TrimSpace(m.Name) == name }) {
			return g
		}
	}
	return nil
}
