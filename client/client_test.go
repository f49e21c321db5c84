package client_test

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
	"google.golang.org/grpc/status"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/client"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// replica is one server on a loopback port, counting the calls it
// answered.
type replica struct {
	addr  string
	srv   *server.Server
	calls atomic.Int64
}

func startReplica(t *testing.T, more ...grpc.UnaryServerInterceptor) *replica {
	t.Helper()
	demo, err := catalog.Demo()
	require.NoError(t, err)
	cats, err := server.NewCatalogs(server.Catalog{Name: "demo", Source: "embedded", Format: "embedded", Catalog: demo})
	require.NoError(t, err)
	r := &replica{}
	count := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		r.calls.Add(1)
		return h(ctx, req)
	}
	r.srv = server.New(cats, server.WithServerOptions(grpc.ChainUnaryInterceptor(append([]grpc.UnaryServerInterceptor{count}, more...)...)))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	r.addr = lis.Addr().String()
	go func() { _ = r.srv.Serve(lis) }()
	t.Cleanup(r.srv.GRPC().Stop)
	return r
}

// dial returns a client of the replicas through a manual resolver, as
// DNS of a headless Service would list them.
func dial(t *testing.T, replicas ...*replica) *client.Client {
	t.Helper()
	res := manual.NewBuilderWithScheme("test")
	var state resolver.State
	for _, r := range replicas {
		state.Addresses = append(state.Addresses, resolver.Address{Addr: r.addr})
	}
	res.InitialState(state)
	c, err := client.New(res.Scheme()+":///modsolver", client.WithDialOptions(grpc.WithResolvers(res)))
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func demoRequest(t *testing.T, requestFile string) *modsolverv1.ResolveRequest {
	t.Helper()
	cluster, req, err := catalog.DemoState()
	require.NoError(t, err)
	if requestFile != "" {
		req, err = catalog.LoadRequest(requestFile)
		require.NoError(t, err)
	}
	return &modsolverv1.ResolveRequest{Cluster: server.ClusterProto(cluster), Request: server.RequestProto(req)}
}

// TestReplicaStoppedMidRun balances calls over two replicas, stops one
// while calls are in flight, abruptly or gracefully, and expects no call
// to fail.
func TestReplicaStoppedMidRun(t *testing.T) {
	stops := map[string]func(*server.Server){
		"abruptly": func(s *server.Server) { s.GRPC().Stop() },
		"gracefully": func(s *server.Server) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			s.Shutdown(ctx)
		},
	}
	for name, stop := range stops {
		t.Run(name, func(t *testing.T) { stopMidRun(t, stop) })
	}
}

func stopMidRun(t *testing.T, stop func(*server.Server)) {
	a, b := startReplica(t), startReplica(t)
	c := dial(t, a, b)
	req := demoRequest(t, "")

	var failed atomic.Int64
	var wg sync.WaitGroup
	deadline := time.Now().Add(1200 * time.Millisecond)
	for range 4 {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
				ans, err := c.Resolve(ctx, req)
				cancel()
				if err != nil || !ans.Resolved() {
					failed.Add(1)
					t.Errorf("call failed: %v", err)
				}
			}
		})
	}
	time.Sleep(400 * time.Millisecond)
	require.Positive(t, a.calls.Load(), "round robin reached replica a")
	require.Positive(t, b.calls.Load(), "round robin reached replica b")
	stop(a.srv)
	stoppedAt := b.calls.Load()
	wg.Wait()
	assert.Zero(t, failed.Load(), "no call failed")
	assert.Greater(t, b.calls.Load(), stoppedAt, "replica b took the calls on")
	t.Logf("calls: a %d, b %d", a.calls.Load(), b.calls.Load())
}

// TestReplicaDiesWhileAnswering stops a replica after it has begun to
// answer a call (its response headers sent), where gRPC's own retries no
// longer apply, and expects the call made again on the other replica.
func TestReplicaDiesWhileAnswering(t *testing.T) {
	var dying *replica
	var died atomic.Bool
	die := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if died.Swap(true) {
			return h(ctx, req)
		}
		require.NoError(t, grpc.SendHeader(ctx, metadata.MD{}))
		time.Sleep(50 * time.Millisecond) // the headers reach the client first
		go dying.srv.GRPC().Stop()
		<-ctx.Done()
		return nil, ctx.Err()
	}
	dying = startReplica(t, die)
	other := startReplica(t)
	c := dial(t, dying, other)
	req := demoRequest(t, "")
	// Round robin reaches the dying replica once its connection is ready:
	// call until it has died, and once more.
	for calls := 0; calls < 500 && !died.Load(); calls++ {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		ans, err := c.Resolve(ctx, req)
		cancel()
		require.NoError(t, err)
		assert.True(t, ans.Resolved())
	}
	require.True(t, died.Load(), "round robin reached the dying replica")
	ans, err := c.Resolve(t.Context(), req)
	require.NoError(t, err)
	assert.True(t, ans.Resolved())
	assert.Positive(t, other.calls.Load())
}

func TestTypedCalls(t *testing.T) {
	c := dial(t, startReplica(t))
	ctx := t.Context()

	ans, err := c.Resolve(ctx, demoRequest(t, "../catalog/demo/unsat-request.yaml"))
	require.NoError(t, err, "an unsatisfiable request is an answer")
	assert.True(t, ans.Unsatisfiable())
	assert.False(t, ans.Resolved())
	assert.NotEmpty(t, ans.GetExplanation().GetSummary())

	_, err = c.Resolve(ctx, &modsolverv1.ResolveRequest{Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "nope"}})
	assert.Equal(t, codes.NotFound, status.Code(err))

	req := demoRequest(t, "")
	var names []string
	err = c.WhatIf(ctx, &modsolverv1.WhatIfRequest{Cluster: req.GetCluster(), Scenarios: []*modsolverv1.Scenario{
		{Name: "as requested", Request: req.GetRequest()},
		{Name: "bad", Request: &modsolverv1.Request{Pin: map[string]string{"x": "not a version"}}},
	}}, func(r *modsolverv1.WhatIfResult) error {
		names = append(names, r.GetName())
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"as requested", "bad"}, names)

	cats, err := c.ListCatalogs(ctx)
	require.NoError(t, err)
	require.Len(t, cats, 1)
	demo, err := catalog.Demo()
	require.NoError(t, err)
	name := demo.Modules()[0].Name
	m, err := c.GetModule(ctx, "", name)
	require.NoError(t, err)
	assert.Equal(t, name, m.GetName())
}
