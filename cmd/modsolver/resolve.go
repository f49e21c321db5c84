package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/report"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/server"
	"github.com/modsolver/modsolver/solver"
)

const resolveUsage = `Usage:
  modsolver resolve --catalog PATH --cluster FILE --request FILE [-o table|json]
  modsolver resolve --source NAME=PRIO:PATH... --cluster FILE --request FILE
  modsolver resolve --scenario FILE [-o table|json]
  modsolver resolve                  (the embedded demo catalog, cluster and request)

Resolves one request. The catalog is a single YAML or JSON file in
modsolver's format, a directory in DKP's module-source layout, an OLM
bundle dump or file-based catalog, or a Helm repository index; its format
is detected unless --catalog-format names it. Without --catalog, the
embedded demo catalog is used. A scenario file holds all
three inputs (and the expectations of a test, which resolve ignores).
Several catalogs resolve as sources with priorities (R23): repeat
--source name=priority:path, each in any format.

Prints the answer: the modules with their actions, the ordered plan, or,
when no consistent answer exists, a minimal explanation with suggestions.
With -o json it prints exactly the ResolveResponse the gRPC service returns.

` + clusterUsage + `
Exit codes: 0 resolved, 1 unsatisfiable, 2 bad input, 3 no answer.

Flags:
`

type resolveFlags struct {
	catalogInput
	cluster, request, scenario string
	output                     string
	timeout                    time.Duration
	noTiming                   bool
	report                     string
	devel                      bool
	facts                      factFlags // cluster.go
	// all lists, in the table, the modules and plan steps that keep
	// their version too (D398).
	all bool
}

func runResolve(ctx context.Context, args []string, out, errOut io.Writer) int {
	var f resolveFlags
	fs := flag.NewFlagSet("resolve", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.Usage = func() { fmt.Fprint(fs.Output(), resolveUsage); fs.PrintDefaults() }
	f.catalogInput.register(fs)
	fs.StringVar(&f.cluster, "cluster", "", "cluster state `file`: modsolver's (YAML or JSON) or a kubectl dump of DKP's resources")
	f.facts.register(fs, true)
	fs.StringVar(&f.request, "request", "", "request `file` (YAML or JSON)")
	fs.StringVar(&f.scenario, "scenario", "", "scenario `file` holding catalog, cluster and request")
	fs.StringVar(&f.output, "o", "table", "output `format`: table or json")
	fs.BoolVar(&f.all, "all", false, "list in the table the modules and plan steps that keep their version too (JSON always has them)")
	fs.DurationVar(&f.timeout, "timeout", time.Minute, "give up after this `duration`")
	fs.StringVar(&f.report, "report", "", "which modules to list: all or changes (default: the request's report)")
	fs.BoolVar(&f.noTiming, "no-timing", false, "leave stats.solveMicros out, so that runs compare byte for byte")
	fs.BoolVar(&f.devel, "devel", false, "set devel: true on the request: every range admits prereleases, as Helm's --devel (R6)")
	if code, done := parseFlags(fs, args, out, errOut); done {
		return code
	}
	if f.timeout <= 0 {
		return fail(errOut, fmt.Errorf("%w: --timeout %s: want a positive duration", errUsage, f.timeout))
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	in, err := loadWithin(ctx, f.timeout, "reading the inputs", errOut, f.inputs)
	if err != nil {
		return fail(errOut, err)
	}
	if f.report != "" {
		in.req.Report = model.Report(f.report)
	}
	in.req.Devel = in.req.Devel || f.devel
	warnUnknownPlatform(errOut, in.cat, in.cluster, []*model.Request{in.req})
	compiled, err := solver.Compile(in.cat)
	if err != nil {
		return fail(errOut, err)
	}
	res, err := compiled.Solve(ctx, in.cluster, in.req)
	if ctx.Err() != nil {
		err = noAnswer(ctx, f.timeout, "resolving the request", err)
	}
	if err = in.place(err); f.scenario == "" && f.cluster != "" {
		err = f.sources.demoCatalogNote(f.catalog, err)
	}
	if err != nil {
		return fail(errOut, err)
	}
	if f.noTiming {
		res.Stats.SolveMicros = 0
	}
	placeFacts(res, in.origins...)
	if err := printResult(out, f.output, res, f.sources.verbose, f.all); err != nil {
		return fail(errOut, err)
	}
	return resultCode(res)
}

// parseFlags parses args; done is true when the command should stop with
// code. Help goes to out; a bad flag is one line on errOut with a hint,
// and an int flag below its least value (intFlag) is bad command-line
// input.
func parseFlags(fs *flag.FlagSet, args []string, out, errOut io.Writer) (code int, done bool) {
	usage := fs.Usage
	fs.Usage = func() {} // printed below, once, where it belongs
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(out)
		fs.Usage()
		return exitResolved, true
	case err == nil && fs.NArg() > 0:
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case err == nil:
		if err := checkInts(fs); err != nil {
			return fail(errOut, err), true
		}
		return 0, false
	}
	fmt.Fprintf(errOut, "modsolver %s: %v\nRun 'modsolver %s --help' for usage.\n", fs.Name(), err, fs.Name())
	return exitBadInput, true
}

type inputs struct {
	cat     *model.Catalog
	cluster *model.ClusterState
	req     *model.Request
	// origins are where the cluster state and the request were read, to
	// name the file and line of bad input found when they meet the
	// catalog.
	origins []catalog.Origin
}

// place names, in err, the files and lines of the inputs it is about.
func (in *inputs) place(err error) error {
	for _, o := range in.origins {
		err = o.Place(err)
	}
	return err
}

// inputs loads what the flags name.
func (f *resolveFlags) inputs(errOut io.Writer) (*inputs, error) {
	if f.timeout <= 0 {
		return nil, fmt.Errorf("%w: --timeout %s: want a positive duration", errUsage, f.timeout)
	}
	if f.output != "table" && f.output != "json" {
		return nil, fmt.Errorf("%w: -o %q: want table or json", errUsage, f.output)
	}
	if f.scenario != "" {
		if f.catalog != "" || f.cluster != "" || f.request != "" || len(f.sources.specs) > 0 || f.facts != (factFlags{}) {
			return nil, fmt.Errorf("%w: --scenario holds the catalog, cluster and request; do not give them too, nor the cluster's facts", errUsage)
		}
		sc, err := catalog.LoadScenario(f.scenario)
		if err != nil {
			return nil, err
		}
		printLoadReport(errOut, sc.Report, f.sources.verbose)
		return &inputs{sc.Catalog, sc.Cluster, sc.Request, []catalog.Origin{sc.Origin("cluster"), sc.Origin("request")}}, nil
	}
	if f.catalog == "" && f.cluster == "" && f.request == "" && len(f.sources.specs) == 0 {
		fmt.Fprintln(errOut, "modsolver: no inputs given; resolving the embedded demo request")
		return demoInputs()
	}
	if f.cluster == "" || f.request == "" {
		return nil, fmt.Errorf("%w: resolve needs --cluster and --request (or --scenario)", errUsage)
	}
	given, err := f.facts.given()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errUsage, err)
	}
	return f.load(given, errOut)
}

// load reads the catalog, the cluster state and the request the flags
// name; given holds the cluster's facts the flags give.
func (f *resolveFlags) load(given *model.ClusterState, errOut io.Writer) (*inputs, error) {
	cat, err := f.readCatalog(errOut)
	if err != nil {
		return nil, err
	}
	cluster, err := loadCluster(f.cluster, cat, given, nil, errOut)
	if err != nil {
		return nil, err
	}
	req, err := catalog.LoadRequest(f.request)
	if err != nil {
		return nil, err
	}
	return &inputs{cat, cluster, req, inputOrigins(f.cluster, f.request, f.facts.fields())}, nil
}

// placeFacts names, in res's explanation, the file and line of each fact
// read from a field of the inputs at origins (catalog.Origin.PlaceFacts).
func placeFacts(res *model.Result, origins ...catalog.Origin) {
	if res == nil {
		return
	}
	for _, o := range origins {
		o.PlaceFacts(res.Explanation)
	}
}

// inputOrigins are where a cluster state file and a request file were
// read from, with the cluster's fields given beside the file.
func inputOrigins(cluster, request string, given []string) []catalog.Origin {
	return []catalog.Origin{catalog.ClusterOrigin(cluster, given...), catalog.RequestOrigin(request)}
}

// loadCatalog reads a catalog path in format (a name; "auto" or "" to
// detect it), or the demo catalog for path "".
func loadCatalog(path, format string, errOut io.Writer, verbose bool, opts ...catalog.Option) (*model.Catalog, error) {
	if path == "" {
		return catalog.Demo()
	}
	cat, rep, err := loadAs(path, format, opts...)
	if err != nil {
		return nil, err
	}
	printLoadReport(errOut, rep, verbose)
	return cat, nil
}

// printLoadReport prints the loader's report on stderr when it skipped or
// warned of something, the same way for --catalog, --source and a
// scenario's catalog: in full with -v (verbose), else one line that
// counts the notes, so that an error or answer that follows is not lost
// under notes that every run on the same catalog repeats (D211).
func printLoadReport(errOut io.Writer, rep *catalog.Report, verbose bool) {
	switch {
	case rep == nil || (len(rep.Skipped) == 0 && len(rep.Warnings) == 0):
	case verbose:
		fmt.Fprintln(errOut, rep.Summary())
	default:
		var notes []string
		if n := len(rep.Skipped); n > 0 {
			notes = append(notes, fmt.Sprintf("skipped %d", n))
		}
		if n := len(rep.Warnings); n > 0 {
			notes = append(notes, fmt.Sprintf("warnings %d", n))
		}
		fmt.Fprintf(errOut, "%s; %s (-v lists them)\n", rep.Headline(), strings.Join(notes, ", "))
	}
}

// loadAs reads the catalog at path in the format --catalog-format names.
func loadAs(path, format string, opts ...catalog.Option) (*model.Catalog, *catalog.Report, error) {
	f, err := catalog.ParseFormatName(format)
	if err != nil {
		return nil, nil, fmt.Errorf("--catalog-format: %w", err)
	}
	return catalog.LoadFormat(path, f, opts...)
}

// subchartsFlag is --helm-subcharts, how a Helm index's dependencies are
// read (D67).
type subchartsFlag struct{ mode catalog.HelmSubcharts }

func (s *subchartsFlag) register(fs *flag.FlagSet) {
	s.mode = catalog.SubchartsBundled
	fs.Func("helm-subcharts", "Helm chart dependencies are `bundled` in their chart (the default, as Helm packages them) or installed as releases of their own", func(text string) error {
		m, err := catalog.ParseHelmSubcharts(text)
		s.mode = m
		return err
	})
}

// options are the importer options the flag sets.
func (s *subchartsFlag) options() []catalog.Option {
	return []catalog.Option{catalog.WithHelmSubcharts(s.mode)}
}

func demoInputs() (*inputs, error) {
	cat, err := catalog.Demo()
	if err != nil {
		return nil, err
	}
	cluster, req, err := catalog.DemoState()
	if err != nil {
		return nil, err
	}
	return &inputs{cat: cat, cluster: cluster, req: req}, nil
}

// printResult prints the answer as a table or as the gRPC response's
// JSON; verbose (-v) ends the table with the solver's figures, which JSON
// always carries as stats.
func printResult(out io.Writer, format string, res *model.Result, verbose, all bool) error {
	if format == "table" {
		var opts []report.ResultOption
		if verbose {
			opts = append(opts, report.WithStats())
		}
		if all {
			opts = append(opts, report.WithAll())
		}
		return report.Result(out, res, opts...)
	}
	data, err := server.MarshalJSON(server.Response(res))
	if err != nil {
		return err
	}
	_, err = out.Write(data)
	return err
}
