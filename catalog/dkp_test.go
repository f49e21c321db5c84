package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
)

// writeTree writes files (path relative to the returned root → content).
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		path := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	return root
}

func TestLoadDir(t *testing.T) {
	root := writeTree(t, map[string]string{
		"embedded/prometheus/module.yaml":          "name: prometheus\nweight: 300\nnamespace: d8-monitoring\nrequirements:\n  modules:\n    operator-prometheus: '>= 0.0.0'\n    istio: '!optional'\n",
		"embedded/operator-prometheus/module.yaml": "name: operator-prometheus\ndescriptions: {en: x}\n",
		"embedded/dashboard/module.yaml":           "name: dashboard\nrequirements:\n  bootstrapped: true\n  user-authz: '>= 0.0.0'\n",
		"external/csi/v0.1.0/module.yaml":          "name: csi\nweight: 910\nrequirements: {deckhouse: '>= 1.60'}\n",
		"external/csi/v0.2.0-rc.1/module.yaml":     "name: csi\nweight: 915\nrequirements: {modules: {csi: '>= 0.1.0', prometheus: '>= 0.0.0'}}\n",
		"external/csi/v0.2.3.1/module.yaml":        "name: csi\n",
		"external/csi/v0.3.0/README.md":            "no module.yaml here\n",
		"external/csi/channels.yaml":               "stable: v0.1.0\nalpha: 0.2.0-rc.1\n",
		"external/snap/v1.0.0/module.yaml":         "name: snap\n",
		"embedded/snap/module.yaml":                "name: snap\n",
		"platform.yaml":                            "deckhouse: {}\n",
	})
	cat, rep, err := Load(root)
	require.NoError(t, err)
	assert.Equal(t, FormatDKP, rep.Format)
	assert.Equal(t, []string{"csi", "dashboard", "operator-prometheus", "prometheus", "snap"}, names(cat))

	csi := cat.Module("csi")
	require.Len(t, csi.Releases, 2, "D4: the non-semver tag and the folder without module.yaml are skipped")
	assert.Equal(t, 915, csi.Weight, "D4: module-level fields come from the newest release")
	assert.Equal(t, "0.1.0", csi.Channels["stable"].String())
	require.Len(t, csi.Releases[1].Requirements.Modules, 1, "D4: a self-requirement is dropped")
	assert.Equal(t, "prometheus", csi.Releases[1].Requirements.Modules[0].Module)
	assert.Equal(t, 1, rep.Prereleases)

	prom := cat.Module("prometheus")
	assert.True(t, prom.Embedded)
	require.Len(t, prom.Requirements.Modules, 2)
	assert.True(t, prom.Requirements.Modules[0].Constraint.Optional, `a bare "!optional"`)
	assert.True(t, prom.Requirements.Modules[0].Constraint.AnyVersion())

	snap := cat.Module("snap")
	assert.Equal(t, "embedded", snap.BuiltInSource(), "D350: built in and external, one module of two sources")
	assert.Len(t, snap.Releases, 1, "D350: its releases are the external ones")
	assert.Empty(t, cat.Module("dashboard").Requirements.Modules, "D4: requirements.user-authz is ignored, as DKP ignores it")

	summary := rep.Summary()
	for _, want := range []string{`"v0.2.3.1" is not a semantic version`, "no module.yaml", "requirements.user-authz", "requires itself", "both built in and external"} {
		assert.Contains(t, summary, want)
	}
}

func TestLoadDirErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		is    error
	}{
		{"not a dkp dir", map[string]string{"x/module.yaml": "name: x\n"}, model.ErrInvalidInput},
		{"bad constraint", map[string]string{"external/a/v1.0.0/module.yaml": "requirements: {deckhouse: '>= one'}\n"}, model.ErrInvalidConstraint},
		{"bad yaml", map[string]string{"embedded/a/module.yaml": "name: [\n"}, ErrSyntax},
		{"requirements not a map", map[string]string{"embedded/a/module.yaml": "requirements: [a]\n"}, ErrSyntax},
		{"bad channels", map[string]string{"external/a/v1.0.0/module.yaml": "name: a\n", "external/a/channels.yaml": "stable: soon\n"}, model.ErrInvalidVersion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Load(writeTree(t, tt.files))
			assert.ErrorIs(t, err, tt.is)
		})
	}
}

// The real DKP tree loads, and the report says what was skipped and why.
func TestLoadDirRealDKP(t *testing.T) {
	cat, rep, err := Load(shared.Path(t, "data", "dkp"))
	require.NoError(t, err)
	// 74 built-in and 12 external modules; snapshot-controller is both.
	assert.Equal(t, 85, cat.Len())
	assert.Equal(t, 73, rep.Embedded)
	skippedTags := 0
	for _, s := range rep.Skipped {
		if strings.Contains(s.Reason, "not a semantic version") {
			skippedTags++
		}
	}
	assert.Positive(t, skippedTags, "the non-semver tags are reported")
	assert.Equal(t, 514, rep.Releases+skippedTags, "every tag is either loaded or reported")
	assert.Positive(t, rep.Prereleases)
	assert.Contains(t, rep.Summary(), "v0.2.3.1")
	assert.Contains(t, rep.Summary(), "requirements.user-authz")

	sf := cat.Module("storage-foundation")
	require.NotNil(t, sf)
	last := sf.Releases[len(sf.Releases)-1]
	assert.Equal(t, "1.0.0", last.Version.String())
	ingress := cat.Module("ingress-nginx")
	require.NotNil(t, ingress)
	found := false
	for _, d := range ingress.Requirements.Modules {
		if d.Module == "istio" {
			found = d.Constraint.Optional && d.Constraint.AnyVersion()
		}
	}
	assert.True(t, found, `ingress-nginx's bare istio: "!optional"`)
}

func names(cat *model.Catalog) []string {
	var out []string
	for _, m := range cat.Modules() {
		out = append(out, m.Name)
	}
	return out
}
