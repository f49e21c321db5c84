package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/modsolver/modsolver/model"
)

// FuzzPackageYAML fuzzes DKP's v2 package manifest (R28): data becomes a
// release's package.yaml, with a module.yaml beside it, and a built-in
// module's package.yaml. Loading returns a catalog or an input error,
// and every group it reads has a name and members.
func FuzzPackageYAML(f *testing.F) {
	f.Add([]byte("type: Module\nweight: 910\nrequirements:\n  kubernetes: {constraint: '>= 1.27'}\n  modules:\n    mandatory: [{name: b}]\n    conditional: [{name: c, constraint: '>= 1'}]\n    anyOf: [{name: g, modules: [{name: d}, {name: e, constraint: '< 2'}]}]\n    noneOf: [{name: h, modules: [{name: f}]}]\n"))
	f.Add([]byte("type: Application\nstage: GA\nlicensing: {editions: {ee: {available: true}}}\ndisable: {confirmation: true, messages: {en: sure?}}\n"))
	f.Add([]byte("requirements: {kubernetes: '>=1.28'}\n"))
	f.Add([]byte("requirements: {modules: {anyOf: [{modules: [{name: b}]}]}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		files := map[string][]byte{
			filepath.Join("external", "a", "v1.0.0", "package.yaml"): data,
			filepath.Join("external", "a", "v1.0.0", "module.yaml"):  []byte("name: a\nrequirements: {modules: {b: '>= 1'}}\n"),
			filepath.Join("embedded", "z", "package.yaml"):           data,
		}
		for name, content := range files {
			path := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cat, _, err := LoadDir(root)
		checkV2Load(t, cat, err)
	})
}

// FuzzV2Requirements fuzzes the v2 requirement form in the single-file
// format: data becomes one release's requirements.
func FuzzV2Requirements(f *testing.F) {
	f.Add([]byte("deckhouse: {constraint: '>= 1.77'}\nmodules:\n  mandatory: [{name: b}]\n  anyOf: [{name: s, modules: [{name: c, constraint: '>= 0.5.0'}]}]\n"))
	f.Add([]byte("modules: {noneOf: [{name: l, modules: [{name: b}]}], conditional: [{name: b, constraint: '1'}]}\n"))
	f.Add([]byte("modules: {b: '>= 1 !optional'}\nkubernetes: '>= 1.30'\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		text := "modules:\n  - name: a\n    releases:\n      - version: 1.0.0\n        requirements:\n"
		for _, line := range splitLines(data) {
			text += "          " + line + "\n"
		}
		cat, _, err := Parse("fuzz.yaml", []byte(text))
		checkV2Load(t, cat, err)
	})
}

// checkV2Load holds a v2 load to its contract.
func checkV2Load(t *testing.T, cat *model.Catalog, err error) {
	if err != nil {
		if !errors.Is(err, model.ErrInvalidInput) {
			t.Fatalf("error is not an input error: %v", err)
		}
		return
	}
	for _, m := range cat.Modules() {
		m.EachRequirements(func(_ func() model.Path, req model.Requirements) {
			for _, c := range req.Compound {
				if c.Group != nil && (c.Group.Name == "" || len(c.Members()) == 0) {
					t.Fatalf("module %s: a group without a name or members: %v", m.Name, c)
				}
			}
		})
	}
}

func splitLines(data []byte) []string {
	var out []string
	start := 0
	for i, b := range data {
		if b == '\n' {
			out = append(out, string(data[start:i]))
			start = i + 1
		}
	}
	return append(out, string(data[start:]))
}
