package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// D67: by default a chart's dependencies are subcharts bundled in it, not
// requirements; installed reads them as requirements.
func TestHelmSubchartModes(t *testing.T) {
	index := []byte(`apiVersion: v1
entries:
  argo-ci:
    - version: 1.0.0
      dependencies: [{name: argo, version: 1.0.0, repository: https://argoproj.github.io/argo-helm}, {name: lib, repository: "file://../lib"}]
  argo: [{version: 1.0.0}]
`)
	for _, tt := range []struct {
		opts    []Option
		mode    HelmSubcharts
		deps    int
		bundled int
	}{
		{nil, SubchartsBundled, 0, 2},
		{[]Option{WithHelmSubcharts(SubchartsBundled)}, SubchartsBundled, 0, 2},
		{[]Option{WithHelmSubcharts(SubchartsInstalled)}, SubchartsInstalled, 1, 1},
	} {
		t.Run(string(tt.mode), func(t *testing.T) {
			cat, rep, err := ParseFormat("index.yaml", index, "", tt.opts...)
			require.NoError(t, err)
			assert.Len(t, cat.Module("argo-ci").Releases[0].Requirements.Modules, tt.deps)
			assert.Equal(t, tt.mode, rep.HelmSubcharts)
			st := NewStats(cat, rep)
			assert.Equal(t, tt.bundled, st.BundledSubcharts)
			assert.Equal(t, tt.mode, st.HelmSubcharts)
			assert.Equal(t, map[model.UpdatePolicy]int{model.UpdateDirect: 2}, st.UpdatePolicies, "Helm charts update directly (D66)")
		})
	}
	_, err := ParseHelmSubcharts("vendored")
	assert.ErrorIs(t, err, model.ErrInvalidValue)
}

// D68: Rancher's annotations.
func TestHelmRancherAnnotations(t *testing.T) {
	index := []byte(`apiVersion: v1
entries:
  app:
    - version: 2.0.0+up1.0.0
      kubeVersion: ">= 1.20.0-0 || >= 1.30.0"
      annotations:
        catalog.cattle.io/kube-version: "< 1.31.0-0"
        catalog.cattle.io/rancher-version: ">= 2.9.0-0"
        catalog.cattle.io/auto-install: app-crd=match
        catalog.cattle.io/provides-gvr: example.cattle.io/v1, other.cattle.io/v2
        catalog.cattle.io/display-name: App
        category: Monitoring
    - version: 1.0.0
      annotations: {catalog.cattle.io/auto-install: app-crd=1.0.1}
  app-crd: [{version: 1.0.1}, {version: 2.0.0+up1.0.0}]
`)
	cat, rep, err := ParseFormat("index.yaml", index, "")
	require.NoError(t, err)
	r := cat.Module("app").Releases[1]
	assert.Equal(t, ">= 1.20.0-0, < 1.31.0-0 || >= 1.30.0, < 1.31.0-0", r.Requirements.Kubernetes.Text)
	require.Contains(t, r.Requirements.Platform, "rancher")
	assert.True(t, r.Requirements.Platform["rancher"].Optional, "rancher-version is optional (D69)")
	assert.Equal(t, []model.Dependency{{Module: "app-crd", Constraint: model.MustParseConstraint("= 2.0.0+up1.0.0")}}, r.Requirements.Modules)
	assert.Equal(t, []string{"example.cattle.io/v1", "other.cattle.io/v2"}, r.Provides)
	assert.Equal(t, "= 1.0.1", cat.Module("app").Releases[0].Requirements.Modules[0].Constraint.Text)
	assert.Equal(t, 1, rep.Counts[helmIgnoredAnnotation+"category"])
	assert.Equal(t, 1, rep.Counts[helmIgnoredAnnotation+"catalog.cattle.io/display-name"])
	assert.NotContains(t, rep.Counts, helmIgnoredAnnotation+rancherAutoInstall)

	bad := []byte("apiVersion: v1\nentries:\n  app:\n    - {version: 1.0.0, annotations: {catalog.cattle.io/auto-install: app-crd}}\n    - {version: 1.1.0}\n")
	cat, rep, err = ParseFormat("index.yaml", bad, "")
	require.NoError(t, err)
	assert.Len(t, cat.Module("app").Releases, 1)
	require.Len(t, rep.Skipped, 1)
	assert.Contains(t, rep.Skipped[0].Reason, "auto-install")
}
