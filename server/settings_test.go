package server_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// R34 over gRPC, on loopback: a cluster's ModuleConfig settings travel in
// ModuleState.settings, and a release whose schema refuses them is held
// back, with the field in the reason and a settings-refused warning.
func TestResolveSettingsOverGRPC(t *testing.T) {
	const cat = `modules:
  - name: console
    updatePolicy: direct
    releases:
      - version: 2.0.0
        settings: {schema: {type: object, properties: {replicas: {type: integer}}}}
      - version: 2.1.0
        settings: {schema: {type: object, properties: {replicas: {type: integer, maximum: 3}}}}
`
	settings, err := structpb.NewStruct(map[string]any{"replicas": 5})
	require.NoError(t, err)
	e := start(t, demoCatalogs(t))
	got, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: cat},
		Cluster: &modsolverv1.ClusterState{Deckhouse: "1.73.0", Kubernetes: "1.31.0",
			Modules: map[string]*modsolverv1.ModuleState{"console": {Enabled: proto.Bool(true), Version: "2.0.0", Settings: settings, SettingsVersion: 1}}},
		Request: &modsolverv1.Request{Update: []string{"console"}},
	})
	require.NoError(t, err)
	require.Equal(t, modsolverv1.Status_STATUS_RESOLVED, got.GetStatus())
	require.Len(t, got.GetModules(), 1)
	m := got.GetModules()[0]
	assert.Equal(t, "2.0.0", m.GetToVersion())
	assert.Contains(t, m.GetHeldBack(), "console 2.1.0 refuses the module's settings: settings.replicas")
	require.Len(t, got.GetWarnings(), 1)
	assert.Equal(t, modsolverv1.WarningKind_WARNING_KIND_SETTINGS_REFUSED, got.GetWarnings()[0].GetKind())
}
