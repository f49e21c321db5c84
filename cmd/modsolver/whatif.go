package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/report"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/readiness"
	"github.com/modsolver/modsolver/server"
	"github.com/modsolver/modsolver/solver"
)

const whatifUsage = `Usage:
  modsolver whatif [--catalog PATH] [--cluster FILE] [--request FILE]
                   --deckhouse V1,V2,… --kubernetes K1,K2,… [--accept RISKS]
                   [-o table|json|jsonl|html|sarif]
  modsolver whatif [--catalog PATH] [--cluster FILE] --scenarios FILE [-o table|json|jsonl]
                   [--shard i/n]
  modsolver whatif merge [the batch's flags] [-o table|json|jsonl|html|sarif] FILE…

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
the demo cluster state; a catalog given with --catalog or --source needs
--cluster. Scenarios run on one worker per core; progress goes
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

Exit codes: for the matrix, 0 when the first cell resolves (or each of
its blockers is accepted) and every other risk of the batch, assumptions
included, is accepted, 1 otherwise; for --scenarios and a
shard, 0 when every scenario is answered (an unsatisfiable scenario is an
answer, not a failure). Always 2 on bad input: a scenario that is bad
input is reported in its place, by name and line, the others are
answered, and the batch exits 2. 3 on no answer (timeout or interrupt).

Flags:
`

type whatifFlags struct {
	// notes are what reading the cluster said that the batch's outputs
	// carry as warnings (D154's lowest candidate).
	notes []string
	catalogInput
	cluster, request, scenarios string
	deckhouse, kubernetes       string
	output                      string
	workers                     int
	timeout                     time.Duration
	noTiming                    bool
	shard                       shardFlags // whatif_shard.go
	allowExperimental           bool
	devel                       bool
	facts                       factFlags // cluster.go
	accept                      acceptFlag
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
	if len(args) > 0 && args[0] == "merge" {
		return runWhatIfMerge(ctx, args[1:], out, errOut) // whatif_merge.go
	}
	var f whatifFlags
	fs := flag.NewFlagSet("whatif", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), whatifUsage); fs.PrintDefaults() }
	f.register(fs)
	intVar(fs, &f.workers, "workers", 0, 0, "`scenarios` solved at once (default: one per core)")
	f.shard.register(fs)
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
	return b.finish(&f, cells, ready, out, errOut)
}

// register defines the flags that say what a batch is and how it
// prints: whatif's, and whatif merge's, which reads the same batch again
// (whatif_merge.go); whatif adds --workers and the shard's.
func (f *whatifFlags) register(fs *flag.FlagSet) {
	f.catalogInput.register(fs)
	fs.StringVar(&f.cluster, "cluster", "", "cluster state `file`: modsolver's or a kubectl dump of DKP's resources (default, with the demo catalog only: the demo cluster state)")
	f.facts.register(fs, false)
	fs.StringVar(&f.request, "request", "", "base request `file` for the matrix (default: updateAll: true)")
	fs.StringVar(&f.scenarios, "scenarios", "", "`file` of named requests, instead of the matrix")
	fs.StringVar(&f.deckhouse, "deckhouse", "", "candidate DKP `versions`, comma-separated")
	fs.StringVar(&f.kubernetes, "kubernetes", "", "candidate Kubernetes `versions`, comma-separated")
	fs.Var(&f.accept, "accept", "accept the risks of these `modules or fact kinds` (R30), comma-separated or repeated: their blockers do not fail the exit status")
	fs.StringVar(&f.output, "o", "table", "output `format`: table, json, jsonl, html or sarif (SARIF 2.1.0: one result per blocker, at the manifest line that causes it)")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "give up on the whole batch after this `duration`")
	fs.BoolVar(&f.noTiming, "no-timing", false, "leave stats (solve times, encoding sizes) out, so that runs and shards compare byte for byte")
	fs.BoolVar(&f.devel, "devel", false, "set devel: true on every request: every range admits prereleases, as Helm's --devel (R6)")
	fs.BoolVar(&f.allowExperimental, "allow-experimental", false, "set allowExperimentalModules: true on the cluster state, so that Experimental releases may be selected (R25)")
}

// finish prints the answered batch and returns its exit status: 2 when a
// scenario is bad input, 1 when a matrix is not ready, else 0.
func (b *batch) finish(f *whatifFlags, cells []readiness.Cell, ready bool, out, errOut io.Writer) int {
	b.context = f.pageContext(b, ready)
	for _, c := range cells {
		placeFacts(c.Answer.Result, b.clusterOrigin) // the cluster's facts at their lines (D421)
	}
	if err := b.print(out, f.output, cells); err != nil {
		return fail(errOut, err)
	}
	if bad := b.badInput(cells); len(bad) > 0 {
		// Every other scenario is answered above; the batch still has bad
		// input, which a pipeline must not pass (D368).
		verb := "are"
		if len(bad) == 1 {
			verb = "is"
		}
		fmt.Fprintf(errOut, "modsolver: %d of %d scenarios %s bad input: %s\n", len(bad), len(cells), verb, listSome(bad, 5))
		return exitBadInput
	}
	if b.matrix != nil && !ready {
		return exitUnsatisfiable
	}
	return exitResolved
}

// listSome joins the first most items, then says how many more there are.
func listSome(items []string, most int) string {
	if len(items) <= most {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:most], ", ") + fmt.Sprintf(", and %d more", len(items)-most)
}

// batch is a what-if batch ready to run.
type batch struct {
	cat     *model.Catalog
	cluster *model.ClusterState
	// clusterOrigin is where the cluster state was read: a file, or the
	// embedded demo state.
	clusterOrigin catalog.Origin
	scenarios     []catalog.NamedRequest
	// matrix is set for the readiness matrix, which prints as a grid.
	matrix *report.Matrix
	// offset is the index of scenarios[0] in the whole batch, when the
	// batch is one shard of it.
	offset  int
	sharded bool
	// warnings are the batch's own (warnUnknownPlatform): every output
	// form carries them.
	warnings []string
	// context says, on the page, what the batch is about (pageContext).
	context []string
}

// pageContext says what the page is about (D405): the cluster and where
// it was read, the catalog, and for a matrix the verdict its exit status
// gives.
func (f *whatifFlags) pageContext(b *batch, ready bool) []string {
	cluster := f.cluster
	if cluster == "" {
		cluster = "the embedded demo cluster"
	}
	catalogText := f.catalog
	if catalogText == "" && len(f.sources.specs) == 0 {
		catalogText = "the embedded demo catalog"
	}
	if len(f.sources.specs) > 0 {
		texts := make([]string, len(f.sources.specs))
		for i, s := range f.sources.specs {
			texts[i] = fmt.Sprintf("%s (source %s, priority %d)", s.Path, s.Name, s.Priority)
		}
		catalogText = strings.Join(texts, ", ")
	}
	out := []string{
		fmt.Sprintf("cluster: DKP %s, Kubernetes %s (%s)", model.VersionString(b.cluster.Deckhouse), model.VersionString(b.cluster.Kubernetes), cluster),
		"catalog: " + catalogText,
	}
	if b.matrix != nil && !b.sharded {
		verdict := "verdict: ready: the first cell resolves, and every risk is accepted (exit 0)"
		if !ready {
			verdict = "verdict: not ready: the first cell is blocked, or a risk of the batch is not accepted (exit 1)"
		}
		out = append(out, verdict)
	}
	return out
}

func (f *whatifFlags) batch(errOut io.Writer) (*batch, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	sh, err := f.shard.resolve(os.Getenv)
	if err != nil {
		return nil, err
	}
	if sh != nil && f.output == "json" {
		return nil, fmt.Errorf("%w: -o json is one document, which shards cannot be concatenated into; use -o jsonl or -o table with --shard", errUsage)
	}
	b, err := f.load(errOut)
	if b != nil {
		b.applyShard(sh)
	}
	return b, err
}

// check refuses flags that do not make a batch.
func (f *whatifFlags) check() error {
	switch {
	case !slices.Contains([]string{"table", "json", "jsonl", "html", "sarif"}, f.output):
		return fmt.Errorf("%w: -o %q: want table, json, jsonl, html or sarif", errUsage, f.output)
	case f.timeout <= 0:
		return fmt.Errorf("%w: --timeout %s: want a positive duration", errUsage, f.timeout)
	case f.scenarios != "" && (f.deckhouse != "" || f.kubernetes != "" || f.request != ""):
		return fmt.Errorf("%w: --scenarios holds its own requests; do not combine it with --deckhouse, --kubernetes or --request", errUsage)
	case f.scenarios == "" && f.deckhouse == "" && f.kubernetes == "":
		return fmt.Errorf("%w: give --deckhouse and/or --kubernetes versions, or --scenarios", errUsage)
	case f.cluster == "" && (f.catalog != "" || len(f.sources.specs) > 0):
		// The demo cluster state goes with the demo catalog (D367).
		return fmt.Errorf("%w: %s gives a catalog, so give its cluster state with --cluster; the embedded demo cluster state goes with the embedded demo catalog only", errUsage, f.sources.catalogFlag(f.catalog))
	}
	return nil
}

// load reads the whole batch: the catalog, the cluster state and the
// scenarios, with the batch's own warnings.
func (f *whatifFlags) load(errOut io.Writer) (*batch, error) {
	var err error
	b := &batch{}
	if b.cat, err = f.readCatalog(errOut); err != nil {
		return nil, err
	}
	if b.cluster, err = f.loadCluster(b.cat, errOut); err != nil {
		return nil, err
	}
	b.clusterOrigin = f.clusterOrigin()
	if f.allowExperimental {
		b.cluster.AllowExperimentalModules = true
	}
	// A bad cluster state is bad in every scenario: say so once.
	if err := b.cluster.Validate(b.cat); err != nil {
		return nil, f.sources.demoCatalogNote(f.catalog, b.clusterOrigin.Place(err))
	}
	if err := model.ValidateAccept(b.cat, model.Field("--accept"), f.accept); err != nil {
		return nil, err
	}
	if f.scenarios != "" {
		b.scenarios, err = catalog.LoadWhatIf(f.scenarios)
	} else {
		err = b.buildMatrix(f)
	}
	var reqs []*model.Request
	for _, s := range b.scenarios {
		if s.Err == nil {
			s.Request.Devel = s.Request.Devel || f.devel
			reqs = append(reqs, s.Request)
		}
	}
	if err == nil {
		b.warnings = append(f.notes, warnUnknownPlatform(f.warnings(errOut), b.cat, b.cluster, reqs)...)
		b.warnings = append(b.warnings, downgrades(f.warnings(errOut), b.cluster, reqs)...)
	}
	return b, err
}

// clusterOrigin is where --cluster is, or, without it, the demo cluster
// state, which bad input about it names (D367).
func (f *whatifFlags) clusterOrigin() catalog.Origin {
	if f.cluster == "" {
		return catalog.Origin{Root: "cluster", Note: "the embedded demo cluster, since --cluster was not given", Given: f.facts.fields()}
	}
	return catalog.ClusterOrigin(f.cluster, f.facts.fields()...)
}

// warnings is where the batch's own warnings go besides its output:
// standard error for JSON lines, which carry none; nowhere for the table,
// JSON and the page, which say them (D396).
func (f *whatifFlags) warnings(errOut io.Writer) io.Writer {
	if f.output == "jsonl" {
		return errOut
	}
	return io.Discard
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
	note := func(text string) {
		fmt.Fprintf(f.warnings(errOut), "modsolver: warning: %s\n", text)
		f.notes = append(f.notes, text)
	}
	return loadCluster(f.cluster, cat, given, lowestCandidates(kube, dkp, note), errOut)
}

// buildMatrix makes one scenario per pair of candidate versions.
func (b *batch) buildMatrix(f *whatifFlags) error {
	base := &model.Request{UpdateAll: true}
	var origin catalog.Origin
	if f.request != "" {
		var err error
		if base, err = catalog.LoadRequest(f.request); err != nil {
			return err
		}
		origin = catalog.RequestOrigin(f.request)
		if err := base.Validate(b.cat, b.cluster); err != nil {
			return origin.Place(err)
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
	b.matrix = &report.Matrix{Deckhouse: dkp, Kubernetes: kube, Cluster: model.Platform{Deckhouse: b.cluster.Deckhouse, Kubernetes: b.cluster.Kubernetes}}
	names, reqs := b.matrix.Requests(base)
	for i, req := range reqs {
		b.scenarios = append(b.scenarios, catalog.NamedRequest{Name: names[i], Request: req, Origin: origin})
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
		if slices.ContainsFunc(out, func(o model.Version) bool { return model.SameVersion(o, v) }) {
			return nil, fmt.Errorf("%w: %s: version %s is listed twice", errUsage, flagName, v)
		}
		out = append(out, v)
	}
	return out, nil
}

// run answers every scenario, reporting progress on errOut when the batch
// takes longer than a second, and reads the answers as R30 does: their
// groups, their blockers and whether the first scenario is ready.
//
// A scenario that is bad input as written (its Err) is not solved: its
// cell is its error, in its place among the others.
func (b *batch) run(ctx context.Context, f whatifFlags, errOut io.Writer) ([]readiness.Cell, bool, error) {
	var solve []*model.Request // the ones to solve
	var index []int            // the scenario of each of solve
	for i, s := range b.scenarios {
		if s.Err == nil {
			solve, index = append(solve, s.Request), append(index, i)
		}
	}
	var opts []solver.Option
	if f.workers > 0 {
		opts = append(opts, solver.WithWorkers(f.workers))
	}
	if !f.printsHeldBack() {
		opts = append(opts, solver.WithoutHeldBack())
	}
	var cells []readiness.Cell
	reading := b.readiness(f.accept)
	progress := newProgress(errOut, "whatif", "scenarios", len(b.scenarios))
	next := 0 // the next scenario to hand to reading
	badUpTo := func(end int) {
		for ; next < end; next++ {
			cells = append(cells, reading.Add(next, readiness.Answer{Err: b.scenarios[next].Err})...)
		}
	}
	compiled, err := solver.Compile(b.cat)
	if err != nil {
		return nil, false, err
	}
	if len(solve) > 0 {
		err = compiled.WhatIf(ctx, b.cluster, solve, func(k int, a solver.Answer) error {
			i := index[k]
			badUpTo(i)
			if a.Result != nil && f.noTiming {
				// A class member carries the figures of its class's first
				// request (D53, D120).
				a.Result.Stats = model.Stats{}
			}
			a.Err = b.scenarios[i].Origin.Place(a.Err)
			cells = append(cells, reading.Add(i, readiness.Answer{Result: a.Result, Err: a.Err})...)
			next = i + 1
			progress.done(next)
			return nil
		}, opts...)
	}
	if err == nil {
		badUpTo(len(b.scenarios))
	}
	progress.finish()
	return cells, reading.Ready(), err
}

// readiness reads the answers to the batch's scenarios as R30 does (a
// scenario that is bad input as written asks nothing, so counts for
// nothing), accepting the risks accept names.
func (b *batch) readiness(accept []string) *readiness.Readiness {
	reqs := make([]*model.Request, len(b.scenarios))
	for i, s := range b.scenarios {
		reqs[i] = s.Request
		if s.Err != nil {
			reqs[i] = &model.Request{}
		}
	}
	return readiness.New(b.cluster, reqs, accept)
}

// printsHeldBack says whether the output carries held-back reasons (R17):
// JSON carries whole answers; the table and the page print none, so
// whatif leaves their search out.
func (f *whatifFlags) printsHeldBack() bool {
	return f.output != "table" && f.output != "html" && f.output != "sarif"
}

// badInput lists the scenarios of cells that are bad input, each by its
// name and where it is: "pin x" (batch.yaml:7).
func (b *batch) badInput(cells []readiness.Cell) []string {
	var out []string
	for i, c := range cells {
		if c.Answer.Err == nil || !errors.Is(c.Answer.Err, model.ErrInvalidInput) {
			continue
		}
		name := strconv.Quote(b.scenarios[i].Name)
		if where := placedAt(c.Answer.Err); where != "" {
			name += " (" + where + ")"
		}
		out = append(out, name)
	}
	return out
}

// placedAt is "file:line", or "file", where err is; "" for none.
func placedAt(err error) string {
	file, line := catalog.PlacedIn(err)
	switch {
	case file == "":
		return ""
	case line == 0:
		return file
	}
	return file + ":" + strconv.Itoa(line)
}

// badInputText words a scenario's bad input for the CLI's outputs: as the
// gRPC stream words it (D103), after the file and line it is at, which
// the stream, which reads no file, does not have (D368).
func badInputText(err error) string {
	text := server.BadInput(err)
	if where := placedAt(err); where != "" && !strings.HasPrefix(text, where) {
		text = where + ": " + text
	}
	return text
}

func (b *batch) print(out io.Writer, format string, cells []readiness.Cell) error {
	switch format {
	case "json":
		return b.printJSON(out, cells)
	case "jsonl":
		return b.printJSONLines(out, cells)
	}
	r := &report.WhatIf{Catalog: b.cat, Matrix: b.matrix, Scenarios: make([]report.Scenario, len(cells)), Warnings: b.warnings, Context: b.context}
	for i, c := range cells {
		r.Scenarios[i] = report.Scenario{Name: b.scenarios[i].Name, Result: c.Answer.Result, Group: c.Group, Blockers: c.Blockers}
		if b.sharded {
			r.Scenarios[i].Group, r.Scenarios[i].Blockers = i, nil
		}
		if c.Answer.Err != nil {
			r.Scenarios[i].Problem = badInputText(c.Answer.Err)
		}
	}
	switch format {
	case "html":
		return r.HTML(out)
	case "sarif":
		return r.SARIF(out)
	}
	return r.Table(out)
}

// printJSON prints {"results": [WhatIfResult…], "warnings": […]}, each
// result in the protojson form the gRPC WhatIf stream returns, and the
// batch's own warnings, if any.
func (b *batch) printJSON(out io.Writer, cells []readiness.Cell) error {
	results := make([]json.RawMessage, len(cells))
	for i, c := range cells {
		data, err := server.MarshalJSON(b.whatIfResult(i, c))
		if err != nil {
			return err
		}
		results[i] = data
	}
	data, err := json.MarshalIndent(struct {
		Results  []json.RawMessage `json:"results"`
		Warnings []string          `json:"warnings,omitempty"`
	}{results, b.warnings}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", data)
	return err
}

// whatIfResult is the result of the batch's scenario i, its indices
// those of the whole batch when the batch is a shard of it.
func (b *batch) whatIfResult(i int, c readiness.Cell) *modsolverv1.WhatIfResult {
	r := server.WhatIfResult(b.offset+i, b.scenarios[i].Name, c, func(k int) int { return b.offset + k })
	if c.Answer.Err != nil {
		r.Error = badInputText(c.Answer.Err)
	}
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
