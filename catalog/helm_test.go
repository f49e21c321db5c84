package catalog

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
)

// helmRepo is a chart repository for synthetic indexes.
const helmRepo = "https://charts.example.com"

// helmAppIndex is an index with charts lib and db, and chart app 1.0.0
// whose dependencies are deps, one YAML flow mapping each; "repository: R"
// names helmRepo.
func helmAppIndex(deps ...string) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nentries:\n  lib:\n  - {name: lib, version: 1.5.0}\n  db:\n  - {name: db, version: 8.10.12}\n")
	b.WriteString("  app:\n  - name: app\n    version: 1.0.0\n    dependencies:\n")
	for _, d := range deps {
		b.WriteString("    - " + strings.ReplaceAll(d, "repository: R", "repository: "+helmRepo) + "\n")
	}
	return b.String()
}

// helmReq is an expected requirement.
type helmReq struct {
	module, text string
	optional     bool
}

// helmReqs lists the requirements of one release.
func helmReqs(r *model.Release) []helmReq {
	var out []helmReq
	for _, d := range r.Requirements.Modules {
		out = append(out, helmReq{d.Module, d.Constraint.Text, d.Constraint.Optional})
	}
	return out
}

// Each dependency rule of the mapping, one row each, on chart app 1.0.0.
func TestParseHelmIndexDependencies(t *testing.T) {
	tests := []struct {
		name    string
		deps    []string
		want    []helmReq
		counts  map[string]int
		warning string
	}{
		{"plain is required", []string{"{name: lib, version: 1.x.x, repository: R}"},
			[]helmReq{{"lib", "1.x.x", false}}, nil, ""},
		{"condition is optional", []string{"{name: lib, version: 1.x.x, repository: R, condition: lib.enabled}"},
			[]helmReq{{"lib", "1.x.x !optional", true}}, nil, ""},
		{"tags are optional", []string{"{name: lib, version: 1.x.x, repository: R, tags: [libs]}"},
			[]helmReq{{"lib", "1.x.x !optional", true}}, nil, ""},
		{"empty tags are required", []string{"{name: lib, version: 1.x.x, repository: R, tags: []}"},
			[]helmReq{{"lib", "1.x.x", false}}, nil, ""},
		{"no version is any version", []string{"{name: lib, repository: R}"},
			[]helmReq{{"lib", helmAnyVersion, false}}, nil, ""},
		{"no version, optional", []string{"{name: lib, version: '', repository: R, condition: c}"},
			[]helmReq{{"lib", helmAnyVersion + " !optional", true}}, nil, ""},
		{"bundled subcharts", []string{"{name: sub, version: 0.1.0, repository: ''}", "{name: loki, version: 1.0.0, repository: 'file://../loki'}", "{name: crds, version: 0.0.0}"},
			nil, map[string]int{helmBundled: 3}, ""},
		{"outside the index", []string{"{name: redis, version: 17.x.x, repository: 'https://charts.bitnami.com/bitnami', condition: redis.enabled}"},
			[]helmReq{{"redis", "17.x.x !optional", true}},
			map[string]int{helmOutside: 1, helmOutside + ": https://charts.bitnami.com/bitnami": 1}, ""},
		{"aliases with one range", []string{"{name: lib, version: 1.x.x, repository: R, alias: a, condition: a.enabled}", "{name: lib, version: 1.x.x, repository: R, alias: b}"},
			[]helmReq{{"lib", "1.x.x", false}}, map[string]int{helmMerged: 1}, ""},
		{"aliases with two ranges", []string{"{name: lib, version: 1.x.x, repository: R, alias: a, condition: a.on}", "{name: lib, version: '>= 1.2.0', repository: R, alias: b, tags: [b]}", "{name: lib, version: 1.x.x, repository: R, alias: c, condition: c.on}"},
			[]helmReq{{"lib", "1.x.x, >= 1.2.0 !optional", true}}, map[string]int{helmMerged: 2}, ""},
		{"repeated, one required", []string{"{name: lib, version: 1.x.x, repository: R, condition: x}", "{name: lib, version: '>= 1.2.0', repository: R}"},
			[]helmReq{{"lib", "1.x.x, >= 1.2.0", false}}, map[string]int{helmMerged: 1}, ""},
		{"aliases with ||", []string{"{name: lib, version: '1.x.x || 2.x.x', repository: R, alias: a, condition: a.on}", "{name: lib, version: 1.5.x, repository: R, alias: b}"},
			[]helmReq{{"lib", "1.5.x", false}}, map[string]int{helmMerged: 1}, "cannot be joined"},
		{"aliases with ||, all optional", []string{"{name: lib, version: '1.x.x || 2.x.x', repository: R, alias: a, condition: a.on}", "{name: lib, version: 1.5.x, repository: R, alias: b, condition: b.on}"},
			[]helmReq{{"lib", "1.x.x || 2.x.x !optional", true}}, map[string]int{helmMerged: 1}, "cannot be joined"},
		{"aliases with the same || range", []string{"{name: lib, version: '1.x || 2.x', repository: R, alias: a}", "{name: lib, version: '1.x || 2.x', repository: R, alias: b}"},
			[]helmReq{{"lib", "1.x || 2.x", false}}, map[string]int{helmMerged: 1}, ""},
		{"itself", []string{"{name: app, version: 1.0.0, repository: R}", "{name: db, version: 8.x.x, repository: R}"},
			[]helmReq{{"db", "8.x.x", false}}, map[string]int{helmSelf: 1}, "depends on itself"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cat, rep, err := parseHelmIndex("index.yaml", []byte(helmAppIndex(tt.deps...)), installed)
			require.NoError(t, err)
			app := cat.Module("app")
			require.NotNil(t, app)
			require.Len(t, app.Releases, 1)
			assert.Equal(t, tt.want, helmReqs(app.Releases[0]))
			assert.Equal(t, tt.counts, rep.Counts)
			if tt.warning == "" {
				assert.Empty(t, rep.Warnings)
			} else {
				require.Len(t, rep.Warnings, 1)
				assert.Contains(t, rep.Warnings[0], "app@1.0.0: ")
				assert.Contains(t, rep.Warnings[0], tt.warning)
			}
		})
	}
}

// The range forms of real indexes parse and mean what Helm means.
func TestParseHelmIndexRanges(t *testing.T) {
	tests := []struct {
		text          string
		allow, refuse []string
	}{
		{"2.x.x", []string{"2.0.0", "2.31.4"}, []string{"1.9.9", "3.0.0"}},
		{"16.X.X", []string{"16.0.0", "16.5.1"}, []string{"15.9.0", "17.0.0"}},
		{"~ 8.10.11", []string{"8.10.11", "8.10.40"}, []string{"8.10.10", "8.11.0"}},
		{">= 0", []string{"0.0.1", "25.1.0"}, nil},
		{"^0.3.0", []string{"0.3.0", "0.3.9"}, []string{"0.4.0"}},
		{"> 7.10.2", []string{"7.10.3"}, []string{"7.10.2"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			cat, _, err := parseHelmIndex("index.yaml", []byte(helmAppIndex("{name: lib, version: '"+tt.text+"', repository: R}")), installed)
			require.NoError(t, err)
			c := cat.Module("app").Releases[0].Requirements.Modules[0].Constraint
			for _, v := range tt.allow {
				assert.True(t, c.Allows(model.MustParseVersion(v)), v)
			}
			for _, v := range tt.refuse {
				assert.False(t, c.Allows(model.MustParseVersion(v)), v)
			}
		})
	}
}

// kubeVersion is kept as written: Kubernetes versions are compared without
// stripping their prerelease, so a "-0" floor admits a vendor build.
func TestParseHelmIndexKubeVersion(t *testing.T) {
	tests := []struct {
		text, kube string
		allowed    bool
	}{
		{">= 1.19.0-0", "1.31.0-gke.1", true},
		{">= 1.19.0", "1.31.0-gke.1", false},
		{">= 1.19.0", "1.31.0", true},
		{">= 1.19.0-0", "1.18.20", false},
		{"^1.8.0-0", "1.30.2", true},
		{">=1.22", "1.21.9", false},
	}
	for _, tt := range tests {
		t.Run(tt.text+" "+tt.kube, func(t *testing.T) {
			index := "apiVersion: v1\nentries:\n  a:\n  - {name: a, version: 1.0.0, kubeVersion: '" + tt.text + "'}\n"
			cat, _, err := parseHelmIndex("index.yaml", []byte(index), installed)
			require.NoError(t, err)
			kube := cat.Module("a").Releases[0].Requirements.Kubernetes
			require.NotNil(t, kube)
			assert.Equal(t, tt.text, kube.Text)
			assert.Equal(t, tt.allowed, kube.Allows(model.MustParseVersion(tt.kube)))
		})
	}
}

// Each chart and version rule of the mapping, one row each; the function is
// long only because the table is.
func TestParseHelmIndexVersions(t *testing.T) {
	tests := []struct {
		name     string
		entries  string
		releases map[string][]string
		skipped  []Skipped // Reason is a part of the reason
		counts   map[string]int
		warning  string
	}{
		{"v prefix", "a: [{name: a, version: v1.2.3}]",
			map[string][]string{"a": {"1.2.3"}}, nil, nil, ""},
		{"listed twice", "a: [{version: 1.0.0, kubeVersion: '>= 1.20'}, {version: 1.0.0, dependencies: [{name: b, version: 1.0.0, repository: r}]}]",
			map[string][]string{"a": {"1.0.0"}}, []Skipped{{"a@1.0.0", "listed twice"}}, map[string]int{helmSkippedDeps: 1}, ""},
		{"listed twice with a v", "a: [{version: v1.0.0}, {version: 1.0.0}]",
			map[string][]string{"a": {"1.0.0"}}, []Skipped{{"a@1.0.0", "listed twice, first as v1.0.0"}}, nil, ""},
		{"build metadata differs", "a: [{version: 1.0.0+a}, {version: 1.0.0+b}]",
			map[string][]string{"a": {"1.0.0+a", "1.0.0+b"}}, nil, nil, ""},
		{"the first loadable is kept", "a: [{version: 1.0.0, kubeVersion: '>= one'}, {version: 1.0.0}]",
			map[string][]string{"a": {"1.0.0"}}, []Skipped{{"a@1.0.0", "kubeVersion"}}, nil, ""},
		{"not semver", "a: [{version: 1.0.0}, {version: 0.2.3.1}]",
			map[string][]string{"a": {"1.0.0"}}, []Skipped{{"a@0.2.3.1", "invalid version"}}, nil, ""},
		{"no version", "a: [{name: a}, {version: 1.0.0}]",
			map[string][]string{"a": {"1.0.0"}}, []Skipped{{"a[0]", "empty version"}}, nil, ""},
		{"invalid kubeVersion", "a: [{version: 1.0.0, kubeVersion: '>= one'}, {version: 2.0.0}]",
			map[string][]string{"a": {"2.0.0"}}, []Skipped{{"a@1.0.0", "kubeVersion"}}, nil, ""},
		{"optional kubeVersion", "a: [{version: 1.0.0, kubeVersion: '!optional'}, {version: 2.0.0}]",
			map[string][]string{"a": {"2.0.0"}}, []Skipped{{"a@1.0.0", "not part of a Helm range"}}, nil, ""},
		{"invalid dependency range", "a: [{version: 1.0.0, dependencies: [{name: b, version: abc, repository: r}, {name: c, repository: ''}]}, {version: 2.0.0}]",
			map[string][]string{"a": {"2.0.0"}}, []Skipped{{"a@1.0.0", "dependency b"}}, map[string]int{helmSkippedDeps: 2}, ""},
		{"dependency without a name", "a: [{version: 1.0.0, dependencies: [{version: 1.0.0, repository: r}]}, {version: 2.0.0}]",
			map[string][]string{"a": {"2.0.0"}}, []Skipped{{"a@1.0.0", "no name"}}, map[string]int{helmSkippedDeps: 1}, ""},
		{"name differs from its key", "a: [{name: b, version: 1.0.0}]",
			map[string][]string{"a": {"1.0.0"}}, nil, nil, `a@1.0.0: named "b"`},
		{"deprecated", "a: [{version: 1.0.0, deprecated: true}, {version: 1.1.0, deprecated: false}]",
			map[string][]string{"a": {"1.0.0", "1.1.0"}}, nil, map[string]int{helmDeprecated: 1}, ""},
		{"no loadable version", "a: [{version: x}]\n  b: []\n  c:",
			map[string][]string{}, []Skipped{{"a@x", "invalid version"}, {"a", "no loadable version"}, {"b", "no loadable version"}, {"c", "no loadable version"}}, nil, ""},
		{"empty chart name", "'': [{version: 1.0.0, dependencies: [{name: b, repository: r}]}]\n  a: [{version: 1.0.0}]",
			map[string][]string{"a": {"1.0.0"}}, []Skipped{{"entries", "empty name"}}, map[string]int{helmSkippedDeps: 1}, ""},
		{"other keys are ignored", "a:\n  - name: a\n    version: 1.0.0\n    description: d\n    urls: [https://x/a-1.0.0.tgz]\n    digest: abc\n    maintainers: [{name: m}]\n    annotations: {category: x}\n    dependencies: [{name: b, repository: '', import-values: [x]}]",
			map[string][]string{"a": {"1.0.0"}}, nil, map[string]int{helmBundled: 1, helmIgnoredAnnotation + "category": 1}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			index := "apiVersion: v1\nx-about: a note\ngenerated: '2026-08-20T18:40:20Z'\nentries:\n  " + tt.entries + "\n"
			cat, rep, err := parseHelmIndex("index.yaml", []byte(index), installed)
			require.NoError(t, err)
			assert.Equal(t, tt.releases, helmVersions(cat))
			require.Len(t, rep.Skipped, len(tt.skipped), "%v", rep.Skipped)
			for i, s := range tt.skipped {
				assert.Equal(t, s.Path, rep.Skipped[i].Path)
				assert.Contains(t, rep.Skipped[i].Reason, s.Reason)
			}
			assert.Equal(t, tt.counts, rep.Counts)
			if tt.warning != "" {
				require.Len(t, rep.Warnings, 1)
				assert.Contains(t, rep.Warnings[0], tt.warning)
			} else {
				assert.Empty(t, rep.Warnings)
			}
		})
	}
}

// helmVersions lists each module's release versions.
func helmVersions(cat *model.Catalog) map[string][]string {
	out := map[string][]string{}
	for _, m := range cat.Modules() {
		for _, r := range m.Releases {
			out[m.Name] = append(out[m.Name], model.VersionString(r.Version))
		}
	}
	return out
}

// The report's totals, and what a Helm index never sets.
func TestParseHelmIndexReport(t *testing.T) {
	index := "apiVersion: v2\nentries:\n  a:\n  - {version: 1.0.0-rc.1, dependencies: [{name: b, version: 1.x, repository: r}]}\n  - {version: 1.0.0}\n  b: [{version: 1.0.0}]\n"
	cat, rep, err := parseHelmIndex("index.yaml", []byte(index), installed)
	require.NoError(t, err)
	assert.Equal(t, Report{Source: "index.yaml", Format: FormatHelmIndex, Modules: 2, Releases: 3, Prereleases: 1, HelmSubcharts: SubchartsInstalled,
		Warnings: []string{`apiVersion "v2" is not v1; the index is read as v1`}}, *rep)
	assert.Empty(t, cat.Module("b").Releases[0].Requirements.Modules)
	for _, m := range cat.Modules() {
		assert.False(t, m.Embedded)
		assert.Empty(t, m.Channels)
		assert.Nil(t, m.Accessibility)
	}
}

// Input that is not a readable index is an error with a place.
func TestParseHelmIndexErrors(t *testing.T) {
	tests := []struct {
		name, text string
		is         error
		line       int
	}{
		{"empty", "", ErrEmptyFile, 0},
		{"syntax", "apiVersion: v1\nentries:\n  a: [\n", ErrSyntax, 3},
		{"two documents", "apiVersion: v1\n---\napiVersion: v1\n", ErrSyntax, 2},
		{"not a mapping", "- apiVersion: v1\n", ErrWrongKind, 1},
		{"no apiVersion", "entries: {}\n", model.ErrMissingField, 1},
		{"entries not a mapping", "apiVersion: v1\nentries: [a]\n", ErrSyntax, 2},
		{"versions not a list", "apiVersion: v1\nentries: {a: 1}\n", ErrSyntax, 2},
		{"deprecated not a bool", "apiVersion: v1\nentries:\n  a: [{version: 1.0.0, deprecated: sometimes}]\n", ErrSyntax, 3},
		{"tags not a list", "apiVersion: v1\nentries:\n  a: [{version: 1.0.0, dependencies: [{name: b, tags: t}]}]\n", ErrSyntax, 3},
		{"chart listed twice", "apiVersion: v1\nentries:\n  a: []\n  a: []\n", ErrSyntax, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := parseHelmIndex("index.yaml", []byte(tt.text), installed)
			require.Error(t, err)
			assert.ErrorIs(t, err, model.ErrInvalidInput)
			assert.ErrorIs(t, err, tt.is)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "index.yaml", pe.File)
			assert.Equal(t, tt.line, pe.Line)
		})
	}
}

// The real indexes load, and the report accounts for every version and
// every dependency edge that the data README counts. The function is long
// only because the table, with its explanations, is.
func TestParseHelmIndexReal(t *testing.T) {
	tests := []struct {
		file            string
		charts          int
		versions, edges int // as the data README counts them
		skipped         []string
		kubeVersions    int
		counts          map[string]int
		warnings        int
		check           func(t *testing.T, cat *model.Catalog)
	}{
		// 3,591 versions less 2 listed twice, with the same text both
		// times: alloy-operator 0.2.6-beta.2 (no edges, no kubeVersion) and
		// mimir-distributed 5.6.0-weekly.314 (3 edges and a kubeVersion,
		// hence 1,479 of the README's 1,480 kubeVersions). The v-prefixed
		// versions (grafana-operator v5.15.1 to v5.20.0) all load. Of the
		// 8,977 edges, 2,050 are bundled subcharts, 751 are merged into
		// another requirement on the same chart (aliases), and 3 belong to
		// the skipped duplicate; the other 6,173 are requirements, of which
		// 3,862 name charts outside the index.
		{file: "grafana-index.yaml", charts: 41, versions: 3591, edges: 8977,
			skipped:      []string{"alloy-operator@0.2.6-beta.2", "mimir-distributed@5.6.0-weekly.314"},
			kubeVersions: 1479,
			counts: map[string]int{helmBundled: 2050, helmMerged: 751, helmSkippedDeps: 3, helmDeprecated: 28,
				helmOutside: 3862, helmOutside + ": https://charts.bitnami.com/bitnami": 1069, helmOutside + ": https://charts.min.io/": 746},
			check: checkGrafana},
		// Every version loads. Of the 47,346 edges, 67 are bundled subcharts
		// (file://./charts/kube-prometheus-crds) and 1,062 are merged by
		// alias; every other one is a requirement on a chart in the index.
		// The two warnings are metrics-server versions whose entry is named
		// "metrics-serve" and "etcd".
		{file: "bitnami-index.yaml", charts: 128, versions: 30811, edges: 47346,
			kubeVersions: 1070, warnings: 2,
			counts: map[string]int{helmBundled: 67, helmMerged: 1062, helmDeprecated: 12},
			check:  checkBitnami},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(shared.Path(t, "data", "helm", tt.file))
			require.NoError(t, err)
			start := time.Now()
			cat, rep, err := parseHelmIndex(tt.file, data, installed)
			t.Logf("%s: %d bytes loaded in %v", tt.file, len(data), time.Since(start))
			require.NoError(t, err)
			t.Log(rep.Summary())
			t.Log(rep.Counts)

			assert.Equal(t, tt.charts, cat.Len())
			assert.Equal(t, tt.versions-len(tt.skipped), cat.ReleaseCount())
			var paths []string
			for _, s := range rep.Skipped {
				paths = append(paths, s.Path)
				assert.Equal(t, "listed twice", s.Reason)
			}
			assert.Equal(t, tt.skipped, paths)
			assert.Len(t, rep.Warnings, tt.warnings)
			for phrase, n := range tt.counts {
				assert.Equal(t, n, rep.Counts[phrase], phrase)
			}
			checkHelmAccounts(t, cat, rep, tt.edges, tt.kubeVersions)
			tt.check(t, cat)
		})
	}
}

// checkHelmAccounts checks that every edge of the index is accounted
// for, and counts the kubeVersions read.
func checkHelmAccounts(t *testing.T, cat *model.Catalog, rep *Report, edges, kubeVersions int) {
	kube := 0
	for _, m := range cat.Modules() {
		for _, r := range m.Releases {
			if r.Requirements.Kubernetes != nil {
				kube++
			}
		}
	}
	assert.Equal(t, kubeVersions, kube)
	perRepo := 0
	for phrase, n := range rep.Counts {
		if strings.HasPrefix(phrase, helmOutside+": ") {
			perRepo += n
		}
	}
	assert.Equal(t, rep.Counts[helmOutside], perRepo, "the per-repository counts add up")
	assert.Equal(t, edges, helmAccounted(cat, rep), "every dependency edge is accounted for")
}

// checkGrafana looks at a v-prefixed version and an alias merge.
func checkGrafana(t *testing.T, cat *model.Catalog) {
	op := cat.Module("grafana-operator")
	require.NotNil(t, op)
	assert.NotNil(t, op.Release(model.MustParseVersion("5.20.0")), "read from v5.20.0")
	// k8s-monitoring 1.5.0 uses alloy 0.6.1 four times: once plainly, and
	// as alloy-events, alloy-logs and alloy-profiles under a condition.
	mon := cat.Module("k8s-monitoring").Release(model.MustParseVersion("1.5.0"))
	require.NotNil(t, mon)
	assert.Contains(t, helmReqs(mon), helmReq{"alloy", "0.6.1", false})
}

// checkBitnami looks at the common library chart, which most charts need.
// The README's 136 versions of common are those with type: library; the
// index lists 159, the 23 older ones without a type.
func checkBitnami(t *testing.T, cat *model.Catalog) {
	require.NotNil(t, cat.Module("common"))
	assert.Len(t, cat.Module("common").Releases, 159)
	airflow := cat.Module("airflow").Release(model.MustParseVersion("25.1.0"))
	require.NotNil(t, airflow)
	assert.Equal(t, []helmReq{{"common", "2.x.x !optional", true}, {"postgresql", "16.x.x !optional", true}, {"redis", "22.x.x !optional", true}}, helmReqs(airflow))
}

// installed reads Helm dependencies as requirements, the mode most of
// these tests are about (D67).
var installed = WithHelmSubcharts(SubchartsInstalled)
