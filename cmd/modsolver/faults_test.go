package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/internal/loadgen"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
	"github.com/modsolver/modsolver/solver"
)

// Faults under load: each test runs the real serve command on a loopback
// port, drives it with the load generator (internal/loadgen) and injects
// one fault: reloads, a shutdown, a client that goes away, deadlines.
// Each logs the load it held.

// demoLoad is the load generator's request: the demo cluster and request,
// on the catalog served as "demo".
func demoLoad(t *testing.T) []*modsolverv1.ResolveRequest {
	t.Helper()
	cluster, req, err := catalog.DemoState()
	require.NoError(t, err)
	return []*modsolverv1.ResolveRequest{{
		Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "demo"},
		Cluster: server.ClusterProto(cluster),
		Request: server.RequestProto(req),
	}}
}

// load is a load generator run in the background.
type load struct {
	cancel context.CancelFunc
	done   chan struct{}
	rep    loadgen.Report
}

// startLoad drives client with reqs from concurrency workers until stop.
func startLoad(client modsolverv1.ResolverClient, reqs []*modsolverv1.ResolveRequest, concurrency int) *load {
	ctx, cancel := context.WithCancel(context.Background())
	l := &load{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(l.done)
		// A run of an hour ends when stop cancels it; what it measured
		// until then is its report.
		l.rep, _ = loadgen.Run(ctx, client, reqs, loadgen.WithConcurrency(concurrency), loadgen.WithDuration(time.Hour))
	}()
	return l
}

// stop ends the load and returns what it measured.
func (l *load) stop() loadgen.Report {
	l.cancel()
	<-l.done
	return l.rep
}

func logLoad(t *testing.T, what string, rep loadgen.Report) {
	t.Helper()
	t.Logf("%s: held %.0f requests/s at concurrency %d (%d calls in %s, p99 %s, errors %v)",
		what, rep.RPS(), rep.Concurrency, rep.Requests, rep.Wall.Round(time.Millisecond), rep.Latency.P99, rep.ErrorsByCode)
}

// hardModules is the length of hardCatalog's chain in the fault tests:
// long enough that its update-all outlasts their deadlines and grace
// periods (more than 2 s on two cores beside the load generator).
const hardModules = 800

// hardCatalog writes the catalog of solver/cancel_test.go's hard problem:
// a chain of modules × releases in which update-all under strategy direct
// takes thousands of solves. It returns the file and a request for it,
// on the catalog served as "hard".
func hardCatalog(t *testing.T, modules, releases int) (string, *modsolverv1.ResolveRequest) {
	t.Helper()
	name := func(i int) string { return fmt.Sprintf("m%03d", i) }
	var b strings.Builder
	b.WriteString("modules:\n")
	states := map[string]model.ModuleState{}
	for i := range modules {
		fmt.Fprintf(&b, "  - name: %s\n    releases:\n", name(i))
		for j := range releases {
			var deps []string
			if i+1 < modules {
				deps = append(deps, fmt.Sprintf("%s: '>= 1.%d'", name(i+1), j/2))
			}
			if i+2 < modules {
				deps = append(deps, fmt.Sprintf("%s: '<= 1.%d !optional'", name(i+2), releases-j))
			}
			fmt.Fprintf(&b, "      - {version: 1.%d.0, requirements: {modules: {%s}}}\n", j, strings.Join(deps, ", "))
		}
		states[name(i)] = fixture.Enabled("1.0.0")
	}
	path := writeTemp(t, "hard.yaml", b.String())
	return path, &modsolverv1.ResolveRequest{
		Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: "hard"},
		Cluster: server.ClusterProto(fixture.Cluster(states)),
		Request: &modsolverv1.Request{UpdateAll: true, Strategy: "direct"},
	}
}

// checkingClient is a client whose every Resolve answer is also passed to
// check.
type checkingClient struct {
	modsolverv1.ResolverClient
	check func(*modsolverv1.ResolveResponse, error)
}

func (c checkingClient) Resolve(ctx context.Context, in *modsolverv1.ResolveRequest, opts ...grpc.CallOption) (*modsolverv1.ResolveResponse, error) {
	resp, err := c.ResolverClient.Resolve(ctx, in, opts...)
	if ctx.Err() == nil {
		c.check(resp, err)
	}
	return resp, err
}

// generation is a catalog of five modules, each at version 1.gen.0, and
// a request that enables them all: its answer names gen in every module.
func generation(gen int) string {
	var b strings.Builder
	b.WriteString("modules:\n")
	fmt.Fprintf(&b, "  - {name: a, releases: [{version: 1.%d.0}]}\n", gen)
	for _, m := range []string{"b", "c", "d", "e"} {
		fmt.Fprintf(&b, "  - {name: %s, releases: [{version: 1.%d.0, requirements: {modules: {a: '>= 1.%d'}}}]}\n", m, gen, gen)
	}
	return b.String()
}

// TestFaultReloadUnderLoad reloads the served catalog with SIGHUP every
// 100 ms, flipping it between two generations, while the load generator
// sends Resolve calls: no call fails, and each answer is wholly the one
// of generation 1 or of generation 2.
func TestFaultReloadUnderLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen.yaml")
	write := func(gen int) { // a rename, as a mounted ConfigMap changes
		tmp := path + ".tmp"
		require.NoError(t, os.WriteFile(tmp, []byte(generation(gen)), 0o600))
		require.NoError(t, os.Rename(tmp, path))
	}
	write(1)
	s := startServe(t, "--listen", "127.0.0.1:0", "--catalog", "gen="+path, "--max-inflight", "2", "--max-queued", "2")

	in := &modsolverv1.ResolveRequest{
		Cluster: &modsolverv1.ClusterState{Deckhouse: "1.73.0", Kubernetes: "1.30.0"},
		Request: &modsolverv1.Request{Enable: []string{"a", "b", "c", "d", "e"}},
	}
	want := map[int]*modsolverv1.ResolveResponse{}
	for _, gen := range []int{1, 2} {
		cat, _, err := catalog.Parse("gen.yaml", []byte(generation(gen)))
		require.NoError(t, err)
		cluster, req := &model.ClusterState{Deckhouse: model.MustParseVersion("1.73.0"), Kubernetes: model.MustParseVersion("1.30.0")}, &model.Request{Enable: []string{"a", "b", "c", "d", "e"}}
		res, err := solver.Solve(context.Background(), cat, cluster, req)
		require.NoError(t, err)
		want[gen] = server.Response(res)
		want[gen].Stats.SolveMicros = 0
	}
	var seen [3]atomic.Int64 // by generation; 0: neither
	check := func(resp *modsolverv1.ResolveResponse, err error) {
		if err != nil {
			return // counted by the load generator
		}
		resp = proto.CloneOf(resp)
		resp.Stats.SolveMicros = 0
		switch {
		case proto.Equal(resp, want[1]):
			seen[1].Add(1)
		case proto.Equal(resp, want[2]):
			seen[2].Add(1)
		default:
			seen[0].Add(1)
		}
	}

	l := startLoad(checkingClient{s.client, check}, []*modsolverv1.ResolveRequest{in}, 4)
	reloads := 0
	for gen := 2; reloads < 20; gen = 3 - gen {
		time.Sleep(100 * time.Millisecond)
		write(gen)
		require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGHUP))
		reloads++
	}
	time.Sleep(100 * time.Millisecond)
	rep := l.stop()
	logLoad(t, "SIGHUP every 100 ms", rep)

	assert.Zero(t, rep.Errors, "no call fails: %v", rep.ErrorsByCode)
	assert.Positive(t, rep.Requests)
	assert.Zero(t, seen[0].Load(), "an answer that is neither generation's")
	assert.Positive(t, seen[1].Load(), "answers of generation 1")
	assert.Positive(t, seen[2].Load(), "answers of generation 2")
	done := strings.Count(s.logs.String(), "catalogs reloaded")
	assert.GreaterOrEqual(t, done, reloads/2, "most signals reload (several may arrive as one)")
	assert.NotContains(t, s.logs.String(), "reload failed")
	t.Logf("%d SIGHUPs, %d reloads; answers: %d of generation 1, %d of generation 2", reloads, done, seen[1].Load(), seen[2].Load())
}

// TestFaultSIGTERMUnderLoad sends the process a real SIGTERM, which serve
// receives as main wires it, while the load generator runs and two long
// solves are in flight: every call ends with its answer or UNAVAILABLE,
// and serve returns within --shutdown-timeout (the long solves hold it
// that long, then are cancelled).
func TestFaultSIGTERMUnderLoad(t *testing.T) {
	hard, hardReq := hardCatalog(t, hardModules, 20)
	const grace = 2 * time.Second
	s := startServe(t, "--listen", "127.0.0.1:0", "--catalog", "demo=../../catalog/demo/catalog.yaml", "--catalog", "hard="+hard,
		"--shutdown-timeout", grace.String(), "--max-inflight", "4", "--max-queued", "4")
	sigCtx, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stopSignals()
	go func() { <-sigCtx.Done(); s.cancel() }() // main's wiring: the signal ends serve's context

	loadStart := time.Now()
	l := startLoad(s.client, demoLoad(t), 4)
	hardCodes := make(chan codes.Code, 2)
	for range 2 {
		go func() {
			_, err := s.client.Resolve(context.Background(), hardReq)
			hardCodes <- status.Code(err)
		}()
	}
	time.Sleep(time.Second)
	sent := time.Now()
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	var code int
	select {
	case code = <-s.code:
		s.code <- code
	case <-time.After(grace + 10*time.Second):
		t.Fatal("serve did not stop")
	}
	took := time.Since(sent)
	rep := l.stop()
	logLoad(t, "SIGTERM", rep)
	t.Logf("before SIGTERM: %.0f answers/s at concurrency %d; serve returned %s after SIGTERM (--shutdown-timeout %s); the calls after it were refused fast",
		float64(rep.Statuses.Resolved)/sent.Sub(loadStart).Seconds(), rep.Concurrency, took.Round(time.Millisecond), grace)

	assert.Equal(t, exitResolved, code)
	assert.Less(t, took, grace+time.Second, "serve stops within --shutdown-timeout")
	assert.Positive(t, rep.Statuses.Resolved)
	for c := range rep.ErrorsByCode {
		assert.Equal(t, codes.Unavailable, c, "a call ends with its answer or UNAVAILABLE: %v", rep.ErrorsByCode)
	}
	// The long solves outlast the grace period on most machines, and are
	// then cut off; a fast one may answer within it.
	cut := 0
	for range 2 {
		code := <-hardCodes
		assert.Contains(t, []codes.Code{codes.OK, codes.Unavailable}, code, "a long solve")
		if code == codes.Unavailable {
			cut++
		}
	}
	if cut > 0 {
		assert.Contains(t, s.logs.String(), "graceful stop timed out")
	}
	t.Logf("%d of 2 long solves were cut off at the end of the grace period", cut)
}

// TestFaultWhatIfClientDisconnects closes a client's connection in the
// middle of a WhatIf batch of long scenarios, under load: the server's
// handler returns soon after, the goroutines return to their count before
// the batch, and once serve stops none of its goroutines is left.
func TestFaultWhatIfClientDisconnects(t *testing.T) {
	before := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, before) }) // runs last, once serve has stopped
	hard, hardReq := hardCatalog(t, hardModules, 20)
	s := startServe(t, "--listen", "127.0.0.1:0", "--catalog", "demo=../../catalog/demo/catalog.yaml", "--catalog", "hard="+hard,
		"--max-inflight", "4", "--max-queued", "4")
	_, err := s.client.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{}) // the load's connection is up
	require.NoError(t, err)
	baseline := runtime.NumGoroutine()

	l := startLoad(s.client, demoLoad(t), 2)
	conn, err := grpc.NewClient(s.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	scenarios := []*modsolverv1.Scenario{{Name: "quick", Request: &modsolverv1.Request{}}}
	for i := range 8 {
		scenarios = append(scenarios, &modsolverv1.Scenario{Name: fmt.Sprintf("hard-%d", i), Request: hardReq.GetRequest()})
	}
	stream, err := modsolverv1.NewResolverClient(conn).WhatIf(context.Background(), &modsolverv1.WhatIfRequest{
		Catalog: &modsolverv1.WhatIfRequest_CatalogName{CatalogName: "hard"}, Cluster: hardReq.GetCluster(), Scenarios: scenarios,
	})
	require.NoError(t, err)
	first, err := stream.Recv()
	require.NoError(t, err)
	require.Equal(t, "quick", first.GetName())
	time.Sleep(200 * time.Millisecond) // the long scenarios are being solved
	closed := time.Now()
	require.NoError(t, conn.Close())

	whatIfEnded := func() bool {
		return strings.Contains(s.logs.String(), "method=/modsolver.v1.Resolver/WhatIf code=Canceled")
	}
	require.Eventually(t, whatIfEnded, 10*time.Second, 5*time.Millisecond, "the batch goes on after its client left:\n%s", s.logs)
	t.Logf("the WhatIf handler returned %s after its client disconnected", time.Since(closed).Round(time.Millisecond))
	rep := l.stop()
	logLoad(t, "WhatIf client disconnect", rep)
	assert.Zero(t, rep.Errors, "the other calls go on: %v", rep.ErrorsByCode)

	// No goroutine is left in the solver or a handler, and the count is
	// back to what it was, but for the odd goroutine gRPC starts lazily;
	// goleak checks every one once serve has stopped.
	var now, solving int
	ok := assert.Eventually(t, func() bool {
		now, solving = runtime.NumGoroutine(), solvingGoroutines()
		return solving == 0 && now <= baseline+2
	}, 10*time.Second, 10*time.Millisecond, "goroutines: %d before the batch", baseline)
	if !ok {
		buf := make([]byte, 1<<20)
		t.Logf("%s", buf[:runtime.Stack(buf, true)])
	}
	t.Logf("goroutines: %d before the batch, %d after, %d in the solver or a handler", baseline, now, solving)
}

// solvingGoroutines counts the goroutines in the solver or in a
// Resolver handler.
func solvingGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "github.com/modsolver/modsolver/solver.") || strings.Contains(g, "github.com/modsolver/modsolver/server.(*resolver)") {
			count++
		}
	}
	return count
}

// resolveLine reads a Resolve call's code, duration and peer from
// serve's log.
var resolveLine = regexp.MustCompile(`method=/modsolver\.v1\.Resolver/Resolve code=(\w+) duration=(\S+) peer=(\S+)`)

// headerWatch is a client stats handler that notes the local address
// from which a call's headers were sent: the peer the server logs.
type headerWatch struct{ local atomic.Pointer[string] }

func (h *headerWatch) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }
func (h *headerWatch) HandleRPC(_ context.Context, s stats.RPCStats) {
	if out, ok := s.(*stats.OutHeader); ok && out.LocalAddr != nil {
		addr := out.LocalAddr.String()
		h.local.Store(&addr)
	}
}
func (h *headerWatch) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }
func (h *headerWatch) HandleConn(context.Context, stats.ConnStats)                       {}

// servedCalls reads serve's log lines of Resolve calls: code and
// duration by peer.
func servedCalls(t *testing.T, s *served) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, m := range resolveLine.FindAllStringSubmatch(s.logs.String(), -1) {
		out[m[3]] = m[1:3]
	}
	return out
}

// TestFaultDeadlines sends long Resolve calls, each on a connection of its
// own, with deadlines from 1 ms up to none at all (the server's --timeout)
// while the load generator runs,
// and demo calls with deadlines alongside: each call ends with its
// answer or DEADLINE_EXCEEDED, at the client and at the server soon after
// its deadline, and once the load stops the process's CPU use drops.
func TestFaultDeadlines(t *testing.T) {
	hard, hardReq := hardCatalog(t, hardModules, 20)
	const timeout = 2 * time.Second
	s := startServe(t, "--listen", "127.0.0.1:0", "--catalog", "demo=../../catalog/demo/catalog.yaml", "--catalog", "hard="+hard,
		"--timeout", timeout.String(), "--max-inflight", "4", "--max-queued", "4")
	l := startLoad(s.client, demoLoad(t), 2)

	// Demo calls with deadlines, beside the load.
	var short sync.WaitGroup
	shortCtx, stopShort := context.WithCancel(context.Background())
	var shortCodes sync.Map
	var shortCalls atomic.Int64
	short.Go(func() {
		deadlines := []time.Duration{time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond}
		for i := 0; shortCtx.Err() == nil; i++ {
			ctx, cancel := context.WithTimeout(shortCtx, deadlines[i%len(deadlines)])
			_, err := s.client.Resolve(ctx, demoLoad(t)[0])
			cancel()
			if shortCtx.Err() == nil {
				shortCalls.Add(1)
				n, _ := shortCodes.LoadOrStore(status.Code(err), new(atomic.Int64))
				n.(*atomic.Int64).Add(1)
			}
		}
	})

	type call struct {
		deadline, limit, took time.Duration
		code                  codes.Code
		peer                  string
	}
	var calls []call
	for _, d := range []time.Duration{time.Millisecond, 3 * time.Millisecond, 10 * time.Millisecond, 30 * time.Millisecond,
		100 * time.Millisecond, 300 * time.Millisecond, time.Second, 0} {
		// Each call has a connection of its own, made ready first, so
		// that the server's log line names it by its peer address.
		watch := &headerWatch{}
		conn, err := grpc.NewClient(s.addr, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithStatsHandler(watch))
		require.NoError(t, err)
		_, err = modsolverv1.NewResolverClient(conn).ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
		require.NoError(t, err)
		c := call{deadline: d, limit: timeout} // no deadline: the server's --timeout
		ctx, cancel := context.WithCancel(context.Background())
		if d > 0 {
			ctx, cancel = context.WithTimeout(context.Background(), d)
			c.limit = d
		}
		start := time.Now()
		_, err = modsolverv1.NewResolverClient(conn).Resolve(ctx, hardReq)
		c.took, c.code = time.Since(start), status.Code(err)
		cancel()
		if peer := watch.local.Load(); peer != nil {
			c.peer = *peer
		}
		require.NoError(t, conn.Close())
		assert.Contains(t, []codes.Code{codes.OK, codes.DeadlineExceeded}, c.code, "deadline %s: %v", d, err)
		assert.Less(t, c.took, c.limit+time.Second, "deadline %s: the client waited %s", d, c.took)
		calls = append(calls, c)
	}
	stopShort()
	short.Wait()
	rep := l.stop()
	logLoad(t, "deadlines", rep)
	assert.Zero(t, rep.Errors, "the load's calls have no deadline: %v", rep.ErrorsByCode)
	shortCodes.Range(func(k, v any) bool {
		t.Logf("demo calls with deadlines of 1-100 ms: %s ×%d", k, v.(*atomic.Int64).Load())
		assert.Contains(t, []codes.Code{codes.OK, codes.DeadlineExceeded}, k)
		return true
	})
	assert.Positive(t, shortCalls.Load())

	// Once every call has ended, the solver stops too: the process's CPU
	// time grows by less than a quarter of a core.
	var rate float64
	require.Eventually(t, func() bool {
		rate = cpuRate(250 * time.Millisecond)
		return rate < 0.25
	}, 10*time.Second, time.Millisecond, "CPU use stays high after the calls ended")
	t.Logf("CPU after the calls: %.2f cores", rate)

	// The server's handler of each call returned soon after its deadline.
	// A call cancelled in its first milliseconds may never reach one.
	served := servedCalls(t, s)
	for _, c := range calls {
		name := "none"
		if c.deadline > 0 {
			name = c.deadline.String()
		}
		line, ok := served[c.peer]
		if !ok && c.code == codes.OK {
			// A call answered OK logs at debug (D113): its handler ran.
			t.Logf("deadline %-6s: client OK after %s; answered in time", name, c.took.Round(time.Millisecond))
			continue
		}
		if !ok {
			assert.LessOrEqual(t, c.deadline, 30*time.Millisecond, "deadline %s: no handler ran", name)
			t.Logf("deadline %-6s: client %s after %s; cancelled before a handler ran", name, c.code, c.took.Round(time.Millisecond))
			continue
		}
		took, err := time.ParseDuration(line[1])
		require.NoError(t, err)
		assert.Contains(t, []string{"OK", "DeadlineExceeded", "Canceled"}, line[0])
		assert.Less(t, took, c.limit+2*time.Second, "deadline %s: the server worked on for %s", name, took)
		t.Logf("deadline %-6s: client %s after %s; server %s after %s", name, c.code, c.took.Round(time.Millisecond), line[0], took.Round(time.Millisecond))
	}
}

// cpuRate measures the process's CPU use, in cores, over d.
func cpuRate(d time.Duration) float64 {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return 0
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	before, start := cpu(), time.Now()
	time.Sleep(d)
	return float64(cpu()-before) / float64(time.Since(start))
}
