package catalog

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Reading KUDO operator packages (FormatKUDO).
//
// KUDO (kudo.dev) installs Kubernetes operators from packages: an
// operator.yaml with a name, an operatorVersion, an optional appVersion,
// the KUDO and Kubernetes versions it needs, and tasks. A catalog is a
// directory of packages (kudo_dir.go) or a KUDO repository index.yaml
// (kudo_index.go). It is tolerant input, as a Helm index is: only the
// fields below are read, and a package that cannot be read is skipped and
// reported. The mapping (D86–D90):
//
//   - An operator is a module named by its `name` as written (KUDO's names
//     are case-sensitive; a name that is not a lowercase DNS label, such as
//     CockroachDB, is counted). Renamed operators (rest-proxy and
//     confluent-rest-proxy) are distinct modules, as KUDO sees them.
//   - A package is a release; its version is formed from appVersion and
//     operatorVersion so that semver order is KUDO's (kudo_version.go,
//     D86). The pre-0.10 key `version:` is read as operatorVersion, and
//     counted. A two-part version ("2.0", mysql's unquoted 5.7) is read
//     as x.y.0 and counted as normalised (D71). An operatorVersion or
//     appVersion that is not semver (spark's `beta1`) skips the package.
//     Every operator updates directly (D66): `kubectl kudo upgrade` takes
//     any newer package. Versions are read as KUDO reads them
//     (model.ReadingBlang, D146): exact pins, and a prerelease a version
//     like any other.
//   - kudoVersion is a requirement `>= v` on the platform component kudo
//     (R22), not optional: KUDO itself installs the package (D88). A
//     package without one needs kudo at any version. A package with
//     KudoOperator tasks needs KUDO 0.15 at least; a lower kudoVersion is
//     raised to 0.15.0, with a warning (D89).
//   - kubernetesVersion is `kubernetes >= v`, as written (1.5.1 is a real,
//     if old, Kubernetes). One with major version 0 (druid's 0.16.0) is no
//     Kubernetes version: it is dropped, with a warning.
//   - A task of kind KudoOperator is a requirement on the module its
//     spec.package names; its operatorVersion and appVersion pins are
//     exact (D87). A relative path (`../dependency`) names the package in
//     that directory; one the catalog does not hold skips the package.
//     A pin no package of the operator matches stays a requirement that no
//     release meets, which the answer explains in KUDO's words, "package
//     not found" (D180).
//     Several tasks on one operator are one requirement that all must hold.
//     A package with a task on its own operator is refused, as KUDO
//     refuses it (`cyclic package dependency found when adding package
//     A-0.0.1 -> A-0.0.1`): it is set aside with a warning (D349).
//     Dependency cycles between operators are kept as requirements; the
//     solver refuses them (R27, D125).
//
// apiVersion is not read (25 real packages have none); neither are
// maintainers, url, plans, parameters or templates.

// FormatKUDO is a directory of KUDO operator packages or a KUDO
// repository index.yaml.
const FormatKUDO Format = "kudo"

// kudoComponent is the platform component KUDO's own version is checked
// against (R22).
const kudoComponent = "kudo"

// kudoDependenciesSince is the first KUDO version with KudoOperator tasks.
const kudoDependenciesSince = "0.15.0"

// kudoAny is the constraint of a requirement with no version bound.
const kudoAny = ">= 0.0.0-0"

// kudoTaskKind is the task kind that installs another operator.
const kudoTaskKind = "KudoOperator"

// Count phrases of a KUDO report.
const (
	kudoOldKey        = "packages with the pre-0.10 key version (read as operatorVersion)"
	kudoNoAppVersion  = "packages without appVersion"
	kudoNoAPIVersion  = "packages without apiVersion"
	kudoNoKudoVersion = "packages without kudoVersion (any kudo)"
	kudoRaised        = "kudoVersion raised to 0.15.0 for KudoOperator tasks"
	kudoNotKube       = "kubernetesVersion ignored: not a Kubernetes version"
	kudoNames         = "operator names that are not lowercase DNS labels"
	kudoDeps          = "KudoOperator dependencies"
	kudoOutside       = "KudoOperator dependencies on operators outside the catalog"
	kudoSelf          = "packages refused: a KudoOperator task installs the operator itself (cyclic package dependency)"
	kudoMissing       = "KudoOperator dependencies on a package the catalog does not hold (package not found)"
	kudoMerged        = "KudoOperator dependencies merged into another on the same operator"
	kudoDupKey        = "packages with a key written twice (the last one read)"
)

// kudoDNSLabel is a lowercase RFC 1123 label, the form of DKP's module names.
var kudoDNSLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// kudoPackage is one package as either source gives it.
type kudoPackage struct {
	// path names the package in the report; dir is its directory, against
	// which relative package paths are read ("" for an index entry).
	path, dir string
	name      string
	// operatorVersion is from `operatorVersion`, or `version` when oldKey.
	operatorVersion, appVersion    string
	kudoVersion, kubernetesVersion string
	oldKey, noAPIVersion           bool
	// duplicateKeys are top-level keys written twice; the last is read.
	duplicateKeys []string
	deps          []kudoDependency
	// file is the operator.yaml the package was read from, and lines the
	// lines of its keys (fieldLines); both empty for an index entry.
	file  string
	lines map[string]int
}

// kudoDependency is one KudoOperator task, and its line in the file.
type kudoDependency struct {
	task, pkg                   string
	operatorVersion, appVersion string
	line                        int
}

// kudoImporter converts packages and keeps the report.
type kudoImporter struct {
	rep *Report
	// byDir maps a package directory to its package name, for relative
	// package paths.
	byDir map[string]string
	// releases holds the versioned packages by operator name.
	releases map[string][]*kudoRelease
}

// kudoRelease is one package with its versions read.
type kudoRelease struct {
	pkg     *kudoPackage
	op, app model.Version // app is nil without an appVersion
	version model.Version
	// warnings and counts reach the report only if the package is kept.
	warnings []string
	counts   []string
	// refused is KUDO's error for a package that installs itself; "" for
	// one it installs.
	refused string
	// lines gives the line of each requirement in the package's file, by
	// the path modsolver reads it under (requirements.kubernetes,
	// requirements.platform.kudo, requirements.modules.<operator>).
	lines map[string]int
}

func (kr *kudoRelease) warn(format string, args ...any) {
	kr.warnings = append(kr.warnings, kr.pkg.path+": "+fmt.Sprintf(format, args...))
}

// importKUDO converts packages read from source into a catalog.
func importKUDO(source string, pkgs []*kudoPackage, rep *Report) (*model.Catalog, *Report, error) {
	k := &kudoImporter{rep: rep, byDir: map[string]string{}, releases: map[string][]*kudoRelease{}}
	slices.SortStableFunc(pkgs, func(a, b *kudoPackage) int { return cmp.Compare(a.path, b.path) })
	for _, p := range pkgs {
		if p.dir != "" && p.name != "" {
			k.byDir[p.dir] = p.name
		}
	}
	k.version(pkgs)
	cat, err := model.NewCatalog(k.modules())
	if err != nil {
		return nil, nil, &ParseError{File: source, Err: err}
	}
	k.rep.count(cat)
	return cat, k.rep, nil
}

// version reads every package's versions and groups the packages by
// operator, skipping those that cannot be read.
func (k *kudoImporter) version(pkgs []*kudoPackage) {
	byName := map[string][]*kudoRelease{}
	for _, p := range pkgs {
		kr, err := readKudoVersions(p)
		if err != nil {
			k.rep.skip(p.path, "%v", err)
			continue
		}
		byName[p.name] = append(byName[p.name], kr)
	}
	for name, rels := range byName {
		packed := slices.ContainsFunc(rels, func(kr *kudoRelease) bool { return kr.app != nil })
		seen := map[string]*kudoRelease{}
		for _, kr := range rels {
			v, err := kudoReleaseVersion(kr.app, kr.op, packed)
			if err != nil {
				k.rep.skip(kr.pkg.path, "%v", err)
				continue
			}
			key := model.VersionString(v)
			if first, dup := seen[key]; dup {
				k.rep.skip(kr.pkg.path, "listed twice: operatorVersion %s, appVersion %s, first in %s", kr.pkg.operatorVersion, cmp.Or(kr.pkg.appVersion, "(none)"), first.pkg.path)
				continue
			}
			seen[key] = kr
			kr.version = v
			k.releases[name] = append(k.releases[name], kr)
		}
	}
}

// readKudoVersions reads a package's name and its two versions.
func readKudoVersions(p *kudoPackage) (*kudoRelease, error) {
	kr := &kudoRelease{pkg: p}
	if p.name == "" {
		return nil, fmt.Errorf("%w: name: not set", model.ErrMissingField)
	}
	if p.operatorVersion == "" {
		return nil, fmt.Errorf("%w: operatorVersion: not set", model.ErrMissingField)
	}
	op, err := model.ParseVersion(p.operatorVersion)
	if err != nil {
		return nil, fmt.Errorf("operatorVersion: %w", err)
	}
	kr.op = op
	kr.normalised("operatorVersion", p.operatorVersion, op)
	if p.appVersion != "" {
		if kr.app, err = model.ParseVersion(p.appVersion); err != nil {
			return nil, fmt.Errorf("appVersion: %w", err)
		}
		kr.normalised("appVersion", p.appVersion, kr.app)
	}
	return kr, nil
}

// normalised notes a version read in another form than written (D71).
func (kr *kudoRelease) normalised(field, text string, v model.Version) {
	if w := normalised(kr.pkg.path, text, v); w != "" {
		kr.warnings = append(kr.warnings, strings.Replace(w, ": version ", ": "+field+" ", 1))
		kr.counts = append(kr.counts, versionsNormalised)
	}
}

// modules converts every operator, in name order so that the report is
// stable.
func (k *kudoImporter) modules() []*model.Module {
	var modules []*model.Module
	for _, name := range slices.Sorted(maps.Keys(k.releases)) {
		m := &model.Module{Name: name, UpdatePolicy: model.UpdateDirect, Versions: model.ReadingBlang, Ecosystem: model.EcosystemKUDO,
			DependencyLoops: model.LoopsRefuse} // KUDO refuses cyclic packages (R27)
		for _, kr := range k.releases[name] {
			r, err := k.release(kr)
			if err != nil {
				k.rep.skip(kr.pkg.path, "%v", err)
				continue
			}
			k.commit(kr)
			m.Releases = append(m.Releases, r)
		}
		if len(m.Releases) == 0 {
			continue
		}
		if !kudoDNSLabel.MatchString(name) {
			k.rep.add(kudoNames, 1)
			k.rep.warn("%s: operator name %q is not a lowercase DNS label; it is kept as written, as KUDO names it", name, name)
		}
		modules = append(modules, m)
	}
	return modules
}

// commit adds a kept package's counts and warnings to the report.
func (k *kudoImporter) commit(kr *kudoRelease) {
	p := kr.pkg
	for _, q := range []struct {
		cond bool
		what string
	}{{p.oldKey, kudoOldKey}, {p.appVersion == "", kudoNoAppVersion}, {p.noAPIVersion, kudoNoAPIVersion}} {
		if q.cond {
			k.rep.add(q.what, 1)
		}
	}
	for _, key := range p.duplicateKeys {
		k.rep.add(kudoDupKey, 1)
		k.rep.warn("%s: key %s is written twice; the last value is read, as KUDO reads it", p.path, key)
	}
	for _, what := range kr.counts {
		k.rep.add(what, 1)
	}
	k.rep.Warnings = append(k.rep.Warnings, kr.warnings...)
}

// release converts one versioned package, or says why it is skipped.
func (k *kudoImporter) release(kr *kudoRelease) (*model.Release, error) {
	r := &model.Release{Version: kr.version}
	if kr.pkg.file != "" {
		kr.lines = map[string]int{}
		for key, field := range map[string]string{"kubernetesVersion": "requirements.kubernetes", "kudoVersion": "requirements.platform." + kudoComponent} {
			if line, ok := kr.pkg.lines[key]; ok {
				kr.lines[field] = line
			}
		}
		r.Origin, r.Lines = model.Origin{File: kr.pkg.file, Line: 1}, kr.lines
	}
	var err error
	if r.Requirements.Kubernetes, err = kr.kubernetes(); err != nil {
		return nil, err
	}
	if r.Requirements.Modules, err = k.dependencies(kr); err != nil {
		return nil, err
	}
	r.Refused = kr.refused
	kudo, err := kr.kudo(len(kr.pkg.deps) > 0)
	if err != nil {
		return nil, err
	}
	r.Requirements.Platform = map[string]*model.Constraint{kudoComponent: kudo}
	return r, nil
}

// kubernetes reads kubernetesVersion as a minimum; none is nil.
func (kr *kudoRelease) kubernetes() (*model.Constraint, error) {
	text := strings.TrimSpace(kr.pkg.kubernetesVersion)
	if text == "" {
		return nil, nil
	}
	v, err := model.ParseVersion(text)
	if err != nil {
		return nil, fmt.Errorf("kubernetesVersion: %w", err)
	}
	if v.Major() == 0 {
		kr.counts = append(kr.counts, kudoNotKube)
		kr.warn("kubernetesVersion %s is not a Kubernetes version; no Kubernetes requirement is read", text)
		return nil, nil
	}
	c, err := model.ParseConstraint(">= " + text)
	if err != nil {
		return nil, fmt.Errorf("kubernetesVersion: %w", err)
	}
	return &c, nil
}

// kudo reads kudoVersion as a minimum on the kudo component, raised to
// 0.15.0 for a package that has KudoOperator tasks (D89).
func (kr *kudoRelease) kudo(hasDeps bool) (*model.Constraint, error) {
	text := strings.TrimSpace(kr.pkg.kudoVersion)
	if text == "" {
		kr.counts = append(kr.counts, kudoNoKudoVersion)
		text = "0.0.0-0"
	} else if _, err := model.ParseVersion(text); err != nil {
		return nil, fmt.Errorf("kudoVersion: %w", err)
	}
	if hasDeps && model.MustParseVersion(text).LessThan(model.MustParseVersion(kudoDependenciesSince)) {
		kr.counts = append(kr.counts, kudoRaised)
		if kr.pkg.kudoVersion == "" {
			kr.warn("no kudoVersion, but KudoOperator tasks need KUDO %s: it requires kudo >= %s", kudoDependenciesSince, kudoDependenciesSince)
		} else {
			kr.warn("kudoVersion %s, but KudoOperator tasks need KUDO %s: it requires kudo >= %s", text, kudoDependenciesSince, kudoDependenciesSince)
		}
		text = kudoDependenciesSince
	}
	c, err := model.ParseConstraint(">= " + text)
	if err != nil {
		return nil, fmt.Errorf("kudoVersion: %w", err)
	}
	return &c, nil
}
