package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/modsolver/modsolver/model"
)

// FuzzParse feeds arbitrary bytes to the catalog parser: it must return a
// catalog or an input error, and never panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte(validCatalog))
	f.Add([]byte(`{"modules": [{"name": "a", "releases": [{"version": "1.0.0"}]}]}`))
	f.Add([]byte("modules:\n  - name: a\n    releases:\n      - version: 0.2.3.1\n"))
	f.Add([]byte("modules:\n  - name: a\n    releases:\n      - {version: 1.0.0, requirements: {modules: {b: '!optional'}}}\n"))
	f.Add([]byte("modules: [{name: a, channels: {stable: 1.0.0}, releases: [{version: 1.0.0, update: {versions: [{from: '0.9', to: '1.0'}]}}]}]"))
	f.Add([]byte("versions: semver\nmodules: [{name: a, releases: [{version: 1.0.0-rc.1, requirements: {modules: {b: '>=0.1.0-0'}}}]}]"))
	f.Add([]byte("versions: npm\nmodules: [{name: a, releases: [{version: 1.0.0}]}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cat, rep, err := Parse("fuzz.yaml", data)
		if !checkLoaded(t, cat, rep, err) {
			return
		}
	})
}

// FuzzParseState fuzzes the cluster state and request parsers.
func FuzzParseState(f *testing.F) {
	f.Add([]byte("deckhouse: 1.73.3\nkubernetes: 1.29.6\nmodules:\n  a: {enabled: true, version: 1.0.0}\n"))
	f.Add([]byte("enable: [a]\npin: {a: '1.0'}\nplatform: {kubernetes: 1.31.0}\nstrategy: direct\n"))
	f.Add([]byte("enable: [a]\ndevel: true\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, parse := range []func(string, []byte) error{parseClusterErr, parseRequestErr} {
			if err := parse("fuzz.yaml", data); err != nil && !errors.Is(err, model.ErrInvalidInput) {
				t.Fatalf("error is not an input error: %v", err)
			}
		}
	})
}

// FuzzLoadDir fuzzes the DKP module-source loader: data becomes one
// release's module.yaml and one built-in module's module.yaml.
func FuzzLoadDir(f *testing.F) {
	f.Add([]byte("name: a\nweight: 910\nrequirements:\n  deckhouse: '>= 1.74'\n  bootstrapped: true\n  modules: {b: '!optional'}\n"))
	f.Add([]byte("requirements: {user-authz: '>= 0.0.0'}\naccessibility: {editions: {_default: {available: true, enabledInBundles: [Default]}}}\n"))
	f.Add([]byte("update: {versions: [{from: '1.1', to: '1.4'}]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		for _, dir := range []string{filepath.Join(root, "external", "a", "v1.0.0"), filepath.Join(root, "embedded", "b")} {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "module.yaml"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cat, rep, err := LoadDir(root)
		if err != nil {
			if !errors.Is(err, model.ErrInvalidInput) {
				t.Fatalf("error is not an input error: %v", err)
			}
			return
		}
		if rep.Modules != cat.Len() {
			t.Fatalf("report counts %d modules, catalog has %d", rep.Modules, cat.Len())
		}
	})
}

// checkLoaded checks what a reader returned for a fuzz input: an input
// error, or a catalog with a report that counts it. It reports whether
// there is a catalog to check further.
func checkLoaded(t *testing.T, cat *model.Catalog, rep *Report, err error) bool {
	t.Helper()
	if err != nil {
		if !errors.Is(err, model.ErrInvalidInput) {
			t.Fatalf("error is not an input error: %v", err)
		}
		return false
	}
	if cat == nil || rep == nil || rep.Modules != cat.Len() || rep.Releases != cat.ReleaseCount() {
		t.Fatalf("no catalog or wrong report without an error")
	}
	return true
}
