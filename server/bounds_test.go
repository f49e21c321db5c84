package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/modsolver/modsolver/catalog"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// The server's resource bounds (limits.go), seen by a client.

// busyUntil runs call in the background, again and again, until the test
// ends or the returned function is called, and waits until probe is
// refused with RESOURCE_EXHAUSTED, which it returns. Calling again keeps
// the slot taken even when one call finishes before the first probe.
func busyUntil(t *testing.T, call func(ctx context.Context), probe func() error) (*status.Status, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			call(ctx)
		}
	}()
	stop := func() { cancel(); <-done }
	t.Cleanup(stop)
	var st *status.Status
	require.Eventually(t, func() bool {
		st = status.Convert(probe())
		return st.Code() == codes.ResourceExhausted
	}, 10*time.Second, 5*time.Millisecond, "the probe is never refused")
	return st, stop
}

func TestMaxInflightRefusesWithRetryInfo(t *testing.T) {
	e := start(t, demoCatalogs(t), server.WithMaxInflight(1, 0, 250*time.Millisecond))
	probe := func() error {
		_, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
			Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "tiny"},
			Cluster: tinyCluster(),
		})
		return err
	}
	require.NoError(t, probe())
	// The hard request is built once: generating its cluster is slow under
	// -race, and the probe should race the solve, not the client.
	in := hardRequest()
	tests := []struct {
		name string
		call func(ctx context.Context)
	}{
		{"resolve", func(ctx context.Context) { _, _ = e.client.Resolve(ctx, in) }},
		{"explain", func(ctx context.Context) {
			_, _ = e.client.Explain(ctx, &modsolverv1.ExplainRequest{
				Catalog: &modsolverv1.ExplainRequest_CatalogName{CatalogName: "hard"},
				Cluster: in.GetCluster(),
				Request: in.GetRequest(),
			})
		}},
		{"whatif holds its slot while it streams", func(ctx context.Context) {
			stream, err := e.client.WhatIf(ctx, &modsolverv1.WhatIfRequest{
				Catalog:   &modsolverv1.WhatIfRequest_CatalogName{CatalogName: "hard"},
				Cluster:   in.GetCluster(),
				Scenarios: []*modsolverv1.Scenario{{Name: "all", Request: in.GetRequest()}},
			})
			if err == nil {
				_, _ = stream.Recv()
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, stop := busyUntil(t, tc.call, probe)
			assert.Contains(t, st.Message(), "overloaded")
			require.Len(t, st.Details(), 1)
			ri, ok := st.Details()[0].(*errdetails.RetryInfo)
			require.True(t, ok, "%T", st.Details()[0])
			assert.Equal(t, 250*time.Millisecond, ri.GetRetryDelay().AsDuration())
			stop()
			require.Eventually(t, func() bool { return probe() == nil }, 10*time.Second, 5*time.Millisecond, "the slot is given back")
		})
	}
	assert.Contains(t, e.logs.String(), "code=ResourceExhausted")
}

func TestMaxInflightQueuesBriefly(t *testing.T) {
	e := start(t, demoCatalogs(t), server.WithMaxInflight(1, 4, 5*time.Second))
	tiny := &modsolverv1.ResolveRequest{Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "tiny"}, Cluster: tinyCluster()}
	ctx, cancel := context.WithCancel(t.Context())
	hard := make(chan error, 1)
	in := hardRequest() // built before the race starts (slow under -race)
	go func() { _, err := e.client.Resolve(ctx, in); hard <- err }()
	// Once the hard call holds the only slot, a call with a short
	// deadline waits in the queue until its deadline passes.
	require.Eventually(t, func() bool {
		pctx, pcancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		defer pcancel()
		_, err := e.client.Resolve(pctx, tiny)
		return status.Code(err) == codes.DeadlineExceeded
	}, 10*time.Second, time.Millisecond)
	// A queued call waits for the hard one; once that one is cancelled,
	// the queued call is answered.
	queued := make(chan error, 1)
	go func() { _, err := e.client.Resolve(t.Context(), tiny); queued <- err }()
	select {
	case err := <-queued:
		t.Fatalf("answered while the only slot was taken: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	cancel()
	assert.Equal(t, codes.Canceled, status.Code(<-hard))
	assert.NoError(t, <-queued)
}

func TestInlineCatalogBounds(t *testing.T) {
	in := func() *modsolverv1.ResolveRequest {
		return &modsolverv1.ResolveRequest{
			Catalog: &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: tinyCatalog},
			Cluster: tinyCluster(),
			Request: &modsolverv1.Request{Enable: []string{"hello-world"}},
		}
	}
	tests := []struct {
		name    string
		opt     server.Option
		mention string
	}{
		{"bytes", server.WithMaxInlineCatalog(len(tinyCatalog)-1, 0), "bytes, more than this server takes inline"},
		{"modules", server.WithMaxInlineCatalog(0, 1), "2 modules, more than this server takes inline (1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := start(t, demoCatalogs(t), tc.opt)
			_, err := e.client.Resolve(t.Context(), in())
			st := requireCode(t, err, codes.InvalidArgument)
			require.Len(t, st.Details(), 1)
			br, ok := st.Details()[0].(*errdetails.BadRequest)
			require.True(t, ok)
			require.Len(t, br.GetFieldViolations(), 1)
			assert.Equal(t, "inline_catalog", br.GetFieldViolations()[0].GetField())
			assert.Contains(t, br.GetFieldViolations()[0].GetDescription(), tc.mention)
		})
	}
	e := start(t, demoCatalogs(t), server.WithMaxInlineCatalog(len(tinyCatalog), 2))
	_, err := e.client.Resolve(t.Context(), in())
	assert.NoError(t, err, "at the limits exactly")
}

func TestMaxRequestMemory(t *testing.T) {
	cluster, req, err := catalog.DemoState()
	require.NoError(t, err)
	in := demoRequest(t, server.RequestProto(req))

	free := start(t, demoCatalogs(t))
	got, err := free.client.Resolve(t.Context(), in)
	require.NoError(t, err)
	kib := got.GetStats().GetMemoryKib()
	assert.Greater(t, kib, uint32(96), "at least one encoder")

	e := start(t, demoCatalogs(t), server.WithMaxRequestMemory(int64(kib)*1024))
	_, err = e.client.Resolve(t.Context(), in)
	require.NoError(t, err, "within the limit")

	e = start(t, demoCatalogs(t), server.WithMaxRequestMemory(64<<10))
	_, err = e.client.Resolve(t.Context(), in)
	st := requireCode(t, err, codes.ResourceExhausted)
	assert.Contains(t, st.Message(), "more memory than the limit of 64.0 KiB")
	require.Len(t, st.Details(), 1)
	ei, ok := st.Details()[0].(*errdetails.ErrorInfo)
	require.True(t, ok)
	assert.Equal(t, "MEMORY_LIMIT", ei.GetReason())
	assert.Equal(t, "65536", ei.GetMetadata()["limitBytes"])

	stream, err := e.client.WhatIf(t.Context(), &modsolverv1.WhatIfRequest{
		Cluster:   server.ClusterProto(cluster),
		Scenarios: []*modsolverv1.Scenario{{Name: "a", Request: server.RequestProto(req)}, {Name: "b", Request: server.RequestProto(req)}},
	})
	require.NoError(t, err)
	_, err = stream.Recv()
	requireCode(t, err, codes.ResourceExhausted)
}
