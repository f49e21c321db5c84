package catalog

import (
	"errors"
	"testing"

	"github.com/modsolver/modsolver/model"
)

// FuzzOLMBundles feeds arbitrary bytes to the OLM bundle-dump importer: it
// must return a catalog and its report or an input error, and never panic.
func FuzzOLMBundles(f *testing.F) {
	f.Add([]byte(`{"packages": {"a": {"updateGraph": "replaces-mode", "defaultChannel": "stable", "channels": {"stable": {"entries": [{"name": "a.v1.0.0"}], "semverHead": "a.v1.1.0"}}}},
"bundles": [{"package": "a", "name": "a.v1.0.0", "version": "1.0.0", "minKubeVersion": "1.19.0-0", "openshiftVersions": "v4.6-v4.8", "maxOpenShiftVersion": "4.8"},
{"package": "a", "name": "a.v1.1.0", "version": "1.1.0", "replaces": "a.v1.0.0", "skips": ["a.v0.9.0"], "skipRange": ">=0.5.0 <1.1.0",
 "dependencies": [{"type": "olm.package", "packageName": "b", "versionRange": ">=1.2.x <1.3.0"}, {"type": "olm.gvk", "group": "b.io", "version": "v1", "kind": "B"}],
 "requiredCRDs": [{"group": "c.io", "version": "v1", "kind": "C"}], "providedGVKs": [{"group": "a.io", "version": "v1", "kind": "A"}], "quirks": ["x"]}],
"problems": [{"path": "p", "problem": "q"}]}`))
	f.Add([]byte(`{"packages": {"s": {"updateGraph": "semver-mode", "channels": {"": {"semverHead": ""}}}}, "bundles": [{"package": "s", "name": "s.v1", "version": "v1", "replaces": "s.v0", "minKubeVersion": "", "openshiftVersions": "=v4.10", "ignoredDependencies": [{}]},
{"package": "s", "name": "s.v1", "version": "1.0.0", "dependencies": [{"type": "olm.constraint", "value": {"failureMessage": "m", "any": {"constraints": []}}}, {"type": "olm.package", "packageName": "s", "versionRange": "0.6.0"}]}]}`))
	f.Add([]byte(`{"bundles": [{"package": "a", "version": "1.0.0-rc.1", "dependencies": [{"type": "olm.package", "packageName": "b", "versionRange": ">1.0.0 !1.2.1"}, {"type": "olm.package", "packageName": "b", "versionRange": "<v2 || >3"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkOLMImport(t, FormatOLMBundles, data, parseOLMBundles)
	})
}

// FuzzOLMFBC feeds arbitrary bytes to the OLM file-based catalog importer.
func FuzzOLMFBC(f *testing.F) {
	f.Add([]byte(`{"schema": "olm.package", "name": "a", "defaultChannel": "stable"}
{"schema": "olm.channel", "package": "a", "name": "stable", "entries": [{"name": "a.v1.0.0"}, {"name": "a.v1.1.0", "replaces": "a.v1.0.0", "skips": ["a.v0.1.0"], "skipRange": "<1.1.0"}]}
{"schema": "olm.bundle", "name": "a.v1.0.0", "package": "a", "properties": [{"type": "olm.package", "value": {"packageName": "a", "version": "1.0.0"}}, {"type": "olm.gvk", "value": {"group": "a.io", "kind": "A", "version": "v1"}}]}
{"schema": "olm.bundle", "name": "a.v1.1.0", "package": "a", "properties": [{"type": "olm.package", "value": {"packageName": "a", "version": "1.1.0"}},
 {"type": "olm.package.required", "value": {"packageName": "b", "versionRange": ">2.0.0"}}, {"type": "olm.gvk.required", "value": {"group": "b.io", "kind": "B", "version": "v1"}},
 {"type": "olm.csv.metadata", "value": {"minKubeVersion": "1.25.0"}}, {"type": "olm.maxOpenShiftVersion", "value": "4.12"}]}
`))
	f.Add([]byte(`{"schema": "olm.channel", "package": "a", "name": "c", "entries": [{"name": "a.v1", "replaces": "a.v2"}, {"name": "a.v2", "replaces": "a.v1"}]}
{"schema": "olm.bundle", "name": "a.v1", "package": "a", "properties": [{"type": "olm.package", "value": {"packageName": "x", "version": "1"}}, {"type": "olm.constraint", "value": {"gvk": {"group": "g", "version": "v1", "kind": "K"}}}]}
{"schema": "olm.deprecations"} [1] null`))
	f.Add([]byte("{\"schema\": \"olm.bundle\", \"package\": \"a\", \"properties\": [{\"type\": \"olm.maxOpenShiftVersion\", \"value\": 4.1}]}\n{\"schema\":"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkOLMImport(t, FormatOLMFBC, data, parseOLMFBC)
	})
}

// checkOLMImport runs parse on data: it must give a catalog with a
// matching report, or an error that is bad input.
func checkOLMImport(t *testing.T, format Format, data []byte, parse func(string, []byte) (*model.Catalog, *Report, error)) {
	cat, rep, err := parse("fuzz.json", data)
	if err != nil {
		if !errors.Is(err, model.ErrInvalidInput) {
			t.Fatalf("error is not an input error: %v", err)
		}
		return
	}
	if cat == nil || rep == nil || rep.Format != format || rep.Modules != cat.Len() || rep.Releases != cat.ReleaseCount() {
		t.Fatalf("no catalog or a wrong report without an error")
	}
}
