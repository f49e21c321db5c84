package server_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

func TestResolveDemo(t *testing.T) {
	cats := demoCatalogs(t)
	e := start(t, cats)
	_, req, err := catalog.DemoState()
	require.NoError(t, err)
	in := demoRequest(t, server.RequestProto(req))

	got, err := e.client.Resolve(t.Context(), in)
	require.NoError(t, err)
	assert.Equal(t, modsolverv1.Status_STATUS_RESOLVED, got.GetStatus())
	assert.NotEmpty(t, got.GetModules())
	assert.NotEmpty(t, got.GetPlan())
	demo, err := cats.Lookup("demo")
	require.NoError(t, err)
	assertSameAnswer(t, direct(t, demo, in), got)
}

func TestResolveUnsatisfiableIsAResponse(t *testing.T) {
	e := start(t, demoCatalogs(t))
	// catalog/demo/unsat-request.yaml: observability needs Kubernetes >= 1.31.
	in := demoRequest(t, &modsolverv1.Request{Enable: []string{"observability"}})

	got, err := e.client.Resolve(t.Context(), in)
	require.NoError(t, err, "unsatisfiable is a normal response")
	assert.Equal(t, modsolverv1.Status_STATUS_UNSATISFIABLE, got.GetStatus())
	expl := got.GetExplanation()
	require.NotNil(t, expl)
	assert.Contains(t, expl.GetSummary(), "requires kubernetes >= 1.31 (the cluster runs 1.30.8)")
	var kinds []modsolverv1.SuggestionKind
	for _, s := range expl.GetSuggestions() {
		kinds = append(kinds, s.GetKind())
	}
	assert.Contains(t, kinds, modsolverv1.SuggestionKind_SUGGESTION_KIND_UPGRADE_KUBERNETES)
}

func TestResolveInlineCatalog(t *testing.T) {
	e := start(t, demoCatalogs(t))
	got, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: tinyCatalog},
		Cluster: tinyCluster(),
		Request: &modsolverv1.Request{Enable: []string{"hello-world"}},
	})
	require.NoError(t, err)
	require.Equal(t, modsolverv1.Status_STATUS_RESOLVED, got.GetStatus())
	byName := map[string]*modsolverv1.ModuleResult{}
	for _, m := range got.GetModules() {
		byName[m.GetName()] = m
	}
	require.Contains(t, byName, "hello-world")
	assert.Equal(t, modsolverv1.Action_ACTION_INSTALL, byName["hello-world"].GetAction())
	assert.Equal(t, "1.0.0", byName["hello-world"].GetToVersion())
	assert.Equal(t, modsolverv1.Action_ACTION_KEEP, byName["ingress-nginx"].GetAction())
}

func TestResolveBadInput(t *testing.T) {
	e := start(t, demoCatalogs(t))
	tests := []struct {
		name   string
		edit   func(*modsolverv1.ResolveRequest)
		fields []string // every field that must have a violation
	}{
		{"unknown module to enable", func(in *modsolverv1.ResolveRequest) {
			in.Request.Enable = []string{"no-such-module"}
		}, []string{"request.enable[0]"}},
		{"bad pin version", func(in *modsolverv1.ResolveRequest) {
			in.Request.Pin = map[string]string{"hello-world": "one.two"}
		}, []string{`request.pin["hello-world"]`}},
		{"pin of an unknown release", func(in *modsolverv1.ResolveRequest) {
			in.Request.Pin = map[string]string{"hello-world": "9.9.9"}
		}, []string{`request.pin["hello-world"]`}},
		{"bad deployed version", func(in *modsolverv1.ResolveRequest) {
			in.Cluster.Modules["ingress-nginx"].Version = "1.68.2.1"
		}, []string{`cluster.modules["ingress-nginx"].version`}},
		{"bad platform version", func(in *modsolverv1.ResolveRequest) {
			in.Request.Platform = &modsolverv1.Platform{Kubernetes: "latest"}
		}, []string{"request.platform.kubernetes"}},
		{"bad channel", func(in *modsolverv1.ResolveRequest) {
			in.Cluster.ReleaseChannel = "nightly"
		}, []string{"cluster.release_channel"}},
		{"missing versions", func(in *modsolverv1.ResolveRequest) {
			// A catalog with a DKP requirement needs the DKP version (R6).
			in.Catalog = &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: `modules: [{name: hello-world, releases: [{version: 1.0.0, requirements: {deckhouse: ">= 1.70"}}]}]`}
			in.Cluster.Deckhouse, in.Cluster.Kubernetes = "", ""
			in.Cluster.Modules = nil
		}, []string{"cluster.deckhouse", "cluster.kubernetes"}},
		{"missing Kubernetes version, a catalog without DKP requirements", func(in *modsolverv1.ResolveRequest) {
			in.Cluster.Deckhouse, in.Cluster.Kubernetes = "", ""
		}, []string{"cluster.kubernetes"}},
		{"no cluster", func(in *modsolverv1.ResolveRequest) {
			in.Cluster = nil
		}, []string{"cluster"}},
		{"bad strategy", func(in *modsolverv1.ResolveRequest) {
			in.Request.Strategy = "fastest"
		}, []string{"request.strategy"}},
		{"several problems at once", func(in *modsolverv1.ResolveRequest) {
			in.Cluster.Kubernetes = "x"
			in.Request.Pin = map[string]string{"hello-world": "y"}
		}, []string{"cluster.kubernetes", `request.pin["hello-world"]`}},
		// Each bad field is its own violation, where the fields can be
		// checked one by one without follow-on errors (D413).
		{"two bad cluster versions", func(in *modsolverv1.ResolveRequest) {
			in.Cluster.Deckhouse, in.Cluster.Kubernetes = "latest", "v1.2"
		}, []string{"cluster.deckhouse", "cluster.kubernetes"}},
		{"a bad cluster version and a pin of an unknown module", func(in *modsolverv1.ResolveRequest) {
			in.Cluster.Deckhouse = "latest"
			in.Request.Pin = map[string]string{"no-such-module": "1.0.0"}
		}, []string{"cluster.deckhouse", `request.pin["no-such-module"]`}},
		{"a bad pin version and an unknown module to enable", func(in *modsolverv1.ResolveRequest) {
			in.Request.Enable = []string{"no-such-module"}
			in.Request.Pin = map[string]string{"hello-world": "y", "ingress-nginx": "9.9.9"}
		}, []string{`request.pin["hello-world"]`, "request.enable[0]", `request.pin["ingress-nginx"]`}},
		{"a bad pin version and a bad channel", func(in *modsolverv1.ResolveRequest) {
			in.Cluster.ReleaseChannel = "nightly"
			in.Request.Pin = map[string]string{"hello-world": "y"}
		}, []string{`request.pin["hello-world"]`, "cluster.release_channel"}},
		{"bad inline catalog", func(in *modsolverv1.ResolveRequest) {
			in.Catalog = &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: "modules: [{name: a, color: red}]"}
		}, []string{"inline_catalog"}},
		{"bad constraint in an inline catalog", func(in *modsolverv1.ResolveRequest) {
			in.Catalog = &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: `modules: [{name: a, releases: [{version: 1.0.0, requirements: {kubernetes: ">= banana"}}]}]`}
		}, []string{"inline_catalog"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &modsolverv1.ResolveRequest{
				Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "tiny"},
				Cluster: tinyCluster(),
				Request: &modsolverv1.Request{Enable: []string{"hello-world"}},
			}
			tc.edit(in)
			_, err := e.client.Resolve(t.Context(), in)
			st := requireCode(t, err, codes.InvalidArgument)
			vs := fieldViolations(t, st)
			require.Len(t, vs, len(tc.fields), "violations: %v", vs)
			for _, f := range tc.fields {
				assert.Contains(t, vs, f, "violations: %v", vs)
				assert.Contains(t, st.Message(), f+": ", "the message names the field")
			}
			assert.LessOrEqual(t, strings.Count(st.Message(), "inline_catalog"), 1, "each fact is said once: %s", st.Message())
			assert.LessOrEqual(t, strings.Count(st.Message(), "banana"), 1, "each fact is said once: %s", st.Message())
		})
	}
}

func TestInlineCatalogWithoutParser(t *testing.T) {
	e := start(t, demoCatalogs(t), server.WithCatalogParser(nil))
	_, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: tinyCatalog},
		Cluster: tinyCluster(),
	})
	st := requireCode(t, err, codes.Unimplemented)
	assert.Contains(t, st.Message(), "demo, hard, tiny", "names the catalogs that are served")
}

func TestRequestTooLarge(t *testing.T) {
	e := start(t, demoCatalogs(t), server.WithMaxRequestBytes(1024))
	_, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: tinyCatalog + "#" + strings.Repeat("x", 2048)},
		Cluster: tinyCluster(),
	})
	requireCode(t, err, codes.ResourceExhausted)
}

func TestUnknownCatalog(t *testing.T) {
	e := start(t, demoCatalogs(t))
	_, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "prod"},
		Cluster: tinyCluster(),
	})
	st := requireCode(t, err, codes.NotFound)
	assert.Contains(t, st.Message(), `"prod"`)
}

func TestClientDeadlineStopsTheSolve(t *testing.T) {
	e := start(t, demoCatalogs(t))
	in := hardRequest() // built before the deadline starts: it is slow on a busy machine
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.client.Resolve(ctx, in)
	requireCode(t, err, codes.DeadlineExceeded)
	// The server saw the deadline too, and its solve ended with it: by its
	// own copy of the deadline, or by the client's cancellation when that
	// arrives first (the server's deadline starts a little later).
	require.Eventually(t, func() bool {
		logs := e.logs.String()
		return strings.Contains(logs, "code=DeadlineExceeded") || strings.Contains(logs, "code=Canceled")
	}, 5*time.Second, 10*time.Millisecond, "server log: %s", e.logs)
	assert.Less(t, time.Since(start), 5*time.Second)
}

func TestServerSolveTimeout(t *testing.T) {
	e := start(t, demoCatalogs(t), server.WithSolveTimeout(100*time.Millisecond))
	_, err := e.client.Resolve(t.Context(), hardRequest())
	st := requireCode(t, err, codes.DeadlineExceeded)
	assert.Contains(t, st.Message(), "solve timeout of 100ms")
}

func TestWhatIf(t *testing.T) {
	cats := demoCatalogs(t)
	e := start(t, cats)
	cluster, _, err := catalog.DemoState()
	require.NoError(t, err)
	scenarios := []*modsolverv1.Scenario{
		{Name: "virtualization", Request: &modsolverv1.Request{Enable: []string{"virtualization"}}},
		{Name: "bad pin", Request: &modsolverv1.Request{Pin: map[string]string{"code": "latest"}}},
		{Name: "observability", Request: &modsolverv1.Request{Enable: []string{"observability"}}},
		{Name: "unknown module", Request: &modsolverv1.Request{Update: []string{"nope"}}},
		{Name: "k8s 1.31", Request: &modsolverv1.Request{Enable: []string{"observability"}, Platform: &modsolverv1.Platform{Kubernetes: "1.31.2"}}},
	}
	stream, err := e.client.WhatIf(t.Context(), &modsolverv1.WhatIfRequest{Cluster: server.ClusterProto(cluster), Scenarios: scenarios})
	require.NoError(t, err)
	var got []*modsolverv1.WhatIfResult
	for {
		r, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		got = append(got, r)
	}
	require.Len(t, got, len(scenarios))
	demo, err := cats.Lookup("")
	require.NoError(t, err)
	for i, r := range got {
		assert.Equal(t, uint32(i), r.GetIndex())
		assert.Equal(t, scenarios[i].GetName(), r.GetName())
	}
	assert.Contains(t, got[1].GetError(), `request.pin["code"]: `)
	assert.Nil(t, got[1].GetResponse())
	assert.Contains(t, got[3].GetError(), "request.update[0]: ")
	for _, i := range []int{0, 2, 4} {
		require.Empty(t, got[i].GetError())
		want := direct(t, demo, &modsolverv1.ResolveRequest{Cluster: server.ClusterProto(cluster), Request: scenarios[i].GetRequest()})
		// A batch shares one encoding, so only the stats may differ.
		want.Stats, got[i].GetResponse().Stats = nil, nil
		assertSameAnswer(t, want, got[i].GetResponse(), "scenario", i)
	}
	assert.Equal(t, modsolverv1.Status_STATUS_UNSATISFIABLE, got[2].GetResponse().GetStatus())
	assert.Equal(t, modsolverv1.Status_STATUS_RESOLVED, got[4].GetResponse().GetStatus())
}

func TestWhatIfBadClusterFailsTheCall(t *testing.T) {
	e := start(t, demoCatalogs(t))
	cluster := tinyCluster()
	cluster.Modules["ingress-nginx"].Version = "not-a-version"
	stream, err := e.client.WhatIf(t.Context(), &modsolverv1.WhatIfRequest{
		Catalog:   &modsolverv1.WhatIfRequest_CatalogName{CatalogName: "tiny"},
		Cluster:   cluster,
		Scenarios: []*modsolverv1.Scenario{{Name: "a"}, {Name: "b"}},
	})
	require.NoError(t, err)
	_, err = stream.Recv()
	st := requireCode(t, err, codes.InvalidArgument)
	assert.Contains(t, fieldViolations(t, st), `cluster.modules["ingress-nginx"].version`)

	// A cluster state that reads but does not check out and an accept list
	// that names nothing are two violations at once (D413).
	cluster = tinyCluster()
	cluster.ReleaseChannel = "nightly"
	stream, err = e.client.WhatIf(t.Context(), &modsolverv1.WhatIfRequest{
		Catalog:   &modsolverv1.WhatIfRequest_CatalogName{CatalogName: "tiny"},
		Cluster:   cluster,
		Scenarios: []*modsolverv1.Scenario{{Name: "a"}},
		Accept:    []string{"no-such-risk"},
	})
	require.NoError(t, err)
	_, err = stream.Recv()
	st = requireCode(t, err, codes.InvalidArgument)
	vs := fieldViolations(t, st)
	assert.Len(t, vs, 2, "%v", vs)
	assert.Contains(t, vs, "cluster.release_channel")
	assert.Contains(t, vs, "accept[0]")
}

func TestExplain(t *testing.T) {
	e := start(t, demoCatalogs(t))
	in := demoRequest(t, &modsolverv1.Request{Enable: []string{"observability"}})
	got, err := e.client.Explain(t.Context(), &modsolverv1.ExplainRequest{Cluster: in.GetCluster(), Request: in.GetRequest()})
	require.NoError(t, err)
	assert.Equal(t, modsolverv1.Status_STATUS_UNSATISFIABLE, got.GetStatus())
	require.NotNil(t, got.GetExplanation())
	assert.Len(t, got.GetExplanation().GetFacts(), 2)
	assert.Contains(t, got.GetExplanation().GetSummary(), "requires kubernetes >= 1.31 (the cluster runs 1.30.8)")
	assert.NotZero(t, got.GetStats().GetSolves())

	// A request that resolves after all: RESOLVED, no explanation.
	got, err = e.client.Explain(t.Context(), &modsolverv1.ExplainRequest{
		Catalog: &modsolverv1.ExplainRequest_InlineCatalog{InlineCatalog: tinyCatalog},
		Cluster: tinyCluster(),
		Request: &modsolverv1.Request{Enable: []string{"hello-world"}},
	})
	require.NoError(t, err)
	assert.Equal(t, modsolverv1.Status_STATUS_RESOLVED, got.GetStatus())
	assert.Nil(t, got.GetExplanation())
}

func TestListCatalogs(t *testing.T) {
	cats := demoCatalogs(t)
	e := start(t, cats)
	got, err := e.client.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
	require.NoError(t, err)
	var names []string
	for _, c := range got.GetCatalogs() {
		names = append(names, c.GetName())
	}
	assert.Equal(t, []string{"demo", "hard", "tiny"}, names, "sorted by name")
	demo, tiny := got.GetCatalogs()[0], got.GetCatalogs()[2]
	assert.True(t, demo.GetDefault())
	assert.False(t, tiny.GetDefault())
	assert.Equal(t, "embedded", demo.GetFormat())
	assert.Equal(t, []string{"a note"}, tiny.GetNotes())
	assert.Equal(t, "tiny.yaml", tiny.GetSource())
	assert.Equal(t, uint32(2), tiny.GetModules())
	assert.Equal(t, uint32(4), tiny.GetReleases())
	// Each catalog is compiled when the set is loaded (D95), and the
	// bigger one has the bigger tables.
	assert.Positive(t, tiny.GetCompiledBytes())
	assert.Greater(t, demo.GetCompiledBytes(), tiny.GetCompiledBytes())

	dc, err := cats.Lookup("demo")
	require.NoError(t, err)
	var builtIn, pre uint32
	for _, m := range dc.Modules() {
		if m.Embedded {
			builtIn++
		}
		for _, r := range m.Releases {
			if model.IsPrerelease(r.Version) {
				pre++
			}
		}
	}
	assert.Equal(t, uint32(dc.Len()), demo.GetModules())
	assert.Equal(t, uint32(dc.ReleaseCount()), demo.GetReleases())
	assert.Equal(t, builtIn, demo.GetBuiltInModules())
	assert.Equal(t, pre, demo.GetPrereleases())
	assert.NotZero(t, pre, "the demo catalog has a prerelease")
}

func TestGetModule(t *testing.T) {
	e := start(t, demoCatalogs(t))
	got, err := e.client.GetModule(t.Context(), &modsolverv1.GetModuleRequest{Name: "sds-replicated-volume"})
	require.NoError(t, err)
	m := got.GetModule()
	assert.Equal(t, "sds-replicated-volume", m.GetName())
	assert.False(t, m.GetBuiltIn())
	assert.Equal(t, "1.1.0-rc.1", m.GetChannels()["alpha"])
	var versions []string
	for _, r := range m.GetReleases() {
		versions = append(versions, r.GetVersion())
	}
	for i := 1; i < len(versions); i++ {
		assert.Negative(t, model.CompareVersions(model.MustParseVersion(versions[i-1]), model.MustParseVersion(versions[i])), "releases sorted")
	}
	assert.Contains(t, versions, "0.8.1")
	var excludes bool
	for _, r := range m.GetReleases() {
		excludes = excludes || strings.Contains(r.GetRequirements().GetModules()["sds-node-configurator"], "!0.6.2")
	}
	assert.True(t, excludes, "requirements are kept as written")

	got, err = e.client.GetModule(t.Context(), &modsolverv1.GetModuleRequest{Name: "node-manager"})
	require.NoError(t, err)
	assert.True(t, got.GetModule().GetBuiltIn())
	assert.Empty(t, got.GetModule().GetReleases())
	assert.Equal(t, ">= 1.68", got.GetModule().GetRequirements().GetDeckhouse())

	got, err = e.client.GetModule(t.Context(), &modsolverv1.GetModuleRequest{CatalogName: "tiny", Name: "hello-world"})
	require.NoError(t, err)
	assert.Equal(t, "> 1.67.0", got.GetModule().GetReleases()[1].GetRequirements().GetModules()["ingress-nginx"])

	_, err = e.client.GetModule(t.Context(), &modsolverv1.GetModuleRequest{Name: "no-such-module"})
	requireCode(t, err, codes.NotFound)
	_, err = e.client.GetModule(t.Context(), &modsolverv1.GetModuleRequest{CatalogName: "prod", Name: "code"})
	requireCode(t, err, codes.NotFound)
	_, err = e.client.GetModule(t.Context(), &modsolverv1.GetModuleRequest{})
	st := requireCode(t, err, codes.InvalidArgument)
	assert.Contains(t, fieldViolations(t, st), "name")
}

func TestHealth(t *testing.T) {
	e := start(t, demoCatalogs(t))
	h := healthpb.NewHealthClient(e.conn)
	for _, svc := range []string{"", server.ServiceName} {
		got, err := h.Check(t.Context(), &healthpb.HealthCheckRequest{Service: svc})
		require.NoError(t, err)
		assert.Equal(t, healthpb.HealthCheckResponse_SERVING, got.GetStatus(), "service %q", svc)
	}
	_, err := h.Check(t.Context(), &healthpb.HealthCheckRequest{Service: "other.v1.Service"})
	requireCode(t, err, codes.NotFound)
}

func TestReflection(t *testing.T) {
	e := start(t, demoCatalogs(t))
	stream, err := reflectionpb.NewServerReflectionClient(e.conn).ServerReflectionInfo(t.Context())
	require.NoError(t, err)
	require.NoError(t, stream.Send(&reflectionpb.ServerReflectionRequest{
		MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{},
	}))
	resp, err := stream.Recv()
	require.NoError(t, err)
	var names []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	assert.Contains(t, names, server.ServiceName)
	assert.Contains(t, names, "grpc.health.v1.Health")
	require.NoError(t, stream.CloseSend())
}

func TestPanicIsRecovered(t *testing.T) {
	panicking := func(string, []byte) (*model.Catalog, error) { panic("boom") }
	e := start(t, demoCatalogs(t), server.WithCatalogParser(panicking))
	inline := &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: tinyCatalog}

	_, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{Catalog: inline, Cluster: tinyCluster()})
	st := requireCode(t, err, codes.Internal)
	assert.NotContains(t, st.Message(), "boom", "the panic is logged, not sent")

	stream, err := e.client.WhatIf(t.Context(), &modsolverv1.WhatIfRequest{
		Catalog:   &modsolverv1.WhatIfRequest_InlineCatalog{InlineCatalog: tinyCatalog},
		Cluster:   tinyCluster(),
		Scenarios: []*modsolverv1.Scenario{{Name: "a", Request: &modsolverv1.Request{}}},
	})
	require.NoError(t, err)
	_, err = stream.Recv()
	requireCode(t, err, codes.Internal)

	logs := e.logs.String()
	assert.Contains(t, logs, `msg="panic in handler"`)
	assert.Contains(t, logs, "panic=boom")
	assert.Contains(t, logs, "goroutine", "the stack is logged")
	assert.Contains(t, logs, "code=Internal")

	// The server goes on serving.
	_, err = e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "tiny"},
		Cluster: tinyCluster(),
	})
	require.NoError(t, err)
}

func TestInternalErrorIsNotLeaked(t *testing.T) {
	failing := func(string, []byte) (*model.Catalog, error) {
		return nil, errors.New("connect to catalog store: password=hunter2 refused")
	}
	e := start(t, demoCatalogs(t), server.WithCatalogParser(failing))
	_, err := e.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: tinyCatalog},
		Cluster: tinyCluster(),
	})
	st := requireCode(t, err, codes.Internal)
	assert.NotContains(t, st.Message(), "hunter2")
	assert.Contains(t, e.logs.String(), "hunter2")
}

// Every call logs one line when the logger writes debug lines.
func TestRequestLog(t *testing.T) {
	logs := &syncBuffer{}
	e := start(t, demoCatalogs(t), server.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	_, err := e.client.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
	require.NoError(t, err)
	_, err = e.client.GetModule(t.Context(), &modsolverv1.GetModuleRequest{Name: "nope"})
	require.Error(t, err)
	assert.Contains(t, logs.String(), "level=DEBUG msg=request method=/modsolver.v1.Resolver/ListCatalogs code=OK duration=")
	assert.Contains(t, logs.String(), "level=INFO msg=request method=/modsolver.v1.Resolver/GetModule code=NotFound duration=")
	assert.Contains(t, logs.String(), "peer=bufconn")
	assert.Empty(t, e.logs.String(), "the test's own logger is replaced")
}

// At the default info level, a call answered OK writes no line and a
// failed one does (D113).
func TestRequestLogSkipsOKCallsAtInfo(t *testing.T) {
	e := start(t, demoCatalogs(t))
	_, err := e.client.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
	require.NoError(t, err)
	_, err = e.client.GetModule(t.Context(), &modsolverv1.GetModuleRequest{Name: "nope"})
	require.Error(t, err)
	logs := e.logs.String()
	assert.NotContains(t, logs, "ListCatalogs")
	assert.Contains(t, logs, "level=INFO msg=request method=/modsolver.v1.Resolver/GetModule code=NotFound duration=")
}

func TestShutdownFinishesInFlightCalls(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	slow := func(name string, data []byte) (*model.Catalog, error) {
		close(entered)
		<-release
		return parseCatalog(name, data)
	}
	e := start(t, demoCatalogs(t), server.WithCatalogParser(slow))
	type answer struct {
		resp *modsolverv1.ResolveResponse
		err  error
	}
	answers := make(chan answer, 1)
	go func() {
		resp, err := e.client.Resolve(context.Background(), &modsolverv1.ResolveRequest{
			Catalog: &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: tinyCatalog},
			Cluster: tinyCluster(),
			Request: &modsolverv1.Request{Enable: []string{"hello-world"}},
		})
		answers <- answer{resp, err}
	}()
	<-entered
	stopped := make(chan struct{})
	go func() {
		e.srv.Shutdown(context.Background())
		close(stopped)
	}()
	select {
	case <-stopped:
		t.Fatal("Shutdown returned with a call in flight")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	a := <-answers
	require.NoError(t, a.err)
	assert.Equal(t, modsolverv1.Status_STATUS_RESOLVED, a.resp.GetStatus())
	<-stopped
}

func TestShutdownBoundCancelsInFlightCalls(t *testing.T) {
	e := start(t, demoCatalogs(t), server.WithSolveTimeout(time.Minute))
	errs := make(chan error, 1)
	go func() {
		_, err := e.client.Resolve(context.Background(), hardRequest())
		errs <- err
	}()
	time.Sleep(200 * time.Millisecond) // let the solve start
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	began := time.Now()
	e.srv.Shutdown(ctx)
	// The solve alone may run a minute; half of that tells a cancelled call
	// from one waited for, even on a loaded machine.
	assert.Less(t, time.Since(began), 30*time.Second)
	require.Error(t, <-errs)
}

func TestShutdownTurnsHealthNotServingFirst(t *testing.T) {
	e := start(t, demoCatalogs(t))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	watch, err := healthpb.NewHealthClient(e.conn).Watch(ctx, &healthpb.HealthCheckRequest{Service: server.ServiceName})
	require.NoError(t, err)
	first, err := watch.Recv()
	require.NoError(t, err)
	require.Equal(t, healthpb.HealthCheckResponse_SERVING, first.GetStatus())

	stopped := make(chan struct{})
	go func() {
		e.srv.Shutdown(context.Background())
		close(stopped)
	}()
	next, err := watch.Recv()
	require.NoError(t, err)
	assert.Equal(t, healthpb.HealthCheckResponse_NOT_SERVING, next.GetStatus())
	cancel() // the watch is an in-flight call that graceful stop waits for
	<-stopped
}

// A what-if of no scenario is bad input, as the CLI has it; a module
// that is not in the catalog is named with the nearest that is (D403).
func TestWhatIfWithoutScenariosAndNearestModule(t *testing.T) {
	e := start(t, demoCatalogs(t))
	stream, err := e.client.WhatIf(t.Context(), &modsolverv1.WhatIfRequest{
		Catalog: &modsolverv1.WhatIfRequest_CatalogName{CatalogName: "tiny"},
		Cluster: tinyCluster(),
	})
	require.NoError(t, err)
	_, err = stream.Recv()
	st := requireCode(t, err, codes.InvalidArgument)
	assert.Contains(t, st.Message(), "scenarios")

	_, err = e.client.GetModule(t.Context(), &modsolverv1.GetModuleRequest{CatalogName: "demo", Name: "prometeus"})
	st = requireCode(t, err, codes.NotFound)
	assert.Contains(t, st.Message(), `did you mean "prometheus"?`)
}
