package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/report"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

const catalogUsage = `Usage:
  modsolver catalog stats PATH [--catalog-format F] [--helm-subcharts M] [-o table|json]
  modsolver catalog check PATH --kubernetes V [--deckhouse V] [--platform NAME=V]… [--helm-subcharts M] [-o table|json]
  modsolver catalog check --source NAME=PRIORITY:PATH… --kubernetes V [flags]
  modsolver catalog compile PATH -o FILE [--catalog-format F] [--helm-subcharts M]

stats   reads a catalog and prints its size: modules, releases, channels,
        dependency, capability and update edges, the forms its constraints
        take, and what the load skipped and why.
check   asks, for every module, whether its head release (its channel's
        version, or its newest release that is final or a prerelease its
        ecosystem's version reading takes) installs on a cluster of the
        given platform, with autoEnable so that requirements come along. It
        prints how many install, how many cannot, and the reasons that stop
        them most often: a sweep a catalog's authors can run as a CI gate.
compile writes the loaded catalog to FILE, which every command then reads
        in place of PATH without parsing it again (see
        'modsolver catalog compile --help').

PATH is a file, a DKP module-source directory or a directory of KUDO
packages. Its format is detected (modsolver, dkp, olm-bundles, olm-fbc,
helm-index, kudo, compiled) unless --catalog-format names it; a format named so that reads no module is bad input (D72).
A Helm chart's dependencies are subcharts bundled in it unless
--helm-subcharts installed (D67). KUDO packages need the platform
component kudo: check them with --platform kudo=V (D88).

Exit codes: stats 0; check 0 when every module installs, 1 when some
cannot, 2 bad input (also a catalog with no module), 3 no answer (timeout
or interrupt).
`

func runCatalog(ctx context.Context, args []string, out, errOut io.Writer) int {
	if len(args) == 0 || slices.Contains([]string{"help", "-h", "--help", "-help"}, args[0]) {
		fmt.Fprint(out, catalogUsage)
		if len(args) == 0 {
			return exitBadInput
		}
		return exitResolved
	}
	switch args[0] {
	case "stats":
		return runCatalogStats(args[1:], out, errOut)
	case "check":
		return runCatalogCheck(ctx, args[1:], out, errOut)
	case "compile":
		return runCatalogCompile(args[1:], out, errOut)
	}
	fmt.Fprintf(errOut, "modsolver catalog: unknown subcommand %q\n\n%s", args[0], catalogUsage)
	return exitBadInput
}

// catalogFlags are the flags every catalog subcommand takes.
type catalogFlags struct {
	path, format, output string
	subcharts            subchartsFlag
	// sources, when the subcommand takes them, stand in for PATH (R23).
	sources *sourcesFlag
}

func (f *catalogFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.format, "catalog-format", "auto", "catalog `format`: auto, "+formatNames())
	f.subcharts.register(fs)
	fs.StringVar(&f.output, "o", "table", "output `format`: table or json")
}

func formatNames() string {
	names := make([]string, len(catalog.Formats))
	for i, f := range catalog.Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// parseWithPath parses flags around one positional PATH, which may come
// before, between or after them.
func parseWithPath(fs *flag.FlagSet, f *catalogFlags, args []string, out, errOut io.Writer) (int, bool) {
	if i := positional(fs, args); i >= 0 {
		f.path = args[i]
		args = slices.Delete(slices.Clone(args), i, i+1)
	}
	if code, done := parseFlags(fs, args, out, errOut); done {
		return code, true
	}
	if f.path == "" && (f.sources == nil || len(f.sources.specs) == 0) {
		fmt.Fprintf(errOut, "modsolver %s: a catalog PATH is required\nRun 'modsolver %s --help' for usage.\n", fs.Name(), fs.Name())
		return exitBadInput, true
	}
	if f.output != "table" && f.output != "json" {
		fmt.Fprintf(errOut, "modsolver %s: -o must be table or json, not %q\n", fs.Name(), f.output)
		return exitBadInput, true
	}
	return 0, false
}

// positional returns the index of the first argument that is neither a
// flag nor a flag's value, or -1.
func positional(fs *flag.FlagSet, args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return i + 1
			}
			return -1
		case !strings.HasPrefix(a, "-") || a == "-":
			return i
		case strings.Contains(a, "="):
		default:
			if takesValue(fs, strings.TrimLeft(a, "-")) {
				i++
			}
		}
	}
	return -1
}

// takesValue reports whether flag name is defined and not boolean.
func takesValue(fs *flag.FlagSet, name string) bool {
	fl := fs.Lookup(name)
	if fl == nil {
		return false
	}
	b, isBool := fl.Value.(interface{ IsBoolFlag() bool })
	return !isBool || !b.IsBoolFlag()
}

func runCatalogStats(args []string, out, errOut io.Writer) int {
	var f catalogFlags
	fs := flag.NewFlagSet("catalog stats", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), catalogUsage+"\nFlags:\n"); fs.PrintDefaults() }
	f.register(fs)
	if code, done := parseWithPath(fs, &f, args, out, errOut); done {
		return code
	}
	cat, rep, err := loadAs(f.path, f.format, f.subcharts.options()...)
	if err != nil {
		return fail(errOut, err)
	}
	compiled, err := solver.Compile(cat)
	if err != nil {
		return fail(errOut, err)
	}
	st := catalog.NewStats(cat, rep)
	cst := compiled.Stats()
	if f.output == "json" {
		return printJSON(out, errOut, statsWithCompile{Stats: st, CompileMicros: cst.Duration.Microseconds(), CompiledBytes: cst.Bytes})
	}
	if err := report.Stats(out, st, rep.Warnings); err != nil {
		return fail(errOut, err)
	}
	if _, err := fmt.Fprintf(out, "\ncompiled for resolution in %s, %s of tables (estimated)\n", cst.Duration.Round(time.Microsecond), mebibytes(cst.Bytes)); err != nil {
		return fail(errOut, err)
	}
	return exitResolved
}

// statsWithCompile is `catalog stats -o json`: the catalog's stats and
// what compiling it for resolution cost.
type statsWithCompile struct {
	catalog.Stats
	CompileMicros int64 `json:"compileMicros"`
	CompiledBytes int64 `json:"compiledBytes"`
}

// mebibytes writes n bytes in MiB with one decimal.
func mebibytes(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func printJSON(out, errOut io.Writer, v any) int {
	if err := report.WriteJSON(out, v); err != nil {
		return fail(errOut, err)
	}
	return exitResolved
}

type checkFlags struct {
	catalogFlags
	deckhouse, kubernetes string
	platform              componentFlag
	top                   int
	details               bool
	workers               int
	timeout               time.Duration
}

// componentFlag collects repeated --platform NAME=VERSION flags.
type componentFlag map[string]string

func (c componentFlag) String() string { return fmt.Sprint(map[string]string(c)) }

func (c componentFlag) Set(s string) error {
	name, v, ok := strings.Cut(s, "=")
	if !ok || name == "" || v == "" {
		return fmt.Errorf("want NAME=VERSION, such as openshift=4.20")
	}
	c[name] = v
	return nil
}

func runCatalogCheck(ctx context.Context, args []string, out, errOut io.Writer) int {
	f := checkFlags{platform: componentFlag{}}
	fs := flag.NewFlagSet("catalog check", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), catalogUsage+"\nFlags:\n"); fs.PrintDefaults() }
	f.register(fs)
	f.sources = &sourcesFlag{}
	f.sources.register(fs)
	fs.StringVar(&f.kubernetes, "kubernetes", "", "the cluster's Kubernetes `version` (required)")
	fs.StringVar(&f.deckhouse, "deckhouse", "", "the cluster's DKP `version`; required when the catalog has DKP requirements or built-in modules")
	fs.Var(f.platform, "platform", "another platform component, `NAME=VERSION`, such as openshift=4.20 (repeatable)")
	fs.IntVar(&f.top, "top", 10, "show the `n` most frequent reasons")
	fs.BoolVar(&f.details, "details", false, "list every module that cannot be installed, with its reasons")
	fs.IntVar(&f.workers, "workers", 0, "solver workers (default: one per core)")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "give up after this `duration`")
	if code, done := parseWithPath(fs, &f.catalogFlags, args, out, errOut); done {
		return code
	}
	cat, err := f.checkCatalog(errOut)
	if err != nil {
		return fail(errOut, err)
	}
	if cat.Len() == 0 {
		// A gate that checked nothing must not pass (D72).
		return fail(errOut, fmt.Errorf("%s: %w: nothing to check", f.path, catalog.ErrNoModules))
	}
	cluster, err := f.cluster(cat)
	if err != nil {
		return fail(errOut, err)
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	compiled, err := solver.Compile(cat)
	if err != nil {
		return fail(errOut, err)
	}
	answers, err := sweep(ctx, compiled, cluster, f.workers, errOut)
	if err != nil {
		if ctx.Err() != nil {
			err = noAnswer(ctx, f.timeout, fmt.Sprintf("checking the catalog (%d of %d modules checked)", len(answers), cat.Len()), err)
		}
		return fail(errOut, err)
	}
	sum := solver.Summarize(answers)
	sum.ExperimentalOnly = solver.ExperimentalOnly(cat, cluster)
	if err := printCheck(out, f, sum, answers); err != nil {
		return fail(errOut, err)
	}
	if sum.Unsatisfiable > 0 || sum.Errors > 0 {
		return exitUnsatisfiable
	}
	return exitResolved
}

// checkCatalog loads PATH, or the sources (R23) merged into one catalog.
func (f *checkFlags) checkCatalog(errOut io.Writer) (*model.Catalog, error) {
	if len(f.sources.specs) > 0 {
		return f.sources.catalog(f.path, f.format, errOut, f.subcharts.options()...)
	}
	cat, _, err := loadAs(f.path, f.format, f.subcharts.options()...)
	return cat, err
}

// cluster builds the empty cluster the sweep installs into.
func (f *checkFlags) cluster(cat *model.Catalog) (*model.ClusterState, error) {
	if f.kubernetes == "" {
		return nil, fmt.Errorf("%w: --kubernetes is required", errUsage)
	}
	c := &model.ClusterState{Modules: map[string]model.ModuleState{}}
	var err error
	if c.Kubernetes, err = model.ParseVersion(f.kubernetes); err != nil {
		return nil, fmt.Errorf("--kubernetes: %w", err)
	}
	switch {
	case f.deckhouse != "":
		if c.Deckhouse, err = model.ParseVersion(f.deckhouse); err != nil {
			return nil, fmt.Errorf("--deckhouse: %w", err)
		}
	case cat.NeedsDeckhouse():
		return nil, fmt.Errorf("%w: --deckhouse is required: the catalog has DKP requirements or built-in modules", errUsage)
	}
	for name, text := range f.platform {
		if c.Platform == nil {
			c.Platform = map[string]model.Version{}
		}
		if c.Platform[name], err = model.ParseVersion(text); err != nil {
			return nil, fmt.Errorf("--platform %s: %w", name, err)
		}
	}
	return c, nil
}

// sweep runs solver.Sweep with progress on stderr for long runs.
func sweep(ctx context.Context, cat *solver.Compiled, cluster *model.ClusterState, workers int, errOut io.Writer) ([]solver.Installability, error) {
	var answers []solver.Installability
	prog := newProgress(errOut, "catalog check", "modules", cat.Catalog().Len())
	defer prog.finish()
	var opts []solver.Option
	if workers > 0 {
		opts = append(opts, solver.WithWorkers(workers))
	}
	err := cat.Sweep(ctx, cluster, func(a solver.Installability) error {
		answers = append(answers, a)
		prog.done(len(answers))
		return nil
	}, opts...)
	return answers, err
}

// printCheck prints the check as tables or as its JSON document.
func printCheck(out io.Writer, f checkFlags, sum solver.SweepSummary, answers []solver.Installability) error {
	c := &report.Check{Catalog: f.path, Summary: sum, Answers: answers, Top: f.top, Details: f.details}
	if f.output == "json" {
		return c.JSON(out)
	}
	return c.Table(out)
}
