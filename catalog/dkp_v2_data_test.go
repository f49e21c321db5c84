package catalog

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
)

// v2Data is a path under the shared dkp-v2 data (R28), read in place.
func v2Data(t *testing.T, elem ...string) string {
	return shared.Path(t, append([]string{"data", "dkp-v2"}, elem...)...)
}

// TestV2ExternalTree loads dkp-v2/external/, where DKP accepts every
// package.yaml, and checks what each file says.
func TestV2ExternalTree(t *testing.T) {
	cat, rep, err := Load(v2Data(t))
	require.NoError(t, err)
	assert.Equal(t, 11, cat.Len())

	s := cat.Module("stronghold")
	r := s.Releases[0]
	assert.Equal(t, model.ManifestV2, r.Manifest, "package.yaml is read where both files are")
	assert.True(t, s.Critical)
	assert.Equal(t, 910, s.Weight)
	assert.Empty(t, s.ExclusiveGroup, "module.yaml's exclusiveGroup is not read")
	assert.Equal(t, ">= 1.27", r.Requirements.Kubernetes.Text)
	assert.Equal(t, ">= 1.70", r.Requirements.Deckhouse.Text)
	require.Len(t, r.Requirements.Modules, 2)
	assert.Equal(t, "prometheus", r.Requirements.Modules[0].Module)
	assert.True(t, r.Requirements.Modules[0].Constraint.Optional, "conditional is R3")
	assert.Equal(t, "user-authn", r.Requirements.Modules[1].Module)
	assert.False(t, r.Requirements.Modules[1].Constraint.Optional, "mandatory is R2")
	require.Len(t, r.Requirements.Compound, 2)
	anyOf, noneOf := r.Requirements.Compound[0], r.Requirements.Compound[1]
	assert.Equal(t, model.Group{Kind: model.GroupAnyOf, Name: "cni", Description: "any CNI"}, *anyOf.Group)
	assert.Equal(t, []string{"cni-cilium", "cni-flannel"}, anyOf.MemberNames())
	assert.Equal(t, model.Group{Kind: model.GroupNoneOf, Name: "conflicting"}, *noneOf.Group)
	assert.True(t, noneOf.Conflict())
	available, bundles := s.Access(r).For("ee")
	assert.True(t, available, "licensing.editions is R7's accessibility")
	assert.Equal(t, []string{"Default"}, bundles)
	available, _ = s.Access(r).For("ce")
	assert.False(t, available, "only ee is listed")
	assert.Equal(t, model.Disable{Confirmation: true, Message: "Are you sure?"}, r.Disable, "disable.messages.en (R26)")

	for _, name := range []string{"elma", "complete-app", "minimal-app", "redis"} {
		assert.Equal(t, model.PackageApplication, cat.Module(name).Type, name)
	}
	for _, name := range []string{"stronghold", "complete-module", "minimal-module", "with-digests", "test-module", "correct-name", "legacy-module"} {
		assert.Equal(t, model.PackageModule, cat.Module(name).Type, name)
	}
	redis := cat.Module("redis").Releases[0]
	assert.Equal(t, model.StagePreview, redis.Stage)
	require.Len(t, redis.Requirements.Modules, 1)
	assert.Equal(t, "cert-manager", redis.Requirements.Modules[0].Module, "the trailing blank is dropped")
	assert.Equal(t, ">=1.28", cat.Module("complete-module").Releases[0].Requirements.Kubernetes.Text)
	assert.Nil(t, cat.Module("minimal-module").Releases[0].Requirements.Kubernetes)
	assert.Equal(t, v2DefaultWeight, cat.Module("minimal-module").Weight, "no weight: DKP's 999 (D133)")
	assert.Equal(t, model.ManifestLegacy, cat.Module("legacy-module").Releases[0].Manifest)
	correct := cat.Module("correct-name").Releases[0].Requirements.Modules
	require.Len(t, correct, 2)
	assert.Equal(t, "prompp", correct[0].Module)
	assert.True(t, correct[0].Constraint.Optional)

	warnings := strings.Join(rep.Warnings, "\n")
	assert.Contains(t, warnings, `stronghold/v1.0.1/module.yaml: disagrees with package.yaml beside it, which is read: exclusiveGroup "" in package.yaml, "vault" in module.yaml`)
	assert.Contains(t, warnings, "correct-name/v1.0.0/module.yaml: not read, since package.yaml beside it is")
	assert.Contains(t, warnings, `test-module/v1.0.0/package.yaml: stage "GA" is none of DKP's stages`)
	assert.Len(t, rep.Warnings, 3)
}

// TestV2Cases loads each tree of dkp-v2/cases/ and handmade/: the ones
// DKP refuses are load errors in DKP's words, naming file and line; the
// others load, with what DKP's linter would report as warnings.
func TestV2Cases(t *testing.T) {
	for _, tc := range v2Cases {
		t.Run(strings.Join(tc.tree, "/"), func(t *testing.T) {
			_, rep, err := Load(v2Data(t, tc.tree...))
			if tc.err == "" {
				require.NoError(t, err)
				if tc.warning != "" {
					assert.Contains(t, strings.Join(rep.Warnings, "\n"), tc.warning)
				}
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			var pe *ParseError
			require.True(t, errors.As(err, &pe))
			assert.Equal(t, tc.line, pe.Line, "the line of the entry DKP refuses")
			assert.True(t, strings.HasSuffix(pe.File, "package.yaml"), pe.File)
			assert.True(t, errors.Is(err, model.ErrInvalidInput))
		})
	}
}

// v2Cases are the trees of TestV2Cases with what loading each gives.
var v2Cases = []struct {
	tree    []string
	err     string // DKP's message, or "" when the tree loads
	line    int
	warning string // a warning the load must give, if any
}{
	{tree: []string{"cases", "app-module-same-name"}},
	{tree: []string{"cases", "complete-module-superseded-format"}, err: "cannot unmarshal !!str `>=1.28` into {constraint: C}", line: 7},
	{tree: []string{"cases", "dmt-conditional-optional-suffix"}, err: `parse conditional module requirement 'observability': improper constraint: ">= 1.0.0 !optional"`, line: 10},
	{tree: []string{"cases", "dmt-consistency-all-match"}},
	{tree: []string{"cases", "dmt-consistency-anyof-ignored"}, err: "parse anyOf group [0]: name is required", line: 10},
	{tree: []string{"cases", "dmt-consistency-multiple-mismatches"}, warning: `requirements.deckhouse ">= 1.76" in package.yaml, ">= 1.77" in module.yaml`},
	{tree: []string{"cases", "dmt-deckhouse-below-1.77"}},
	{tree: []string{"cases", "dmt-lint-valid-file"}, err: "parse anyOf group [0]: name is required", line: 16},
	{tree: []string{"cases", "dmt-missing-name"}},
	{tree: []string{"cases", "test-module-legacy"}, warning: `stage "Sandbox" is none of DKP's stages`},
	{tree: []string{"handmade", "mixed"}},
	{tree: []string{"handmade", "webhook-cases", "all-buckets-valid"}},
	{tree: []string{"handmade", "webhook-cases", "mandatory-without-constraint"}},
	{tree: []string{"handmade", "webhook-cases", "conditional-without-constraint"}, err: "parse conditional module requirement 'mod-a': constraint is required", line: 10},
	{tree: []string{"handmade", "webhook-cases", "mandatory-and-conditional"}, err: "module 'mod-a' appears in both mandatory and conditional", line: 13},
	{tree: []string{"handmade", "webhook-cases", "anyof-without-name"}, err: "parse anyOf group [0]: name is required", line: 10},
	{tree: []string{"handmade", "webhook-cases", "anyof-duplicate-group-name"}, err: "parse anyOf group 'grp': duplicate group name", line: 13},
	{tree: []string{"handmade", "webhook-cases", "anyof-without-members"}, err: "parse anyOf group 'grp': at least one member is required", line: 10},
	{tree: []string{"handmade", "webhook-cases", "anyof-member-also-mandatory"}, err: "module 'mod-a' appears in both mandatory and anyOf group 'grp'", line: 14},
	{tree: []string{"handmade", "webhook-cases", "noneof-member-also-in-anyof"}, err: "module 'mod-a' appears in both anyOf group 'grp-any' and noneOf group 'grp-none'", line: 16},
	{tree: []string{"handmade", "webhook-cases", "invalid-mandatory-constraint"}, err: `parse mandatory module requirement 'mod-a': improper constraint: "abc"`, line: 10},
}

// TestV2CaseContents checks what the loadable cases read.
func TestV2CaseContents(t *testing.T) {
	cat, _, err := Load(v2Data(t, "cases", "app-module-same-name"))
	require.NoError(t, err)
	assert.Equal(t, model.PackageApplication, cat.Module("with-digests").Type, "the Application of the same name as external/'s Module")

	cat, rep, err := Load(v2Data(t, "cases", "dmt-missing-name"))
	require.NoError(t, err)
	assert.NotNil(t, cat.Module("stronghold"), "no name: the folder names the module")
	assert.Empty(t, rep.Warnings)

	_, rep, err = Load(v2Data(t, "cases", "dmt-consistency-all-match"))
	require.NoError(t, err)
	assert.Empty(t, rep.Warnings, "a consistent pair: plain is mandatory, !optional is conditional, blanks aside")

	cat, _, err = Load(v2Data(t, "cases", "dmt-consistency-multiple-mismatches"))
	require.NoError(t, err)
	assert.Empty(t, cat.Module("wrong-name").Releases[0].Requirements.Modules, "mandatory: [] is no requirement")

	cat, _, err = Load(v2Data(t, "handmade", "mixed"))
	require.NoError(t, err)
	gw := cat.Module("gateway").Releases[0]
	require.Len(t, gw.Requirements.Compound, 2)
	assert.Equal(t, "cni", cat.Module("cni-alpha").ExclusiveGroup, "exclusiveGroup in package.yaml")
	assert.Equal(t, "cni", cat.Module("cni-beta").ExclusiveGroup)
	assert.Equal(t, model.ManifestLegacy, cat.Module("gateway-legacy").Releases[0].Manifest)
	assert.Len(t, cat.Module("gateway-legacy").Channels, 2)
}

// writeV2Package writes text as the package.yaml of pkg 1.0.0 in a fresh
// tree, the way a test cuts a fragment out of the shared data.
func writeV2Package(t *testing.T, text string) string {
	return writeTree(t, map[string]string{"external/pkg/v1.0.0/package.yaml": text})
}

// TestV2Fragments loads each fragment of dkp-v2/fragments/ as a
// package.yaml; the templates are rendered first, as `d8 package` does.
func TestV2Fragments(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(v2Data(t, "fragments", name))
		require.NoError(t, err)
		return string(data)
	}
	cat, _, err := Load(writeV2Package(t, read("docs-requirements-example.yaml")))
	require.NoError(t, err)
	req := cat.Module("pkg").Releases[0].Requirements
	assert.Len(t, req.Modules, 2)
	assert.Len(t, req.Compound, 2)

	cat, _, err = Load(writeV2Package(t, read("d8-valid-requirements-accepted.yaml")))
	require.NoError(t, err)
	assert.Equal(t, ">= 1.66.0", cat.Module("pkg").Releases[0].Requirements.Deckhouse.Text)

	reported := read("d8-valid-requirements-reported.yaml")
	_, _, err = Load(writeV2Package(t, reported))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `parse kubernetes requirement: improper constraint: "1.27+"`, "kubernetes is checked first")
	_, _, err = Load(writeV2Package(t, strings.Replace(reported, `"1.27+"`, `">= 1.27"`, 1)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "module 'ingress-nginx' appears in both mandatory and noneOf group 'conflicting-ingress'")

	for name, typ := range map[string]model.PackageType{
		"d8-package-template-module.yaml.tmpl":      model.PackageModule,
		"d8-package-template-application.yaml.tmpl": model.PackageApplication,
	} {
		var b bytes.Buffer
		tmpl := template.Must(template.New(name).Parse(read(name)))
		require.NoError(t, tmpl.Execute(&b, map[string]string{"PackageType": typ.String(), "PackageName": "pkg"}))
		cat, _, err := Load(writeV2Package(t, b.String()))
		require.NoError(t, err, name)
		m := cat.Module("pkg")
		assert.Equal(t, typ, m.Type, name)
		assert.Equal(t, ">= v1.35", m.Releases[0].Requirements.Kubernetes.Text, "a v prefix is Masterminds' grammar")
		assert.Equal(t, model.StagePreview, m.Releases[0].Stage)
	}
}

// v2Covered are the parts of dkp-v2 this file's tests read: trees they
// load, fragments they cut out, and the README that explains them.
var v2Covered = []string{"external/", "cases/", "handmade/mixed/", "handmade/webhook-cases/", "README.md",
	"fragments/docs-requirements-example.yaml", "fragments/d8-valid-requirements-accepted.yaml",
	"fragments/d8-valid-requirements-reported.yaml", "fragments/d8-package-template-module.yaml.tmpl",
	"fragments/d8-package-template-application.yaml.tmpl"}

// TestV2Files walks dkp-v2, so that a file added there that no test here
// reads fails; every tree under cases/ and webhook-cases/ must be a case
// of TestV2Cases.
func TestV2Files(t *testing.T) {
	root := v2Data(t)
	trees := map[string]bool{}
	for _, tc := range v2Cases {
		trees[filepath.Join(tc.tree...)] = true
	}
	var files []string
	require.NoError(t, filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return err
	}))
	for _, f := range files {
		covered := slices.ContainsFunc(v2Covered, func(prefix string) bool { return strings.HasPrefix(f, prefix) })
		assert.True(t, covered, "%s: no test reads it", f)
		parts := strings.Split(f, string(filepath.Separator))
		switch {
		case parts[0] == "cases":
			assert.True(t, trees[filepath.Join(parts[:2]...)], "%s: its tree is no case of TestV2Cases", f)
		case len(parts) > 2 && parts[1] == "webhook-cases":
			assert.True(t, trees[filepath.Join(parts[:3]...)], "%s: its tree is no case of TestV2Cases", f)
		}
	}
}

// R27, D347: a package.yaml that names its own module in mandatory or
// conditional is a package DKP never registers (its scheduler's
// one-module cycle): the release is set aside with a warning in DKP's
// words, the rest of the tree loads, and a module whose only release it
// was stays, without releases; a built-in module is left out. A legacy
// module.yaml beside it is not compared, and module.yaml alone keeps
// dropping the self-requirement (TestLoadDir).
func TestPackageYAMLSelfLoop(t *testing.T) {
	root := writeTree(t, map[string]string{
		"external/vault/v1.0.0/package.yaml": "name: vault\nrequirements:\n  modules:\n    mandatory:\n      - name: vault\n",
		"external/vault/v1.0.0/module.yaml":  "name: vault\n",
		"external/vault/v0.9.0/package.yaml": "name: vault\n",
		"external/vault/channels.yaml":       "stable: v1.0.0\n",
		"external/only/v1.0.0/package.yaml":  "name: only\nrequirements:\n  modules:\n    conditional:\n      - {name: only, constraint: '>= 1.0'}\n",
		"embedded/core/package.yaml":         "name: core\nrequirements:\n  modules:\n    mandatory: [{name: core}]\n",
		"embedded/base/package.yaml":         "name: base\n",
	})
	cat, rep, err := Load(root)
	require.NoError(t, err)
	assert.Equal(t, []string{"base", "only", "vault"}, names(cat), "the built-in core is left out")
	vault := cat.Module("vault")
	require.Len(t, vault.Releases, 1)
	assert.Equal(t, "0.9.0", model.VersionString(vault.Releases[0].Version))
	require.Len(t, vault.Refusals(), 1)
	assert.Equal(t, "1.0.0", model.VersionString(vault.Refusals()[0].Version))
	assert.Equal(t, "dependency cycle through: vault", vault.Refusals()[0].Reason)
	assert.Equal(t, "0.9.0", model.VersionString(vault.Channels["stable"]), "the channel moves to the release below the refused one: the same bound")
	only := cat.Module("only")
	assert.Empty(t, only.Releases)
	assert.Len(t, only.Refusals(), 1)
	assert.Equal(t, 1, rep.Releases, "a refused release is not counted")
	sep := string(filepath.Separator)
	for _, want := range []string{
		"vault" + sep + "v1.0.0" + sep + "package.yaml:5: dependency cycle through: vault; DKP never registers the package, so release 1.0.0 of vault is left out",
		"only" + sep + "v1.0.0" + sep + "package.yaml:5: dependency cycle through: only; DKP never registers the package, so release 1.0.0 of only is left out",
		"core" + sep + "package.yaml:4: dependency cycle through: core; DKP never registers the package, so built-in module core is left out",
	} {
		assert.True(t, slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, want) }), "a warning says %q; have %q", want, rep.Warnings)
	}
	assert.False(t, slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, "disagrees") }), "the module.yaml beside the refused package.yaml is not compared")
}

// R28: what package.yaml says that no shared file covers.
func TestPackageYAMLEdges(t *testing.T) {
	_, _, err := Load(writeV2Package(t, "type: Library\n"))
	require.Error(t, err)
	assert.ErrorIs(t, err, model.ErrInvalidValue)

	cat, rep, err := Load(writeV2Package(t, "type: Application\nweight: 10\nexclusiveGroup: db\n"))
	require.NoError(t, err)
	assert.Equal(t, model.DefaultWeight, cat.Module("pkg").Weight)
	assert.Empty(t, cat.Module("pkg").ExclusiveGroup)
	require.Len(t, rep.Warnings, 1)
	assert.Contains(t, rep.Warnings[0], "an Application has no weight, critical or exclusiveGroup; ignored")

	root := writeTree(t, map[string]string{
		"embedded/deckhouse/package.yaml": "critical: true\ndisable: {confirmation: true, messages: {en: stops DKP, ru: нет}}\nrequirements: {kubernetes: {constraint: '>= 1.30'}}\n",
		"external/pkg/v1.0.0/module.yaml": "name: pkg\n",
	})
	cat, _, err = Load(root)
	require.NoError(t, err)
	d := cat.Module("deckhouse")
	assert.True(t, d.Embedded)
	assert.True(t, d.Critical)
	assert.Equal(t, model.ManifestV2, d.ManifestOf(nil), "a built-in module from package.yaml")
	assert.Equal(t, model.Disable{Confirmation: true, Message: "stops DKP"}, d.Disable, "English text (R26)")
	assert.Equal(t, ">= 1.30", d.Requirements.Kubernetes.Text)
}
