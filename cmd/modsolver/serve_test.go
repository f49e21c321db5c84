package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/test/bufconn"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/shared"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// served is one `modsolver serve` running in-process on a loopback port.
type served struct {
	addr   string
	client modsolverv1.ResolverClient
	conn   *grpc.ClientConn
	cancel context.CancelFunc
	code   chan int
	logs   *lines
}

var announceRE = regexp.MustCompile(`^modsolver: serving modsolver\.v1\.Resolver on (\S+) \(catalogs: (.*)\)$`)

// startServe runs serve with args until the test ends, waits for its
// announcement and dials the address it names.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &served{cancel: cancel, code: make(chan int, 1), logs: &lines{}}
	go func() {
		s.code <- run(ctx, append([]string{"serve"}, args...), io.Discard, pw)
		pw.Close()
	}()
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			s.logs.add(sc.Text())
			if m := announceRE.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
			if strings.Contains(sc.Text(), `"msg":"serving"`) {
				var rec struct{ Addr string }
				if json.Unmarshal(sc.Bytes(), &rec) == nil {
					addr <- rec.Addr
				}
			}
		}
	}()
	select {
	case s.addr = <-addr:
	case code := <-s.code:
		t.Fatalf("serve exited with %d before listening:\n%s", code, s.logs)
	case <-announceDeadline(t):
		t.Fatalf("serve did not announce its address before the test's deadline:\n%s", s.logs)
	}
	conn, err := grpc.NewClient(s.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	s.conn, s.client = conn, modsolverv1.NewResolverClient(conn)
	t.Cleanup(func() {
		conn.Close()
		cancel()
		select {
		case <-s.code:
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop")
		}
	})
	return s
}

// announceDeadline fires shortly before the test binary's own deadline.
// serve announces its address only once every catalog has loaded, and how
// long that takes depends on the machine and on -race, not on what a test
// checks; so startServe waits as long as loading needs, and a serve that
// exits early still ends the wait at once.
func announceDeadline(t *testing.T) <-chan time.Time {
	deadline, ok := t.Deadline()
	if !ok {
		return nil // no -timeout: wait for the announcement or the exit
	}
	return time.After(time.Until(deadline) - 30*time.Second)
}

// stop cancels serve's context, as SIGTERM does, and returns its exit code.
func (s *served) stop(t *testing.T) int {
	t.Helper()
	s.cancel()
	select {
	case code := <-s.code:
		s.code <- code // for the cleanup
		return code
	case <-time.After(40 * time.Second):
		t.Fatal("serve did not stop")
		return -1
	}
}

func TestServeLoopback(t *testing.T) {
	s := startServe(t, "--listen", "127.0.0.1:0", "--log-level", "debug")
	assert.Regexp(t, `^127\.0\.0\.1:[1-9][0-9]*$`, s.addr, "the actual port is printed")
	assert.Contains(t, s.logs.String(), "(catalogs: demo)")

	cluster, req, err := catalog.DemoState()
	require.NoError(t, err)
	resp, err := s.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{Cluster: server.ClusterProto(cluster), Request: server.RequestProto(req)})
	require.NoError(t, err)
	assert.Equal(t, modsolverv1.Status_STATUS_RESOLVED, resp.GetStatus())

	h, err := healthpb.NewHealthClient(s.conn).Check(t.Context(), &healthpb.HealthCheckRequest{Service: server.ServiceName})
	require.NoError(t, err)
	assert.Equal(t, healthpb.HealthCheckResponse_SERVING, h.GetStatus())

	list, err := s.client.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
	require.NoError(t, err)
	require.Len(t, list.GetCatalogs(), 1)
	assert.Equal(t, "demo", list.GetCatalogs()[0].GetName())
	assert.Equal(t, "embedded", list.GetCatalogs()[0].GetFormat())

	// An inline catalog goes through the catalog parser cmd gives the server.
	resp, err = s.client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: "modules: [{name: a, releases: [{version: 1.0.0}]}]"},
		Cluster: &modsolverv1.ClusterState{Deckhouse: "1.70.0", Kubernetes: "1.30.0"},
		Request: &modsolverv1.Request{Enable: []string{"a"}},
	})
	require.NoError(t, err)
	assert.Equal(t, modsolverv1.Status_STATUS_RESOLVED, resp.GetStatus())

	assert.Equal(t, exitResolved, s.stop(t))
	logs := s.logs.String()
	assert.Contains(t, logs, "method=/modsolver.v1.Resolver/Resolve code=OK")
	assert.Contains(t, logs, "peer=127.0.0.1:")
	assert.Contains(t, logs, `msg="shutting down"`)
	assert.Contains(t, logs, "msg=stopped")
}

func TestServeJSONLogs(t *testing.T) {
	s := startServe(t, "--listen", "127.0.0.1:0", "--log-format", "json", "--log-level", "DEBUG")
	_, err := s.client.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
	require.NoError(t, err)
	assert.Equal(t, exitResolved, s.stop(t))
	for _, line := range s.logs.all() {
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &rec), "not a JSON record: %s", line)
	}
	assert.Contains(t, s.logs.String(), `"method":"/modsolver.v1.Resolver/ListCatalogs","code":"OK"`)
}

func TestServeReloadsOnSIGHUP(t *testing.T) {
	dir := t.TempDir()
	prod := filepath.Join(dir, "prod.yaml")
	write := func(content string) { require.NoError(t, os.WriteFile(prod, []byte(content), 0o600)) }
	write("modules: [{name: a, releases: [{version: 1.0.0}]}]")
	s := startServe(t, "--listen", "127.0.0.1:0", "--catalog", prod, "--catalog", "demo2=../../catalog/demo/catalog.yaml")
	assert.Contains(t, s.logs.String(), "(catalogs: demo2, prod)")
	modules := func() uint32 {
		list, err := s.client.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
		require.NoError(t, err)
		for _, c := range list.GetCatalogs() {
			if c.GetName() == "prod" {
				assert.True(t, c.GetDefault(), "the first --catalog is the default")
				assert.Equal(t, "modsolver", c.GetFormat())
				return c.GetModules()
			}
		}
		t.Fatal("prod is not served")
		return 0
	}
	require.Equal(t, uint32(1), modules())

	write("modules: [{name: a, releases: [{version: 1.0.0}]}, {name: b, releases: [{version: 2.0.0}]}]")
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGHUP))
	require.Eventually(t, func() bool { return modules() == 2 }, 10*time.Second, 20*time.Millisecond)
	assert.Contains(t, s.logs.String(), "catalogs reloaded")

	write("modules: [{name: a, colour: red}]")
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGHUP))
	require.Eventually(t, func() bool { return strings.Contains(s.logs.String(), "reload failed") }, 10*time.Second, 20*time.Millisecond)
	assert.Equal(t, uint32(2), modules(), "a bad catalog keeps the old set serving")
	assert.Contains(t, s.logs.String(), "colour", "the log says why")

	assert.Equal(t, exitResolved, s.stop(t))
}

func TestServeBadFlags(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	bad := writeTemp(t, "bad.yaml", "modules: [{name: a, releases: [{version: 1.0.0, requirements: {kubernetes: '>= banana'}}]}]")
	tests := []struct {
		name    string
		args    []string
		mention string
	}{
		{"zero timeout", []string{"--timeout", "0s"}, "--timeout"},
		{"zero shutdown timeout", []string{"--shutdown-timeout", "0s"}, "--shutdown-timeout"},
		{"log format", []string{"--log-format", "xml"}, "--log-format"},
		{"log level", []string{"--log-level", "verbose"}, "-log-level"},
		{"request size", []string{"--max-request-bytes", "0"}, "--max-request-bytes"},
		{"argument", []string{"extra"}, `unexpected argument "extra"`},
		{"unknown flag", []string{"--port", "1"}, "-port"},
		{"missing catalog", []string{"--catalog", missing}, "missing.yaml"},
		{"bad catalog", []string{"--catalog", bad}, "banana"},
		{"empty name", []string{"--catalog", "x="}, "NAME=PATH"},
		{"duplicate names", []string{"--catalog", "a=" + bad, "--catalog", "a=" + missing}, `both named "a"`},
		{"priority of no catalog", []string{"--catalog", "a=" + bad, "--catalog-priority", "b=3"}, "no --catalog is named b"},
		{"priority not a number", []string{"--catalog-priority", "a=high"}, "want NAME=N"},
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

func TestServeCannotListen(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer lis.Close()
	r := runCLI(t, "serve", "--listen", lis.Addr().String())
	assert.Equal(t, exitNoAnswer, r.code, r.errOut)
	assert.Contains(t, r.errOut, "modsolver: listen:")
}

func TestServeHelp(t *testing.T) {
	r := runCLI(t, "serve", "--help")
	assert.Equal(t, exitResolved, r.code)
	for _, want := range []string{"--listen", "--catalog", "NAME=PATH", "--timeout", "--max-request-bytes", "--log-format", "--log-level", "--shutdown-timeout", "SIGHUP", "SIGTERM", "NOT_SERVING", "grpc.health.v1", "127.0.0.1:0", "Exit codes"} {
		assert.Contains(t, r.out, want)
	}
	assert.Contains(t, runCLI(t, "help").out, "serve")
}

func TestParseCatalogArg(t *testing.T) {
	tests := []struct {
		arg, name, path string
	}{
		{"prod=/data/prod.yaml", "prod", "/data/prod.yaml"},
		{"/data/dkp", "dkp", "/data/dkp"},
		{"/data/dkp/", "dkp", "/data/dkp/"},
		{"catalogs/prod.yaml", "prod", "catalogs/prod.yaml"},
		{"./a=b/c.json", "c", "./a=b/c.json"},
		{"x=y=z.yaml", "x", "y=z.yaml"},
	}
	for _, tc := range tests {
		got, err := parseCatalogArg(tc.arg)
		require.NoError(t, err, tc.arg)
		assert.Equal(t, catalogSource{name: tc.name, path: tc.path}, got, tc.arg)
	}
	for _, arg := range []string{"", "x=", "/"} {
		_, err := parseCatalogArg(arg)
		assert.Error(t, err, "%q", arg)
	}
}

// TestServeMatchesResolveJSON checks that the gRPC service and
// `modsolver resolve -o json` print the same bytes for every public
// scenario, with the scenario's catalog served by name.
func TestServeMatchesResolveJSON(t *testing.T) {
	files, err := filepath.Glob(shared.Path(t, "scenarios", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var checked int
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			sc, err := catalog.LoadScenario(file)
			if err != nil || sc.Expect.Error {
				return // bad input: nothing to serve
			}
			cli := runCLI(t, "resolve", "--scenario", file, "-o", "json", "--no-timing")
			require.Contains(t, []int{exitResolved, exitUnsatisfiable}, cli.code, cli.errOut)

			client := bufconnClient(t, server.Catalog{Name: "scenario", Source: file, Format: "modsolver", Catalog: sc.Catalog})
			resp, err := client.Resolve(t.Context(), &modsolverv1.ResolveRequest{
				Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "scenario"},
				Cluster: server.ClusterProto(sc.Cluster),
				Request: server.RequestProto(sc.Request),
			})
			require.NoError(t, err)
			resp.GetStats().SolveMicros = 0
			got, err := server.MarshalJSON(resp)
			require.NoError(t, err)
			// The CLI places the request's and the cluster's facts in their
			// files (D421); the service, which reads no file, gives the field.
			assert.Equal(t, string(withoutInputFiles(t, []byte(cli.out))), string(withoutInputFiles(t, got)))
			checked++
		})
	}
	require.NotZero(t, checked)
	assert.Contains(t, files, shared.Path(t, "scenarios", "r2-required-dependency.yaml"))
}

// bufconnClient serves cats in-process and returns a client for them.
func bufconnClient(t *testing.T, cats ...server.Catalog) modsolverv1.ResolverClient {
	t.Helper()
	reg, err := server.NewCatalogs(cats...)
	require.NoError(t, err)
	srv := server.New(reg, server.WithLogger(newLogger(io.Discard, "text", slog.LevelInfo)))
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
	)
	require.NoError(t, err)
	t.Cleanup(func() {
		conn.Close()
		srv.Shutdown(context.Background())
	})
	return modsolverv1.NewResolverClient(conn)
}

// lines collects what serve writes to stderr.
type lines struct {
	mu sync.Mutex
	l  []string
}

func (l *lines) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.l = append(l.l, s)
}

func (l *lines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.l...)
}

func (l *lines) String() string { return strings.Join(l.all(), "\n") }

// The load report of a catalog with notes is logged a note a line, not as
// one line of escaped newlines (D402, finding 23).
func TestServeLogsNotesOneLineEach(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	s := startServe(t, "--listen", "127.0.0.1:0", "--catalog", "dkp="+dkp)
	assert.Equal(t, exitResolved, s.stop(t))
	logs := s.logs.String()
	assert.Contains(t, logs, "catalog loaded with notes")
	assert.GreaterOrEqual(t, strings.Count(logs, "catalog note"), 2, logs)
	for _, line := range s.logs.all() {
		assert.NotContains(t, line, `\n`, "one event a line: %s", line)
		assert.LessOrEqual(t, len(line), 600, "a short line: %s", line)
	}
}
