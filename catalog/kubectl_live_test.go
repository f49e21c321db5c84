package catalog

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// liveDump is a dump with the objects of the live cluster (R32, D390).
const liveDump = `apiVersion: v1
kind: List
items:
- apiVersion: deckhouse.io/v1alpha1
  kind: DeckhouseRelease
  metadata: {name: v1.74.2}
  spec: {version: v1.74.2}
  status: {phase: Deployed}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: deckhouse}
  spec:
    version: 1
    settings: {bundle: Default, allowedExperimentalModules: [sds-elastic]}
- apiVersion: v1
  kind: Node
  metadata: {name: master-0}
  status:
    nodeInfo: {osImage: Ubuntu 22.04.3 LTS, kernelVersion: 5.15.0-91-generic, containerRuntimeVersion: "containerd://1.7.13", kubeletVersion: v1.31.4}
- apiVersion: v1
  kind: Node
  metadata: {name: worker-0}
  status:
    nodeInfo: {osImage: Ubuntu 20.04.6 LTS, kernelVersion: 5.4.0-150-generic, containerRuntimeVersion: "containerd://2.0.2", kubeletVersion: v1.31.2}
- apiVersion: v1
  kind: Node
  metadata: {name: worker-1}
  status:
    nodeInfo: {osImage: "Debian GNU/Linux 11 (bullseye)", kernelVersion: 5.10.0-28-amd64, containerRuntimeVersion: "containerd://2.0.2", kubeletVersion: v1.31.4}
- apiVersion: deckhouse.io/v1
  kind: IngressNginxController
  metadata: {name: main}
  spec: {controllerVersion: "1.10", ingressClass: nginx}
- apiVersion: deckhouse.io/v1
  kind: IngressNginxController
  metadata: {name: internal}
  spec: {controllerVersion: "1.9", ingressClass: internal}
- apiVersion: deckhouse.io/v1
  kind: ClusterConfiguration
  metadata: {name: cluster-configuration}
  kubernetesVersion: Automatic
- apiVersion: deckhouse.io/v1alpha2
  kind: ModulePullOverride
  metadata: {name: console}
  spec: {imageTag: pr-123, source: deckhouse}
- apiVersion: deckhouse.io/v1alpha1
  kind: Module
  metadata: {name: upmeter}
  properties: {source: Embedded}
  status:
    phase: Available
    conditions:
    - {type: EnabledByModuleConfig, status: "False"}
    - {type: EnabledByModuleManager, status: "False"}
`

func TestParseKubectlLiveObjects(t *testing.T) {
	d, err := ParseKubectl("dump.yaml", []byte(liveDump))
	require.NoError(t, err)
	c := d.Cluster
	assert.Equal(t, map[string]string{
		"nodesMinimalOSVersionUbuntu":          "20.04.6",
		"nodesMinimalOSVersionDebian":          "11",
		"nodesMinimalLinuxKernelVersion":       "5.4.0",
		"containerdOnAllNodes":                 "true",
		"containerdV1NodesPresent":             "true",
		"ingressNginxMinimalControllerVersion": "1.9",
	}, c.Facts, "the oldest node per OS, the oldest kernel, the runtimes, the lowest controller")
	assert.Equal(t, "1.31.2", c.Kubernetes.String(), "the oldest kubelet")
	assert.True(t, c.KubernetesAutomatic, "the ClusterConfiguration's kubernetesVersion")
	assert.False(t, c.AllowExperimentalModules)
	assert.Equal(t, []string{"sds-elastic"}, c.AllowedExperimentalModules, "the deckhouse ModuleConfig's allowedExperimentalModules (R25)")
	assert.Contains(t, d.Summary(), `module console runs image tag "pr-123" of a ModulePullOverride`)
	assert.Equal(t, map[string]bool{"upmeter": false}, d.Observed, "the Module's EnabledByModuleManager condition")
	for _, g := range []string{"nodesMinimalOSVersionUbuntu", "nodesMinimalLinuxKernelVersion", "ingressNginx", "checkContainerdV1NodesPresent", "containerdOnAllNodes"} {
		_, ok := c.Facts[model.GateFor(g).Fact]
		assert.True(t, ok, "the dump decides the gate %s", g)
	}
}

// A controller without a version runs the module's default, which the
// dump does not say: the lowest version is not known, and no fact is made.
func TestParseKubectlIngressWithoutVersion(t *testing.T) {
	dump := strings.Replace(liveDump, `spec: {controllerVersion: "1.9", ingressClass: internal}`, `spec: {ingressClass: internal}`, 1)
	d, err := ParseKubectl("dump.yaml", []byte(dump))
	require.NoError(t, err)
	assert.NotContains(t, d.Cluster.Facts, "ingressNginxMinimalControllerVersion")
	assert.Contains(t, d.Summary(), "1 of 2 IngressNginxControllers name no controllerVersion")
}

// A dump with none of DKP's resources is said to be one, with what it
// holds and what to give instead.
func TestParseKubectlNoneOfDKPs(t *testing.T) {
	_, err := ParseKubectl("pods.yaml", []byte("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n"))
	require.Error(t, err)
	assert.ErrorIs(t, err, model.ErrMissingField)
	assert.Contains(t, err.Error(), "pods.yaml")
	assert.Contains(t, err.Error(), "holds none of DKP's resources (it holds 1 ConfigMap v1, 1 Pod v1)")
	assert.Contains(t, err.Error(), "kubectl get moduleconfigs,modules")
}

// A built-in module's Module object outranks the bundle's default (D391):
// the bundle turns upmeter on, DKP does not run it, so it is off; and
// what the user gives of the live cluster wins over the dump's facts.
func TestKubectlStateObservedAndGivenFacts(t *testing.T) {
	cat, _, err := Parse("catalog.yaml", []byte(`
modules:
  - name: upmeter
    embedded: true
    accessibility: {editions: {_default: {available: true, enabledInBundles: [Default]}}}
  - name: console
    embedded: true
`))
	require.NoError(t, err)
	d, err := ParseKubectl("dump.yaml", []byte(liveDump))
	require.NoError(t, err)
	given := &model.ClusterState{Edition: "ee", Bundle: "Default", Facts: map[string]string{"nodesMinimalOSVersionUbuntu": "22.04"}}
	c, err := d.State(cat, given, FactNames{})
	require.NoError(t, err)
	st := c.Modules["upmeter"]
	require.NotNil(t, st.Enabled)
	assert.False(t, *st.Enabled, "DKP does not run it, whatever the bundle says")
	_, runs := c.Deployed(cat.Module("upmeter"))
	assert.False(t, runs)
	assert.Equal(t, "22.04", c.Facts["nodesMinimalOSVersionUbuntu"], "the user's fact wins")
	assert.Equal(t, "5.4.0", c.Facts["nodesMinimalLinuxKernelVersion"], "the dump's others stay")
	assert.Contains(t, d.Summary(), "module upmeter: its Module object says DKP does not run it")
}
