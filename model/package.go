package model

import (
	"fmt"
	"slices"
	"strings"
)

// PackageType is what DKP's v2 package manifest says a package is (R28):
// a Module, enabled cluster-wide by its ModuleConfig, or an Application,
// installed by Application resources of its own (D131). The zero value is
// Module, which is also what an absent type means.
type PackageType int

const (
	PackageModule PackageType = iota
	PackageApplication
)

// packageTypeNames holds each type's text in package.yaml, by type.
var packageTypeNames = [...]string{
	PackageModule:      "Module",
	PackageApplication: "Application",
}

func (t PackageType) String() string {
	if t >= 0 && int(t) < len(packageTypeNames) {
		return packageTypeNames[t]
	}
	return "unspecified"
}

// ParsePackageType reads a package type as package.yaml writes it; an
// empty text is Module. Case and surrounding blanks do not matter.
func ParsePackageType(text string) (PackageType, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return PackageModule, nil
	}
	for i, name := range packageTypeNames {
		if strings.EqualFold(text, name) {
			return PackageType(i), nil
		}
	}
	return 0, fmt.Errorf("%w: type %q: want Module or Application", ErrInvalidValue, text)
}

// Manifest is the form a release's requirements were written in: DKP's
// legacy module.yaml form, or the v2 package manifest (R28), whether
// read from package.yaml or written in the single-file format.
type Manifest int

const (
	ManifestLegacy Manifest = iota
	ManifestV2
)

// ManifestOf returns the form release r of m was written in; a built-in
// module has no releases, and its own applies (R5).
func (m *Module) ManifestOf(r *Release) Manifest {
	if m.Embedded || r == nil {
		return m.Manifest
	}
	return r.Manifest
}

// checkApplications refuses a requirement that names an Application:
// DKP's requirements and groups name modules, and an Application is not
// one (D131).
func (c *Catalog) checkApplications() InputErrors {
	if !slices.ContainsFunc(c.modules, func(m *Module) bool { return m.Type == PackageApplication }) {
		return nil // nothing to name
	}
	var errs InputErrors
	for _, m := range c.modules {
		m.EachRequirements(func(field Path, req Requirements) {
			for _, name := range req.moduleNames() {
				if t := c.index[name]; t != nil && t.Type == PackageApplication {
					errs = append(errs, fieldErr(field.Field("requirements"), ErrInvalidValue,
						"module %s requires %s, which is an Application: requirements name modules, and an Application is installed by its own resources, not enabled as a module", m.Name, name))
				}
			}
		})
	}
	return errs
}

// EachRequirements calls fn with the requirements of m and of each of its
// releases, and the field that names them.
func (m *Module) EachRequirements(fn func(field Path, req Requirements)) {
	field := Field("modules").Key(m.Name)
	fn(field, m.Requirements)
	for _, r := range m.Releases {
		fn(field.Field("releases").Item(r.Version.String()), r.Requirements)
	}
}

// moduleNames lists the modules req names: its dependencies and the
// module atoms of its compound requirements.
func (req Requirements) moduleNames() []string {
	var out []string
	for _, d := range req.Modules {
		out = append(out, d.Module)
	}
	for _, c := range req.Compound {
		ms, _, _ := c.Predicate.Names()
		out = append(out, ms...)
	}
	return out
}
