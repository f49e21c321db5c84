package catalog

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

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
// operator matches skips the package that pins it: KUDO could not install
// it either. An operator outside the catalog stays a requirement, which
// the solver explains as "not in the catalog"; it is counted.

// errKudoDependency is a KudoOperator task that cannot be met as written.
var errKudoDependency = errors.New("KudoOperator task cannot be met")

// kudoPin is the set of a target's release versions a task allows; nil
// allows any.
type kudoPin []model.Version

// dependencies turns a package's KudoOperator tasks into requirements,
// one per operator, sorted by name.
func (k *kudoImporter) dependencies(kr *kudoRelease) ([]model.Dependency, error) {
	pins := map[string]kudoPin{}
	tasks := map[string][]string{}
	for _, d := range kr.pkg.deps {
		target, err := k.target(kr.pkg, d)
		if err != nil {
			return nil, err
		}
		if target == kr.pkg.name {
			kr.counts = append(kr.counts, kudoSelf)
			kr.warn("task %s installs the operator itself; the dependency is dropped", d.task)
			continue
		}
		pin, err := k.pin(target, d)
		if err != nil {
			return nil, err
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
		c, err := model.ParseConstraint(pins[target].text())
		if err != nil {
			return nil, fmt.Errorf("internal error: a pin on %s: %w", target, err)
		}
		deps = append(deps, model.Dependency{Module: target, Constraint: c})
		kr.counts = append(kr.counts, kudoDeps)
		if k.releases[target] == nil {
			kr.counts = append(kr.counts, kudoOutside)
		}
	}
	return deps, nil
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
		return nil, fmt.Errorf("%w: task %s: %s has no package with%s", errKudoDependency, d.task, target, kudoPinText(d))
	}
	slices.SortFunc(pin, model.CompareVersions)
	return pin, nil
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
