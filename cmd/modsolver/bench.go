package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/modsolver/modsolver/bench"
	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/report"
	"github.com/modsolver/modsolver/model"
)

const benchUsage = `Usage:
  modsolver bench [--size S|M|L|NxR]... [--seed N] [--loops N [--loop-rule R]]
                  [--runs N] [--cases a,b]
                  [--vs deppy|deppy-pruned|libsolv[,…]] [--timeout D] [--deppy-timeout D]
                  [--catalog PATH] [--json] [--cpuprofile FILE]

Measures modsolver on seeded, generated catalogs and on a real DKP tree,
optionally side by side with operator-framework/deppy v0.3.0 and with
libsolv (Debian's 0.7.23) in the same process, and prints one row per case
and size.

Sizes (DESIGN.md §8): S is 100 modules × 20 releases, M 2,000 × 30, L
10,000 × 50, and NxR is N modules × R releases. --size may repeat (default
S). The same --seed gives the same catalogs and cluster states. --loops N
adds N dependency loops the catalog refuses (R27) to each generated
catalog: the releases of a required module newer than the deployed one
require an enabled dependent back, so that its updates meet the loops;
--loop-rule allow marks the same catalog as one that allows loops, which
answers as if loops were not checked, for comparison.

Cases (--cases, comma-separated; default all, resolve-dkp only with --catalog):
  compile           compile the catalog (solver.Compile), as serve does once
                    per load; the other cases solve on the compiled catalog
  update-all        every enabled module may update (updateAll)
  install-one       enable one module that is off, with autoEnable
  install-one-changes
                    install-one with report: changes (only changes listed)
  platform-upgrade  update-all on a newer DKP and Kubernetes
  unsatisfiable     a request with no answer, explained by a minimal core
                    (suggestions are not verified)
  unsatisfiable-suggest
                    unsatisfiable with its suggestions verified
  unsatisfiable-combined
                    a request no single change fixes: a module pinned to a
                    head that needs a newer DKP and newer releases of what
                    it requires, answered with a set of changes verified
                    as a whole
  whatif-1000       1,000 platform scenarios in one what-if batch, in total,
                    as the whatif matrix computes them (no held-back reasons)
  resolve-dkp       the runs on the real catalog at --catalog (any format):
                    on a DKP tree such as ../shared/data/dkp, update-all with a
                    representative cluster, and route-dkp: the same cluster
                    on DKP 1.73 asking for DKP 1.78 on Kubernetes 1.33, a
                    route of seven steps (R33); on an OLM or Helm catalog such as
                    ../shared/data/helm/bitnami-index.yaml, update-all and
                    install-one on a cluster built by installing its modules
                    one by one at older releases (Kubernetes 1.31.0, OpenShift
                    4.20); deppy runs only where its translation carries the
                    catalog's rules (not on OLM's capabilities)

Columns:
  MODSOLVER MS, DEPPY MS  median of --runs timed runs, after --warmup
  RATIO                   deppy's time over modsolver's
  CHANGES MS              (--vs libsolv) modsolver with report: changes
  LIBSOLV SOLVE MS        (--vs libsolv) libsolv's solver_solve alone
  LIBSOLV MS              (--vs libsolv) libsolv's whole pipeline as a
                          service runs it, its pool held: the pruning
                          (solver.NewDomains, the considered map), the
                          request's installed repo, createwhatprovides,
                          the solve, the transaction and its install order
  LIBSOLV REBUILT MS      (--vs libsolv) the same, translating the whole
                          pool from Go values again for each request
  VARIABLES, CLAUSES      the size of modsolver's encoding (its answer's stats)
  PEAK MIB                peak memory the process holds from the OS during
                          modsolver's runs, sampled every millisecond, with
                          the catalog
  CHECKED                 ok when every answer passed its check: modsolver's
                          with the independent checker (R1–R13, R18, shape),
                          deppy's and libsolv's with what their translations
                          can honour (the same without the plan, and the
                          same status)

--vs deppy translates each request to deppy: one variable per release, the
releases a module's own rules forbid (platform, channel head, no downgrade,
update steps, pins) marked Prohibited. --vs deppy-pruned leaves those
releases out instead, which gives deppy a much smaller problem. deppy has
no preferences beyond "newest candidate first", so its answers may differ
from modsolver's; the differences are counted below the table.

--vs libsolv translates the catalog to a libsolv pool (docs/decisions.md,
D300–D309, D425): releases are solvables, ranges are requires joined by
"with", optional ranges negated conflicts, the platform locked packages.
As a service built on libsolv does, it writes the catalog once as a .solv
repo, loads it into a pool it holds, and per request adds the installed
repo (the deployed releases) and the considered map (the releases a
module's own rules leave, from solver.NewDomains). It runs on every case
but compile and the what-if batch, and needs a binary built with libsolv:
make bench builds one (go build -tags libsolv, with Debian's libsolv-dev).
--vs takes several peers, comma-separated, such as deppy,libsolv.

A modsolver run longer than --timeout, or a deppy run longer than
--deppy-timeout, is reported as a timeout, with the number of requests
answered in time for a what-if batch, and not repeated; deppy does not run
where modsolver timed out, as there is no answer to check it against.

Progress goes to stderr, at most once a second.

Exit codes: 0 every answer checked, 1 some answer failed its check, 2 bad
input, 3 no answer (interrupted).

Flags:
`

type benchFlags struct {
	sizes        sizeList
	seed         uint64
	loops        int
	loopRule     string
	runs         int
	warmUp       time.Duration
	cases        string
	vs           string
	timeout      time.Duration
	deppyTimeout time.Duration
	catalog      string
	json         bool
	cpuprofile   string
}

// sizeList collects repeated --size flags.
type sizeList []string

func (s *sizeList) String() string     { return strings.Join(*s, ",") }
func (s *sizeList) Set(v string) error { *s = append(*s, v); return nil }

func runBench(ctx context.Context, args []string, out, errOut io.Writer) int {
	var f benchFlags
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), benchUsage); fs.PrintDefaults() }
	fs.Var(&f.sizes, "size", "catalog `size`: S, M, L or NxR; repeat for several (default S)")
	fs.Uint64Var(&f.seed, "seed", 1, "generator `seed`")
	intVar(fs, &f.loops, "loops", 0, 0, "dependency loops to add to each generated catalog (`count`)")
	fs.StringVar(&f.loopRule, "loop-rule", "refuse", "the generated catalog's dependencyLoops with --loops: refuse or allow")
	intVar(fs, &f.runs, "runs", 5, 1, "timed `runs` per solver and case, after the warm-up")
	fs.DurationVar(&f.warmUp, "warmup", 500*time.Millisecond, "warm-up before each solver's timed runs: one run, and more until this `duration` has passed (0: one run)")
	fs.StringVar(&f.cases, "cases", "", "`cases` to run, comma-separated (default all)")
	fs.StringVar(&f.vs, "vs", "", "`peers` to compare with, comma-separated: deppy or deppy-pruned, libsolv")
	fs.DurationVar(&f.timeout, "timeout", bench.DefaultTimeout, "cap on one modsolver run (`duration`)")
	fs.DurationVar(&f.deppyTimeout, "deppy-timeout", bench.DefaultDeppyTimeout, "cap on one deppy run (`duration`)")
	fs.StringVar(&f.catalog, "catalog", "", "catalog `path` for resolve-dkp, such as ../shared/data/dkp")
	fs.BoolVar(&f.json, "json", false, "print JSON instead of a table")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a CPU profile of the runs to `file`")
	if code, done := parseFlags(fs, args, out, errOut); done {
		return code
	}
	p, err := f.plan()
	if err != nil {
		return fail(errOut, err)
	}
	if f.cpuprofile != "" {
		stop, err := startCPUProfile(f.cpuprofile)
		if err != nil {
			return fail(errOut, err)
		}
		defer stop()
	}
	outcomes, err := p.run(ctx, errOut)
	if err != nil {
		return fail(errOut, err)
	}
	if !f.json {
		printBenchTable(out, p, outcomes)
	} else if err := printBenchJSON(out, outcomes); err != nil {
		return fail(errOut, err)
	}
	for _, o := range outcomes {
		if o.Failed() {
			return exitUnsatisfiable
		}
	}
	return exitResolved
}

// benchPlan is a validated command line: what to generate and run.
type benchPlan struct {
	sizes   []bench.Size
	seed    uint64
	loops   int
	rule    model.LoopRule
	cases   []string
	dkp     bool
	catalog string
	opts    []bench.RunOption
	header  string
	// libsolv adds libsolv's columns to the table.
	libsolv bool
}

func (f *benchFlags) plan() (*benchPlan, error) {
	p := &benchPlan{seed: f.seed, loops: f.loops, catalog: f.catalog}
	rule, err := model.ParseLoopRule(f.loopRule)
	if err != nil || rule == "" {
		return nil, fmt.Errorf("%w: --loop-rule %q: want refuse or allow", errUsage, f.loopRule)
	}
	p.rule = rule
	if len(f.sizes) == 0 {
		f.sizes = sizeList{"S"}
	}
	for _, s := range f.sizes {
		z, err := bench.ParseSize(s)
		if err != nil {
			return nil, err
		}
		p.sizes = append(p.sizes, z)
	}
	if err := p.selectCases(f.cases, f.catalog); err != nil {
		return nil, err
	}
	if f.timeout <= 0 {
		return nil, fmt.Errorf("%w: --timeout %s: want a positive duration", errUsage, f.timeout)
	}
	p.opts = []bench.RunOption{bench.WithRuns(f.runs), bench.WithTimeout(f.timeout), bench.WithWarmUp(f.warmUp)}
	p.header = fmt.Sprintf("seed %d; median of %d runs after a warm-up of %s", f.seed, f.runs, f.warmUp)
	if f.loops > 0 {
		p.header += fmt.Sprintf("; %d dependency loops added to each generated catalog, which the catalog %ss", f.loops, rule)
	}
	if err := p.selectPeers(f); err != nil {
		return nil, err
	}
	if f.deppyTimeout <= 0 {
		return nil, fmt.Errorf("%w: --deppy-timeout %s: want a positive duration", errUsage, f.deppyTimeout)
	}
	return p, nil
}

// selectPeers reads --vs: deppy or deppy-pruned, and libsolv.
func (p *benchPlan) selectPeers(f *benchFlags) error {
	if f.vs == "" {
		return nil
	}
	seen := map[string]bool{}
	for _, peer := range strings.Split(f.vs, ",") {
		peer = strings.TrimSpace(peer)
		switch {
		case seen[peer], peer == "deppy" && seen["deppy-pruned"], peer == "deppy-pruned" && seen["deppy"]:
			return fmt.Errorf("%w: --vs %q: name each peer once, and deppy or deppy-pruned", errUsage, f.vs)
		case peer == "deppy":
			p.opts = append(p.opts, bench.WithDeppy(f.deppyTimeout))
			p.header += "; deppy v0.3.0, one variable per release, forbidden ones Prohibited"
		case peer == "deppy-pruned":
			p.opts = append(p.opts, bench.WithDeppy(f.deppyTimeout, bench.WithPruning()))
			p.header += "; deppy v0.3.0, forbidden releases left out"
		case peer == "libsolv" && !bench.LibsolvBuilt():
			return fmt.Errorf("%w: --vs libsolv: this modsolver was built without libsolv; "+
				"`make bench` builds bin/modsolver with it (or `go build -tags libsolv ./cmd/modsolver` with Debian's libsolv-dev installed)", errUsage)
		case peer == "libsolv":
			p.opts = append(p.opts, bench.WithLibsolv())
			p.libsolv = true
			p.header += "; libsolv 0.7.23, forbidden releases left out"
		default:
			return fmt.Errorf("%w: --vs %q: want deppy or deppy-pruned, libsolv, or several comma-separated", errUsage, peer)
		}
		seen[peer] = true
	}
	return nil
}

// selectCases reads --cases; resolve-dkp needs --catalog, and runs by
// default when it is given.
func (p *benchPlan) selectCases(list, catalogPath string) error {
	known := append(bench.GeneratedCases(), bench.CaseResolveDKP)
	names := known
	if strings.TrimSpace(list) != "" {
		names = nil
		for _, c := range strings.Split(list, ",") {
			c = strings.TrimSpace(c)
			if !slices.Contains(known, c) {
				return fmt.Errorf("%w: --cases: unknown case %q (want %s)", errUsage, c, strings.Join(known, ", "))
			}
			names = append(names, c)
		}
		if slices.Contains(names, bench.CaseResolveDKP) && catalogPath == "" {
			return fmt.Errorf("%w: --cases %s needs --catalog", errUsage, bench.CaseResolveDKP)
		}
	}
	for _, c := range names {
		if c == bench.CaseResolveDKP {
			p.dkp = catalogPath != ""
		} else if !slices.Contains(p.cases, c) {
			p.cases = append(p.cases, c)
		}
	}
	return nil
}

// run generates each size and runs its cases, then resolve-dkp.
func (p *benchPlan) run(ctx context.Context, errOut io.Writer) ([]*bench.Outcome, error) {
	prog := newThrottle(errOut)
	opts := append(slices.Clone(p.opts), bench.WithProgress(prog.report))
	var out []*bench.Outcome
	for _, size := range p.sizes {
		if len(p.cases) == 0 {
			break
		}
		prog.report(fmt.Sprintf("%s: generating %d modules × %d releases", size.Name, size.Modules, size.Releases))
		in, err := bench.Generate(size, p.seed).WithLoops(p.loops, p.rule)
		if err != nil {
			return nil, err
		}
		for _, c := range p.cases {
			o, err := bench.Run(ctx, in, c, opts...)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", size.Name, c, err)
			}
			out = append(out, o)
		}
	}
	if p.dkp {
		// The runs measure the solver on the charts' dependency graph, so
		// Helm subcharts are read as installed requirements (D67).
		cat, err := loadCatalog(p.catalog, "auto", errOut, false, catalog.WithHelmSubcharts(catalog.SubchartsInstalled))
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(p.catalog), filepath.Ext(p.catalog))
		rows, err := bench.RunCatalog(ctx, name, cat, opts...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.catalog, err)
		}
		out = append(out, rows...)
	}
	prog.finish()
	return out, nil
}

// throttle prints progress lines to w at most once a second, starting
// after the first second.
type throttle struct {
	w            io.Writer
	start, shown time.Time
	printed      bool
}

func newThrottle(w io.Writer) *throttle {
	now := time.Now()
	return &throttle{w: w, start: now, shown: now}
}

func (t *throttle) report(msg string) {
	if now := time.Now(); now.Sub(t.shown) >= time.Second {
		t.shown, t.printed = now, true
		fmt.Fprintf(t.w, "bench: %s (%s)\n", msg, now.Sub(t.start).Round(time.Second))
	}
}

func (t *throttle) finish() {
	if t.printed {
		fmt.Fprintf(t.w, "bench: done in %s\n", time.Since(t.start).Round(time.Millisecond))
	}
}

func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// printBenchTable prints one row per outcome, with libsolv's columns when
// it was asked for, then the violations and the cases where a peer's
// answer differs from modsolver's or libsolv did not run.
func printBenchTable(out io.Writer, p *benchPlan, outcomes []*bench.Outcome) {
	fmt.Fprintln(out, p.header)
	head := []string{"CASE", "SIZE", "MODSOLVER MS", "DEPPY MS", "RATIO"}
	if p.libsolv {
		head = append(head, "CHANGES MS", "LIBSOLV SOLVE MS", "LIBSOLV MS", "LIBSOLV REBUILT MS")
	}
	rows := [][]string{append(head, "VARIABLES", "CLAUSES", "PEAK MIB", "CHECKED")}
	for _, o := range outcomes {
		modsolver, deppy, ratio := millis(o.Modsolver), "-", "-"
		switch {
		case o.ModsolverTimeout:
			modsolver = timeoutText(o.Answered, o.Requests)
		case o.DeppyTimeout:
			deppy = timeoutText(o.DeppyAnswered, o.Requests)
		case o.DeppyRan:
			deppy, ratio = millis(o.Deppy), ratioText(o.Ratio())
		}
		row := []string{o.Case, o.Size, modsolver, deppy, ratio}
		if p.libsolv {
			row = append(row, libsolvColumns(o)...)
		}
		rows = append(rows, append(row, fmt.Sprint(o.Variables), fmt.Sprint(o.Clauses), fmt.Sprintf("%.1f", o.PeakMiB()), o.Checked()))
	}
	report.Columns(out, rows)
	for _, o := range outcomes {
		printBenchNotes(out, o)
	}
}

// libsolvColumns are modsolver's time with report: changes and libsolv's
// solve and pipeline times, "-" where they were not measured.
func libsolvColumns(o *bench.Outcome) []string {
	out := []string{"-", "-", "-", "-"}
	if o.ModsolverChanges > 0 {
		out[0] = millis(o.ModsolverChanges)
	}
	if o.LibsolvRan {
		out[1], out[2] = millis(o.LibsolvSolve), millis(o.LibsolvPipeline)
	}
	if o.LibsolvRebuilt > 0 {
		out[3] = millis(o.LibsolvRebuilt)
	}
	return out
}

// printBenchNotes prints, below the table, what a row leaves out: the
// peers' differences from modsolver, why libsolv did not run, and the
// first violations.
func printBenchNotes(out io.Writer, o *bench.Outcome) {
	if o.DeppyDiffers > 0 {
		fmt.Fprintf(out, "%s %s: deppy's answer differs from modsolver's in %d modules (deppy has no preferences beyond candidate order)\n", o.Case, o.Size, o.DeppyDiffers)
	}
	if o.LibsolvDiffers > 0 {
		fmt.Fprintf(out, "%s %s: libsolv's answer differs from modsolver's in %d modules (libsolv takes the newest greedily, not by R14's order)\n", o.Case, o.Size, o.LibsolvDiffers)
	}
	if o.LibsolvSkipped != "" {
		fmt.Fprintf(out, "%s %s: libsolv did not run: %s\n", o.Case, o.Size, o.LibsolvSkipped)
	}
	const most = 10
	all := o.Violations()
	for i, v := range all {
		if i == most {
			fmt.Fprintf(out, "  … and %d more\n", len(all)-most)
			break
		}
		fmt.Fprintf(out, "%s %s violation: %s\n", o.Case, o.Size, v)
	}
}

// timeoutText says a run timed out, and for a batch how far it got.
func timeoutText(answered, requests int) string {
	if requests > 1 {
		return fmt.Sprintf("timeout (%d/%d)", answered, requests)
	}
	return "timeout"
}

func millis(d time.Duration) string {
	return significant(float64(d) / float64(time.Millisecond))
}

// significant prints x with about three significant digits.
func significant(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

func ratioText(x float64) string {
	switch {
	case x < 1:
		return fmt.Sprintf("%.2f×", x)
	case x < 10:
		return fmt.Sprintf("%.1f×", x)
	}
	return fmt.Sprintf("%.0f×", x)
}

// benchResult is one row of --json.
type benchResult struct {
	Case             string   `json:"case"`
	Size             string   `json:"size"`
	ModsolverMs      *float64 `json:"modsolverMs"`
	DeppyMs          *float64 `json:"deppyMs"`
	Ratio            *float64 `json:"ratio"`
	Variables        int      `json:"variables"`
	Clauses          int      `json:"clauses"`
	PeakMiB          float64  `json:"peakMiB"`
	Checked          string   `json:"checked"`
	ModsolverTimeout bool     `json:"modsolverTimeout,omitempty"`
	DeppyTimeout     bool     `json:"deppyTimeout,omitempty"`
	Answered         *int     `json:"answered,omitempty"`
	DeppyDiffers     int      `json:"deppyDiffers,omitempty"`
	// The columns of --vs libsolv, left out without it.
	ModsolverChangesMs *float64 `json:"modsolverChangesMs,omitempty"`
	LibsolvSolveMs     *float64 `json:"libsolvSolveMs,omitempty"`
	LibsolvMs          *float64 `json:"libsolvMs,omitempty"`
	// LibsolvRebuiltMs is the pipeline that translates the whole pool
	// again for each request; libsolvMs holds the pool (D425).
	LibsolvRebuiltMs *float64 `json:"libsolvRebuiltMs,omitempty"`
	// LibsolvPoolMs and LibsolvSolvBytes are the held pool's one-time
	// cost: writing the catalog as .solv and loading it.
	LibsolvPoolMs    *float64 `json:"libsolvPoolMs,omitempty"`
	LibsolvSolvBytes int64    `json:"libsolvSolvBytes,omitempty"`
	LibsolvDiffers   int      `json:"libsolvDiffers,omitempty"`
	LibsolvSkipped   string   `json:"libsolvSkipped,omitempty"`
	Violations       []string `json:"violations,omitempty"`
}

// printBenchJSON prints {"results": [...]}. modsolverMs is null when
// modsolver timed out, deppyMs and ratio when deppy did not run or timed
// out; answered then counts the requests answered in time. With --vs
// libsolv, modsolverChangesMs, libsolvSolveMs and libsolvMs are set where
// they were measured, and libsolvSkipped says why libsolv did not run.
func printBenchJSON(out io.Writer, outcomes []*bench.Outcome) error {
	results := make([]benchResult, len(outcomes))
	for i, o := range outcomes {
		r := benchResult{Case: o.Case, Size: o.Size,
			Variables: o.Variables, Clauses: o.Clauses, PeakMiB: round(o.PeakMiB(), 1), Checked: o.Checked(),
			ModsolverTimeout: o.ModsolverTimeout, DeppyTimeout: o.DeppyTimeout, DeppyDiffers: o.DeppyDiffers,
			LibsolvDiffers: o.LibsolvDiffers, LibsolvSkipped: o.LibsolvSkipped, Violations: o.Violations()}
		switch {
		case o.ModsolverTimeout:
			r.Answered = &o.Answered
		case o.DeppyTimeout:
			r.Answered = &o.DeppyAnswered
		}
		if !o.ModsolverTimeout {
			ms := round(float64(o.Modsolver)/float64(time.Millisecond), 3)
			r.ModsolverMs = &ms
		}
		if o.DeppyDone() {
			ms, ratio := round(float64(o.Deppy)/float64(time.Millisecond), 3), round(o.Ratio(), 1)
			r.DeppyMs, r.Ratio = &ms, &ratio
		}
		if o.ModsolverChanges > 0 {
			r.ModsolverChangesMs = msOf(o.ModsolverChanges)
		}
		if o.LibsolvRan {
			r.LibsolvSolveMs, r.LibsolvMs = msOf(o.LibsolvSolve), msOf(o.LibsolvPipeline)
		}
		if o.LibsolvRebuilt > 0 {
			r.LibsolvRebuiltMs = msOf(o.LibsolvRebuilt)
		}
		if o.LibsolvBuild > 0 {
			r.LibsolvPoolMs, r.LibsolvSolvBytes = msOf(o.LibsolvBuild), o.LibsolvSolvBytes
		}
		results[i] = r
	}
	data, err := json.MarshalIndent(struct {
		Results []benchResult `json:"results"`
	}{results}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", data)
	return err
}

// msOf is d in milliseconds, rounded to microseconds, for --json.
func msOf(d time.Duration) *float64 {
	ms := round(float64(d)/float64(time.Millisecond), 3)
	return &ms
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}
