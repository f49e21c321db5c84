package catalog

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// Rancher's chart annotations (D68), read from a Helm index entry's
// annotations:
//
//   - catalog.cattle.io/kube-version is a Kubernetes requirement, which
//     must hold together with kubeVersion (both are joined with AND).
//   - catalog.cattle.io/rancher-version is a requirement on the platform
//     component "rancher" (R22). It is optional (D69): on a cluster that
//     does not run Rancher, as every DKP cluster, it says nothing, just as
//     `helm install` ignores it.
//   - catalog.cattle.io/auto-install: "<chart>=match" requires that chart
//     at the same version as this one, "<chart>=<version>" at that
//     version. Rancher installs it first; as a requirement it is planned
//     first (R18). It is required in both subchart modes (D67): it names a
//     release of its own, not a subchart.
//   - catalog.cattle.io/provides-gvr lists the group/version this chart's
//     CRDs serve, as capabilities (R19).
//
// Every other annotation key carries no resolution meaning; each is
// counted by key, so that `catalog stats` shows what was read past.

// Rancher's annotation keys that carry resolution meaning.
const (
	rancherKubeVersion    = "catalog.cattle.io/kube-version"
	rancherRancherVersion = "catalog.cattle.io/rancher-version"
	rancherAutoInstall    = "catalog.cattle.io/auto-install"
	rancherProvidesGVR    = "catalog.cattle.io/provides-gvr"
)

// rancherComponent is the platform component rancher-version gates.
const rancherComponent = "rancher"

// helmIgnoredAnnotation prefixes the count of an annotation key with no
// resolution meaning.
const helmIgnoredAnnotation = "annotations without resolution meaning: "

// helmAnnotationReaders maps each annotation key with a meaning to its
// reader.
var helmAnnotationReaders = map[string]func(h *helmImporter, hr *helmRelease, text string) error{
	rancherKubeVersion:    (*helmImporter).rancherKube,
	rancherRancherVersion: (*helmImporter).rancherVersion,
	rancherAutoInstall:    (*helmImporter).rancherAutoInstall,
	rancherProvidesGVR:    (*helmImporter).rancherProvides,
}

// annotations reads a chart version's annotations into hr, in key order.
func (h *helmImporter) annotations(hr *helmRelease, annotations map[string]yaml.Node) error {
	keys := make([]string, 0, len(annotations))
	for k := range annotations {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		read, ok := helmAnnotationReaders[key]
		if !ok {
			hr.ignored = append(hr.ignored, key)
			continue
		}
		node := annotations[key]
		if node.Kind != yaml.ScalarNode {
			return fmt.Errorf("annotation %s: %w: not a string", key, model.ErrInvalidValue)
		}
		if err := read(h, hr, strings.TrimSpace(node.Value)); err != nil {
			return fmt.Errorf("annotation %s: %w", key, err)
		}
	}
	return nil
}

// rancherKube joins kube-version with the kubeVersion already read.
func (h *helmImporter) rancherKube(hr *helmRelease, text string) error {
	if text == "" {
		return nil
	}
	if _, err := h.helmRange(text); err != nil {
		return err
	}
	req := &hr.release.Requirements
	if req.Kubernetes != nil {
		text = andRanges(req.Kubernetes.Text, text)
	}
	c, err := h.constraint(text)
	if err != nil {
		return err
	}
	req.Kubernetes = &c
	return nil
}

// rancherVersion reads rancher-version as an optional requirement on the
// rancher component.
func (h *helmImporter) rancherVersion(hr *helmRelease, text string) error {
	if text == "" {
		return nil
	}
	if _, err := h.helmRange(text); err != nil {
		return err
	}
	c, err := h.constraint(text + " " + helmOptional)
	if err != nil {
		return err
	}
	req := &hr.release.Requirements
	if req.Platform == nil {
		req.Platform = map[string]*model.Constraint{}
	}
	req.Platform[rancherComponent] = &c
	return nil
}

// rancherAutoInstall reads "<chart>=match" or "<chart>=<version>" as a
// requirement on that chart at exactly that version.
func (h *helmImporter) rancherAutoInstall(hr *helmRelease, text string) error {
	chart, version, ok := strings.Cut(text, "=")
	chart, version = strings.TrimSpace(chart), strings.TrimSpace(version)
	if !ok || chart == "" || version == "" {
		return fmt.Errorf("%w: %q: want <chart>=match or <chart>=<version>", model.ErrInvalidValue, text)
	}
	if version == "match" {
		version = model.VersionString(hr.release.Version)
	} else if _, err := model.ParseVersion(version); err != nil {
		return err
	}
	if chart == hr.chart {
		hr.self++
		hr.warn("chart %s auto-installs itself; the annotation is dropped", hr.chart)
		return nil
	}
	text = "= " + version
	req := &hr.release.Requirements
	i := slices.IndexFunc(req.Modules, func(d model.Dependency) bool { return d.Module == chart })
	if i >= 0 {
		text = andRanges(strings.TrimSpace(strings.TrimSuffix(req.Modules[i].Constraint.Text, helmOptional)), text)
	}
	c, err := h.constraint(text)
	if err != nil {
		return err
	}
	if i >= 0 {
		req.Modules[i].Constraint = c
		return nil
	}
	req.Modules = append(req.Modules, model.Dependency{Module: chart, Constraint: c})
	hr.targets = append(hr.targets, helmTarget{chart: chart, repo: "(" + rancherAutoInstall + ")"})
	return nil
}

// rancherProvides reads provides-gvr, one or more group/version names
// separated by commas or spaces.
func (h *helmImporter) rancherProvides(hr *helmRelease, text string) error {
	for _, gvr := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' }) {
		hr.release.Provides = append(hr.release.Provides, gvr)
	}
	return nil
}

// andRanges is the range that holds where both a and b hold. Masterminds
// binds "," tighter than "||", so a range with alternatives is spread
// over the other's: (a1 || a2) AND b is "a1, b || a2, b".
func andRanges(a, b string) string {
	var out []string
	for _, x := range strings.Split(a, "||") {
		for _, y := range strings.Split(b, "||") {
			out = append(out, strings.TrimSpace(x)+", "+strings.TrimSpace(y))
		}
	}
	return strings.Join(out, " || ")
}
