package server_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/modsolver/modsolver/catalog"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
	"github.com/modsolver/modsolver/solver"
)

// TestConcurrentResolve sends 64 different requests at once and checks
// every answer against solver.Solve run directly on the same input.
func TestConcurrentResolve(t *testing.T) {
	const calls = 64
	cats := demoCatalogs(t)
	e := start(t, cats)
	demo, err := cats.Lookup("demo")
	require.NoError(t, err)
	cluster, _, err := catalog.DemoState()
	require.NoError(t, err)

	type want struct {
		resp *modsolverv1.ResolveResponse
		code codes.Code
	}
	ins := make([]*modsolverv1.ResolveRequest, calls)
	wants := make([]want, calls)
	kinds := map[string]int{}
	for i := range calls {
		ins[i] = &modsolverv1.ResolveRequest{Cluster: server.ClusterProto(cluster), Request: variedRequest(i, demo.Modules()[i%demo.Len()].Name)}
		c, r := fromProto(t, ins[i])
		res, err := solver.Solve(context.Background(), demo, c, r)
		switch {
		case err != nil:
			wants[i] = want{code: codes.InvalidArgument}
			kinds["bad input"]++
		default:
			wants[i] = want{resp: server.Response(res)}
			kinds[res.Status.String()]++
		}
	}
	for _, k := range []string{"resolved", "unsatisfiable", "bad input"} {
		require.NotZero(t, kinds[k], "the requests vary: %v (%s)", kinds, k)
	}

	var wg sync.WaitGroup
	for i := range calls {
		wg.Go(func() {
			got, err := e.client.Resolve(t.Context(), ins[i])
			if wants[i].resp == nil {
				assert.Equal(t, wants[i].code, status.Code(err), "call %d: %v", i, err)
				return
			}
			if assert.NoError(t, err, "call %d", i) {
				assertSameAnswer(t, wants[i].resp, got, "call", i)
			}
		})
	}
	wg.Wait()
}

// variedRequest is request i of a mix of enables, updates, platform
// upgrades and disables of module m, and bad input.
func variedRequest(i int, m string) *modsolverv1.Request {
	switch i % 5 {
	case 0:
		return &modsolverv1.Request{Enable: []string{m}}
	case 1:
		return &modsolverv1.Request{Update: []string{m}, Strategy: "direct"}
	case 2:
		return &modsolverv1.Request{Enable: []string{m}, AutoEnable: true, Platform: &modsolverv1.Platform{Kubernetes: "1.31.2", Deckhouse: "1.74.0"}}
	case 3:
		return &modsolverv1.Request{Enable: []string{m, "no-such-" + m}}
	}
	return &modsolverv1.Request{Disable: []string{m}, AllowDisable: true, UpdateAll: true}
}
