package server_test

import (
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"

	"github.com/modsolver/modsolver/catalog"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// readinessMatrix is the demo matrix DKP 1.72.4, 1.73.0 × Kubernetes
// 1.31.2, 1.32.1 as gRPC scenarios, with a bad one between them.
func readinessMatrix() []*modsolverv1.Scenario {
	cell := func(name, dkp, kube string) *modsolverv1.Scenario {
		return &modsolverv1.Scenario{Name: name, Request: &modsolverv1.Request{UpdateAll: true, Platform: &modsolverv1.Platform{Deckhouse: dkp, Kubernetes: kube}}}
	}
	return []*modsolverv1.Scenario{
		cell("a", "1.72.4", "1.31.2"), cell("b", "1.72.4", "1.32.1"),
		{Name: "bad", Request: &modsolverv1.Request{Pin: map[string]string{"code": "latest"}}},
		cell("c", "1.73.0", "1.31.2"), cell("d", "1.73.0", "1.32.1"),
	}
}

func whatIfAll(t *testing.T, e *env, in *modsolverv1.WhatIfRequest) ([]*modsolverv1.WhatIfResult, error) {
	t.Helper()
	stream, err := e.client.WhatIf(t.Context(), in)
	require.NoError(t, err)
	var got []*modsolverv1.WhatIfResult
	for {
		r, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, r)
	}
}

// TestWhatIfReadiness: the stream says each result's group and classes
// each blocker by R30; WhatIfRequest.accept round-trips into each
// blocker's accepted flag, by module and by fact kind.
func TestWhatIfReadiness(t *testing.T) {
	e := start(t, demoCatalogs(t))
	cluster, _, err := catalog.DemoState()
	require.NoError(t, err)
	in := &modsolverv1.WhatIfRequest{Cluster: server.ClusterProto(cluster), Scenarios: readinessMatrix()}
	got, err := whatIfAll(t, e, in)
	require.NoError(t, err)
	require.Len(t, got, 5)
	groups := make([]uint32, len(got))
	for i, r := range got {
		assert.Equal(t, uint32(i), r.GetIndex(), "in request order")
		require.NotNil(t, r.Group, "every result says its group")
		groups[i] = r.GetGroup()
	}
	assert.Equal(t, []uint32{0, 1, 2, 3, 1}, groups,
		"Kubernetes 1.32.1 is blocked alike under both DKP versions; DKP 1.73 lets commander-agent reach 1.5.0; a bad scenario is its own group")
	assert.Empty(t, got[0].GetBlockers(), "a resolved scenario has no blockers")
	want := &modsolverv1.Blocker{Module: "csi-ceph", Severity: modsolverv1.Severity_SEVERITY_WARNING, FirstScenario: 1}
	for _, i := range []int{1, 4} {
		require.Len(t, got[i].GetBlockers(), 1)
		b := got[i].GetBlockers()[0]
		assert.Equal(t, []any{want.GetModule(), want.GetSeverity(), want.GetFirstScenario(), false},
			[]any{b.GetModule(), b.GetSeverity(), b.GetFirstScenario(), b.GetAccepted()},
			"the cluster runs Kubernetes 1.30: 1.31 is the next minor asked about, and csi-ceph blocks only 1.32")
	}

	for _, accept := range [][]string{{"csi-ceph"}, {"kubernetes-requirement"}} {
		in.Accept = accept
		got, err = whatIfAll(t, e, in)
		require.NoError(t, err)
		require.Len(t, got, 5)
		for _, i := range []int{1, 4} {
			require.Len(t, got[i].GetBlockers(), 1)
			assert.True(t, got[i].GetBlockers()[0].GetAccepted(), "accept %v", accept)
		}
	}

	in.Accept = []string{"channel-head"}
	got, err = whatIfAll(t, e, in)
	require.NoError(t, err)
	assert.False(t, got[1].GetBlockers()[0].GetAccepted(), "a kind of fact that does not make csi-ceph a blocker accepts nothing")

	in.Accept = []string{"csi-cepj"}
	_, err = whatIfAll(t, e, in)
	st := requireCode(t, err, codes.InvalidArgument)
	assert.Contains(t, fieldViolations(t, st), "accept[0]", "a risk that names nothing is bad input")
}

// A scenario that asks about the next minor and is blocked classes its
// blocker as an error, in every scenario the blocker blocks, including
// those before it in the stream.
func TestWhatIfReadinessErrorSeverity(t *testing.T) {
	e := start(t, demoCatalogs(t))
	cluster, _, err := catalog.DemoState()
	require.NoError(t, err)
	cell := func(kube string) *modsolverv1.Scenario {
		return &modsolverv1.Scenario{Name: kube, Request: &modsolverv1.Request{UpdateAll: true, Platform: &modsolverv1.Platform{Kubernetes: kube}}}
	}
	got, err := whatIfAll(t, e, &modsolverv1.WhatIfRequest{Cluster: server.ClusterProto(cluster), Scenarios: []*modsolverv1.Scenario{cell("1.33.0"), cell("1.32.1")}})
	require.NoError(t, err)
	require.Len(t, got, 2)
	for _, r := range got {
		require.Len(t, r.GetBlockers(), 1)
		b := r.GetBlockers()[0]
		assert.Equal(t, "csi-ceph", b.GetModule())
		assert.Equal(t, modsolverv1.Severity_SEVERITY_ERROR, b.GetSeverity(), "1.32 is the next minor asked about")
		assert.Equal(t, uint32(0), b.GetFirstScenario(), "the first scenario the module blocks, in batch order")
		assert.Equal(t, uint32(0), r.GetGroup(), "Kubernetes 1.33.0 and 1.32.1 are blocked alike")
	}
}
