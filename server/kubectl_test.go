package server_test

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// kubectlNames are the request fields cmd/modsolver names for the facts
// a kubectl dump cannot say.
var kubectlNames = catalog.FactNames{
	catalog.FactDeckhouse:  model.Field("cluster", "deckhouse"),
	catalog.FactKubernetes: model.Field("cluster", "kubernetes"),
	catalog.FactEdition:    model.Field("cluster", "edition"),
	catalog.FactBundle:     model.Field("cluster", "bundle"),
}

// tinyDump is the cluster of tinyCluster as kubectl prints DKP's
// resources: DKP 1.73.3, ingress-nginx 1.66.0 deployed.
const tinyDump = `
apiVersion: v1
kind: List
items:
- apiVersion: deckhouse.io/v1alpha1
  kind: DeckhouseRelease
  metadata: {name: v1.73.3}
  spec: {version: v1.73.3}
  status: {phase: Deployed}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: deckhouse}
  spec: {version: 1, settings: {bundle: Default, releaseChannel: Stable}}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: ingress-nginx}
  spec: {enabled: true}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleRelease
  metadata: {name: ingress-nginx-v1.66.0, labels: {module: ingress-nginx, source: deckhouse}}
  spec: {moduleName: ingress-nginx, version: v1.66.0}
  status: {phase: Deployed}
`

func kubectlServer(t *testing.T) *env {
	return start(t, demoCatalogs(t), server.WithClusterParser(catalog.KubectlParser(kubectlNames)))
}

func TestResolveKubectlCluster(t *testing.T) {
	e := kubectlServer(t)
	got, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "tiny"},
		Cluster: &modsolverv1.ClusterState{KubectlResources: tinyDump, Kubernetes: "1.31.2", Edition: "ee"},
		Request: &modsolverv1.Request{Enable: []string{"hello-world"}},
	})
	require.NoError(t, err)
	require.Equal(t, modsolverv1.Status_STATUS_RESOLVED, got.GetStatus())
	byName := map[string]*modsolverv1.ModuleResult{}
	for _, m := range got.GetModules() {
		byName[m.GetName()] = m
	}
	require.Contains(t, byName, "ingress-nginx")
	assert.Equal(t, "1.66.0", byName["ingress-nginx"].GetFromVersion(), "the Deployed ModuleRelease")
	assert.Equal(t, modsolverv1.Action_ACTION_KEEP, byName["ingress-nginx"].GetAction(), "not in the update set")
	assert.Equal(t, modsolverv1.Action_ACTION_INSTALL, byName["hello-world"].GetAction())
	assert.Equal(t, "0.9.0", byName["hello-world"].GetToVersion(), "1.0.0 needs ingress-nginx > 1.67.0")
}

func TestWhatIfKubectlCluster(t *testing.T) {
	e := kubectlServer(t)
	stream, err := e.client.WhatIf(t.Context(), &modsolverv1.WhatIfRequest{
		Catalog:   &modsolverv1.WhatIfRequest_CatalogName{CatalogName: "tiny"},
		Cluster:   &modsolverv1.ClusterState{KubectlResources: tinyDump, Kubernetes: "1.31.2", Edition: "ee", Deckhouse: "1.74.0"},
		Scenarios: []*modsolverv1.Scenario{{Name: "enable", Request: &modsolverv1.Request{Enable: []string{"hello-world"}}}},
	})
	require.NoError(t, err)
	res, err := stream.Recv()
	require.NoError(t, err)
	require.Empty(t, res.GetError())
	assert.Equal(t, modsolverv1.Status_STATUS_RESOLVED, res.GetResponse().GetStatus())
	_, err = stream.Recv()
	require.ErrorIs(t, err, io.EOF)
}

func TestKubectlClusterBadInput(t *testing.T) {
	e := kubectlServer(t)
	resolve := func(cluster *modsolverv1.ClusterState) map[string]string {
		_, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
			Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "tiny"},
			Cluster: cluster,
			Request: &modsolverv1.Request{Enable: []string{"hello-world"}},
		})
		return fieldViolations(t, requireCode(t, err, codes.InvalidArgument))
	}
	vs := resolve(&modsolverv1.ClusterState{KubectlResources: tinyDump})
	assert.Contains(t, vs["cluster.kubernetes"], "give it with cluster.kubernetes")
	assert.Contains(t, vs["cluster.edition"], "give it with cluster.edition")
	assert.Len(t, vs, 2, "the dump says the DKP version and the bundle")

	vs = resolve(&modsolverv1.ClusterState{KubectlResources: tinyDump + "- {apiVersion: deckhouse.io/v1alpha1, kind: ModuleConfig, metadata: {name: a}, spec: {enabled: maybe}}\n",
		Kubernetes: "1.31.2", Edition: "ee"})
	assert.Contains(t, vs["cluster.kubectl_resources"], "cluster.kubectl_resources:23:")

	vs = resolve(&modsolverv1.ClusterState{KubectlResources: tinyDump, Kubernetes: "1.31.2", Edition: "ee",
		Modules: map[string]*modsolverv1.ModuleState{"ingress-nginx": {}}})
	assert.Contains(t, vs["cluster.modules"], "give them in one form")
}

func TestKubectlClusterWithoutParser(t *testing.T) {
	e := start(t, demoCatalogs(t))
	_, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "tiny"},
		Cluster: &modsolverv1.ClusterState{KubectlResources: tinyDump, Kubernetes: "1.31.2", Edition: "ee"},
		Request: &modsolverv1.Request{},
	})
	st := requireCode(t, err, codes.Unimplemented)
	assert.Contains(t, st.Message(), "kubectl dumps")
}
