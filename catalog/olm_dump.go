package catalog

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Reading the OLM bundle-metadata dump (FormatOLMBundles): the JSON that
// lists packages with their channels and one entry per bundle directory.
// The mapping onto modules and releases is olm.go's.

// olmDump is the bundle-metadata dump (FormatOLMBundles). Keys it does not
// list are documentation or metadata that resolution does not read.
type olmDump struct {
	Packages map[string]olmDumpPackage `json:"packages"`
	Bundles  []olmDumpBundle           `json:"bundles"`
	Problems []struct {
		Path    string `json:"path"`
		Problem string `json:"problem"`
	} `json:"problems"`
}

// olmDumpPackage is one package of the dump.
type olmDumpPackage struct {
	UpdateGraph    string                    `json:"updateGraph"`
	DefaultChannel string                    `json:"defaultChannel"`
	Channels       map[string]olmDumpChannel `json:"channels"`
}

// olmDumpChannel is one channel of a dump package.
type olmDumpChannel struct {
	Entries    []olmEntry `json:"entries"`
	SemverHead string     `json:"semverHead"`
}

// olmDumpBundle is one bundle of the dump.
type olmDumpBundle struct {
	Package             string              `json:"package"`
	Name                string              `json:"name"`
	Version             string              `json:"version"`
	Replaces            string              `json:"replaces"`
	Skips               []string            `json:"skips"`
	SkipRange           string              `json:"skipRange"`
	MinKubeVersion      *string             `json:"minKubeVersion"`
	OpenShiftVersions   *string             `json:"openshiftVersions"`
	MaxOpenShiftVersion *string             `json:"maxOpenShiftVersion"`
	Dependencies        []olmDumpDependency `json:"dependencies"`
	IgnoredDependencies []json.RawMessage   `json:"ignoredDependencies"`
	RequiredCRDs        []olmGVK            `json:"requiredCRDs"`
	RequiredAPIServices []olmGVK            `json:"requiredAPIServices"`
	ProvidedGVKs        []olmGVK            `json:"providedGVKs"`
	ProvidedAPIServices []olmGVK            `json:"providedAPIServices"`
	NativeAPIs          []json.RawMessage   `json:"nativeAPIs"`
	BundleProperties    []json.RawMessage   `json:"bundleProperties"`
	CSVOLMProperties    []olmProperty       `json:"csvOlmProperties"`
	Quirks              []string            `json:"quirks"`
}

// olmDumpDependency is one dependency of a dump bundle; which fields are
// set depends on Type.
type olmDumpDependency struct {
	Type         string          `json:"type"`
	PackageName  string          `json:"packageName"`
	VersionRange string          `json:"versionRange"`
	Group        string          `json:"group"`
	Version      string          `json:"version"`
	Kind         string          `json:"kind"`
	Value        json.RawMessage `json:"value"`
}

// olmProperty is an OLM property: a type and a value of that type.
type olmProperty struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// parseOLMBundles reads the OLM bundle-metadata JSON dump
// (FormatOLMBundles), mapped as the comment at the top of this file says.
func parseOLMBundles(name string, data []byte) (*model.Catalog, *Report, error) {
	var dump olmDump
	if err := json.Unmarshal(data, &dump); err != nil {
		return nil, nil, olmJSONError(name, data, err)
	}
	l := newOLMLoader(name, FormatOLMBundles)
	for _, p := range dump.Problems {
		l.rep.warn("%s: %s", p.Path, p.Problem)
	}
	for _, pkg := range slices.Sorted(maps.Keys(dump.Packages)) {
		l.dumpPackage(pkg, dump.Packages[pkg])
	}
	for i := range dump.Bundles {
		db := &dump.Bundles[i]
		l.addBundle(db.toBundle(dump.Packages[db.Package].UpdateGraph == "semver-mode"))
	}
	l.quirks(dump.Bundles)
	return l.finish()
}

// dumpPackage records a dump package and its channels.
func (l *olmLoader) dumpPackage(name string, dp olmDumpPackage) {
	p := l.pkg(name)
	p.defaultChannel = dp.DefaultChannel
	p.semverMode = dp.UpdateGraph == "semver-mode"
	for _, ch := range slices.Sorted(maps.Keys(dp.Channels)) {
		p.channels = append(p.channels, olmChannel{name: ch, head: dp.Channels[ch].SemverHead, entries: dp.Channels[ch].Entries})
	}
}

// toBundle reduces a dump bundle to an olmBundle. In a semver-mode package
// its update edges are counted, not read.
func (db *olmDumpBundle) toBundle(semverMode bool) *olmBundle {
	b := &olmBundle{pkg: db.Package, name: db.Name, version: db.Version,
		minKube: db.MinKubeVersion, openShift: db.OpenShiftVersions, maxOpenShift: db.MaxOpenShiftVersion}
	if semverMode {
		b.count(olmSemverModeEdges, len(olmAppend(nil, db.Replaces))+len(olmAppend(nil, db.Skips...))+len(olmAppend(nil, db.SkipRange)))
	} else {
		b.replaces = olmAppend(nil, db.Replaces)
		b.skips = olmAppend(nil, db.Skips...)
		b.skipRanges = olmAppend(nil, strings.TrimSpace(db.SkipRange))
	}
	for _, d := range db.Dependencies {
		b.dumpDependency(d)
	}
	for _, g := range slices.Concat(db.RequiredCRDs, db.RequiredAPIServices) {
		b.require(g)
	}
	for _, g := range slices.Concat(db.ProvidedGVKs, db.ProvidedAPIServices) {
		b.provide(g)
	}
	db.countIgnored(b)
	return b
}

// countIgnored counts what of db the import does not read.
func (db *olmDumpBundle) countIgnored(b *olmBundle) {
	b.count(olmIgnoredDeps, len(db.IgnoredDependencies))
	b.count(olmNativeAPIs, len(db.NativeAPIs))
	b.count("bundle properties ignored", len(db.BundleProperties))
	for _, p := range db.CSVOLMProperties {
		if p.Type != "olm.maxOpenShiftVersion" {
			b.count(fmt.Sprintf("CSV olm.properties of type %q ignored", p.Type), 1)
		}
	}
}

// dumpDependency reads one dependency of a dump bundle.
func (b *olmBundle) dumpDependency(d olmDumpDependency) {
	switch d.Type {
	case "olm.package":
		b.deps = append(b.deps, olmPackageDep{pkg: d.PackageName, versionRange: d.VersionRange})
	case "olm.gvk":
		b.require(olmGVK{Group: d.Group, Version: d.Version, Kind: d.Kind})
	case "olm.constraint":
		b.constraint(d.Value)
	default:
		b.fail("dependency type %q is not supported", d.Type)
	}
}

// quirks warns once per package and quirk text, naming the bundles.
func (l *olmLoader) quirks(bundles []olmDumpBundle) {
	type key struct{ pkg, quirk string }
	var order []key
	who := map[key][]string{}
	for _, b := range bundles {
		for _, q := range b.Quirks {
			k := key{b.Package, q}
			if who[k] == nil {
				order = append(order, k)
			}
			who[k] = append(who[k], b.Name)
		}
	}
	for _, k := range order {
		l.rep.warn("%s", quirkLine(k.pkg, k.quirk, who[k]))
	}
}

// quirkLine is the warning for one quirk of some bundles of pkg.
func quirkLine(pkg, quirk string, bundles []string) string {
	if strings.HasPrefix(quirk, "annotations package name") {
		quirk += "; the package name " + pkg + " is used"
	}
	if len(bundles) == 1 {
		return fmt.Sprintf("bundle %s: %s", bundles[0], quirk)
	}
	return fmt.Sprintf("package %s, %d bundles (%s … %s): %s", pkg, len(bundles), bundles[0], bundles[len(bundles)-1], quirk)
}
