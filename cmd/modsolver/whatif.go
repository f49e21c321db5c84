package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/report"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
	"github.com/modsolver/modsolver/solver"
)

const whatifUsage = `Usage:
  modsolver whatif [--catalog PATH] [--cluster FILE] [--request FILE]
                   --deckhouse V1,V2,… --kubernetes K1,K2,… [--accept RISKS]
                   [-o table|json|jsonl|html]
  modsolver whatif [--catalog PATH] [--cluster FILE] --scenarios FILE [-o table|json|jsonl]
                   [--shard i/n]

Answers many what-if questions against one catalog and cluster state.

The upgrade readiness matrix: every pair of a candidate DKP version
(--deckhouse) and a candidate Kubernetes version (--kubernetes) is one
scenario; a list left out means "as now". Each scenario starts from the
base request (--request; by default every enabled module may update,
updateAll: true), so modules may update to become compatible (R12). Each
cell says OK, which modules would update, or which modules block and why.

Free-form scenarios: a YAML or JSON file of named requests,
  scenarios:
    - name: enable console
      request: {enable: [console]}

Without --catalog the embedded demo catalog is used, and without --cluster
the demo cluster state. Scenarios run on one worker per core; progress goes
to stderr when a batch runs longer than a second.

-o jsonl prints one result per line, in the form of the gRPC WhatIf
stream; -o json prints them as one document, {"results": [...]}. -o html
prints one self-contained page (no script, nothing fetched): the grid
coloured by outcome and severity, then each group with its updates, its
blockers, explanation and verified suggestions, and its plan.

` + shardUsage + `
` + clusterUsage + `Where a dump does not say which Kubernetes or DKP version runs, the
lowest --kubernetes or --deckhouse candidate is taken as the running one.

Cells with the same answer (apart from the texts of their own platform
versions) form a group: the table marks each cell with its group's letter
and reports each group once; -o json and -o jsonl give each result's group,
the index of the first scenario with the same answer. Each blocker of a
cell has a severity (R30): error when it blocks the next minor the batch
asks about, warning when it blocks only a later one. --accept names the
risks the operator accepts: modules, or fact kinds such as
kubernetes-requirement.

Exit codes: for the matrix, 0 when the first cell is ready and every
blocker of the batch is accepted, 1 otherwise; for --scenarios and a
shard, 0 when every scenario is answered (an unsatisfiable scenario is an
answer, not a failure). Always 2 on bad input, 3 on no answer (timeout or
interrupt).

Flags:
`

type whatifFlags struct {
	catalog, cluster, request, scenarios string
	catalogFormat                        string
	subcharts                            subchartsFlag
	deckhouse, kubernetes                string
	output                               string
	workers                              int
	timeout                              time.Duration
	noTiming                             bool
	shard                                shardFlags // whatif_shard.go
	allowExperimental                    bool
	devel                                bool
	sources                              sourcesFlag
	facts                                factFlags // cluster.go
	accept                               acceptFlag
}

// acceptFlag is --accept, given once per risk or as a comma-separated
// list: modules or fact kinds whose risks the operator accepts (R30).
type acceptFlag []string

func (a *acceptFlag) String() string { return strings.Join(*a, ",") }

func (a *acceptFlag) Set(text string) error {
	for _, part := range strings.Split(text, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*a = append(*a, part)
		}
	}
	return nil
}

func runWhatIf(ctx context.Context, args []string, out, errOut io.Writer) int {
	var f whatifFlags
	fs := flag.NewFlagSet("whatif", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), whatifUsage); fs.PrintDefaults() }
	fs.StringVar(&f.catalog, "catalog", "", "catalog `path`: a file or a DKP module-source directory (default: the embedded demo catalog)")
	fs.StringVar(&f.catalogFormat, "catalog-format", "auto", "catalog `format`: auto, "+formatNames())
	f.subcharts.register(fs)
	f.sources.register(fs)
	fs.StringVar(&f.cluster, "cluster", "", "cluster state `file`: modsolver's or a kubectl dump of DKP's resources (default: the demo cluster state)")
	f.facts.register(fs, false)
	fs.StringVar(&f.request, "request", "", "base request `file` for the matrix (default: updateAll: true)")
	fs.StringVar(&f.scenarios, "scenarios", "", "`file` of named requests, instead of the matrix")
	fs.StringVar(&f.deckhouse, "deckhouse", "", "candidate DKP `versions`, comma-separated")
	fs.StringVar(&f.kubernetes, "kubernetes", "", "candidate Kubernetes `versions`, comma-separated")
	fs.Var(&f.accept, "accept", "accept the risks of these `modules or fact kinds` (R30), comma-separated or repeated: their blockers do not fail the exit status")
	fs.StringVar(&f.output, "o", "table", "output `format`: table, json, jsonl or html")
	fs.IntVar(&f.workers, "workers", 0, "scenarios solved at once (default: one per core)")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "give up on the whole batch after this `duration`")
	fs.BoolVar(&f.noTiming, "no-timing", false, "leave stats (solve times, encoding sizes) out, so that runs and shards compare byte for byte")
	f.shard.register(fs)
	fs.BoolVar(&f.devel, "devel", false, "set devel: true on every request: every range admits prereleases, as Helm's --devel (R6)")
	fs.BoolVar(&f.allowExperimental, "allow-experimental", false, "set allowExperimentalModules: true on the cluster state, so that Experimental releases may be selected (R25)")
	if code, done := parseFlags(fs, args, out, errOut); done {
		return code
	}
	if f.timeout <= 0 {
		return fail(errOut, fmt.Errorf("%w: --timeout %s: want a positive duration", errUsage, f.timeout))
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	b, err := loadWithin(ctx, f.timeout, "reading the inputs", errOut, f.batch)
	if err != nil {
		return fail(errOut, err)
	}
	cells, ready, err := b.run(ctx, f, errOut)
	if err != nil {
		if ctx.Err() != nil {
			err = noAnswer(ctx, f.timeout, "answering the batch", err)
		}
		return fail(errOut, err)
	}
	if err := b.print(out, f.output, cells); err != nil {
		return fail(errOut, err)
	}
	if b.matrix != nil && !ready {
		return exitUnsatisfiable
	}
	return exitResolved
}

// batch is a what-if batch ready to run.
type batch struct {
	cat       *model.Catalog
	cluster   *model.ClusterState
	scenarios []catalog.NamedRequest
	// matrix is set for the readiness matrix, which prints as a grid.
	matrix *report.Matrix
	// offset is the index of scenarios[0] in the whole batch, when the
	// batch is one shard of it.
	offset  int
	sharded bool
}

func (f *whatifFlags) batch(errOut io.Writer) (*batch, error) {
	switch {
	case !slices.Contains([]string{"table", "json", "jsonl", "html"}, f.output):
		return nil, fmt.Errorf("%w: -o %q: want table, json, jsonl or html", errUsage, f.output)
	case f.timeout <= 0:
		return nil, fmt.Errorf("%w: --timeout %s: want a positive duration", errUsage, f.timeout)
	case f.scenarios != "" && (f.deckhouse != "" || f.kubernetes != "" || f.request != ""):
		return nil, fmt.Errorf("%w: --scenarios holds its own requests; do not combine it with --deckhouse, --kubernetes or --request", errUsage)
	case f.scenarios == "" && f.deckhouse == "" && f.kubernetes == "":
		return nil, fmt.Errorf("%w: give --deckhouse and/or --kubernetes versions, or --scenarios", errUsage)
	}
	sh, err := f.shard.resolve(os.Getenv)
	if err != nil {
		return nil, err
	}
	if sh != nil && f.output == "json" {
		return nil, fmt.Errorf("%w: -o json is one document, which shards cannot be concatenated into; use -o jsonl or -o table with --shard", errUsage)
	}
	b := &batch{}
	if b.cat, err = f.sources.catalog(f.catalog, f.catalogFormat, errOut, f.subcharts.options()...); err != nil {
		return nil, err
	}
	if b.cluster, err = f.loadCluster(b.cat, errOut); err != nil {
		return nil, err
	}
	if f.allowExperimental {
		b.cluster.AllowExperimentalModules = true
	}
	// A bad cluster state is bad in every scenario: say so once.
	if err := b.cluster.Validate(b.cat); err != nil {
		return nil, err
	}
	if err := model.ValidateAccept(b.cat, model.Field("--accept"), f.accept); err != nil {
		return nil, err
	}
	if f.scenarios != "" {
		b.scenarios, err = catalog.LoadWhatIf(f.scenarios)
	} else {
		err = b.buildMatrix(f)
	}
	reqs := make([]*model.Request, len(b.scenarios))
	for i, s := range b.scenarios {
		s.Request.Devel = s.Request.Devel || f.devel
		reqs[i] = s.Request
	}
	if err == nil {
		warnUnknownPlatform(errOut, b.cat, b.cluster, reqs)
	}
	b.applyShard(sh)
	return b, err
}

// loadCluster reads --cluster, or the demo cluster state. A kubectl dump
// runs at the lowest candidate version where it does not say (D154).
func (f *whatifFlags) loadCluster(cat *model.Catalog, errOut io.Writer) (*model.ClusterState, error) {
	given, err := f.facts.given()
	if err != nil {
		return nil, err
	}
	if f.cluster == "" {
		cluster, _, err := catalog.DemoState()
		if err == nil {
			catalog.ApplyFacts(cluster, given)
		}
		return cluster, err
	}
	kube, err := candidates("--kubernetes", f.kubernetes)
	if err != nil {
		return nil, err
	}
	dkp, err := candidates("--deckhouse", f.deckhouse)
	if err != nil {
		return nil, err
	}
	return loadCluster(f.cluster, cat, given, lowestCandidates(kube, dkp), errOut)
}

// buildMatrix makes one scenario per pair of candidate versions.
func (b *batch) buildMatrix(f *whatifFlags) error {
	base := &model.Request{UpdateAll: true}
	if f.request != "" {
		var err error
		if base, err = catalog.LoadRequest(f.request); err != nil {
			return err
		}
		if err := base.Validate(b.cat, b.cluster); err != nil {
			return fmt.Errorf("--request: %w", err)
		}
	}
	dkp, err := versionList("--deckhouse", f.deckhouse, b.cluster.Deckhouse)
	if err != nil {
		return err
	}
	kube, err := versionList("--kubernetes", f.kubernetes, b.cluster.Kubernetes)
	if err != nil {
		return err
	}
	b.matrix = &report.Matrix{Deckhouse: dkp, Kubernetes: kube}
	names, reqs := b.matrix.Requests(base)
	for i, req := range reqs {
		b.scenarios = append(b.scenarios, catalog.NamedRequest{Name: names[i], Request: req})
	}
	return nil
}

// versionList parses a comma-separated list; an empty one is "as now".
func versionList(flagName, text string, now model.Version) ([]model.Version, error) {
	if strings.TrimSpace(text) == "" {
		return []model.Version{now}, nil
	}
	return candidates(flagName, text)
}

// candidates parses a comma-separated list of versions; nil when empty.
func candidates(flagName, text string) ([]model.Version, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	var out []model.Version
	for _, part := range strings.Split(text, ",") {
		v, err := model.ParseVersion(part)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flagName, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// run answers every scenario, reporting progress on errOut when the batch
// takes longer than a second, and reads the answers as R30 does: their
// groups, their blockers and whether the first scenario is ready.
func (b *batch) run(ctx context.Context, f whatifFlags, errOut io.Writer) ([]solver.Cell, bool, error) {
	reqs := make([]*model.Request, len(b.scenarios))
	for i, s := range b.scenarios {
		reqs[i] = s.Request
	}
	var opts []solver.Option
	if f.workers > 0 {
		opts = append(opts, solver.WithWorkers(f.workers))
	}
	if f.output == "table" || f.output == "html" {
		// The matrix prints no held-back reasons; JSON carries whole answers.
		opts = append(opts, solver.WithoutHeldBack())
	}
	var cells []solver.Cell
	readiness := solver.NewReadiness(b.cluster, reqs, f.accept)
	progress := newProgress(errOut, "whatif", "scenarios", len(reqs))
	compiled, err := solver.Compile(b.cat)
	if err != nil {
		return nil, false, err
	}
	err = compiled.WhatIf(ctx, b.cluster, reqs, func(i int, a solver.Answer) error {
		if a.Result != nil && f.noTiming {
			// On a shared encoding the other stats count the worker's
			// work too, which depends on the workers and the shard (D53).
			a.Result.Stats = model.Stats{}
		}
		cells = append(cells, readiness.Add(i, a)...)
		progress.done(i + 1)
		return nil
	}, opts...)
	progress.finish()
	return cells, readiness.Ready(), err
}

func (b *batch) print(out io.Writer, format string, cells []solver.Cell) error {
	switch format {
	case "json":
		return b.printJSON(out, cells)
	case "jsonl":
		return b.printJSONLines(out, cells)
	}
	r := &report.WhatIf{Catalog: b.cat, Matrix: b.matrix, Scenarios: make([]report.Scenario, len(cells))}
	for i, c := range cells {
		r.Scenarios[i] = report.Scenario{Name: b.scenarios[i].Name, Result: c.Answer.Result, Group: c.Group, Blockers: c.Blockers}
		if b.sharded {
			r.Scenarios[i].Group, r.Scenarios[i].Blockers = i, nil
		}
		if c.Answer.Err != nil {
			r.Scenarios[i].Problem = server.BadInput(c.Answer.Err)
		}
	}
	if format == "html" {
		return r.HTML(out)
	}
	return r.Table(out)
}

// printJSON prints {"results": [WhatIfResult…]}, each result in the
// protojson form the gRPC WhatIf stream returns.
func (b *batch) printJSON(out io.Writer, cells []solver.Cell) error {
	results := make([]json.RawMessage, len(cells))
	for i, c := range cells {
		data, err := server.MarshalJSON(b.whatIfResult(i, c))
		if err != nil {
			return err
		}
		results[i] = data
	}
	data, err := json.MarshalIndent(struct {
		Results []json.RawMessage `json:"results"`
	}{results}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", data)
	return err
}

// whatIfResult is the result of the batch's scenario i, its indices
// those of the whole batch when the batch is a shard of it.
func (b *batch) whatIfResult(i int, c solver.Cell) *modsolverv1.WhatIfResult {
	r := server.WhatIfResult(b.offset+i, b.scenarios[i].Name, c, func(k int) int { return b.offset + k })
	if b.sharded {
		// A shard cannot see the scenarios before it (D193).
		r.Group, r.Blockers = nil, nil
	}
	return r
}

// progress prints "what: n/total units" to w at most once a second,
// starting after the first second.
type progress struct {
	w            io.Writer
	what, units  string
	total        int
	start, shown time.Time
	printed      bool
}

func newProgress(w io.Writer, what, units string, total int) *progress {
	now := time.Now()
	return &progress{w: w, what: what, units: units, total: total, start: now, shown: now}
}

func (p *progress) done(n int) {
	if now := time.Now(); now.Sub(p.shown) >= time.Second {
		p.shown, p.printed = now, true
		fmt.Fprintf(p.w, "%s: %d/%d %s, %s\n", p.what, n, p.total, p.units, now.Sub(p.start).Round(time.Millisecond))
	}
}

func (p *progress) finish() {
	if p.printed {
		fmt.Fprintf(p.w, "%s: %d %s in %s\n", p.what, p.total, p.units, time.Since(p.start).Round(time.Millisecond))
	}
}
