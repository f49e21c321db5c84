package server_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/bench"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// loadRequests are the calls `modsolver loadtest` sends by default: an
// update-all and an install-one on the generated S catalog, served as
// "generated".
func loadRequests(b *testing.B) (*server.Catalogs, []*modsolverv1.ResolveRequest) {
	b.Helper()
	in := bench.Generate(bench.SizeS, 1)
	cats, err := server.NewCatalogs(server.Catalog{Name: "generated", Source: "size S, seed 1", Format: "generated", Catalog: in.Catalog})
	require.NoError(b, err)
	cluster := server.ClusterProto(in.Cluster)
	var reqs []*modsolverv1.ResolveRequest
	for _, r := range []*modsolverv1.Request{server.RequestProto(in.UpdateAll()), server.RequestProto(in.InstallOne())} {
		reqs = append(reqs, &modsolverv1.ResolveRequest{
			Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "generated"},
			Cluster: cluster, Request: r,
		})
	}
	return cats, reqs
}

// BenchmarkResolveS is one Resolve call of the load test through the whole
// gRPC stack (client, in-memory connection, interceptors, server), with
// the request log at its default level: what one call costs the machine.
func BenchmarkResolveS(b *testing.B) {
	cats, reqs := loadRequests(b)
	e := start(b, cats, server.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			resp, err := e.client.Resolve(context.Background(), reqs[i%len(reqs)])
			if err != nil || resp.GetStatus() != modsolverv1.Status_STATUS_RESOLVED {
				b.Errorf("Resolve: %v, status %v", err, resp.GetStatus())
				return
			}
		}
	})
}
