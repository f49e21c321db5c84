package catalog

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// kudoTree writes operator.yaml files (by their folder) into a new
// directory and returns it.
func kudoTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for dir, text := range files {
		path := filepath.Join(root, filepath.FromSlash(dir), kudoOperatorFile)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	return root
}

// kudoOp is a small operator.yaml; extra lines are appended as written.
func kudoOp(name, op, app string, extra ...string) string {
	lines := []string{"apiVersion: kudo.dev/v1beta1", "name: " + name, "operatorVersion: " + op, "kudoVersion: 0.15.0", "kubernetesVersion: 1.16.0"}
	if app != "" {
		lines = append(lines, "appVersion: "+app)
	}
	return strings.Join(append(lines, extra...), "\n") + "\n"
}

// kudoDep is a tasks list with one KudoOperator task.
func kudoDep(pkg, op, app string) string {
	s := "tasks:\n  - name: dep\n    kind: KudoOperator\n    spec:\n      package: " + pkg
	if op != "" {
		s += "\n      operatorVersion: " + op
	}
	if app != "" {
		s += "\n      appVersion: " + app
	}
	return s
}

// kudoVersions lists a module's release versions, oldest first.
func kudoVersions(cat *model.Catalog, name string) []string {
	m := cat.Module(name)
	if m == nil {
		return nil
	}
	var vs []string
	for _, r := range m.Releases {
		vs = append(vs, model.VersionString(r.Version))
	}
	return vs
}

// kudoRelease returns one release by its version text.
func kudoReleaseOf(t *testing.T, cat *model.Catalog, name, version string) *model.Release {
	t.Helper()
	m := cat.Module(name)
	require.NotNil(t, m, "module %s", name)
	r := m.Release(model.MustParseVersion(version))
	require.NotNil(t, r, "%s %s; have %v", name, version, kudoVersions(cat, name))
	return r
}

// kudoSkipped is the reason a path was skipped, or "".
func kudoSkipped(rep *Report, path string) string {
	for _, s := range rep.Skipped {
		if s.Path == path {
			return s.Reason
		}
	}
	return ""
}

// TestKUDOVersionOrder proves D86: packed versions sort as KUDO sorts
// packages, by appVersion, then operatorVersion, a package without an
// appVersion first.
func TestKUDOVersionOrder(t *testing.T) {
	kudoOrder := [][2]string{ // {appVersion, operatorVersion}, KUDO's order
		{"", "0.1.0"}, {"", "0.2.0"}, {"", "10.0.0"},
		{"0.0.1", "0.0.0"},
		{"2.4.0", "1.2.0"}, {"2.4.0", "1.2.1"}, {"2.4.0", "1.10.0"}, {"2.4.0", "99.99.99"},
		{"2.4.1", "0.0.1"}, {"2.4.1", "1.2.1"},
		{"2.5.0", "1.3.0"}, {"2.5.0", "1.4.0"},
		{"2.10.0", "0.1.0"}, {"3.0.0", "0.0.0"}, {"3.4.14", "0.3.1"}, {"3.4.15", "0.0.0"},
	}
	var vs []model.Version
	for _, p := range kudoOrder {
		var app model.Version
		if p[0] != "" {
			app = model.MustParseVersion(p[0])
		}
		v, err := kudoReleaseVersion(app, model.MustParseVersion(p[1]), true)
		require.NoError(t, err, "%v", p)
		vs = append(vs, v)
	}
	for i := 1; i < len(vs); i++ {
		assert.Negative(t, model.CompareVersions(vs[i-1], vs[i]), "%v (%s) must sort below %v (%s)", kudoOrder[i-1], vs[i-1], kudoOrder[i], vs[i])
	}
	shuffled := slices.Clone(vs)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	slices.SortFunc(shuffled, model.CompareVersions)
	assert.Equal(t, vs, shuffled)
	assert.Equal(t, "2.5.10301", model.VersionString(must(kudoReleaseVersion(model.MustParseVersion("2.5.0"), model.MustParseVersion("1.3.1"), true))))
	plain, err := kudoReleaseVersion(nil, model.MustParseVersion("0.1.0-rc1"), false)
	require.NoError(t, err)
	assert.Equal(t, "0.1.0-rc1", model.VersionString(plain), "an operator without appVersions keeps its operatorVersion")

	for _, bad := range [][2]string{{"2.5.0", "1.100.0"}, {"2.5.0-rc1", "1.0.0"}, {"2.5.0", "1.0.0+b"}, {"1.0.18446744073709", "0.0.1"}} {
		_, err := kudoReleaseVersion(model.MustParseVersion(bad[0]), model.MustParseVersion(bad[1]), true)
		assert.ErrorIs(t, err, errKudoPack, "%v", bad)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic("internal error: " + err.Error())
	}
	return v
}

// TestKUDOQuirks gives each quirk of the real data (../shared/data/README.md)
// its outcome, on inputs of its own.
func TestKUDOQuirks(t *testing.T) {
	root := kudoTree(t, map[string]string{
		// the pre-0.10 key, no apiVersion, no appVersion, the old task map
		"old/0.1.0": "name: old\nversion: \"0.1.0\"\nkudoVersion: 0.3.0\nkubernetesVersion: 1.5.1\ntasks:\n  deploy:\n    resources: [a.yaml]\n",
		// non-semver operatorVersion
		"spark/beta1": kudoOp("spark", "beta1", "2.4.3"),
		"spark/1.0.0": kudoOp("spark", "1.0.0", "2.4.5"),
		// an unquoted float appVersion, and one that a float would misread
		"mysql/0.1.0":       kudoOp("mysql", "0.1.0", "5.7"),
		"mysql/0.2.0":       kudoOp("mysql", "0.2.0", "5.10"),
		"two/2.0":           kudoOp("two", `"2.0"`, ""),
		"druid/0.1.0":       kudoOp("druid", "0.1.0", "0.20.0", "kubernetesVersion: 0.16.0"),
		"rc/1.0.1":          strings.Replace(kudoOp("rc", "1.0.1", "3.11.6"), "kudoVersion: 0.15.0", "kudoVersion: 0.15.0-rc1", 1),
		"nokudo/0.1.0":      strings.Replace(kudoOp("nokudo", "0.1.0", ""), "kudoVersion: 0.15.0\n", "", 1),
		"CockroachDB/0.1.0": kudoOp("CockroachDB", "0.1.0", "19.2.1"),
		// kudoVersion too old for KudoOperator tasks
		"demo/0.1.5": strings.Replace(kudoOp("demo", "0.1.5", "", kudoDep("two", "2.0", "")), "kudoVersion: 0.15.0", "kudoVersion: 0.10.0", 1),
		// a key written twice: KUDO reads the last
		"zk/3.4.10_0.2.0": "name: zk\nversion: \"0.2.0\"\nappVersion: 3.4.14\nkudoVersion: 0.5.0\nappVersion: 3.4.10\n",
	})
	cat, rep, err := Load(root)
	require.NoError(t, err)
	assert.Equal(t, FormatKUDO, rep.Format)

	old := kudoReleaseOf(t, cat, "old", "0.1.0")
	assert.Equal(t, ">= 1.5.1", old.Requirements.Kubernetes.Text, "1.5.1 is a real Kubernetes version, read as written")
	assert.Empty(t, old.Requirements.Modules, "the old task map holds no dependency")
	assert.Equal(t, 2, rep.Counts[kudoOldKey], "old and zk")
	assert.Equal(t, 2, rep.Counts[kudoNoAPIVersion], "old and zk")

	assert.Contains(t, kudoSkipped(rep, "spark/beta1"), "operatorVersion: ")
	assert.Equal(t, []string{"2.4.5010000"}, kudoVersions(cat, "spark"))

	assert.Equal(t, []string{"5.7.100", "5.10.200"}, kudoVersions(cat, "mysql"), "5.7 and 5.10 are read as written, not as floats")
	assert.Equal(t, []string{"2.0.0"}, kudoVersions(cat, "two"))
	assert.Equal(t, 3, rep.Counts[versionsNormalised], "5.7, 5.10 and 2.0")

	assert.Nil(t, kudoReleaseOf(t, cat, "druid", "0.20.100").Requirements.Kubernetes)
	assert.Equal(t, 1, rep.Counts[kudoNotKube])

	rc := kudoReleaseOf(t, cat, "rc", "3.11.6010001").Requirements.Platform[kudoComponent]
	assert.True(t, rc.Allows(model.MustParseVersion("0.15.0-rc2")))
	assert.True(t, rc.Allows(model.MustParseVersion("0.17.0")))
	assert.False(t, rc.Allows(model.MustParseVersion("0.14.0")))

	nokudo := kudoReleaseOf(t, cat, "nokudo", "0.1.0").Requirements.Platform[kudoComponent]
	assert.True(t, nokudo.Allows(model.MustParseVersion("0.1.0")), "no kudoVersion: any KUDO, but KUDO all the same")
	assert.Equal(t, 1, rep.Counts[kudoNoKudoVersion])

	assert.NotNil(t, cat.Module("CockroachDB"), "the name is kept as written")
	assert.Equal(t, 1, rep.Counts[kudoNames])

	demo := kudoReleaseOf(t, cat, "demo", "0.1.5")
	assert.Equal(t, ">= 0.15.0", demo.Requirements.Platform[kudoComponent].Text)
	assert.Equal(t, 1, rep.Counts[kudoRaised])
	require.Len(t, demo.Requirements.Modules, 1)
	assert.Equal(t, "= 2.0.0", demo.Requirements.Modules[0].Constraint.Text, "a two-part pin matches the two-part version")

	assert.Equal(t, []string{"3.4.10000200"}, kudoVersions(cat, "zk"), "the last appVersion is read")
	assert.Equal(t, 2, rep.Counts[kudoDupKey], "zk, and druid, whose kubernetesVersion line follows the one kudoOp writes")
}

func TestKUDODependencies(t *testing.T) {
	root := kudoTree(t, map[string]string{
		"kafka/1.3.0":        kudoOp("kafka", "1.3.0", "2.5.0"),
		"kafka/1.3.1":        kudoOp("kafka", "1.3.1", "2.5.0"),
		"kafka/2.5.1_1.3.1":  kudoOp("kafka", "1.3.1", "2.5.1"),
		"any/0.1.0":          kudoOp("any", "0.1.0", "", kudoDep("kafka", "", "")),
		"op/0.1.0":           kudoOp("op", "0.1.0", "", kudoDep("kafka", "1.3.1", "")),
		"both/0.1.0":         kudoOp("both", "0.1.0", "", kudoDep("kafka", "1.3.1", "2.5.0")),
		"app/0.1.0":          kudoOp("app", "0.1.0", "", kudoDep("kafka", "", "2.5.0")),
		"none/0.1.0":         kudoOp("none", "0.1.0", "", kudoDep("kafka", "9.9.9", "")),
		"outside/0.1.0":      kudoOp("outside", "0.1.0", "", kudoDep("nowhere", "1.0.0", "")),
		"self/0.1.0":         kudoOp("self", "0.1.0", "", kudoDep("self", "", "")),
		"t/parent":           kudoOp("parent", "0.1.0", "", kudoDep("../child", "", "")),
		"t/child":            kudoOp("child", "0.2.0", "", kudoDep("parent", "", "")),
		"t/orphan":           kudoOp("orphan", "0.1.0", "", kudoDep("../missing", "", "")),
		"bad/0.1.0":          kudoOp("bad", "0.1.0", "", kudoDep("kafka", "one", "")),
		"twice/0.1.0":        kudoOp("twice", "0.1.0", "", "tasks:\n  - {name: a, kind: KudoOperator, spec: {package: kafka, operatorVersion: 1.3.1}}\n  - {name: b, kind: KudoOperator, spec: {package: kafka, appVersion: 2.5.1}}"),
		"clash/0.1.0":        kudoOp("clash", "0.1.0", "", "tasks:\n  - {name: a, kind: KudoOperator, spec: {package: kafka, operatorVersion: 1.3.0}}\n  - {name: b, kind: KudoOperator, spec: {package: kafka, appVersion: 2.5.1}}"),
		"dup/0.1.0":          kudoOp("dup", "0.1.0", ""),
		"copy/of-dup":        kudoOp("dup", "0.1.0", ""),
		"apply/0.1.0":        kudoOp("apply", "0.1.0", "", "tasks:\n  - {name: a, kind: Apply, spec: {resources: [a.yaml]}}"),
		"nospec/0.1.0":       kudoOp("nospec", "0.1.0", "", "tasks:\n  - {name: a, kind: KudoOperator}"),
		"kafka-user/1.0.0":   kudoOp("kafka-user", "1.0.0", "1.0.0", kudoDep("kafka", "1.3.1", "2.5.1")),
		"kafka-latest/1.0.0": kudoOp("kafka-latest", "1.0.0", "", kudoDep("kafka", "", "")),
		"appmiss/0.1.0":      kudoOp("appmiss", "0.1.0", "", kudoDep("kafka", "", "3.0.0")),
		"pairmiss/0.1.0":     kudoOp("pairmiss", "0.1.0", "", kudoDep("kafka", "1.3.0", "2.5.1")),
		"appless/0.1.0":      kudoOp("appless", "0.1.0", "", kudoDep("child", "", "1.0.0")),
	})
	cat, rep, err := LoadFormat(root, FormatKUDO)
	require.NoError(t, err)
	req := func(name, version string) map[string]string {
		out := map[string]string{}
		for _, d := range kudoReleaseOf(t, cat, name, version).Requirements.Modules {
			out[d.Module] = d.Constraint.Text
		}
		return out
	}
	assert.Equal(t, []string{"2.5.10300", "2.5.10301", "2.5.1010301"}, kudoVersions(cat, "kafka"))
	assert.Equal(t, map[string]string{"kafka": kudoAny}, req("any", "0.1.0"))
	assert.Equal(t, map[string]string{"kafka": "= 2.5.10301 || = 2.5.1010301"}, req("op", "0.1.0"), "an operatorVersion alone allows every appVersion it ships with")
	assert.Equal(t, map[string]string{"kafka": "= 2.5.10301"}, req("both", "0.1.0"))
	assert.Equal(t, map[string]string{"kafka": "= 2.5.10300 || = 2.5.10301"}, req("app", "0.1.0"))
	assert.Equal(t, map[string]string{"kafka": "= 2.5.1010301"}, req("twice", "0.1.0"), "two tasks on one operator: both pins hold")
	assert.Equal(t, map[string]string{"nowhere": kudoAny}, req("outside", "0.1.0"))
	self := cat.Module("self")
	require.NotNil(t, self, "a refused package keeps its operator, without releases")
	assert.Empty(t, self.Releases)
	assert.Equal(t, []model.RefusedRelease{{Version: model.MustParseVersion("0.1.0"), Reason: "cyclic package dependency found when adding package self-0.1.0 -> self-0.1.0"}}, self.Refusals(), "KUDO's words (D349)")
	assert.True(t, slices.ContainsFunc(rep.Warnings, func(w string) bool {
		return strings.Contains(w, "self/0.1.0: task dep: cyclic package dependency found when adding package self-0.1.0 -> self-0.1.0; KUDO refuses to install the package")
	}), "%q", rep.Warnings)
	assert.Equal(t, map[string]string{"child": kudoAny}, req("parent", "0.1.0"), "a relative path names the package in that folder")
	assert.Equal(t, map[string]string{"parent": kudoAny}, req("child", "0.2.0"), "a cycle is kept (D90)")
	assert.Empty(t, req("apply", "0.1.0"))
	assert.Empty(t, req("nospec", "0.1.0"))
	// A pin no package matches is a requirement on the release the missing
	// package would be, which no release meets (D180).
	assert.Equal(t, map[string]string{"kafka": "= 2.5.90909 || = 2.5.1090909"}, req("none", "0.1.0"), "operatorVersion 9.9.9 with each appVersion kafka ships")
	assert.Equal(t, map[string]string{"kafka": ">= 3.0.0, < 3.0.1000000"}, req("appmiss", "0.1.0"), "appVersion 3.0.0 with any operatorVersion")
	assert.Equal(t, map[string]string{"kafka": "= 2.5.1010300"}, req("pairmiss", "0.1.0"))

	for path, reason := range map[string]string{
		"appless/0.1.0": "KudoOperator task cannot be met: package not found: task dep: child has no package with appVersion 1.0.0",
		"t/orphan":      `KudoOperator task cannot be met: task dep: package "../missing" is a local path`,
		"bad/0.1.0":     "task dep: spec.operatorVersion: ",
		"clash/0.1.0":   "KudoOperator task cannot be met: tasks a, b pin kafka to no common package",
		"dup/0.1.0":     "listed twice: operatorVersion 0.1.0, appVersion (none), first in copy/of-dup",
	} {
		assert.Contains(t, kudoSkipped(rep, path), reason, path)
	}
	assert.Equal(t, 1, rep.Counts[kudoOutside])
	assert.Equal(t, 1, rep.Counts[kudoSelf])
	assert.Equal(t, 1, rep.Counts[kudoMerged])
	assert.Equal(t, 3, rep.Counts[kudoMissing])
}

// R27, D349: a package whose KudoOperator task installs its own operator
// is refused in KUDO's words, named as KUDO names an OperatorVersion
// (appVersion only when it has one), whatever the task pins or however it
// names the package; the operator's other packages stay, and an operator
// whose every package is refused stays without releases.
func TestKUDOSelfInstallRefused(t *testing.T) {
	root := kudoTree(t, map[string]string{
		"a/0.0.1":        kudoOp("A", "0.0.1", "", kudoDep("A", "", "")),
		"relay/1.0.0":    kudoOp("relay", "1.0.0", "2.1.0", kudoDep("relay", "0.9.0", "")),
		"relay/0.9.0":    kudoOp("relay", "0.9.0", "2.0.0"),
		"path/0.2.0":     kudoOp("path", "0.2.0", "", kudoDep("../0.1.0", "", "")),
		"path/0.1.0":     kudoOp("path", "0.1.0", ""),
		"user/1.0.0":     kudoOp("user", "1.0.0", "", kudoDep("relay", "", "")),
		"first/1.0.0":    kudoOp("first", "1.0.0", "", "tasks:\n  - {name: self, kind: KudoOperator, spec: {package: first}}\n  - {name: other, kind: KudoOperator, spec: {package: nowhere, operatorVersion: x}}"),
		"unreadable/1.0": kudoOp("unreadable", "1.0.0", "", "tasks:\n  - {name: other, kind: KudoOperator, spec: {package: nowhere, operatorVersion: x}}\n  - {name: self, kind: KudoOperator, spec: {package: unreadable}}"),
	})
	cat, rep, err := LoadFormat(root, FormatKUDO)
	require.NoError(t, err)
	refusal := func(name string) []string {
		var out []string
		for _, r := range cat.Module(name).Refusals() {
			out = append(out, model.VersionString(r.Version)+": "+r.Reason)
		}
		return out
	}
	assert.Equal(t, []string{"0.0.1: cyclic package dependency found when adding package A-0.0.1 -> A-0.0.1"}, refusal("A"), "KUDO's own test case, word for word")
	assert.Empty(t, cat.Module("A").Releases)
	assert.Equal(t, []string{"2.1.10000: cyclic package dependency found when adding package relay-2.1.0-1.0.0 -> relay-2.1.0-1.0.0"}, refusal("relay"), "a pin on another package of the operator is refused all the same")
	assert.Equal(t, []string{"2.0.900"}, kudoVersions(cat, "relay"))
	assert.Equal(t, []string{"0.2.0: cyclic package dependency found when adding package path-0.2.0 -> path-0.2.0"}, refusal("path"), "a relative path to a package of the operator names the operator")
	user := kudoReleaseOf(t, cat, "user", "1.0.0").Requirements.Modules
	require.Len(t, user, 1, "a task on an operator with a refused package is a requirement like any other")
	assert.Equal(t, model.Dependency{Module: "relay", Constraint: model.MustParseConstraint(kudoAny)}, user[0])
	assert.Len(t, refusal("first"), 1, "KUDO stops at the first task: the self-install is the error")
	assert.Contains(t, kudoSkipped(rep, "unreadable/1.0"), "spec.operatorVersion", "an earlier task that fails is the error")
	assert.Equal(t, 4, rep.Counts[kudoSelf])
	assert.True(t, slices.ContainsFunc(rep.Warnings, func(w string) bool {
		return strings.Contains(w, "a/0.0.1: task dep: cyclic package dependency found when adding package A-0.0.1 -> A-0.0.1; KUDO refuses to install the package, so it is left out")
	}), "%q", rep.Warnings)
}

func TestKUDOIndex(t *testing.T) {
	index := `apiVersion: v1
entries:
  mysql:
    - {name: mysql, operatorVersion: 0.1.0, appVersion: 5.7, digest: x, urls: [u]}
    - {name: mysql, operatorVersion: 0.2.0, appVersion: "5.8"}
    - {name: my-sql, operatorVersion: 0.3.0}
  spark:
    - {name: spark, operatorVersion: beta1}
generated: "2019-09-12T15:04:34Z"
`
	format, err := Detect("index.yaml", []byte(index))
	require.NoError(t, err)
	assert.Equal(t, FormatKUDO, format)
	cat, rep, err := ParseFormat("index.yaml", []byte(index), "")
	require.NoError(t, err)
	assert.Equal(t, []string{"0.0.300", "5.7.100", "5.8.200"}, kudoVersions(cat, "mysql"), "no appVersion sorts first")
	assert.Nil(t, cat.Module("spark"))
	assert.Contains(t, kudoSkipped(rep, "entries.spark[0]"), "operatorVersion: ")
	assert.True(t, slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, `named "my-sql"`) }))

	helm := "apiVersion: v1\nentries:\n  a:\n    - {name: a, version: 1.0.0, annotations: {operatorVersion: x}}\n"
	format, err = Detect("index.yaml", []byte(helm))
	require.NoError(t, err)
	assert.Equal(t, FormatHelmIndex, format, "a Helm index stays one")

	old := "apiVersion: v1\nentries:\n  a:\n    - {name: a, version: 0.1.0}\n"
	cat, rep, err = ParseFormat("old.yaml", []byte(old), FormatKUDO)
	require.NoError(t, err, "an index from before KUDO 0.10, named by hand")
	assert.Equal(t, []string{"0.1.0"}, kudoVersions(cat, "a"))
	assert.Equal(t, 1, rep.Counts[kudoOldKey])
}

func TestKUDODetectDir(t *testing.T) {
	root := kudoTree(t, map[string]string{"a/0.1.0": kudoOp("a", "0.1.0", "")})
	_, rep, err := Load(root)
	require.NoError(t, err)
	assert.Equal(t, FormatKUDO, rep.Format)

	_, _, err = LoadFormat(root, FormatHelmIndex)
	assert.ErrorIs(t, err, model.ErrInvalidInput)
	_, _, err = LoadFormat(t.TempDir(), FormatKUDO)
	assert.ErrorIs(t, err, model.ErrInvalidInput, "a folder with no operator.yaml")

	broken := kudoTree(t, map[string]string{"a/0.1.0": "name: [", "b/0.1.0": kudoOp("b", "0.1.0", "")})
	cat, rep, err := Load(broken)
	require.NoError(t, err)
	assert.Equal(t, []string{"0.1.0"}, kudoVersions(cat, "b"))
	assert.Contains(t, kudoSkipped(rep, "a/0.1.0/operator.yaml"), "unreadable: ")
	assert.True(t, errors.Is(ErrSyntax, model.ErrInvalidInput))
}
