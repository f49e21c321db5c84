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
  modsolver catalog stats --source NAME=PRIORITY:PATH… [flags]
  modsolver catalog check PATH --kubernetes V [--deckhouse V] [--edition E] [--bundle B]
                          [--platform NAME=V]… [--helm-subcharts M] [-o table|json]
  modsolver catalog check --source NAME=PRIORITY:PATH… --kubernetes V [flags]
  modsolver catalog compile PATH -o FILE [--catalog-format F] [--helm-subcharts M]

stats   reads a catalog and prints its size: modules, releases, channels,
        dependency, capability and update edges, the forms its constraints
        take, and what the load skipped and why.
check   asks, for every module, whether its head release (its channel's
        version, or its newest release that is final or a prerelease its
        ecosystem's version reading takes) installs on a cluster of the
        given platform (and edition and bundle, as resolve takes them), with
        autoEnable so that requirements come along. It prints how many
        install, how many cannot, and the reasons that stop them most
        often: a sweep a catalog's authors can run as a CI gate. Without
        --edition the cluster names no edition, so a module that DKP ships
        in some editions only cannot install.
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

// load reads PATH, or the sources (R23) merged into one catalog, as
// resolve reads --catalog and --source.
func (f *catalogFlags) load() (*model.Catalog, *catalog.Report, error) {
	if f.sources == nil || len(f.sources.specs) == 0 {
		return loadAs(f.path, f.format, f.subcharts.options()...)
	}
	if f.path != "" {
		return nil, nil, fmt.Errorf("%w: give PATH or --source, not both", errUsage)
	}
	return catalog.LoadSources(f.sources.specs, f.subcharts.options()...)
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
	if f.output != "table" && f.output != "json" && (f.output != "sarif" || fs.Name() != "catalog check") {
		want := "table or json"
		if fs.Name() == "catalog check" {
			want = "table, json or sarif"
		}
		fmt.Fprintf(errOut, "modsolver %s: -o must be %s, not %q\n", fs.Name(), want, f.output)
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
	f := catalogFlags{sources: &sourcesFlag{}}
	fs := flag.NewFlagSet("catalog stats", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), catalogUsage+"\nFlags:\n"); fs.PrintDefaults() }
	f.register(fs)
	f.sources.register(fs)
	if code, done := parseWithPath(fs, &f, args, out, errOut); done {
		return code
	}
	cat, rep, err := f.load()
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
	// facts are --kubernetes, --deckhouse, --edition and --bundle, read
	// as resolve reads them (cluster.go).
	facts    factFlags
	platform componentFlag
	top      int
	details  bool
	workers  int
	timeout  time.Duration
	// builtIn, alsoBuiltIn and noReleases are the modules the check
	// leaves out, once the catalog is read (notChecked).
	builtIn     int
	alsoBuiltIn []string
	noReleases  int
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
	f.facts.registerCheck(fs)
	fs.Var(f.platform, "platform", "another platform component, `NAME=VERSION`, such as openshift=4.20 (repeatable)")
	intVar(fs, &f.top, "top", 10, 0, "show the `n` most frequent reasons")
	fs.Lookup("o").Usage = "output `format`: table, json, or sarif (SARIF 2.1.0: one result per module that cannot be installed, at the manifest line that keeps it off)"
	fs.BoolVar(&f.details, "details", false, "list every module that cannot be installed, with its reasons")
	intVar(fs, &f.workers, "workers", 0, 0, "solver `workers` (default: one per core)")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "give up after this `duration`")
	if code, done := parseWithPath(fs, &f.catalogFlags, args, out, errOut); done {
		return code
	}
	cat, rep, err := f.load()
	if err != nil {
		return fail(errOut, err)
	}
	if len(f.sources.specs) > 0 {
		printLoadReport(errOut, rep, f.sources.verbose)
	}
	f.path = rep.Source
	f.builtIn, f.alsoBuiltIn, f.noReleases = notChecked(cat)
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
	if err := printCheck(out, f, cluster, sum, answers); err != nil {
		return fail(errOut, err)
	}
	if sum.Unsatisfiable > 0 || sum.Errors > 0 {
		return exitUnsatisfiable
	}
	return exitResolved
}

// cluster builds the empty cluster the sweep installs into, of the
// platform, edition and bundle the flags give, checked against the
// catalog as resolve checks a cluster state: an edition or bundle its
// platform data does not list is bad input, one it lists in another case
// is spelled as it does (D351).
func (f *checkFlags) cluster(cat *model.Catalog) (*model.ClusterState, error) {
	switch {
	case f.facts.kubernetes == "":
		return nil, fmt.Errorf("%w: --kubernetes is required", errUsage)
	case f.facts.deckhouse == "" && cat.NeedsDeckhouse():
		return nil, fmt.Errorf("%w: --deckhouse is required: the catalog has DKP requirements or built-in modules", errUsage)
	}
	c, err := f.facts.given()
	if err != nil {
		return nil, err
	}
	c.Modules = map[string]model.ModuleState{}
	for name, text := range f.platform {
		if c.Platform == nil {
			c.Platform = map[string]model.Version{}
		}
		if c.Platform[name], err = model.ParseVersion(text); err != nil {
			return nil, fmt.Errorf("--platform %s: %w", name, err)
		}
	}
	if err := c.Validate(cat); err != nil {
		return nil, err
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
func printCheck(out io.Writer, f checkFlags, cluster *model.ClusterState, sum solver.SweepSummary, answers []solver.Installability) error {
	c := &report.Check{Catalog: f.path, Cluster: cluster, Summary: sum, Answers: answers, Top: f.top, Details: f.details,
		BuiltIn: f.builtIn, AlsoBuiltIn: f.alsoBuiltIn, NoReleases: f.noReleases}
	switch f.output {
	case "json":
		return c.JSON(out)
	case "sarif":
		return c.SARIF(out)
	}
	return c.Table(out)
}

// notChecked is what of cat the sweep does not install into check's
// empty cluster (D415): the built-in modules and, by name, a source's
// modules the platform also carries built in (R29), which run with the
// platform, and the modules without releases of their own.
func notChecked(cat *model.Catalog) (builtIn int, alsoBuiltIn []string, noReleases int) {
	for _, m := range cat.Modules() {
		switch {
		case m.Embedded:
			builtIn++
		case m.BuiltInSource() != "":
			alsoBuiltIn = append(alsoBuiltIn, m.Name)
		case len(m.Releases) == 0:
			noReleases++
		}
	}
	return builtIn, alsoBuiltIn, noReleases
}
