package server_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// R23 over gRPC: a request names served catalogs as sources; each takes
// the priority serve gave it unless the request gives one.
func TestResolveWithSources(t *testing.T) {
	prod, err := parseCatalog("prod.yaml", []byte("modules:\n  - {name: prometheus, releases: [{version: 2.2.0}, {version: 2.3.0}]}\n"))
	require.NoError(t, err)
	community, err := parseCatalog("community.yaml", []byte("modules:\n  - {name: prometheus, releases: [{version: 2.3.0}, {version: 2.5.0}]}\n"))
	require.NoError(t, err)
	cats, err := server.NewCatalogs(
		server.Catalog{Name: "prod", Source: "prod.yaml", Format: "modsolver", Catalog: prod, Priority: 10},
		server.Catalog{Name: "community", Source: "community.yaml", Format: "modsolver", Catalog: community},
	)
	require.NoError(t, err)
	e := start(t, cats)
	resolve := func(sources ...*modsolverv1.SourceRef) (*modsolverv1.ResolveResponse, error) {
		return e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
			Sources: sources,
			Cluster: &modsolverv1.ClusterState{Deckhouse: "1.74.0", Kubernetes: "1.31.0"},
			Request: &modsolverv1.Request{Enable: []string{"prometheus"}},
		})
	}
	got, err := resolve(&modsolverv1.SourceRef{CatalogName: "community"}, &modsolverv1.SourceRef{CatalogName: "prod"})
	require.NoError(t, err)
	require.Len(t, got.GetModules(), 1)
	assert.Equal(t, "2.3.0", got.GetModules()[0].GetToVersion(), "prod's served priority 10 wins over community's 0")
	assert.Equal(t, "prod", got.GetModules()[0].GetToSource())

	got, err = resolve(&modsolverv1.SourceRef{CatalogName: "community", Priority: proto.Int32(20)}, &modsolverv1.SourceRef{CatalogName: "prod"})
	require.NoError(t, err)
	assert.Equal(t, "2.5.0", got.GetModules()[0].GetToVersion(), "the request's own priority wins over the served one")
	assert.Equal(t, "community", got.GetModules()[0].GetToSource())

	_, err = resolve(&modsolverv1.SourceRef{CatalogName: "nope"})
	st := requireCode(t, err, codes.NotFound)
	assert.Contains(t, st.Message(), `sources[0].catalog_name`)
}
