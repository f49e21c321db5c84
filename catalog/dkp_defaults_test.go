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

// On the real tree, DKP's own bundle defaults decide what a plain cluster
// runs: 71 of the 74 built-in modules record them in module.yaml, and on
// bundle Default in EE 37 of them are on (D128, D129). The three that
// record none, and that no default module requires, stay off with a
// warning that names them.
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
	assert.Equal(t, []string{
		"admission-policy-engine", "cert-manager", "chrony", "control-plane-manager", "dashboard",
		"deckhouse", "deckhouse-tools", "descheduler", "documentation", "extended-monitoring",
		"flow-schema", "ingress-nginx", "kube-dns", "kube-proxy", "local-path-provisioner",
		"log-shipper", "monitoring-custom", "monitoring-deckhouse", "monitoring-kubernetes",
		"monitoring-kubernetes-control-plane", "monitoring-ping", "multitenancy-manager",
		"namespace-configurator", "node-local-dns", "node-manager", "operator-prometheus",
		"pod-reloader", "priority-class", "prometheus", "prometheus-metrics-adapter",
		"registry-packages-proxy", "secret-copier", "terraform-manager", "upmeter", "user-authn",
		"user-authz", "vertical-pod-autoscaler",
	}, running)
	for _, name := range []string{"registry", "cloud-provider-dvp", "cloud-provider-metal3"} {
		assert.Contains(t, rep.Summary(), name, "a built-in module with no default is named")
	}
	assert.Contains(t, rep.Summary(), "they are taken as off unless the cluster state enables them")
}
