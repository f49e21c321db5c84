package server_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"

	"github.com/modsolver/modsolver/catalog"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// editionsServer serves the DKP tree of testdata/catalogs/dkp-r29-small,
// whose platform.yaml lists the editions ce and ee and the bundles
// Default, Managed and Minimal, as "small".
func editionsServer(t *testing.T) *env {
	t.Helper()
	cat, _, err := catalog.Load("../testdata/catalogs/dkp-r29-small")
	require.NoError(t, err)
	cats, err := server.NewCatalogs(server.Catalog{Name: "small", Source: "dkp-r29-small", Format: "dkp", Catalog: cat})
	require.NoError(t, err)
	return start(t, cats, server.WithClusterParser(catalog.KubectlParser(kubectlNames)))
}

// smallDump is a cluster of the small tree as kubectl prints DKP's
// resources: DKP 1.75.1 on bundle Default.
const smallDump = `
apiVersion: v1
kind: List
items:
- apiVersion: deckhouse.io/v1alpha1
  kind: DeckhouseRelease
  metadata: {name: v1.75.1}
  spec: {version: v1.75.1}
  status: {phase: Deployed}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: deckhouse}
  spec: {version: 1, settings: {bundle: Default}}
`

// TestUnknownEditionInvalidArgument: over gRPC an edition or bundle the
// catalog's platform data does not list is InvalidArgument on its field,
// naming the value and the listed ones, in Resolve and WhatIf and beside
// a kubectl dump (R7, D351).
func TestUnknownEditionInvalidArgument(t *testing.T) {
	e := editionsServer(t)
	structured := func(edition, bundle string) *modsolverv1.ClusterState {
		return &modsolverv1.ClusterState{Deckhouse: "1.75.1", Kubernetes: "1.31.4", Edition: edition, Bundle: bundle}
	}
	for _, tc := range []struct {
		name    string
		cluster *modsolverv1.ClusterState
		field   string
		want    string
	}{
		{"edition", structured("xe", "Default"), "cluster.edition", `unknown edition "xe": the catalog's platform data lists ce, ee`},
		{"bundle", structured("ee", "Big"), "cluster.bundle", `unknown bundle "Big": the catalog's platform data lists Default, Managed, Minimal`},
		{"beside a dump", &modsolverv1.ClusterState{KubectlResources: smallDump, Kubernetes: "1.31.4", Edition: "xe"}, "cluster.edition", `unknown edition "xe"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
				Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "small"},
				Cluster: tc.cluster,
				Request: &modsolverv1.Request{},
			})
			vs := fieldViolations(t, requireCode(t, err, codes.InvalidArgument))
			assert.Contains(t, vs[tc.field], tc.want, "violations: %v", vs)

			stream, err := e.client.WhatIf(t.Context(), &modsolverv1.WhatIfRequest{
				Catalog:   &modsolverv1.WhatIfRequest_CatalogName{CatalogName: "small"},
				Cluster:   tc.cluster,
				Scenarios: []*modsolverv1.Scenario{{Name: "a"}},
			})
			require.NoError(t, err)
			_, err = stream.Recv()
			vs = fieldViolations(t, requireCode(t, err, codes.InvalidArgument))
			assert.Contains(t, vs[tc.field], tc.want, "violations: %v", vs)
		})
	}
}

// TestEditionCaseOverGRPC: EE is ee and default is Default (D351), and
// snapshot-controller, which the tree holds built in and external, runs
// built in by the Default bundle: it is kept, not installed (R29, D350).
func TestEditionCaseOverGRPC(t *testing.T) {
	e := editionsServer(t)
	for _, cluster := range []*modsolverv1.ClusterState{
		{Deckhouse: "1.75.1", Kubernetes: "1.31.4", Edition: "EE", Bundle: "default"},
		{KubectlResources: smallDump, Kubernetes: "1.31.4", Edition: "EE"},
	} {
		got, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
			Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "small"},
			Cluster: cluster,
			Request: &modsolverv1.Request{},
		})
		require.NoError(t, err)
		require.Equal(t, modsolverv1.Status_STATUS_RESOLVED, got.GetStatus())
		byName := map[string]*modsolverv1.ModuleResult{}
		for _, m := range got.GetModules() {
			byName[m.GetName()] = m
		}
		require.Contains(t, byName, "snapshot-controller")
		sc := byName["snapshot-controller"]
		assert.Equal(t, modsolverv1.Action_ACTION_KEEP, sc.GetAction())
		assert.Equal(t, "embedded", sc.GetToSource())
		assert.False(t, sc.GetMoved())
	}
}
