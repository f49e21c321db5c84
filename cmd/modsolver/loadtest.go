package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/modsolver/modsolver/bench"
	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/loadgen"
	"github.com/modsolver/modsolver/internal/metrics"
	"github.com/modsolver/modsolver/internal/report"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

const loadtestUsage = `Usage:
  modsolver loadtest [--size S|M|L|NxR] [--seed N] [--concurrency N]
                     [--duration D] [--warmup D] [--json] [--cpuprofile FILE]
  modsolver loadtest --addr HOST:PORT [--concurrency N] [--duration D]
                     [--warmup D] [--json] [--cpuprofile FILE]

Measures the throughput and latency of the gRPC service's Resolve calls on
this machine (DESIGN.md §8: on S, at least 2,000 requests/s on 2 cores with
a p99 of at most 10 ms).

By default it starts the service in this process on a free loopback TCP
port (127.0.0.1), serving as its default catalog one generated as 'modsolver
bench' generates it (--size, --seed), with the metrics and the request log
(at info level, written nowhere) that 'modsolver serve' has, dials it with a real gRPC client over
plain TCP, and sends it Resolve calls, update-all and install-one in turn,
both on that catalog's generated cluster state. Client and server run in
the same process and share this machine's cores: the figures are those of
the service on this machine with its client beside it, not of the service
alone.

With --addr it drives a 'modsolver serve' that is already running instead.
It sends the embedded demo catalog's cluster state and request (those of
catalog.DemoState) to that server's default catalog, so that server must
serve the demo catalog first: run 'modsolver serve' without --catalog.
--size and --seed do not apply. A server on this machine still shares its
cores with the client.

The load is a closed loop: --concurrency workers each send one call and
wait for its answer before they send the next, so at most that many calls
are in flight. The default, 2 × GOMAXPROCS, keeps one call queued behind
each running one. --warmup runs the same load first and forgets it; the
measured run then lasts --duration, and the calls in flight at its end are
answered and counted.

Columns:
  REQUESTS       calls answered in the measured run, errors included
  ERRORS         calls that ended with a non-OK gRPC status; their codes are
                 listed below the table
  REQ/S          REQUESTS over the wall time of the measured run
  P50 … P99 MS   latency percentiles of one call, from sending it to its
                 answer (nearest rank, at most 0.8% high, never low)
  MAX MS         the slowest call, exact
  CPU MS/REQ     CPU time of this whole process (client and, without --addr,
                 server) per call; "-" where the system does not report it.
                 On a machine shared with other work it varies less than
                 REQ/S, and 2,000 ms over it is what 2 cores could answer
  STATUSES       answers by status: resolved, unsatisfiable

--json prints {"requests", "errors", "rps", "p50Ms", "p90Ms", "p99Ms",
"maxMs", "wallMs", "cpuMsPerRequest", "concurrency", "resolved",
"unsatisfiable", "errorsByCode"} instead (cpuMsPerRequest left out where
the system does not report CPU time).

The first line names the garbage collector's settings of this process
(GOGC, GOMEMLIMIT), on which the figures depend: deploy/ runs the service
with GOGC=400 and GOMEMLIMIT=435MiB, and a run with the same environment
measures it as deployed (decision D114).

Progress goes to stderr once a second.

--cpuprofile writes a CPU profile of the warm-up and the measured run to
FILE: of the client and, without --addr, of the server beside it.

Exit codes: 0 the run completed (calls that failed are in the report), 2
bad flags, 3 the run could not complete: the server did not start, the
first call failed, or the run was interrupted (what it measured so far is
still printed).

Flags:
`

type loadtestFlags struct {
	addr        string
	size        string
	seed        uint64
	concurrency int
	duration    time.Duration
	warmup      time.Duration
	json        bool
	cpuprofile  string
}

func runLoadtest(ctx context.Context, args []string, out, errOut io.Writer) int {
	f, code, done := parseLoadtestFlags(args, out, errOut)
	if done {
		return code
	}
	t, err := f.target()
	if err != nil {
		return fail(errOut, err)
	}
	defer t.stop()
	if f.cpuprofile != "" {
		stop, err := startCPUProfile(f.cpuprofile)
		if err != nil {
			return fail(errOut, err)
		}
		defer stop()
	}
	rep, err := drive(ctx, t, f.options(errOut))
	if err == nil || rep.Requests > 0 {
		if perr := printLoad(out, f, t, rep); perr != nil {
			return fail(errOut, perr)
		}
	}
	if err != nil {
		return fail(errOut, err)
	}
	return exitResolved
}

func parseLoadtestFlags(args []string, out, errOut io.Writer) (f loadtestFlags, code int, done bool) {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), loadtestUsage); fs.PrintDefaults() }
	fs.StringVar(&f.addr, "addr", "", "drive the running server at `host:port` instead of one started in this process")
	fs.StringVar(&f.size, "size", "S", "generated catalog `size`: S, M, L or NxR")
	fs.Uint64Var(&f.seed, "seed", 1, "generator `seed`")
	intVar(fs, &f.concurrency, "concurrency", loadgen.DefaultConcurrency(), 1, "`workers`, each with one call in flight; 2 × GOMAXPROCS unless set")
	fs.DurationVar(&f.duration, "duration", loadgen.DefaultDuration, "measure for this `duration`")
	fs.DurationVar(&f.warmup, "warmup", time.Second, "first run the same load for this `duration`, unmeasured; 0s for none")
	fs.BoolVar(&f.json, "json", false, "print JSON instead of a table")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to `file`")
	if code, done := parseFlags(fs, args, out, errOut); done {
		return f, code, true
	}
	if err := f.check(fs); err != nil {
		return f, fail(errOut, err), true
	}
	return f, 0, false
}

func (f *loadtestFlags) check(fs *flag.FlagSet) error {
	var set []string
	fs.Visit(func(fl *flag.Flag) { set = append(set, fl.Name) })
	switch {
	case f.addr != "" && (slices.Contains(set, "size") || slices.Contains(set, "seed")):
		return fmt.Errorf("%w: --size and --seed do not apply with --addr", errUsage)
	case f.duration <= 0:
		return fmt.Errorf("%w: --duration %s: want a positive duration", errUsage, f.duration)
	case f.warmup < 0:
		return fmt.Errorf("%w: --warmup %s: want 0s or more", errUsage, f.warmup)
	}
	if f.addr == "" {
		_, err := bench.ParseSize(f.size)
		return err
	}
	return nil
}

func (f *loadtestFlags) options(errOut io.Writer) []loadgen.Option {
	return []loadgen.Option{
		loadgen.WithConcurrency(f.concurrency),
		loadgen.WithDuration(f.duration),
		loadgen.WithWarmup(f.warmup),
		loadgen.WithProgress(time.Second, func(p loadgen.Progress) {
			fmt.Fprintf(errOut, "loadtest: %s: %d requests, %d errors\n", p.Elapsed.Round(time.Second), p.Requests, p.Errors)
		}),
	}
}

// loadTarget is the server a load test drives, and what it sends it.
type loadTarget struct {
	addr  string
	about string
	reqs  []*modsolverv1.ResolveRequest
	stop  func()
}

func (f *loadtestFlags) target() (*loadTarget, error) {
	if f.addr != "" {
		return remoteTarget(f.addr)
	}
	size, err := bench.ParseSize(f.size)
	if err != nil {
		return nil, err
	}
	return localTarget(size, f.seed)
}

// remoteTarget sends the demo cluster and request to the default catalog
// of the server at addr.
func remoteTarget(addr string) (*loadTarget, error) {
	cluster, req, err := catalog.DemoState()
	if err != nil {
		return nil, err
	}
	return &loadTarget{
		addr:  addr,
		about: "server at " + addr + ", demo cluster and request",
		reqs:  []*modsolverv1.ResolveRequest{resolveRequest("", server.ClusterProto(cluster), req)},
		stop:  func() {},
	}, nil
}

// localTarget serves a generated catalog in this process on a loopback
// port, and sends it update-all and install-one in turn. The server is
// set up as 'modsolver serve --metrics-listen' sets it up, with its gRPC
// and domain metrics and its request log at the default level, written
// nowhere: the figures include what a deployed service spends on them.
func localTarget(size bench.Size, seed uint64) (*loadTarget, error) {
	in := bench.Generate(size, seed)
	const name = "generated"
	reg, err := server.NewCatalogs(server.Catalog{Name: name, Source: fmt.Sprintf("size %s, seed %d", size.Name, seed), Format: "generated", Catalog: in.Catalog})
	if err != nil {
		return nil, err
	}
	m := metrics.New(version, reg.ReleaseCounts)
	srv := server.New(reg, server.WithLogger(newLogger(io.Discard, "text", slog.LevelInfo)),
		server.WithServerOptions(m.ServerOptions()...), server.WithObserver(m))
	m.InitializeGRPC(srv.GRPC())
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	cluster := server.ClusterProto(in.Cluster)
	return &loadTarget{
		addr:  lis.Addr().String(),
		about: fmt.Sprintf("in-process server on %s, %s (%d modules × %d releases, seed %d), update-all and install-one", lis.Addr(), size.Name, size.Modules, size.Releases, seed),
		reqs:  []*modsolverv1.ResolveRequest{resolveRequest(name, cluster, in.UpdateAll()), resolveRequest(name, cluster, in.InstallOne())},
		stop:  func() { stopServer(srv, served) },
	}, nil
}

func stopServer(srv *server.Server, served <-chan error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(ctx)
	<-served
}

func resolveRequest(catalogName string, cluster *modsolverv1.ClusterState, req *model.Request) *modsolverv1.ResolveRequest {
	out := &modsolverv1.ResolveRequest{Cluster: cluster, Request: server.RequestProto(req)}
	if catalogName != "" {
		out.Catalog = &modsolverv1.ResolveRequest_CatalogName{CatalogName: catalogName}
	}
	return out
}

// drive dials the target, checks that it answers one call, and runs the
// load.
func drive(ctx context.Context, t *loadTarget, opts []loadgen.Option) (loadgen.Report, error) {
	conn, err := grpc.NewClient(t.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return loadgen.Report{}, fmt.Errorf("dial %s: %w", t.addr, err)
	}
	defer conn.Close()
	client := modsolverv1.NewResolverClient(conn)
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	_, err = client.Resolve(pctx, t.reqs[0])
	cancel()
	if err != nil {
		return loadgen.Report{}, fmt.Errorf("first call to %s: %w", t.addr, err)
	}
	return loadgen.Run(ctx, client, t.reqs, opts...)
}

func printLoad(out io.Writer, f loadtestFlags, t *loadTarget, rep loadgen.Report) error {
	if f.json {
		return printLoadJSON(out, rep)
	}
	fmt.Fprintf(out, "%s; concurrency %d, %s after a %s warm-up; %s\n", t.about, rep.Concurrency, f.duration, f.warmup, gcSettings())
	err := report.Columns(out, [][]string{
		{"REQUESTS", "ERRORS", "REQ/S", "P50 MS", "P90 MS", "P99 MS", "MAX MS", "CPU MS/REQ", "STATUSES"},
		{fmt.Sprint(rep.Requests), fmt.Sprint(rep.Errors), fmt.Sprintf("%.0f", rep.RPS()),
			millis(rep.Latency.P50), millis(rep.Latency.P90), millis(rep.Latency.P99), millis(rep.Latency.Max), cpuPerRequest(rep),
			fmt.Sprintf("resolved %d, unsatisfiable %d", rep.Statuses.Resolved, rep.Statuses.Unsatisfiable)},
	})
	if err == nil && rep.Errors > 0 {
		_, err = fmt.Fprintf(out, "errors: %s\n", strings.Join(errorCodes(rep), ", "))
	}
	return err
}

// gcSettings names the garbage collector's settings of this process,
// which the figures depend on (D114): the deployment in deploy/ sets
// GOGC and GOMEMLIMIT, and a run with the same values measures the
// service as it is deployed.
func gcSettings() string {
	gogc, limit := os.Getenv("GOGC"), os.Getenv("GOMEMLIMIT")
	if gogc == "" {
		gogc = "100 (default)"
	}
	if limit == "" {
		limit = "none"
	}
	return fmt.Sprintf("GOGC %s, GOMEMLIMIT %s", gogc, limit)
}

// cpuPerRequest is the CPU MS/REQ cell: milliseconds to two decimals,
// or "-" when the CPU time is unknown.
func cpuPerRequest(rep loadgen.Report) string {
	if rep.CPUPerRequest() == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(rep.CPUPerRequest())/float64(time.Millisecond))
}

// errorCodes lists the error counts as "Code N", by code.
func errorCodes(rep loadgen.Report) []string {
	var out []string
	for code, n := range rep.ErrorsByCode {
		out = append(out, fmt.Sprintf("%s %d", code, n))
	}
	slices.Sort(out)
	return out
}

// loadResult is the --json form of a report.
type loadResult struct {
	Requests      int            `json:"requests"`
	Errors        int            `json:"errors"`
	RPS           float64        `json:"rps"`
	P50Ms         float64        `json:"p50Ms"`
	P90Ms         float64        `json:"p90Ms"`
	P99Ms         float64        `json:"p99Ms"`
	MaxMs         float64        `json:"maxMs"`
	WallMs        float64        `json:"wallMs"`
	CPUMsPerReq   float64        `json:"cpuMsPerRequest,omitempty"`
	Concurrency   int            `json:"concurrency"`
	Resolved      int            `json:"resolved"`
	Unsatisfiable int            `json:"unsatisfiable"`
	ErrorsByCode  map[string]int `json:"errorsByCode,omitempty"`
}

func printLoadJSON(out io.Writer, rep loadgen.Report) error {
	ms := func(d time.Duration) float64 { return round(float64(d)/float64(time.Millisecond), 3) }
	r := loadResult{Requests: rep.Requests, Errors: rep.Errors, RPS: round(rep.RPS(), 1),
		P50Ms: ms(rep.Latency.P50), P90Ms: ms(rep.Latency.P90), P99Ms: ms(rep.Latency.P99), MaxMs: ms(rep.Latency.Max),
		WallMs: ms(rep.Wall), CPUMsPerReq: ms(rep.CPUPerRequest()), Concurrency: rep.Concurrency,
		Resolved: rep.Statuses.Resolved, Unsatisfiable: rep.Statuses.Unsatisfiable}
	for code, n := range rep.ErrorsByCode {
		if r.ErrorsByCode == nil {
			r.ErrorsByCode = map[string]int{}
		}
		r.ErrorsByCode[code.String()] = n
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", data)
	return err
}
