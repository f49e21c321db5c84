package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	prommodel "github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/client"
	"github.com/modsolver/modsolver/internal/testpki"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

var metricsRE = regexp.MustCompile(`^modsolver: metrics on http://(\S+)/metrics$`)

// mutualPKI makes what mutual TLS needs: a CA for the server and its
// certificate, and a CA for clients and an operator's certificate.
func mutualPKI(t *testing.T) (serverCA, clientCA *testpki.CA, server, client *testpki.Leaf) {
	t.Helper()
	serverCA, err := testpki.NewCA("server ca")
	require.NoError(t, err)
	clientCA, err = testpki.NewCA("client ca")
	require.NoError(t, err)
	server, err = serverCA.Server("modsolver")
	require.NoError(t, err)
	client, err = clientCA.Client("operator")
	require.NoError(t, err)
	return serverCA, clientCA, server, client
}

// TestServeInCluster runs serve as a cluster runs it: mutual TLS from a
// mounted Secret and the metrics port. It calls it through the client
// package, scrapes /metrics, rotates the certificate and calls again.
func TestServeInCluster(t *testing.T) {
	serverCA, clientCA, leaf, clientLeaf := mutualPKI(t)
	clientCert, err := clientLeaf.TLSCertificate()
	require.NoError(t, err)
	dir := t.TempDir()
	mount := func(l *testpki.Leaf) {
		require.NoError(t, testpki.WriteSecret(dir, map[string][]byte{"tls.crt": l.CertPEM, "tls.key": l.KeyPEM, "ca.crt": clientCA.CertPEM}))
	}
	mount(leaf)

	s := startServe(t, "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0",
		"--tls-cert-file", filepath.Join(dir, "tls.crt"), "--tls-private-key-file", filepath.Join(dir, "tls.key"),
		"--client-ca-file", filepath.Join(dir, "ca.crt"), "--tls-min-version", "VersionTLS12", "--tls-refresh-interval", "50ms")
	metricsAddr := ""
	for _, l := range s.logs.all() {
		if m := metricsRE.FindStringSubmatch(l); m != nil {
			metricsAddr = m[1]
		}
	}
	require.NotEmpty(t, metricsAddr, "serve announces the metrics address:\n%s", s.logs)

	tlsConfig := &tls.Config{RootCAs: testpki.Pool(serverCA), ServerName: "localhost", Certificates: []tls.Certificate{clientCert}}
	c, err := client.New("dns:///"+s.addr, client.WithTLS(tlsConfig))
	require.NoError(t, err)
	defer c.Close()
	callAll(t, c)

	_, err = s.client.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
	assert.Equal(t, codes.Unavailable, status.Code(err), "plaintext is refused")

	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGHUP))
	require.Eventually(t, func() bool { return bytes.Contains([]byte(s.logs.String()), []byte("catalogs reloaded")) }, 10*time.Second, 20*time.Millisecond)

	assert.Equal(t, http.StatusOK, get(t, "http://"+metricsAddr+"/healthz").code)
	assert.Equal(t, http.StatusOK, get(t, "http://"+metricsAddr+"/readyz").code)
	checkMetrics(t, get(t, "http://"+metricsAddr+"/metrics").body)

	rotated, err := serverCA.Server("modsolver rotated")
	require.NoError(t, err)
	mount(rotated)
	require.Eventually(t, func() bool {
		conn, err := tls.Dial("tcp", s.addr, &tls.Config{RootCAs: tlsConfig.RootCAs, ServerName: "localhost", Certificates: tlsConfig.Certificates, NextProtos: []string{"h2"}})
		if err != nil {
			return false
		}
		defer conn.Close()
		return conn.ConnectionState().PeerCertificates[0].SerialNumber.Cmp(rotated.Cert.SerialNumber) == 0
	}, 10*time.Second, 20*time.Millisecond, "the rotated certificate is served without a restart")
	_, err = c.ListCatalogs(t.Context())
	require.NoError(t, err, "the client's connection outlives the rotation")
	fresh, err := client.New("dns:///"+s.addr, client.WithTLS(tlsConfig))
	require.NoError(t, err)
	defer fresh.Close()
	ans, err := fresh.Resolve(t.Context(), demoResolveRequest(t, ""))
	require.NoError(t, err, "a new connection handshakes with the rotated certificate")
	assert.True(t, ans.Resolved())

	assert.Equal(t, exitResolved, s.stop(t))
}

// callAll makes the calls checkMetrics counts: Resolve resolved and
// unsatisfiable, and a WhatIf of one good and one bad scenario.
func callAll(t *testing.T, c *client.Client) {
	t.Helper()
	ans, err := c.Resolve(t.Context(), demoResolveRequest(t, ""))
	require.NoError(t, err)
	assert.True(t, ans.Resolved())
	ans, err = c.Resolve(t.Context(), demoResolveRequest(t, "../../catalog/demo/unsat-request.yaml"))
	require.NoError(t, err, "unsatisfiable is an answer")
	assert.True(t, ans.Unsatisfiable())
	req := demoResolveRequest(t, "")
	n := 0
	require.NoError(t, c.WhatIf(t.Context(), &modsolverv1.WhatIfRequest{Cluster: req.GetCluster(), Scenarios: []*modsolverv1.Scenario{
		{Name: "good", Request: req.GetRequest()},
		{Name: "bad", Request: &modsolverv1.Request{Pin: map[string]string{"x": "not a version"}}},
	}}, func(*modsolverv1.WhatIfResult) error { n++; return nil }))
	assert.Equal(t, 2, n)
}

func demoResolveRequest(t *testing.T, requestFile string) *modsolverv1.ResolveRequest {
	t.Helper()
	cluster, req, err := catalog.DemoState()
	require.NoError(t, err)
	if requestFile != "" {
		req, err = catalog.LoadRequest(requestFile)
		require.NoError(t, err)
	}
	return &modsolverv1.ResolveRequest{Cluster: server.ClusterProto(cluster), Request: server.RequestProto(req)}
}

type response struct {
	code int
	body []byte
}

func get(t *testing.T, url string) response {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{resp.StatusCode, body}
}

// checkMetrics checks the scraped values of callAll's calls, and lints
// the whole exposition.
func checkMetrics(t *testing.T, body []byte) {
	t.Helper()
	problems, err := promlint.New(bytes.NewReader(body)).Lint()
	require.NoError(t, err)
	assert.Empty(t, problems, "promlint")

	parser := expfmt.NewTextParser(prommodel.UTF8Validation)
	mfs, err := parser.TextToMetricFamilies(bytes.NewReader(body))
	require.NoError(t, err)
	value := func(name string, labels ...string) float64 {
		t.Helper()
		m := find(t, mfs, name, labels...)
		switch {
		case m.GetCounter() != nil:
			return m.GetCounter().GetValue()
		case m.GetGauge() != nil:
			return m.GetGauge().GetValue()
		case m.GetHistogram() != nil:
			return float64(m.GetHistogram().GetSampleCount())
		}
		t.Fatalf("%s has no value", name)
		return 0
	}
	svc := "grpc_service"
	assert.Equal(t, 2.0, value("grpc_server_handled_total", svc, server.ServiceName, "grpc_method", "Resolve", "grpc_code", "OK"))
	assert.Equal(t, 1.0, value("grpc_server_handled_total", svc, server.ServiceName, "grpc_method", "WhatIf", "grpc_code", "OK"))
	assert.Equal(t, 0.0, value("grpc_server_handled_total", svc, server.ServiceName, "grpc_method", "ListCatalogs", "grpc_code", "OK"),
		"the refused plaintext call never reached the handler")
	hist := find(t, mfs, "grpc_server_handling_seconds", svc, server.ServiceName, "grpc_method", "Resolve").GetHistogram()
	assert.EqualValues(t, 2, hist.GetSampleCount())
	buckets := hist.GetBucket()
	require.GreaterOrEqual(t, len(buckets), 2)
	assert.Equal(t, 60.0, buckets[len(buckets)-2].GetUpperBound(), "handling-time buckets reach 60 s, then +Inf")

	assert.Equal(t, 1.0, value("modsolver_solve_duration_seconds", "method", "Resolve", "status", server.SolveResolved))
	assert.Equal(t, 1.0, value("modsolver_solve_duration_seconds", "method", "Resolve", "status", server.SolveUnsatisfiable))
	assert.Equal(t, 1.0, value("modsolver_solve_duration_seconds", "method", "WhatIf", "status", server.SolveAnswered))
	assert.Equal(t, 2.0, value("modsolver_encoding_variables", "method", "Resolve"))
	assert.Equal(t, 2.0, value("modsolver_encoding_clauses", "method", "Resolve"))
	assert.Equal(t, 0.0, value("modsolver_solves_in_flight", "method", "Resolve"))
	assert.Equal(t, 1.0, value("modsolver_whatif_scenarios_total", "outcome", server.ScenarioResolved))
	assert.Equal(t, 1.0, value("modsolver_whatif_scenarios_total", "outcome", server.ScenarioInvalid))
	assert.Equal(t, 1.0, value("modsolver_catalog_reloads_total", "result", "success"))
	assert.Equal(t, 0.0, value("modsolver_catalog_reloads_total", "result", "failure"))
	assert.Equal(t, 1.0, value("modsolver_build_info", "version", version))
	demo, err := catalog.Demo()
	require.NoError(t, err)
	assert.Equal(t, float64(demo.ReleaseCount()), value("modsolver_catalog_releases", "catalog", "demo"))
	assert.Positive(t, value("go_goroutines"))
	assert.Contains(t, mfs, "process_cpu_seconds_total")
}

// find returns the one sample of family name whose labels include the
// given name, value pairs.
func find(t *testing.T, mfs map[string]*dto.MetricFamily, name string, labels ...string) *dto.Metric {
	t.Helper()
	mf, ok := mfs[name]
	require.True(t, ok, "no metric %s", name)
	var found []*dto.Metric
	for _, m := range mf.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		match := true
		for i := 0; i+1 < len(labels); i += 2 {
			match = match && have[labels[i]] == labels[i+1]
		}
		if match {
			found = append(found, m)
		}
	}
	require.Len(t, found, 1, "%s%v", name, labels)
	return found[0]
}

func TestServeBadProductionFlags(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.pem")
	notPEM := writeTemp(t, "key.pem", "not a key")
	tests := []struct {
		name    string
		args    []string
		mention string
	}{
		{"cert without key", []string{"--tls-cert-file", notPEM}, "--tls-private-key-file"},
		{"client CA without cert", []string{"--client-ca-file", notPEM}, "--client-ca-file"},
		{"old TLS", []string{"--tls-min-version", "VersionTLS10"}, "VersionTLS12"},
		{"missing cert", []string{"--tls-cert-file", missing, "--tls-private-key-file", notPEM}, "missing.pem"},
		{"zero connection age", []string{"--max-connection-age", "0s"}, "--max-connection-age"},
		{"zero streams", []string{"--max-concurrent-streams", "0"}, "--max-concurrent-streams"},
		{"zero refresh", []string{"--tls-refresh-interval", "0s"}, "--tls-refresh-interval"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, append([]string{"serve", "--listen", "127.0.0.1:0"}, tc.args...)...)
			assert.Equal(t, exitBadInput, r.code, r.errOut)
			assert.Contains(t, r.errOut, tc.mention)
			assert.NotContains(t, r.errOut, "serving", "nothing was served")
		})
	}
}

func TestServeMetricsOffByDefault(t *testing.T) {
	s := startServe(t, "--listen", "127.0.0.1:0")
	assert.NotContains(t, s.logs.String(), "metrics on")
}
