package catalog

import (
	"encoding/json"
	"maps"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
)

// olmObj is a JSON object of a test input.
type olmObj = map[string]any

// dumpOf builds a bundle dump from its packages and bundles.
func dumpOf(t *testing.T, packages olmObj, bundles ...olmObj) []byte {
	t.Helper()
	data, err := json.Marshal(olmObj{"packages": packages, "bundles": bundles})
	require.NoError(t, err)
	return data
}

// dumpBundle is a bundle of pkg at version, named pkg.v<version>, with
// the extra keys.
func dumpBundle(pkg, version string, extra olmObj) olmObj {
	b := olmObj{"package": pkg, "name": pkg + ".v" + version, "version": version}
	maps.Copy(b, extra)
	return b
}

// dumpPkg is a dump package whose channels map to their semverHead.
func dumpPkg(defaultChannel string, heads map[string]string) olmObj {
	channels := olmObj{}
	for name, head := range heads {
		channels[name] = olmObj{"entries": []olmObj{}, "semverHead": head}
	}
	return olmObj{"updateGraph": "replaces-mode", "defaultChannel": defaultChannel, "channels": channels}
}

// loadDump parses a dump that must load.
func loadDump(t *testing.T, packages olmObj, bundles ...olmObj) (*model.Catalog, *Report) {
	t.Helper()
	cat, rep, err := parseOLMBundles("dump.json", dumpOf(t, packages, bundles...))
	require.NoError(t, err)
	require.Equal(t, cat.Len(), rep.Modules)
	return cat, rep
}

// olmRelease returns a release that must exist.
func olmRelease(t *testing.T, cat *model.Catalog, module, version string) *model.Release {
	t.Helper()
	m := cat.Module(module)
	require.NotNil(t, m, "module %s", module)
	r := m.Release(model.MustParseVersion(version))
	require.NotNil(t, r, "release %s %s", module, version)
	return r
}

// skipReason is the reason the report gives for skipping path, or "".
func skipReason(rep *Report, path string) string {
	for _, s := range rep.Skipped {
		if s.Path == path {
			return s.Reason
		}
	}
	return ""
}

// warned reports whether some warning contains all of parts.
func warned(rep *Report, parts ...string) bool {
	for _, w := range rep.Warnings {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(w, p)
		}
		if all {
			return true
		}
	}
	return false
}

func TestOLMBundlesReleases(t *testing.T) {
	cat, rep := loadDump(t, olmObj{"a": dumpPkg("stable", map[string]string{"stable": "a.v1.1.0"})},
		dumpBundle("a", "1.0.0", olmObj{"providedGVKs": []olmObj{{"group": "a.io", "version": "v1", "kind": "A"}}}),
		dumpBundle("a", "1.1.0-rc.1", nil),
		dumpBundle("a", "1.1.0", nil),
		dumpBundle("a", "v1.0.0", olmObj{"name": "a.dup"}),
		dumpBundle("a", "1.0.0.1", nil),
		dumpBundle("", "1.0.0", nil),
	)
	assert.Equal(t, FormatOLMBundles, rep.Format)
	assert.Equal(t, "dump.json", rep.Source)
	m := cat.Module("a")
	require.NotNil(t, m)
	assert.False(t, m.Embedded, "OLM packages are never built in")
	require.Len(t, m.Releases, 3)
	assert.Equal(t, 1, rep.Prereleases, "prereleases are kept")
	assert.Equal(t, []string{"a.io/v1/A"}, olmRelease(t, cat, "a", "1.0.0").Provides, "the first of two bundles with one version is kept")
	assert.Contains(t, skipReason(rep, "a.dup"), "version 1.0.0 repeats bundle a.v1.0.0")
	assert.Contains(t, skipReason(rep, "a.v1.0.0.1"), "version")
	assert.Equal(t, "bundle has no package", skipReason(rep, ".v1.0.0"))
	assert.Equal(t, []string{"a"}, cat.Providers("a.io/v1/A"))
}

func TestOLMBundlesChannels(t *testing.T) {
	pkg := dumpPkg("stable", map[string]string{"stable": "a.v1.1.0", "fast": "a.v2.0.0", "candidate": "a.v9.0.0"})
	pkg["channels"].(olmObj)["multi"] = olmObj{"entries": []olmObj{
		{"name": "a.v1.0.0"},
		{"name": "a.v1.1.0", "replaces": "a.v1.0.0"},
		{"name": "a.v2.0.0", "skips": []string{"a.v1.0.0"}},
		{"name": "a.v0.9.0"},
	}}
	cat, rep := loadDump(t, olmObj{"a": pkg, "b": dumpPkg("gone", map[string]string{"gone": "b.v3.0.0"})},
		dumpBundle("a", "1.0.0", nil), dumpBundle("a", "1.1.0", nil), dumpBundle("a", "2.0.0", nil), dumpBundle("a", "0.9.0", nil),
		dumpBundle("b", "1.0.0", nil),
	)
	a := cat.Module("a")
	assert.Equal(t, "1.1.0", a.Channels["stable"].String(), "semverHead is the head")
	assert.Equal(t, "2.0.0", a.Channels["fast"].String())
	assert.Equal(t, "2.0.0", a.Channels["multi"].String(), "without semverHead, the newest of several heads")
	assert.NotContains(t, a.Channels, "candidate")
	assert.True(t, warned(rep, "channel candidate", "head a.v9.0.0 is not a loaded bundle"))
	assert.Equal(t, "stable", a.DefaultChannel)
	b := cat.Module("b")
	assert.Empty(t, b.Channels)
	assert.Empty(t, b.DefaultChannel, "the default channel was dropped")
	assert.True(t, warned(rep, "package b: default channel gone"))
}

func TestOLMBundlesEdges(t *testing.T) {
	semver := dumpPkg("", nil)
	semver["updateGraph"] = "semver-mode"
	cat, rep := loadDump(t, olmObj{"a": dumpPkg("", nil), "s": semver},
		dumpBundle("a", "1.0.0", nil),
		dumpBundle("a", "1.1.0", olmObj{"replaces": "a.v1.0.0", "skips": []string{"a.v0.9.0", "a.v1.0.0"}}),
		dumpBundle("a", "1.2.0", olmObj{"replaces": "a.v1.1.0", "skips": []string{"a.v1.0.0"}, "skipRange": ">=1.0.0 <1.2.0"}),
		dumpBundle("a", "1.3.0", olmObj{"replaces": "a.v0.5.0"}),
		dumpBundle("a", "2.0.0", olmObj{"skipRange": ">= one"}),
		dumpBundle("s", "1.0.0", nil),
		dumpBundle("s", "1.1.0", olmObj{"replaces": "s.v1.0.0", "skips": []string{"s.v0.1.0", "s.v0.2.0"}, "skipRange": "<1.1.0"}),
	)
	assert.Nil(t, olmRelease(t, cat, "a", "1.0.0").Edges, "a release without edges has nil Edges")
	e := olmRelease(t, cat, "a", "1.1.0").Edges
	require.NotNil(t, e)
	assert.Equal(t, "1.0.0", e.Replaces.String())
	assert.Empty(t, e.Skips, "a skip equal to replaces is not repeated")
	e = olmRelease(t, cat, "a", "1.2.0").Edges
	assert.Equal(t, "1.1.0", e.Replaces.String())
	require.Len(t, e.Skips, 1)
	assert.Equal(t, "1.0.0", e.Skips[0].String())
	assert.Equal(t, ">=1.0.0 <1.2.0", e.SkipRange.Text)
	assert.Nil(t, olmRelease(t, cat, "a", "1.3.0").Edges, "a dangling replaces is left out")
	assert.Equal(t, 1, rep.Counts[olmDanglingReplaces])
	assert.Equal(t, 1, rep.Counts[olmDanglingSkips])
	assert.Contains(t, skipReason(rep, "a.v2.0.0"), "skipRange")
	assert.False(t, cat.Module("s").HasUpdateGraph(), "semver-mode packages get no edges")
	assert.Equal(t, 4, rep.Counts[olmSemverModeEdges])
}

func TestOLMBundlesDependencies(t *testing.T) {
	dep := func(pkg, rng string) olmObj {
		return olmObj{"type": "olm.package", "packageName": pkg, "versionRange": rng}
	}
	tests := []struct {
		name, rng    string
		allow, block string
	}{
		{"bare exact version", "0.6.0", "0.6.0", "0.6.1"},
		{"space-separated AND", ">=0.0.27 <=0.1.3", "0.1.0", "0.1.4"},
		{"x wildcard in a range", ">=1.2.x <1.3.0", "1.2.0", "1.3.0"},
		{"v prefix", "<v1.2.3", "1.2.2", "1.2.3"},
		{"prerelease bound", ">=1.0.0-nightly.5 <2.0.0-rc1", "1.5.0", "2.0.0"},
		{"exclusion", ">1.0.0 !1.2.1", "1.2.0", "1.2.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cat, _ := loadDump(t, olmObj{}, dumpBundle("a", "1.0.0", olmObj{"dependencies": []olmObj{dep("b", tt.rng)}}), dumpBundle("b", "1.0.0", nil))
			deps := olmRelease(t, cat, "a", "1.0.0").Requirements.Modules
			require.Len(t, deps, 1)
			assert.Equal(t, "b", deps[0].Module)
			assert.Equal(t, tt.rng, deps[0].Constraint.Text)
			assert.True(t, deps[0].Constraint.Allows(model.MustParseVersion(tt.allow)))
			assert.False(t, deps[0].Constraint.Allows(model.MustParseVersion(tt.block)))
		})
	}
	cat, rep := loadDump(t, olmObj{},
		dumpBundle("a", "1.0.0", olmObj{"dependencies": []olmObj{dep("b", ">=1.0.0"), dep("b", "<2.0.0"), dep("b", ">=1.0.0"), dep("a", ">=0.1.0"), dep("outside", "1.0.0")}}),
		dumpBundle("a", "2.0.0", olmObj{"dependencies": []olmObj{dep("b", ">= one")}}),
		dumpBundle("a", "3.0.0", olmObj{"dependencies": []olmObj{dep("", "1.0.0")}}),
		dumpBundle("b", "1.0.0", nil),
	)
	deps := olmRelease(t, cat, "a", "1.0.0").Requirements.Modules
	require.Len(t, deps, 2)
	assert.Equal(t, ">=1.0.0, <2.0.0", deps[0].Constraint.Text, "two requirements on one package are ANDed")
	assert.Equal(t, "outside", deps[1].Module, "a package outside the catalog stays a requirement")
	assert.Equal(t, 1, rep.Counts[olmOutsideDeps])
	assert.True(t, warned(rep, "a.v1.0.0 depends on its own package a"))
	assert.Contains(t, skipReason(rep, "a.v2.0.0"), "dependency on b")
	assert.Contains(t, skipReason(rep, "a.v3.0.0"), "no packageName")
}

func TestOLMBundlesCapabilities(t *testing.T) {
	gvk := olmObj{"group": "rabbitmq.com", "version": "v1beta1", "kind": "RabbitmqCluster"}
	cat, rep := loadDump(t, olmObj{},
		dumpBundle("a", "1.0.0", olmObj{
			"dependencies":        []olmObj{{"type": "olm.gvk", "group": "rabbitmq.com", "version": "v1beta1", "kind": "RabbitmqCluster"}},
			"requiredCRDs":        []olmObj{gvk, {"group": "x.io", "version": "v1", "kind": "X", "crdName": "xs.x.io"}},
			"requiredAPIServices": []olmObj{{"group": "metrics.io", "version": "v1", "kind": "M"}},
		}),
		dumpBundle("a", "2.0.0", olmObj{"requiredCRDs": []olmObj{{"group": "x.io", "kind": "X"}}}),
		dumpBundle("r", "1.0.0", olmObj{"providedGVKs": []olmObj{gvk, gvk}}),
	)
	assert.Equal(t, []string{"metrics.io/v1/M", "rabbitmq.com/v1beta1/RabbitmqCluster", "x.io/v1/X"}, olmRelease(t, cat, "a", "1.0.0").Requirements.Capabilities)
	assert.Equal(t, []string{"rabbitmq.com/v1beta1/RabbitmqCluster"}, olmRelease(t, cat, "r", "1.0.0").Provides)
	assert.Equal(t, []string{"r"}, cat.Providers("rabbitmq.com/v1beta1/RabbitmqCluster"))
	assert.Contains(t, skipReason(rep, "a.v2.0.0"), "no version or kind")
}

func TestOLMBundlesConstraint(t *testing.T) {
	compound := olmObj{"type": "olm.constraint", "value": olmObj{
		"failureMessage": "Service Binding Operator is required",
		"any": olmObj{"constraints": []olmObj{
			{"package": olmObj{"packageName": "rh-service-binding-operator", "versionRange": ">=1.0.0"}},
			{"package": olmObj{"packageName": "service-binding-operator", "versionRange": ">=1.0.0"}},
		}},
	}}
	single := olmObj{"type": "olm.constraint", "value": olmObj{"failureMessage": "b", "package": olmObj{"packageName": "b", "versionRange": ">=1.0.0"}}}
	gvk := olmObj{"type": "olm.constraint", "value": olmObj{"gvk": olmObj{"group": "b.io", "version": "v1", "kind": "B"}}}
	cat, rep := loadDump(t, olmObj{},
		dumpBundle("a", "1.0.0", olmObj{"dependencies": []olmObj{compound}}),
		dumpBundle("a", "2.0.0", olmObj{"dependencies": []olmObj{single, gvk}}),
		dumpBundle("a", "3.0.0", olmObj{"dependencies": []olmObj{{"type": "olm.label", "label": "x"}}}),
		dumpBundle("a", "4.0.0", olmObj{"dependencies": []olmObj{{"type": "olm.constraint", "value": olmObj{"cel": olmObj{"rule": "true"}}}}}),
	)
	compounds := olmRelease(t, cat, "a", "1.0.0").Requirements.Compound
	require.Len(t, compounds, 1, "a compound olm.constraint is a compound requirement (R24)")
	assert.Equal(t, "any(rh-service-binding-operator >=1.0.0, service-binding-operator >=1.0.0)", compounds[0].Predicate.String())
	assert.Equal(t, "Service Binding Operator is required", compounds[0].Message)
	r := olmRelease(t, cat, "a", "2.0.0")
	require.Len(t, r.Requirements.Modules, 1, "an olm.constraint on one package is that dependency")
	assert.Equal(t, ">=1.0.0", r.Requirements.Modules[0].Constraint.Text)
	assert.Equal(t, []string{"b.io/v1/B"}, r.Requirements.Capabilities)
	assert.Equal(t, `dependency type "olm.label" is not supported`, skipReason(rep, "a.v3.0.0"))
	assert.Empty(t, olmRelease(t, cat, "a", "4.0.0").Requirements.Compound, "a cel constraint is skipped, not its bundle")
	assert.Equal(t, 1, rep.Counts[olmCelSkipped])
	assert.True(t, warned(rep, "a.v4.0.0", "cel"))
}

func TestOLMBundlesIgnoredAndQuirks(t *testing.T) {
	data, err := json.Marshal(olmObj{
		"bundles": []olmObj{
			dumpBundle("p", "0.0.1", olmObj{
				"ignoredDependencies": []olmObj{{"type": "olm.package", "packageName": "prometheus", "versionRange": "0.47.0"}, {"type": "olm.package", "packageName": "grafana-operator", "versionRange": "4.6.0"}},
				"quirks":              []string{"metadata/properties.yaml has a 'dependencies' key (ignored by opm; entries kept under ignoredDependencies)"},
				"nativeAPIs":          []olmObj{{"group": "", "version": "v1", "kind": "ConfigMap"}},
				"csvOlmProperties":    []olmObj{{"type": "olm.maxOpenShiftVersion", "value": "4.8"}, {"type": "olm.label", "value": "x"}},
			}),
			dumpBundle("konflux-operator", "0.1.0", olmObj{"quirks": []string{"annotations package name 'konflux-operator' != directory 'konflux'"}}),
			dumpBundle("konflux-operator", "0.2.0", olmObj{"quirks": []string{"annotations package name 'konflux-operator' != directory 'konflux'"}}),
		},
		"problems": []olmObj{{"path": "operators/eventing-kogito/1.1.0/metadata/dependencies.yaml", "problem": "yaml: mapping values are not allowed in this context"}},
	})
	require.NoError(t, err)
	cat, rep, err := parseOLMBundles("dump.json", data)
	require.NoError(t, err)
	assert.Empty(t, olmRelease(t, cat, "p", "0.0.1").Requirements.Modules, "opm ignores these dependencies")
	assert.Equal(t, 2, rep.Counts[olmIgnoredDeps])
	assert.Equal(t, 1, rep.Counts[olmNativeAPIs])
	assert.Equal(t, 1, rep.Counts[`CSV olm.properties of type "olm.label" ignored`])
	assert.True(t, warned(rep, "bundle p.v0.0.1", "ignoredDependencies"))
	assert.True(t, warned(rep, "operators/eventing-kogito/1.1.0/metadata/dependencies.yaml", "mapping values"))
	assert.True(t, warned(rep, "package konflux-operator, 2 bundles", "the package name konflux-operator is used"), "one warning per quirk and package")
	assert.NotNil(t, cat.Module("konflux-operator"))
}

func TestOLMBundlesPlatform(t *testing.T) {
	cat, rep := loadDump(t, olmObj{},
		dumpBundle("a", "1.0.0", olmObj{"minKubeVersion": "1.19.0-0", "openshiftVersions": "v4.6-v4.8", "maxOpenShiftVersion": "4.8"}),
		dumpBundle("a", "2.0.0", olmObj{"minKubeVersion": "", "openshiftVersions": "=v4.10"}),
		dumpBundle("a", "3.0.0", olmObj{"minKubeVersion": nil, "openshiftVersions": nil}),
		dumpBundle("a", "4.0.0", olmObj{"minKubeVersion": "1.x"}),
		dumpBundle("a", "5.0.0", olmObj{"openshiftVersions": "v4.8-v4.6"}),
		dumpBundle("a", "6.0.0", olmObj{"maxOpenShiftVersion": "latest"}),
	)
	r := olmRelease(t, cat, "a", "1.0.0")
	require.NotNil(t, r.Requirements.Kubernetes)
	assert.Equal(t, ">= 1.19.0-0", r.Requirements.Kubernetes.Text, "the -0 prerelease part stays as written")
	gate := r.Requirements.Platform[olmPlatform]
	require.NotNil(t, gate)
	assert.Equal(t, ">= 4.6, < 4.9 !optional", gate.Text, "a range and a maximum are ANDed")
	assert.True(t, gate.Allows(model.MustParseVersion("4.8.3")))
	assert.False(t, gate.Allows(model.MustParseVersion("4.9.0")))
	r = olmRelease(t, cat, "a", "2.0.0")
	assert.Nil(t, r.Requirements.Kubernetes)
	assert.Equal(t, 1, rep.Counts[olmEmptyMinKube])
	assert.Equal(t, ">= 4.10, < 4.11 !optional", r.Requirements.Platform[olmPlatform].Text)
	r = olmRelease(t, cat, "a", "3.0.0")
	assert.Nil(t, r.Requirements.Kubernetes)
	assert.Nil(t, r.Requirements.Platform)
	assert.Contains(t, skipReason(rep, "a.v4.0.0"), "minKubeVersion")
	assert.Contains(t, skipReason(rep, "a.v5.0.0"), "the range is empty")
	assert.Contains(t, skipReason(rep, "a.v6.0.0"), "maxOpenShiftVersion")
}

func TestOpenShiftRange(t *testing.T) {
	tests := []struct{ in, want string }{
		{"v4.6-v4.8", ">= 4.6, < 4.9"},
		{"v4.12", ">= 4.12"},
		{"4.12", ">= 4.12"},
		{"=v4.10", ">= 4.10, < 4.11"},
		{"4.10-4.17", ">= 4.10, < 4.18"},
		{"v3.6-v4.8", ">= 3.6, < 4.9"},
		{" v4.9 ", ">= 4.9"},
		{"v4.8-v4.8", ">= 4.8, < 4.9"},
	}
	for _, tt := range tests {
		got, err := openShiftRange(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
		_, err = model.ParseConstraint(got)
		assert.NoError(t, err, got)
	}
	for _, bad := range []string{"", "v4", "4.8.1", "=v4.6-v4.8", "v4.8-v4.6", "v4.6,v4.8", "v4.6 - v4.8", "v4.99999999999"} {
		_, err := openShiftRange(bad)
		assert.ErrorIs(t, err, model.ErrInvalidInput, bad)
	}
	for in, want := range map[string]string{"4.8": "< 4.9", "v4.12": "< 4.13", "4.8.0": "< 4.9"} {
		got, err := openShiftMax(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"4", "four", "=4.8", "4.8-4.9"} {
		_, err := openShiftMax(bad)
		assert.ErrorIs(t, err, model.ErrInvalidInput, bad)
	}
}

func TestOLMBundlesNames(t *testing.T) {
	cat, rep := loadDump(t, olmObj{"gone": dumpPkg("", nil)},
		dumpBundle("k", "1.5.2", nil),
		dumpBundle("k", "1.5.4", olmObj{"name": "k.v1.5.2"}),
		dumpBundle("k", "1.6.0", olmObj{"replaces": "k.v1.5.2"}),
		dumpBundle("gone", "bad", nil),
	)
	assert.Len(t, cat.Module("k").Releases, 3, "a repeated name with another version is kept")
	assert.True(t, warned(rep, "bundle name k.v1.5.2 is both 1.5.2 and 1.5.4"))
	assert.Equal(t, "1.5.2", olmRelease(t, cat, "k", "1.6.0").Edges.Replaces.String(), "the name means its first bundle")
	assert.Nil(t, cat.Module("gone"))
	assert.Equal(t, "package gone has no loadable bundle", skipReason(rep, "gone"))
	assert.True(t, warned(rep, "package k names no default channel"))
}

func TestOLMBundlesErrors(t *testing.T) {
	tests := []struct {
		name string
		data string
		line int
	}{
		{"empty", "", 0},
		{"syntax", "{\n\"bundles\": [\n}\n", 3},
		{"wrong type", "{\n\"bundles\": [{\"version\": 1}]}", 2},
		{"not an object", "[1]", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := parseOLMBundles("dump.json", []byte(tt.data))
			require.ErrorIs(t, err, model.ErrInvalidInput)
			require.ErrorIs(t, err, ErrSyntax)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "dump.json", pe.File)
			assert.NotContains(t, err.Error(), "olmDump", "no Go type names")
			if tt.line > 0 {
				assert.Equal(t, tt.line, pe.Line)
			}
		})
	}
}

// fbcOf builds an FBC: one JSON object per line.
func fbcOf(t *testing.T, objs ...olmObj) []byte {
	t.Helper()
	var b strings.Builder
	for _, o := range objs {
		line, err := json.Marshal(o)
		require.NoError(t, err)
		b.Write(line)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func fbcPkgObj(name, defaultChannel string) olmObj {
	return olmObj{"schema": "olm.package", "name": name, "defaultChannel": defaultChannel}
}

func fbcChanObj(pkg, name string, entries ...olmObj) olmObj {
	return olmObj{"schema": "olm.channel", "package": pkg, "name": name, "entries": entries}
}

// fbcBundleObj is a bundle of pkg at version, named pkg.v<version>, with
// its olm.package property and props.
func fbcBundleObj(pkg, version string, props ...olmObj) olmObj {
	all := append([]olmObj{fbcProp("olm.package", olmObj{"packageName": pkg, "version": version})}, props...)
	return olmObj{"schema": "olm.bundle", "package": pkg, "name": pkg + ".v" + version, "image": "quay.io/x", "properties": all}
}

func fbcProp(typ string, value any) olmObj { return olmObj{"type": typ, "value": value} }

// loadFBC parses an FBC that must load.
func loadFBC(t *testing.T, objs ...olmObj) (*model.Catalog, *Report) {
	t.Helper()
	cat, rep, err := parseOLMFBC("fbc.json", fbcOf(t, objs...))
	require.NoError(t, err)
	require.Equal(t, cat.Len(), rep.Modules)
	return cat, rep
}

func TestOLMFBCChannelsAndEdges(t *testing.T) {
	cat, rep := loadFBC(t,
		fbcPkgObj("a", "stable"),
		fbcChanObj("a", "stable",
			olmObj{"name": "a.v1.1.0", "replaces": "a.v1.0.0"},
			olmObj{"name": "a.v1.0.0"},
			olmObj{"name": "a.v0.9.0"},
			olmObj{"name": "a.v1.2.0", "replaces": "a.v0.5.0", "skips": []string{"a.v0.4.0"}}),
		fbcChanObj("a", "fast",
			olmObj{"name": "a.v1.1.0", "replaces": "a.v0.9.0", "skipRange": "<0.9.0"},
			olmObj{"name": "a.v2.0.0", "replaces": "a.v1.1.0", "skipRange": ">=1.0.0 <2.0.0"}),
		fbcChanObj("a", "fast2", olmObj{"name": "a.v2.0.0", "skipRange": "<1.0.0"}),
		fbcChanObj("a", "loop", olmObj{"name": "a.v1.0.0", "replaces": "a.v0.9.0"}, olmObj{"name": "a.v0.9.0", "replaces": "a.v1.0.0"}),
		fbcChanObj("a", "ghost", olmObj{"name": "a.v7.0.0"}),
		fbcBundleObj("a", "1.0.0"), fbcBundleObj("a", "1.1.0"), fbcBundleObj("a", "0.9.0"), fbcBundleObj("a", "1.2.0"), fbcBundleObj("a", "2.0.0"),
		fbcChanObj("a", "late", olmObj{"name": "a.v1.0.0"}),
	)
	assert.Equal(t, FormatOLMFBC, rep.Format)
	a := cat.Module("a")
	assert.Equal(t, "1.2.0", a.Channels["stable"].String(), "the newest of several heads")
	assert.Equal(t, "2.0.0", a.Channels["fast"].String())
	assert.Equal(t, "1.0.0", a.Channels["late"].String(), "channels may follow their bundles")
	assert.NotContains(t, a.Channels, "loop")
	assert.True(t, warned(rep, "channel loop has no head"))
	assert.NotContains(t, a.Channels, "ghost")
	assert.Equal(t, 1, rep.Counts["channel entries naming no bundle"])
	assert.Equal(t, "stable", a.DefaultChannel)

	e := olmRelease(t, cat, "a", "1.1.0").Edges
	require.NotNil(t, e)
	assert.Equal(t, "1.0.0", e.Replaces.String(), "the first replaces")
	require.Len(t, e.Skips, 1)
	assert.Equal(t, "0.9.0", e.Skips[0].String(), "a second channel's replaces joins Skips")
	assert.Equal(t, "<0.9.0", e.SkipRange.Text)
	e = olmRelease(t, cat, "a", "2.0.0").Edges
	assert.Equal(t, ">=1.0.0 <2.0.0 || <1.0.0", e.SkipRange.Text, "skipRanges of several channels are alternatives")
	assert.Nil(t, olmRelease(t, cat, "a", "1.2.0").Edges, "dangling replaces and skips are left out")
	assert.Equal(t, 1, rep.Counts[olmDanglingReplaces])
	assert.Equal(t, 1, rep.Counts[olmDanglingSkips])
	assert.Equal(t, "1.0.0", olmRelease(t, cat, "a", "0.9.0").Edges.Replaces.String(), "a channel without a head still gives edges")
}

func TestOLMFBCProperties(t *testing.T) {
	cat, rep := loadFBC(t,
		fbcPkgObj("topology", "stable"),
		fbcPkgObj("cluster", "stable"),
		fbcChanObj("topology", "stable", olmObj{"name": "topology.v1.15.0"}),
		fbcChanObj("cluster", "stable", olmObj{"name": "cluster.v2.1.0"}),
		fbcBundleObj("topology", "1.15.0",
			fbcProp("olm.gvk.required", olmObj{"group": "rabbitmq.com", "kind": "RabbitmqCluster", "version": "v1beta1"}),
			fbcProp("olm.package.required", olmObj{"packageName": "cluster", "versionRange": ">2.0.0"}),
			fbcProp("olm.package.required", olmObj{"packageName": "cluster", "versionRange": "<3.0.0"}),
			fbcProp("olm.csv.metadata", olmObj{"minKubeVersion": "1.25.0", "displayName": "x", "nativeAPIs": []olmObj{{"version": "v1", "kind": "Pod"}}}),
			fbcProp("olm.maxOpenShiftVersion", "4.12"),
			fbcProp("olm.bundle.object", olmObj{"data": "..."}),
		),
		fbcBundleObj("cluster", "2.1.0",
			fbcProp("olm.gvk", olmObj{"group": "rabbitmq.com", "kind": "RabbitmqCluster", "version": "v1beta1"}),
			fbcProp("olm.csv.metadata", olmObj{"minKubeVersion": ""}),
		),
		fbcBundleObj("cluster", "2.2.0", fbcProp("olm.maxOpenShiftVersion", 4.12)),
		fbcBundleObj("cluster", "2.3.0", fbcProp("olm.package", olmObj{"packageName": "cluster", "version": "2.3.1"})),
		olmObj{"schema": "olm.bundle", "package": "cluster", "name": "cluster.nover", "properties": []olmObj{}},
		olmObj{"schema": "olm.deprecations", "package": "cluster", "entries": []olmObj{{"reference": olmObj{"schema": "olm.package"}, "message": "x"}}},
	)
	r := olmRelease(t, cat, "topology", "1.15.0")
	require.Len(t, r.Requirements.Modules, 1)
	assert.Equal(t, ">2.0.0, <3.0.0", r.Requirements.Modules[0].Constraint.Text)
	assert.Equal(t, []string{"rabbitmq.com/v1beta1/RabbitmqCluster"}, r.Requirements.Capabilities)
	assert.Equal(t, ">= 1.25.0", r.Requirements.Kubernetes.Text)
	assert.Equal(t, "< 4.13 !optional", r.Requirements.Platform[olmPlatform].Text)
	assert.Equal(t, []string{"rabbitmq.com/v1beta1/RabbitmqCluster"}, olmRelease(t, cat, "cluster", "2.1.0").Provides)
	assert.Nil(t, olmRelease(t, cat, "cluster", "2.1.0").Requirements.Kubernetes)
	assert.Equal(t, 1, rep.Counts[olmEmptyMinKube])
	assert.Equal(t, 1, rep.Counts[olmNativeAPIs])
	assert.Equal(t, 1, rep.Counts[`bundle properties of type "olm.bundle.object" ignored`])
	assert.Equal(t, 1, rep.Counts[olmDeprecated], "olm.deprecations are read (D55)")
	assert.Equal(t, model.StageDeprecated, olmRelease(t, cat, "cluster", "2.1.0").Stage)
	assert.Contains(t, skipReason(rep, "cluster.v2.2.0"), "property olm.maxOpenShiftVersion")
	assert.Equal(t, "property olm.package is listed twice", skipReason(rep, "cluster.v2.3.0"))
	assert.Equal(t, "bundle has no olm.package property", skipReason(rep, "cluster.nover"))
	assert.Len(t, cat.Module("cluster").Releases, 1)
}

func TestOLMFBCStream(t *testing.T) {
	pretty := "{\n  \"schema\": \"olm.package\",\n  \"name\": \"a\",\n  \"defaultChannel\": \"stable\"\n}\n" +
		"{\"schema\": \"olm.channel\", \"package\": \"a\", \"name\": \"stable\", \"entries\": [{\"name\": \"a.v1.0.0\"}]}\n" +
		"{\n  \"schema\": \"olm.bundle\", \"name\": \"a.v1.0.0\", \"package\": \"a\",\n" +
		"  \"properties\": [{\"type\": \"olm.package\", \"value\": {\"packageName\": \"a\", \"version\": \"1.0.0\"}}]\n}\n" +
		"{\"schema\": \"olm.channel\", \"package\": \"a\", \"name\": 5}\n" +
		"[1, 2]\n"
	cat, rep, err := parseOLMFBC("fbc.json", []byte(pretty))
	require.NoError(t, err, "objects may span lines")
	assert.Equal(t, "1.0.0", cat.Module("a").Channels["stable"].String())
	assert.Contains(t, skipReason(rep, "fbc.json:11"), "olm.channel: name: got a JSON number, want string")
	assert.Contains(t, skipReason(rep, "fbc.json:12"), "not an FBC object")

	for _, tt := range []struct {
		name, data string
		line       int
	}{
		{"empty", " \n", 0},
		{"syntax", "{\"schema\": \"olm.package\", \"name\": \"a\"}\n{\"schema\": }\n", 2},
		{"truncated", "{\"schema\": \"olm.package\"", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := parseOLMFBC("fbc.json", []byte(tt.data))
			require.ErrorIs(t, err, ErrSyntax)
			require.ErrorIs(t, err, model.ErrInvalidInput)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			if tt.line > 0 {
				assert.Equal(t, tt.line, pe.Line)
			}
		})
	}
}

func TestOLMFBCDeclarations(t *testing.T) {
	cat, rep := loadFBC(t,
		fbcPkgObj("a", "stable"), fbcPkgObj("a", "other"), fbcPkgObj("", "x"),
		fbcChanObj("a", "stable", olmObj{"name": "a.v1.0.0"}),
		fbcChanObj("a", "stable", olmObj{"name": "a.v2.0.0"}),
		fbcChanObj("", "x"),
		fbcPkgObj("b", "stable"),
		fbcChanObj("b", "stable", olmObj{"name": "b.v1.0.0"}),
		fbcBundleObj("a", "1.0.0"), fbcBundleObj("a", "2.0.0"),
		fbcBundleObj("a", "3.0.0", fbcProp("olm.package.required", olmObj{"packageName": "a", "versionRange": ">=1.0.0"})),
	)
	a := cat.Module("a")
	assert.Equal(t, "1.0.0", a.Channels["stable"].String(), "the first declaration of a channel wins")
	assert.Equal(t, "stable", a.DefaultChannel)
	assert.Contains(t, skipReason(rep, "fbc.json:2"), "package a is declared twice")
	assert.Contains(t, skipReason(rep, "fbc.json:3"), "no name")
	assert.Contains(t, skipReason(rep, "fbc.json:5"), "channel stable of package a is declared twice")
	assert.Contains(t, skipReason(rep, "fbc.json:6"), "no name or no package")
	assert.Equal(t, "package b has no loadable bundle", skipReason(rep, "b"))
	assert.Empty(t, olmRelease(t, cat, "a", "3.0.0").Requirements.Modules)
	assert.True(t, warned(rep, "a.v3.0.0 depends on its own package a"))
}

// TestOLMBundlesReal loads the real community-operators bundle dump.
func TestOLMBundlesReal(t *testing.T) {
	path := shared.Path(t, "data", "olm", "community-operators-prod-bundles.json")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	start := time.Now()
	cat, rep, err := parseOLMBundles(path, data)
	require.NoError(t, err)
	t.Logf("loaded %s in %v", cat, time.Since(start))

	// The README counts 333 packages, 7,019 bundles and 654 channels. One
	// bundle is skipped: the second slurm-operator 0.4.0 (folder 0.4.1,
	// same CSV name and version). dbaas-operator.v0.5.0's compound
	// olm.constraint is a compound requirement (R24).
	assert.Equal(t, 333, cat.Len())
	assert.Equal(t, 7018, cat.ReleaseCount())
	assert.Equal(t, 654, olmChannelCount(cat))
	assert.Equal(t, []Skipped{
		{"slurm-operator.v0.4.0", "version 0.4.0 repeats bundle slurm-operator.v0.4.0 of package slurm-operator; the first is kept"},
	}, rep.Skipped)
	dbaas := olmRelease(t, cat, "dbaas-operator", "0.5.0").Requirements.Compound
	require.Len(t, dbaas, 1)
	assert.Equal(t, "any(rh-service-binding-operator >=1.0.0, service-binding-operator >=1.0.0)", dbaas[0].Predicate.String())
	assert.Equal(t, "Service Binding Operator is required", dbaas[0].Message)
	assert.Equal(t, map[string]int{
		olmDanglingReplaces: 36,
		olmSkippedEntries:   139,
		olmDanglingSkips:    102,
		olmIgnoredDeps:      20, // pelorus-operator 9 × 2, ndmspc-operator 2
		olmEmptyMinKube:     43,
		olmNativeAPIs:       658,
		olmOutsideDeps:      83, // 131 − 48 inside, as the README says
		olmSemverModeEdges:  533,
	}, rep.Counts)
	// 3 problems, 8 grouped quirks, kubernaut's repeated CSV name, and
	// eclipse-amlen-operator's missing defaultChannel.
	assert.Len(t, rep.Warnings, 12)
	assert.True(t, warned(rep, "package konflux-operator, 51 bundles", "the package name konflux-operator is used"))
	assert.NotNil(t, cat.Module("konflux-operator"))

	s := olmTotals(cat)
	// README: 131 olm.package dependencies.
	assert.Equal(t, 131, s.deps)
	// README: 73 olm.gvk + 56 required CRDs; 8 are one GVK listed both ways
	// by one bundle.
	assert.Equal(t, 121, s.capabilities)
	// README: 36,553 provided GVKs; the skipped bundle had 6.
	assert.Equal(t, 36547, s.provides)
	// README: minKubeVersion in 2,172 bundles (non-empty); 1 was skipped.
	assert.Equal(t, 2171, s.kubernetes)
	// README: OpenShift ranges in 2,393 bundles, each of the 566 with
	// maxOpenShiftVersion among them.
	assert.Equal(t, 2393, s.openShift)
	// README: replaces in 2,423 bundles, less 193 in semver-mode packages
	// and 36 dangling; skipRange in 884, less 329 in semver-mode packages.
	assert.Equal(t, 2194, s.replaces)
	assert.Equal(t, 555, s.skipRange)

	che := cat.Module("eclipse-che")
	require.NotNil(t, che)
	deps := che.Releases[len(che.Releases)-1].Requirements.Modules
	require.Len(t, deps, 1)
	assert.Equal(t, "devworkspace-operator", deps[0].Module)
	assert.Equal(t, ">=0.11.0", deps[0].Constraint.Text)
	assert.Nil(t, cat.Module("devworkspace-operator"), "it lives in another catalog")
}

// TestOLMFBCReal loads the real community-operators FBC for OpenShift 4.21.
func TestOLMFBCReal(t *testing.T) {
	path := shared.Path(t, "data", "olm", "community-operators-prod-fbc-v4.21.json")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	start := time.Now()
	cat, rep, err := parseOLMFBC(path, data)
	require.NoError(t, err)
	t.Logf("loaded %s in %v", cat, time.Since(start))

	assert.Equal(t, 33, cat.Len())
	assert.Equal(t, 745, cat.ReleaseCount())
	assert.Equal(t, 78, olmChannelCount(cat))
	assert.Empty(t, rep.Skipped)
	assert.Empty(t, rep.Warnings)
	assert.Equal(t, map[string]int{olmDanglingReplaces: 7, olmDanglingSkips: 23, olmNativeAPIs: 121, olmSkippedEntries: 89}, rep.Counts)
	for _, m := range cat.Modules() {
		assert.NotEmpty(t, m.DefaultChannel, m.Name)
	}

	const capability = "rabbitmq.com/v1beta1/RabbitmqCluster"
	topology := cat.Module("rabbitmq-messaging-topology-operator")
	require.NotNil(t, topology)
	// The 7 releases from 1.15.0 on declare the requirement; the 5 before
	// declare none.
	required := 0
	for _, r := range topology.Releases {
		if r.Version.LessThan(model.MustParseVersion("1.15.0")) {
			assert.Empty(t, r.Requirements.Modules, r.Version)
			continue
		}
		required++
		require.Len(t, r.Requirements.Modules, 1, r.Version)
		assert.Equal(t, "rabbitmq-cluster-operator", r.Requirements.Modules[0].Module)
		assert.Equal(t, ">2.0.0", r.Requirements.Modules[0].Constraint.Text)
		assert.Contains(t, r.Requirements.Capabilities, capability)
	}
	assert.Equal(t, 7, required)
	assert.Equal(t, []string{"rabbitmq-cluster-operator"}, cat.Providers(capability))
	cluster := cat.Module("rabbitmq-cluster-operator")
	assert.Contains(t, cluster.Releases[len(cluster.Releases)-1].Provides, capability)
}

// olmChannelCount is the number of channels over all modules.
func olmChannelCount(cat *model.Catalog) int {
	n := 0
	for _, m := range cat.Modules() {
		n += len(m.Channels)
	}
	return n
}

// olmSums are totals over every release of a catalog.
type olmSums struct {
	deps, capabilities, provides, kubernetes, openShift, replaces, skipRange int
}

func olmTotals(cat *model.Catalog) olmSums {
	var s olmSums
	for _, m := range cat.Modules() {
		for _, r := range m.Releases {
			s.deps += len(r.Requirements.Modules)
			s.capabilities += len(r.Requirements.Capabilities)
			s.provides += len(r.Provides)
			if r.Requirements.Kubernetes != nil {
				s.kubernetes++
			}
			if r.Requirements.Platform[olmPlatform] != nil {
				s.openShift++
			}
			if r.Edges != nil && r.Edges.Replaces != nil {
				s.replaces++
			}
			if r.Edges != nil && r.Edges.SkipRange != nil {
				s.skipRange++
			}
		}
	}
	return s
}

func TestOLMFBCChannelSets(t *testing.T) {
	cat, rep := loadFBC(t,
		fbcPkgObj("a", "stable"),
		fbcChanObj("a", "stable",
			olmObj{"name": "a.v1.0.0"},
			olmObj{"name": "a.v1.0.5", "replaces": "a.v1.0.0"},
			olmObj{"name": "a.v1.1.0", "replaces": "a.v1.0.0", "skips": []string{"a.v1.0.5", "a.v0.9.0"}},
			olmObj{"name": "a.v1.2.0", "replaces": "a.v1.1.0", "skipRange": "<1.2.0"},
			olmObj{"name": "a.v3.0.0"}),
		fbcBundleObj("a", "0.9.0"), fbcBundleObj("a", "1.0.0"), fbcBundleObj("a", "1.0.5"), fbcBundleObj("a", "1.1.0"), fbcBundleObj("a", "1.2.0"),
	)
	a := cat.Module("a")
	assert.Equal(t, "1.2.0", a.Channels["stable"].String())
	set := a.ChannelSets["stable"]
	require.NotNil(t, set)
	assert.Equal(t, []string{"1.0.0", "1.0.5", "1.1.0", "1.2.0"}, model.VersionStrings(set.Entries), "loaded entries only")
	assert.Equal(t, []string{"1.0.5"}, model.VersionStrings(set.Skipped), "0.9.0 is skipped too, but no entry")
	assert.False(t, a.ChannelHolds("stable", model.MustParseVersion("0.9.0")), "not an entry")
	assert.False(t, a.ChannelHolds("stable", model.MustParseVersion("1.0.5")), "skipped by 1.1.0")
	assert.True(t, a.ChannelHolds("stable", model.MustParseVersion("1.0.0")), "replaced, and still an entry: skipRange and replaces take nothing out")
	assert.Equal(t, 1, rep.Counts[olmSkippedEntries])
}
