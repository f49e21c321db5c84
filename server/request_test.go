package server

import (
	"errors"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

func TestClusterAndRequestRoundTrip(t *testing.T) {
	cluster, req, err := catalog.DemoState()
	require.NoError(t, err)
	req.Pin = map[string]model.Version{"code": model.MustParseVersion("1.2.0")}
	req.Platform = model.Platform{Kubernetes: model.MustParseVersion("1.31.2")}
	req.Strategy = model.StrategyDirect
	req.Disable = []string{"descheduler"}
	req.Devel = true

	gotCluster, err := clusterFromProto(ClusterProto(cluster))
	require.NoError(t, err)
	assert.Equal(t, cluster.String(), gotCluster.String())
	assert.Equal(t, cluster.Edition, gotCluster.Edition)
	assert.Equal(t, cluster.Bundle, gotCluster.Bundle)
	assert.Equal(t, cluster.ReleaseChannel, gotCluster.ReleaseChannel)
	require.Equal(t, cluster.ModuleNames(), gotCluster.ModuleNames())
	for name, want := range cluster.Modules {
		got := gotCluster.Modules[name]
		assert.Equal(t, want.Enabled, got.Enabled, name)
		assert.Equal(t, want.Channel, got.Channel, name)
		assert.True(t, model.SameVersion(want.Version, got.Version), name)
	}

	gotReq, err := requestFromProto(RequestProto(req))
	require.NoError(t, err)
	assert.Equal(t, req.Enable, gotReq.Enable)
	assert.Equal(t, req.Disable, gotReq.Disable)
	assert.Equal(t, req.UpdateAll, gotReq.UpdateAll)
	assert.Equal(t, req.Strategy, gotReq.Strategy)
	assert.True(t, gotReq.Devel, "devel survives the proto (R6)")
	assert.True(t, model.SameVersion(req.Pin["code"], gotReq.Pin["code"]))
	assert.True(t, model.SameVersion(req.Platform.Kubernetes, gotReq.Platform.Kubernetes))
	assert.Nil(t, gotReq.Platform.Deckhouse)

	empty, err := requestFromProto(nil)
	require.NoError(t, err)
	assert.Equal(t, &model.Request{}, empty, "no request asks for nothing")
}

func TestConversionErrorsNameProtoFields(t *testing.T) {
	_, err := clusterFromProto(&modsolverv1.ClusterState{
		Deckhouse:  "1.x",
		Kubernetes: "1.30.0",
		Modules: map[string]*modsolverv1.ModuleState{
			"b": {Enabled: proto.Bool(true), Version: "bad"},
			"a": {Enabled: proto.Bool(true), Version: "0.2.3.1"},
		},
	})
	assertFields(t, err, "cluster.deckhouse", `cluster.modules["a"].version`, `cluster.modules["b"].version`)
	require.True(t, errors.Is(err, model.ErrInvalidVersion))

	_, err = requestFromProto(&modsolverv1.Request{
		Pin:      map[string]string{"z": "1", "y": "nope"},
		Platform: &modsolverv1.Platform{Deckhouse: "one"},
	})
	assertFields(t, err, "request.platform.deckhouse", `request.pin["y"]`)

	_, err = clusterFromProto(nil)
	assertFields(t, err, "cluster")
}

func assertFields(t *testing.T, err error, fields ...string) {
	t.Helper()
	require.Error(t, err)
	var got []string
	for _, v := range violations(err, "") {
		got = append(got, v.GetField())
	}
	assert.Equal(t, fields, got)
}

// FuzzRequestToModel feeds random bytes through proto.Unmarshal and the
// conversion of a ResolveRequest, then through model validation against
// the demo catalog. Nothing may panic, and every error is bad input,
// mapped to InvalidArgument with at least one field violation.
func FuzzRequestToModel(f *testing.F) {
	cat, err := catalog.Demo()
	require.NoError(f, err)
	cluster, req, err := catalog.DemoState()
	require.NoError(f, err)
	for _, m := range []*modsolverv1.ResolveRequest{
		{Cluster: ClusterProto(cluster), Request: RequestProto(req)},
		{Cluster: &modsolverv1.ClusterState{Deckhouse: "v1.2", Modules: map[string]*modsolverv1.ModuleState{"": {Version: "x"}}}},
		{Request: &modsolverv1.Request{Pin: map[string]string{"code": "", "a": "1.0.0-rc.1+b"}, Platform: &modsolverv1.Platform{Kubernetes: "99999999999999999999.0"}}},
	} {
		data, err := proto.Marshal(m)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var in modsolverv1.ResolveRequest
		if proto.Unmarshal(data, &in) != nil {
			return
		}
		c, cerr := clusterFromProto(in.GetCluster())
		r, rerr := requestFromProto(in.GetRequest())
		err := errors.Join(cerr, rerr)
		if err == nil {
			err = errors.Join(c.Validate(cat), r.Validate(cat, c))
		}
		if err == nil {
			return
		}
		st := status.Convert(toStatus(slog.Default(), "/fuzz", err))
		require.Equal(t, codes.InvalidArgument, st.Code(), "%v", err)
		require.NotEmpty(t, violations(err, ""), "%v", err)
	})
}
