package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
)

// D129: a built-in module that records no bundle default is taken as on
// where a built-in module on by default requires it, transitively, and
// not for an optional requirement; each inference is a load warning.
func TestInferBundleDefaults(t *testing.T) {
	root := writeTree(t, map[string]string{
		"embedded/dns-cache/module.yaml": "name: dns-cache\naccessibility: {editions: {_default: {available: true, enabledInBundles: [Default]}, ce: {enabledInBundles: [Minimal]}}}\nrequirements: {modules: {dns: '>= 0.0.0', tracing: '!optional'}}\n",
		"embedded/dns/module.yaml":       "name: dns\nrequirements: {modules: {kube-api: '>= 0.0.0'}}\n",
		"embedded/kube-api/module.yaml":  "name: kube-api\n",
		"embedded/tracing/module.yaml":   "name: tracing\n",
	})
	cat, rep, err := Load(root)
	require.NoError(t, err)
	cluster := func(edition, bundle string) *model.ClusterState {
		return &model.ClusterState{Deckhouse: model.MustParseVersion("1.73.0"), Edition: edition, Bundle: bundle}
	}
	for _, name := range []string{"dns", "kube-api"} {
		m := cat.Module(name)
		assert.True(t, cluster("ee", "Default").RunsByDefault(m), "%s runs where dns-cache does", name)
		assert.True(t, cluster("ce", "Minimal").RunsByDefault(m), "%s follows dns-cache's edition entry", name)
		assert.False(t, cluster("ee", "Minimal").RunsByDefault(m), "%s: not where dns-cache is off", name)
	}
	assert.False(t, cluster("ee", "Default").RunsByDefault(cat.Module("tracing")), "an optional requirement infers nothing")
	assert.Contains(t, rep.Summary(), "built-in module dns records no bundle default; it is taken as on by default where dns-cache, which requires it, is")
	assert.Contains(t, rep.Summary(), "built-in module kube-api records no bundle default; it is taken as on by default where dns, which requires it, is")
	assert.Contains(t, rep.Summary(), "built-in module tracing records no bundle default (DKP keeps it outside module.yaml); it is taken as off unless the cluster state enables it")
}

// On the real tree, the built-in modules that a module on by default
// needs run by default too: a plain install keeps them (D128, D129).
func TestInferBundleDefaultsRealDKP(t *testing.T) {
	cat, rep, err := Load(shared.Path(t, "data", "dkp"))
	require.NoError(t, err)
	c := &model.ClusterState{Deckhouse: model.MustParseVersion("1.73.3"), Edition: "ee", Bundle: "Default"}
	var running []string
	for _, m := range cat.Modules() {
		if c.RunsByDefault(m) {
			running = append(running, m.Name)
		}
	}
	assert.Equal(t, []string{"deckhouse-tools", "descheduler", "kube-dns", "kube-proxy", "monitoring-custom", "node-local-dns", "operator-prometheus", "prometheus"}, running)
	assert.Contains(t, rep.Summary(), "they are taken as off unless the cluster state enables them")
}
