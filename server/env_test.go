package server_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
	"github.com/modsolver/modsolver/solver"
)

// env is one server on an in-memory connection, with a client and the
// server's log.
type env struct {
	client modsolverv1.ResolverClient
	conn   *grpc.ClientConn
	srv    *server.Server
	logs   *syncBuffer
}

// start serves catalogs over bufconn until the test ends. Every server
// gets the test's catalog parser unless opts set another one.
func start(t testing.TB, catalogs *server.Catalogs, opts ...server.Option) *env {
	t.Helper()
	logs := &syncBuffer{}
	opts = append([]server.Option{
		server.WithLogger(slog.New(slog.NewTextHandler(logs, nil))),
		server.WithCatalogParser(parseCatalog),
	}, opts...)
	srv := server.New(catalogs, opts...)
	lis := bufconn.Listen(1 << 20)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
	)
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, conn.Close())
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		require.NoError(t, <-served)
	})
	return &env{client: modsolverv1.NewResolverClient(conn), conn: conn, srv: srv, logs: logs}
}

// parseCatalog is the adapter cmd/modsolver gives the server.
func parseCatalog(name string, data []byte) (*model.Catalog, error) {
	cat, _, err := catalog.Parse(name, data)
	return cat, err
}

// demoCatalogs serves the demo catalog (the default), a tiny one and a
// hard one whose update-all takes many seconds.
func demoCatalogs(t *testing.T) *server.Catalogs {
	t.Helper()
	demo, err := catalog.Demo()
	require.NoError(t, err)
	tiny, err := parseCatalog("tiny.yaml", []byte(tinyCatalog))
	require.NoError(t, err)
	hard, _ := hardProblem()
	cats, err := server.NewCatalogs(
		server.Catalog{Name: "demo", Source: "embedded", Format: "embedded", Catalog: demo},
		server.Catalog{Name: "tiny", Source: "tiny.yaml", Format: "modsolver", Notes: []string{"a note"}, Catalog: tiny},
		server.Catalog{Name: "hard", Source: "generated", Format: "modsolver", Catalog: hard},
	)
	require.NoError(t, err)
	return cats
}

// tinyCatalog is the catalog of the public r2-required-dependency scenario.
const tinyCatalog = `
modules:
  - name: ingress-nginx
    releases: [{version: 1.66.0}, {version: 1.68.2}]
  - name: hello-world
    releases:
      - version: 0.9.0
      - version: 1.0.0
        requirements:
          modules: {ingress-nginx: "> 1.67.0"}
`

func tinyCluster() *modsolverv1.ClusterState {
	return &modsolverv1.ClusterState{
		Deckhouse:  "1.73.0",
		Kubernetes: "1.29.6",
		Modules:    map[string]*modsolverv1.ModuleState{"ingress-nginx": {Enabled: proto.Bool(true), Version: "1.68.2"}},
	}
}

// hardProblem is a chain of 300 modules × 30 releases, all enabled at
// their oldest release, each release requiring a newer next module and
// optionally an older one two further on: update-all under strategy
// direct needs thousands of solves, many seconds (as in
// solver/cancel_test.go). It is built once.
var hardProblem = sync.OnceValues(func() (*model.Catalog, *model.ClusterState) {
	const modules, releases = 300, 30
	name := func(i int) string { return fmt.Sprintf("m%03d", i) }
	mods := make([]*model.Module, 0, modules)
	states := make(map[string]model.ModuleState, modules)
	for i := range modules {
		var rels []*model.Release
		for j := range releases {
			var opts []fixture.ReleaseOption
			if i+1 < modules {
				opts = append(opts, fixture.Needs(name(i+1), fmt.Sprintf(">= 1.%d", j/2)))
			}
			if i+2 < modules {
				opts = append(opts, fixture.Needs(name(i+2), fmt.Sprintf("<= 1.%d !optional", releases-j)))
			}
			rels = append(rels, fixture.Release(fmt.Sprintf("1.%d.0", j), opts...))
		}
		mods = append(mods, fixture.Module(name(i), fixture.Releases(rels...)))
		states[name(i)] = fixture.Enabled("1.0.0")
	}
	cat, err := model.NewCatalog(mods)
	if err != nil {
		panic("internal error: " + err.Error())
	}
	return cat, fixture.Cluster(states)
})

// hardRequest asks the hard catalog for everything at once.
func hardRequest() *modsolverv1.ResolveRequest {
	_, cluster := hardProblem()
	return &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "hard"},
		Cluster: server.ClusterProto(cluster),
		Request: &modsolverv1.Request{UpdateAll: true, Strategy: "direct"},
	}
}

// demoRequest is the demo cluster with request r.
func demoRequest(t *testing.T, r *modsolverv1.Request) *modsolverv1.ResolveRequest {
	t.Helper()
	cluster, _, err := catalog.DemoState()
	require.NoError(t, err)
	return &modsolverv1.ResolveRequest{Cluster: server.ClusterProto(cluster), Request: r}
}

// direct is what the service should answer: server.Response of
// solver.Solve, computed in the test.
func direct(t *testing.T, cat *model.Catalog, in *modsolverv1.ResolveRequest) *modsolverv1.ResolveResponse {
	t.Helper()
	cluster, req := fromProto(t, in)
	res, err := solver.Solve(context.Background(), cat, cluster, req)
	require.NoError(t, err)
	return server.Response(res)
}

// fromProto reads a request's cluster and request back into model values
// through the catalog package's own readers, independently of the
// server's conversion: protojson → YAML-compatible JSON.
func fromProto(t *testing.T, in *modsolverv1.ResolveRequest) (*model.ClusterState, *model.Request) {
	t.Helper()
	cluster, err := catalog.ParseCluster("cluster.json", clusterJSON(t, in.GetCluster()))
	require.NoError(t, err)
	req, err := catalog.ParseRequest("request.json", requestJSON(t, in.GetRequest()))
	require.NoError(t, err)
	return cluster, req
}

// assertSameAnswer compares two responses, ignoring the solve time.
func assertSameAnswer(t *testing.T, want, got *modsolverv1.ResolveResponse, msgAndArgs ...any) {
	t.Helper()
	want, got = proto.CloneOf(want), proto.CloneOf(got)
	if want.GetStats() != nil {
		want.GetStats().SolveMicros = 0
	}
	if got.GetStats() != nil {
		got.GetStats().SolveMicros = 0
	}
	require.True(t, proto.Equal(want, got), "want %v\ngot  %v\n%s", want, got, fmt.Sprint(msgAndArgs...))
}

// requireCode checks that err is a status with code.
func requireCode(t *testing.T, err error, code codes.Code) *status.Status {
	t.Helper()
	require.Error(t, err)
	st, ok := status.FromError(err)
	require.True(t, ok, "not a status: %v", err)
	require.Equal(t, code, st.Code(), "message: %s", st.Message())
	return st
}

// fieldViolations returns the BadRequest field violations of st, by field.
func fieldViolations(t *testing.T, st *status.Status) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				out[v.GetField()] += v.GetDescription()
			}
		}
	}
	return out
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// clusterJSON and requestJSON render proto messages as the catalog
// package's JSON files: protojson's camelCase names are its keys.
func clusterJSON(t *testing.T, m *modsolverv1.ClusterState) []byte {
	t.Helper()
	data, err := protojson.Marshal(m)
	require.NoError(t, err)
	return data
}

func requestJSON(t *testing.T, m *modsolverv1.Request) []byte {
	t.Helper()
	data, err := protojson.Marshal(m)
	require.NoError(t, err)
	return data
}
