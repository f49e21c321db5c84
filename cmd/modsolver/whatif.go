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
                   --deckhouse V1,V2,… --kubernetes K1,K2,… [-o table|json|jsonl]
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
stream; -o json prints them as one document, {"results": [...]}.

` + shardUsage + `
Exit codes: 0 every scenario answered, 2 bad input, 3 no answer (timeout or
interrupt). A scenario that is unsatisfiable is an answer, not a failure.

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
	sources                              sourcesFlag
}

func runWhatIf(ctx context.Context, args []string, out, errOut io.Writer) int {
	var f whatifFlags
	fs := flag.NewFlagSet("whatif", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), whatifUsage); fs.PrintDefaults() }
	fs.StringVar(&f.catalog, "catalog", "", "catalog `path`: a file or a DKP module-source directory (default: the embedded demo catalog)")
	fs.StringVar(&f.catalogFormat, "catalog-format", "auto", "catalog `format`: auto, "+formatNames())
	f.subcharts.register(fs)
	f.sources.register(fs)
	fs.StringVar(&f.cluster, "cluster", "", "cluster state `file` (default: the demo cluster state)")
	fs.StringVar(&f.request, "request", "", "base request `file` for the matrix (default: updateAll: true)")
	fs.StringVar(&f.scenarios, "scenarios", "", "`file` of named requests, instead of the matrix")
	fs.StringVar(&f.deckhouse, "deckhouse", "", "candidate DKP `versions`, comma-separated")
	fs.StringVar(&f.kubernetes, "kubernetes", "", "candidate Kubernetes `versions`, comma-separated")
	fs.StringVar(&f.output, "o", "table", "output `format`: table, json or jsonl")
	fs.IntVar(&f.workers, "workers", 0, "scenarios solved at once (default: one per core)")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "give up on the whole batch after this `duration`")
	fs.BoolVar(&f.noTiming, "no-timing", false, "leave stats (solve times, encoding sizes) out, so that runs and shards compare byte for byte")
	f.shard.register(fs)
	fs.BoolVar(&f.allowExperimental, "allow-experimental", false, "set allowExperimentalModules: true on the cluster state, so that Experimental releases may be selected (R25)")
	if code, done := parseFlags(fs, args, out, errOut); done {
		return code
	}
	b, err := f.batch(errOut)
	if err != nil {
		return fail(errOut, err)
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	answers, err := b.run(ctx, f, errOut)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("no answer within --timeout %s: %w", f.timeout, err)
		}
		return fail(errOut, err)
	}
	if err := b.print(out, f.output, answers); err != nil {
		return fail(errOut, err)
	}
	return exitResolved
}

// batch is a what-if batch ready to run.
type batch struct {
	cat       *model.Catalog
	cluster   *model.ClusterState
	scenarios []catalog.NamedRequest
	// matrix is set for the readiness matrix, which prints as a grid.
	matrix *matrix
	// offset is the index of scenarios[0] in the whole batch, when the
	// batch is one shard of it.
	offset int
}

// matrix is the grid of the readiness matrix: scenario i*len(kube)+j is
// deckhouse[i] × kubernetes[j].
type matrix struct {
	deckhouse, kubernetes []string
}

func (f *whatifFlags) batch(errOut io.Writer) (*batch, error) {
	switch {
	case f.output != "table" && f.output != "json" && f.output != "jsonl":
		return nil, fmt.Errorf("%w: -o %q: want table, json or jsonl", errUsage, f.output)
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
	if b.cluster, err = f.loadCluster(); err != nil {
		return nil, err
	}
	if f.allowExperimental {
		b.cluster.AllowExperimentalModules = true
	}
	// A bad cluster state is bad in every scenario: say so once.
	if err := b.cluster.Validate(b.cat); err != nil {
		return nil, err
	}
	if f.scenarios != "" {
		b.scenarios, err = catalog.LoadWhatIf(f.scenarios)
	} else {
		err = b.buildMatrix(f)
	}
	b.applyShard(sh)
	return b, err
}

func (f *whatifFlags) loadCluster() (*model.ClusterState, error) {
	if f.cluster != "" {
		return catalog.LoadCluster(f.cluster)
	}
	cluster, _, err := catalog.DemoState()
	return cluster, err
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
	b.matrix = &matrix{}
	for _, d := range dkp {
		b.matrix.deckhouse = append(b.matrix.deckhouse, model.VersionString(d))
	}
	for _, k := range kube {
		b.matrix.kubernetes = append(b.matrix.kubernetes, model.VersionString(k))
	}
	for _, d := range dkp {
		for _, k := range kube {
			req := base.Clone()
			req.Platform = model.Platform{Deckhouse: d, Kubernetes: k}
			name := fmt.Sprintf("deckhouse %s, kubernetes %s", model.VersionString(d), model.VersionString(k))
			b.scenarios = append(b.scenarios, catalog.NamedRequest{Name: name, Request: req})
		}
	}
	return nil
}

// versionList parses a comma-separated list; an empty one is "as now".
func versionList(flagName, text string, now model.Version) ([]model.Version, error) {
	if strings.TrimSpace(text) == "" {
		return []model.Version{now}, nil
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
// takes longer than a second.
func (b *batch) run(ctx context.Context, f whatifFlags, errOut io.Writer) ([]solver.Answer, error) {
	reqs := make([]*model.Request, len(b.scenarios))
	for i, s := range b.scenarios {
		reqs[i] = s.Request
	}
	var opts []solver.Option
	if f.workers > 0 {
		opts = append(opts, solver.WithWorkers(f.workers))
	}
	if f.output == "table" {
		// The matrix prints no held-back reasons; JSON carries whole answers.
		opts = append(opts, solver.WithoutHeldBack())
	}
	answers := make([]solver.Answer, len(reqs))
	progress := newProgress(errOut, "whatif", "scenarios", len(reqs))
	compiled, err := solver.Compile(b.cat)
	if err != nil {
		return nil, err
	}
	err = compiled.WhatIf(ctx, b.cluster, reqs, func(i int, a solver.Answer) error {
		if a.Result != nil && f.noTiming {
			// On a shared encoding the other stats count the worker's
			// work too, which depends on the workers and the shard (D53).
			a.Result.Stats = model.Stats{}
		}
		answers[i] = a
		progress.done(i + 1)
		return nil
	}, opts...)
	progress.finish()
	return answers, err
}

func (b *batch) print(out io.Writer, format string, answers []solver.Answer) error {
	switch format {
	case "json":
		return b.printJSON(out, answers)
	case "jsonl":
		return b.printJSONLines(out, answers)
	}
	if b.matrix != nil {
		if common := commonBlock(answers); common != nil {
			b.printCommonBlock(out, common)
			return nil
		}
		b.printGrid(out, answers)
	}
	b.printDetails(out, answers)
	return nil
}

// commonBlock returns the explanation every cell of a matrix shares when
// every cell is blocked by the same facts and none of them is about a
// platform version: then no candidate platform changes anything (the
// cluster is inconsistent as it is), and the matrix says that once
// instead of in every cell. It returns nil otherwise.
func commonBlock(answers []solver.Answer) *model.Result {
	var first *model.Result
	for _, a := range answers {
		if a.Err != nil || a.Result.Status != model.StatusUnsatisfiable {
			return nil
		}
		if first == nil {
			first = a.Result
		}
		if !slices.Equal(a.Result.Explanation.Facts, first.Explanation.Facts) {
			return nil
		}
	}
	if first == nil || slices.ContainsFunc(first.Explanation.Facts, model.Fact.AboutPlatform) {
		return nil
	}
	return first
}

// printCommonBlock prints the one reason that blocks every cell.
func (b *batch) printCommonBlock(out io.Writer, res *model.Result) {
	fmt.Fprintf(out, "every scenario is blocked for one reason that no platform version changes (%d DKP × %d Kubernetes versions):\n",
		len(b.matrix.deckhouse), len(b.matrix.kubernetes))
	fmt.Fprintf(out, "  %s\n", res.Explanation.Summary)
	for _, s := range res.Explanation.Suggestions {
		fmt.Fprintf(out, "  suggestion: %s\n", s.Message)
	}
}

// printJSON prints {"results": [WhatIfResult…]}, each result in the
// protojson form the gRPC WhatIf stream returns.
func (b *batch) printJSON(out io.Writer, answers []solver.Answer) error {
	results := make([]json.RawMessage, len(answers))
	for i, a := range answers {
		data, err := server.MarshalJSON(whatIfResult(b.offset+i, b.scenarios[i].Name, a))
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

func whatIfResult(i int, name string, a solver.Answer) *modsolverv1.WhatIfResult {
	return server.WhatIfResult(i, name, a.Result, a.Err)
}

// printGrid prints the readiness matrix: DKP versions down, Kubernetes
// versions across, one verdict per cell.
func (b *batch) printGrid(out io.Writer, answers []solver.Answer) {
	m := b.matrix
	rows := [][]string{append([]string{"DKP \\ KUBERNETES"}, m.kubernetes...)}
	for i, d := range m.deckhouse {
		row := []string{d}
		for j := range m.kubernetes {
			row = append(row, b.verdict(answers[i*len(m.kubernetes)+j]))
		}
		rows = append(rows, row)
	}
	report.Columns(out, rows)
	fmt.Fprintln(out)
}

// verdict is one cell: OK, OK with updates, or the blockers.
func (b *batch) verdict(a solver.Answer) string {
	switch {
	case a.Err != nil:
		return "error"
	case a.Result.Status == model.StatusUnsatisfiable:
		return "blocked: " + strings.Join(blockers(a.Result), ", ")
	}
	if n := len(b.updates(a.Result)); n > 0 {
		return fmt.Sprintf("ok, %d to update", n)
	}
	return "ok"
}

// printDetails prints, per scenario, the updates or the explanation.
func (b *batch) printDetails(out io.Writer, answers []solver.Answer) {
	for i, a := range answers {
		fmt.Fprintf(out, "%s: ", b.scenarios[i].Name)
		switch {
		case a.Err != nil:
			fmt.Fprintf(out, "bad input: %v\n", a.Err)
		case a.Result.Status == model.StatusUnsatisfiable:
			fmt.Fprintf(out, "blocked\n  %s\n", a.Result.Explanation.Summary)
			for _, s := range a.Result.Explanation.Suggestions {
				fmt.Fprintf(out, "  suggestion: %s\n", s.Message)
			}
		default:
			ups := b.updates(a.Result)
			fmt.Fprintf(out, "ok, %d to update\n", len(ups))
			for _, u := range ups {
				fmt.Fprintf(out, "  %s\n", u)
			}
		}
	}
}

// updates lists the modules a resolved answer changes, as "name: from →
// to". Built-in modules that stay on follow the platform and are left out.
func (b *batch) updates(res *model.Result) []string {
	var out []string
	for _, m := range res.Modules {
		if mod := b.cat.Module(m.Name); mod != nil && mod.Embedded && m.Action != model.ActionDisable {
			continue
		}
		switch m.Action {
		case model.ActionUpdate, model.ActionDowngrade, model.ActionInstall:
			out = append(out, fmt.Sprintf("%s %s: %s → %s", m.Name, m.Action, dashIfEmpty(m.FromVersion), m.ToVersion))
		case model.ActionDisable:
			out = append(out, fmt.Sprintf("%s disable: %s", m.Name, dashIfEmpty(m.FromVersion)))
		}
	}
	return out
}

// blockers names the modules whose platform requirements an unsatisfiable
// answer cites, or else the modules of its facts.
func blockers(res *model.Result) []string {
	var platform, all []string
	for _, f := range res.Explanation.Facts {
		if f.Module == "" {
			continue
		}
		if f.Kind == model.FactDeckhouseRequirement || f.Kind == model.FactKubernetesRequirement {
			platform = append(platform, f.Module)
		}
		all = append(all, f.Module)
	}
	if len(platform) > 0 {
		all = platform
	}
	slices.Sort(all)
	return slices.Compact(all)
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
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
