package catalog

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/modsolver/modsolver/model"
)

// KudoOperator tasks as module requirements (D87).
//
// A task names an operator by spec.package and may pin spec.operatorVersion
// and spec.appVersion, each exact; a blank one means any (KUDO takes the
// latest, and modsolver prefers the newest, R14). A pin is the set of the
// operator's packages that match it, written as exact release versions
// ("= 2.5.10301 || = 2.5.10302" for operatorVersion 1.3.1 when two
// packages have it): under the packed form (D86) an operatorVersion alone
// does not fix the release version. A pin that no package of a catalog
// operator matches is a fact, not bad input (D180): it stays a
// requirement on the release versions the missing package would have,
// which no release meets, so the solver explains the dependent as
// unsatisfiable in KUDO's words ("package not found") and names the
// version that is missing; it is counted. An operator outside the catalog
// stays a requirement too, which the solver explains as "not in the
// catalog"; it is counted.

// errKudoDependency is a KudoOperator task that cannot be met as written.
var errKudoDependency = errors.New("KudoOperator task cannot be met")

// errKudoNoPackage is a task whose pins no package of its operator
// matches: KUDO's "package not found".
var errKudoNoPackage = fmt.Errorf("%w: package not found", errKudoDependency)

// kudoPin is the set of a target's release versions a task allows; nil
// allows any.
type kudoPin []model.Version

// dependencies turns a package's KudoOperator tasks into requirements,
// one per operator, sorted by name.
func (k *kudoImporter) dependencies(kr *kudoRelease) ([]model.Dependency, error) {
	pins := map[string]kudoPin{}
	tasks := map[string][]string{}
	lines := map[string]int{}      // target → the line of its first task
	missing := map[string]string{} // target → a constraint no package meets (D180)
	for _, d := range kr.pkg.deps {
		target, err := k.target(kr.pkg, d)
		if err != nil {
			return nil, err
		}
		if target == kr.pkg.name {
			kr.refuse(d.task)
			return nil, nil
		}
		if _, seen := lines[target]; !seen && d.line > 0 {
			lines[target] = d.line
		}
		pin, err := k.pin(target, d)
		if errors.Is(err, errKudoNoPackage) {
			text, ok := k.missingPin(target, d)
			if !ok {
				return nil, err
			}
			if _, seen := missing[target]; !seen {
				missing[target] = text
				kr.counts = append(kr.counts, kudoMissing)
			}
			tasks[target] = append(tasks[target], d.task)
			pins[target] = nil
			continue
		}
		if err != nil {
			return nil, err
		}
		if _, gone := missing[target]; gone {
			tasks[target] = append(tasks[target], d.task)
			continue
		}
		if prev, ok := pins[target]; ok {
			kr.counts = append(kr.counts, kudoMerged)
			if pin = prev.and(pin); pin != nil && len(pin) == 0 {
				return nil, fmt.Errorf("%w: tasks %s pin %s to no common package", errKudoDependency, strings.Join(append(tasks[target], d.task), ", "), target)
			}
		}
		pins[target] = pin
		tasks[target] = append(tasks[target], d.task)
	}
	deps := make([]model.Dependency, 0, len(pins))
	for _, target := range slices.Sorted(maps.Keys(pins)) {
		text := pins[target].text()
		if m, ok := missing[target]; ok {
			text = m
		}
		c, err := model.ParseConstraint(text)
		if err != nil {
			return nil, fmt.Errorf("internal error: a pin on %s: %w", target, err)
		}
		deps = append(deps, model.Dependency{Module: target, Constraint: c})
		if line, ok := lines[target]; ok && kr.lines != nil { // nil: no file to name
			kr.lines["requirements.modules."+target] = line
		}
		kr.counts = append(kr.counts, kudoDeps)
		if k.releases[target] == nil {
			kr.counts = append(kr.counts, kudoOutside)
		}
	}
	return deps, nil
}

// refuse marks a package whose task installs its own operator, as KUDO
// refuses it when it resolves the package's dependencies: the task adds
// the package to its own graph, which then has a cycle (R27, D349). Its
// pins do not matter: modsolver runs one release of an operator, so the
// package could only ever install itself. The package is set aside, and
// its other tasks are not read, as KUDO stops at the first error.
func (kr *kudoRelease) refuse(task string) {
	self := kudoPackageName(kr.pkg)
	kr.refused = fmt.Sprintf("cyclic package dependency found when adding package %s -> %s", self, self)
	kr.counts = append(kr.counts, kudoSelf)
	kr.warn("task %s: %s; KUDO refuses to install the package, so it is left out", task, kr.refused)
}

// kudoPackageName is a package as KUDO names its OperatorVersion:
// name-appVersion-operatorVersion, or name-operatorVersion without an
// appVersion, each as written.
func kudoPackageName(p *kudoPackage) string {
	parts := []string{p.name, strings.TrimSpace(p.appVersion), strings.TrimSpace(p.operatorVersion)}
	if parts[1] == "" {
		parts = slices.Delete(parts, 1, 2)
	}
	return strings.Join(parts, "-")
}

// target is the operator a task's spec.package names: a name, or a local
// path to a package directory of the catalog.
func (k *kudoImporter) target(p *kudoPackage, d kudoDependency) (string, error) {
	ref := strings.TrimSpace(d.pkg)
	switch {
	case ref == "":
		return "", fmt.Errorf("%w: task %s: spec.package: not set", model.ErrMissingField, d.task)
	case !strings.ContainsAny(ref, `/\`) && !strings.HasPrefix(ref, ".") && !strings.HasSuffix(ref, ".tgz"):
		return ref, nil
	case p.dir == "":
		return "", fmt.Errorf("%w: task %s: package %q is a local path, which an index cannot name", errKudoDependency, d.task, ref)
	}
	name, ok := k.byDir[filepath.Clean(filepath.Join(p.dir, ref))]
	if !ok {
		return "", fmt.Errorf("%w: task %s: package %q is a local path that holds no package of this catalog", errKudoDependency, d.task, ref)
	}
	return name, nil
}

// pin is the set of target's packages a task allows.
func (k *kudoImporter) pin(target string, d kudoDependency) (kudoPin, error) {
	op, err := kudoPinVersion(d.task, "operatorVersion", d.operatorVersion)
	if err != nil {
		return nil, err
	}
	app, err := kudoPinVersion(d.task, "appVersion", d.appVersion)
	if err != nil {
		return nil, err
	}
	rels, ok := k.releases[target]
	if (op == nil && app == nil) || !ok {
		return nil, nil
	}
	pin := kudoPin{}
	for _, kr := range rels {
		if (op == nil || kr.op.Equal(op)) && (app == nil || (kr.app != nil && kr.app.Equal(app))) {
			pin = append(pin, kr.version)
		}
	}
	if len(pin) == 0 {
		return nil, fmt.Errorf("%w: task %s: %s has no package with%s", errKudoNoPackage, d.task, target, kudoPinText(d))
	}
	slices.SortFunc(pin, model.CompareVersions)
	return pin, nil
}

// missingPin is the constraint a task's pins make when no package of
// target matches them (D180): the release versions the pinned package
// would have (D86), which no release of target has. An operatorVersion
// pin is that version, or, on a packed operator without an appVersion
// pin, that operatorVersion with each appVersion the operator ships; an
// appVersion pin alone is the range of that appVersion's packages. ok is
// false when no such constraint misses every release (an appVersion pin
// on an operator whose packages have none): the package is then skipped.
func (k *kudoImporter) missingPin(target string, d kudoDependency) (string, bool) {
	rels := k.releases[target]
	op, _ := kudoPinVersion(d.task, "operatorVersion", d.operatorVersion)
	app, _ := kudoPinVersion(d.task, "appVersion", d.appVersion)
	packed := slices.ContainsFunc(rels, func(kr *kudoRelease) bool { return kr.app != nil })
	var parts []string
	switch {
	case op == nil && !packed:
		return "", false
	case op == nil:
		lo, err := kudoReleaseVersion(app, semver.New(0, 0, 0, "", ""), true)
		if err != nil {
			return "", false
		}
		hi := semver.New(lo.Major(), lo.Minor(), lo.Patch()+kudoPackedLimit*kudoPackedLimit*kudoPackedLimit, "", "")
		parts = []string{fmt.Sprintf(">= %s, < %s", model.VersionString(lo), model.VersionString(hi))}
	default:
		apps := []model.Version{app}
		if app == nil && packed {
			apps = kudoApps(rels)
		}
		for _, a := range apps {
			v, err := kudoReleaseVersion(a, op, packed || a != nil)
			if err != nil {
				return "", false
			}
			parts = append(parts, "= "+model.VersionString(v))
		}
	}
	text := strings.Join(parts, " || ")
	c, err := model.ParseConstraint(text)
	if err != nil || slices.ContainsFunc(rels, func(kr *kudoRelease) bool { return c.Allows(kr.version) }) {
		return "", false
	}
	return text, true
}

// kudoApps lists the distinct appVersions of an operator's packages,
// nil for the packages without one, in release order.
func kudoApps(rels []*kudoRelease) []model.Version {
	var apps []model.Version
	for _, kr := range rels {
		if !slices.ContainsFunc(apps, func(a model.Version) bool {
			return (a == nil) == (kr.app == nil) && (a == nil || model.SameVersion(a, kr.app))
		}) {
			apps = append(apps, kr.app)
		}
	}
	return apps
}

// kudoPinVersion reads one pin; blank is nil.
func kudoPinVersion(task, field, text string) (model.Version, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	v, err := model.ParseVersion(text)
	if err != nil {
		return nil, fmt.Errorf("task %s: spec.%s: %w", task, field, err)
	}
	return v, nil
}

// kudoPinText names a task's pins for messages.
func kudoPinText(d kudoDependency) string {
	var b strings.Builder
	if d.operatorVersion != "" {
		fmt.Fprintf(&b, " operatorVersion %s", d.operatorVersion)
	}
	if d.appVersion != "" {
		fmt.Fprintf(&b, " appVersion %s", d.appVersion)
	}
	return b.String()
}

// and is the versions both pins allow.
func (p kudoPin) and(q kudoPin) kudoPin {
	switch {
	case p == nil:
		return q
	case q == nil:
		return p
	}
	both := kudoPin{}
	for _, v := range p {
		if slices.ContainsFunc(q, func(w model.Version) bool { return model.SameVersion(v, w) }) {
			both = append(both, v)
		}
	}
	return both
}

// text is the pin as a constraint.
func (p kudoPin) text() string {
	if p == nil {
		return kudoAny
	}
	parts := make([]string, len(p))
	for i, v := range p {
		parts[i] = "= " + model.VersionString(v)
	}
	return strings.Join(parts, " || ")
}
