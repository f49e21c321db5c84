package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/client"
	"github.com/modsolver/modsolver/internal/report"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// `modsolver call` is the command line's client of a running service
// (D410): one method of modsolver.v1.Resolver a call, its inputs read as
// resolve reads them, its answer printed as resolve prints it. The
// service is dialled through the client package.

const callUsage = `Usage:
  modsolver call resolve  --cluster FILE --request FILE [--catalog-name NAME] [-o table|json] [flags]
  modsolver call resolve  --scenario FILE [-o table|json] [flags]
  modsolver call explain  (resolve's inputs)   the explanation of a request known to fail
  modsolver call whatif   --cluster FILE --scenarios FILE [--accept RISKS] [-o table|json|jsonl]
  modsolver call catalogs [-o table|json]       the catalogs the service serves
  modsolver call module   NAME [--catalog-name NAME] [-o table|json]

Calls a running modsolver service (modsolver serve) over gRPC at --addr
(default localhost:50051), as grpcurl would, and prints the answer as the
local command does: call resolve prints what resolve prints for the same
inputs, the table or, with -o json, the ResolveResponse, and exits as it
does. The inputs are read here and travel in the request: the cluster
state (modsolver's file, or a kubectl dump, which the service reads with
--kubernetes, --edition and the other facts given beside it), the request,
and a scenario's catalog, inline. Otherwise the catalog is one the service
serves: --catalog-name NAME (default: its default catalog), or several as
sources, --source NAME[=PRIORITY] repeated (R23). call catalogs lists them.

TLS, as serve offers it: --tls-ca-file trusts that CA's certificates (PEM)
and turns TLS on; --tls alone trusts the system's roots; --tls-cert-file
and --tls-private-key-file present a client certificate (mutual TLS,
serve --client-ca-file); --tls-server-name is the name the server's
certificate must hold, when it is not --addr's host. Without them the call
is plaintext.

Exit codes: 0 resolved (or, for whatif, catalogs and module, answered),
1 unsatisfiable, 2 bad input (flags or files here, or the service's
INVALID_ARGUMENT or NOT_FOUND, each field violation on a line of its own),
3 no answer (UNAVAILABLE, DEADLINE_EXCEEDED after --timeout,
RESOURCE_EXHAUSTED, an internal error of the service).

Run 'modsolver call METHOD --help' for a method's flags.
`

// callMethod is one method of the service the command line calls.
type callMethod struct {
	name, usage string
	// register adds the method's own flags.
	register func(fs *flag.FlagSet, f *callFlags)
	call     func(ctx context.Context, c *client.Client, f *callFlags, out io.Writer) (int, error)
}

var callMethods = []callMethod{
	{"resolve", "resolve one request, as modsolver resolve does", registerResolveInputs, callResolve},
	{"explain", "explain a request known to fail (R16)", registerResolveInputs, callExplain},
	{"whatif", "answer a batch of named requests (whatif --scenarios)", registerWhatIfInputs, callWhatIf},
	{"catalogs", "list the served catalogs", func(*flag.FlagSet, *callFlags) {}, callCatalogs},
	{"module", "describe one module of a served catalog", func(fs *flag.FlagSet, f *callFlags) {
		fs.StringVar(&f.catalogName, "catalog-name", "", "the served catalog's `name` (default: the service's default catalog)")
	}, callModule},
}

// callFlags are the flags of every method; each registers the ones it
// reads.
type callFlags struct {
	addr, output                          string
	tls                                   bool
	caFile, certFile, keyFile, serverName string
	timeout                               time.Duration

	catalogName                           string
	sources                               servedSources
	cluster, request, scenario, scenarios string
	facts                                 factFlags
	accept                                acceptFlag
	noTiming, verbose, all                bool
	module                                string // call module's NAME
}

func runCall(ctx context.Context, args []string, out, errOut io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help" {
		w := out
		if len(args) == 0 {
			w = errOut
		}
		fmt.Fprint(w, callUsage)
		if len(args) == 0 {
			return exitBadInput
		}
		return exitResolved
	}
	m, ok := findCallMethod(args[0])
	if !ok {
		fmt.Fprintf(errOut, "modsolver call: unknown method %q%s\n\n%s", args[0], callMethodHint(args[0]), callUsage)
		return exitBadInput
	}
	f := &callFlags{}
	fs := flag.NewFlagSet("call "+m.name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage of modsolver call %s: %s.\n\n%sFlags:\n", m.name, m.usage, callUsage[strings.Index(callUsage, "Calls a"):strings.Index(callUsage, "Run 'modsolver call")])
		fs.PrintDefaults()
	}
	f.registerConnection(fs, m.name)
	m.register(fs, f)
	rest := args[1:]
	if m.name == "module" {
		f.module, rest = takeName(fs, rest)
	}
	if code, done := parseFlags(fs, rest, out, errOut); done {
		return code
	}
	if m.name == "module" && f.module == "" {
		return fail(errOut, fmt.Errorf("%w: call module needs the module's NAME: modsolver call module NAME", errUsage))
	}
	if err := f.checkOutput(m.name); err != nil {
		return fail(errOut, err)
	}
	opts, err := f.clientOptions()
	if err != nil {
		return fail(errOut, err)
	}
	c, err := client.New(f.addr, opts...)
	if err != nil {
		return fail(errOut, fmt.Errorf("%w: --addr %s: %w", errUsage, f.addr, err))
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	code, err := m.call(ctx, c, f, out)
	if err != nil {
		return callFail(errOut, m.name, f.addr, err)
	}
	return code
}

// takeName takes call module's NAME out of args, before, between or after
// the flags of fs: the first argument that is neither a flag nor a
// flag's value.
func takeName(fs *flag.FlagSet, args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" || !strings.HasPrefix(arg, "-") || arg == "-" {
			if arg == "--" {
				i++
			}
			if i < len(args) {
				return args[i], slices.Delete(slices.Clone(args), i, i+1)
			}
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if fl := fs.Lookup(name); fl != nil && !hasValue {
			if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				i++ // the flag's value
			}
		}
	}
	return "", args
}

func findCallMethod(name string) (callMethod, bool) {
	for _, m := range callMethods {
		if m.name == name {
			return m, true
		}
	}
	return callMethod{}, false
}

// callMethodHint is "; did you mean "resolve"?" for a misspelt method.
func callMethodHint(name string) string {
	var names []string
	for _, m := range callMethods {
		names = append(names, m.name)
	}
	if near := model.Nearest(name, names); len(near) > 0 {
		return fmt.Sprintf("; did you mean %q?", near[0])
	}
	return ""
}

// registerConnection adds the flags of every method: where the service
// is, how to reach it, and the output.
func (f *callFlags) registerConnection(fs *flag.FlagSet, method string) {
	fs.StringVar(&f.addr, "addr", "localhost:50051", "the service's `address`, host:port, or a gRPC target such as dns:///modsolver.ns.svc:50051")
	fs.BoolVar(&f.tls, "tls", false, "call over TLS, trusting the system's roots (implied by the other --tls flags)")
	fs.StringVar(&f.caFile, "tls-ca-file", "", "PEM CA `file` to trust for the server's certificate (TLS)")
	fs.StringVar(&f.certFile, "tls-cert-file", "", "PEM client certificate `file`, for mutual TLS (serve --client-ca-file)")
	fs.StringVar(&f.keyFile, "tls-private-key-file", "", "PEM private key `file` of --tls-cert-file")
	fs.StringVar(&f.serverName, "tls-server-name", "", "the `name` the server's certificate must hold (default: --addr's host)")
	fs.DurationVar(&f.timeout, "timeout", time.Minute, "give up after this `duration` (the call's deadline; the service may have a sooner one)")
	formats := "table or json"
	if method == "whatif" {
		formats = "table, json or jsonl"
	}
	fs.StringVar(&f.output, "o", "table", "output `format`: "+formats)
}

// registerResolveInputs adds resolve's inputs, for resolve and explain.
func registerResolveInputs(fs *flag.FlagSet, f *callFlags) {
	f.registerCatalog(fs)
	fs.StringVar(&f.request, "request", "", "request `file` (YAML or JSON)")
	fs.StringVar(&f.scenario, "scenario", "", "scenario `file` holding catalog, cluster and request; its catalog travels inline unless --catalog-name or --source names a served one")
	fs.BoolVar(&f.noTiming, "no-timing", false, "leave stats.solveMicros out, so that calls compare byte for byte")
	fs.BoolVar(&f.verbose, "v", false, "end the table with the solver's figures")
	fs.BoolVar(&f.all, "all", false, "list in the table the modules and plan steps that keep their version too (JSON always has them)")
}

// registerWhatIfInputs adds whatif's inputs.
func registerWhatIfInputs(fs *flag.FlagSet, f *callFlags) {
	f.registerCatalog(fs)
	fs.StringVar(&f.scenarios, "scenarios", "", "`file` of named requests, as whatif --scenarios reads it (required)")
	fs.Var(&f.accept, "accept", "accept the risks of these `modules or fact kinds` (R30), comma-separated or repeated")
	fs.BoolVar(&f.noTiming, "no-timing", false, "leave stats (solve times, encoding sizes) out, so that calls compare byte for byte")
}

// registerCatalog adds the catalog and the cluster state of a request.
func (f *callFlags) registerCatalog(fs *flag.FlagSet) {
	fs.StringVar(&f.catalogName, "catalog-name", "", "the served catalog's `name` (default: the service's default catalog)")
	fs.Var(&f.sources, "source", "a served catalog as one source, `NAME[=PRIORITY]` (R23; repeatable), instead of --catalog-name")
	fs.StringVar(&f.cluster, "cluster", "", "cluster state `file`: modsolver's or a kubectl dump of DKP's resources; - reads standard input")
	f.facts.register(fs, true)
}

func (f *callFlags) checkOutput(method string) error {
	switch {
	case f.output == "table" || f.output == "json" || (f.output == "jsonl" && method == "whatif"):
		return nil
	case method == "whatif":
		return fmt.Errorf("%w: -o %q: want table, json or jsonl", errUsage, f.output)
	}
	return fmt.Errorf("%w: -o %q: want table or json", errUsage, f.output)
}

// clientOptions are the client's TLS settings the flags give; none for
// plaintext.
func (f *callFlags) clientOptions() ([]client.Option, error) {
	if !f.tls && f.caFile == "" && f.certFile == "" && f.keyFile == "" && f.serverName == "" {
		return nil, nil
	}
	if (f.certFile == "") != (f.keyFile == "") {
		return nil, fmt.Errorf("%w: --tls-cert-file and --tls-private-key-file go together", errUsage)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: f.serverName}
	if f.caFile != "" {
		data, err := os.ReadFile(f.caFile)
		if err != nil {
			return nil, fmt.Errorf("%w: --tls-ca-file: %w", model.ErrInvalidInput, err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(data) {
			return nil, fmt.Errorf("%w: --tls-ca-file %s: no PEM certificate in it", model.ErrInvalidInput, f.caFile)
		}
	}
	if f.certFile != "" {
		cert, err := tls.LoadX509KeyPair(f.certFile, f.keyFile)
		if err != nil {
			return nil, fmt.Errorf("%w: --tls-cert-file, --tls-private-key-file: %w", model.ErrInvalidInput, err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return []client.Option{client.WithTLS(cfg)}, nil
}

// servedSources is --source NAME[=PRIORITY], repeated: served catalogs as
// the sources of one resolution (R23).
type servedSources []*modsolverv1.SourceRef

func (s *servedSources) String() string {
	var parts []string
	for _, r := range *s {
		parts = append(parts, r.GetCatalogName())
	}
	return strings.Join(parts, ",")
}

func (s *servedSources) Set(text string) error {
	name, prio, hasPrio := strings.Cut(text, "=")
	if name == "" {
		return errors.New("want NAME or NAME=PRIORITY, a served catalog's name")
	}
	ref := &modsolverv1.SourceRef{CatalogName: name}
	if hasPrio {
		p, err := strconv.ParseInt(prio, 10, 32)
		if err != nil {
			return fmt.Errorf("priority %q: want a whole number", prio)
		}
		ref.Priority = new(int32(p))
	}
	*s = append(*s, ref)
	return nil
}

// callInputs are a request's catalog, cluster state and request, in
// their proto form.
type callInputs struct {
	catalogName, inline string
	cluster             *modsolverv1.ClusterState
	request             *modsolverv1.Request
	// origins are where the cluster state and the request were read, so
	// that an explanation's facts name the file and line as resolve's do.
	origins []catalog.Origin
}

// resolveInputs reads what resolve and explain send: --cluster and
// --request, or --scenario.
func (f *callFlags) resolveInputs() (*callInputs, error) {
	if f.catalogName != "" && len(f.sources) > 0 {
		return nil, fmt.Errorf("%w: give --catalog-name or --source, not both", errUsage)
	}
	if f.scenario != "" {
		return f.scenarioInputs()
	}
	if f.cluster == "" || f.request == "" {
		return nil, fmt.Errorf("%w: call needs --cluster and --request (or --scenario)", errUsage)
	}
	cluster, err := f.clusterProto()
	if err != nil {
		return nil, err
	}
	req, err := catalog.LoadRequest(f.request)
	if err != nil {
		return nil, err
	}
	return &callInputs{catalogName: f.catalogName, cluster: cluster, request: server.RequestProto(req), origins: inputOrigins(f.cluster, f.request, f.facts.fields())}, nil
}

// scenarioInputs reads a scenario file: its cluster state and request,
// and its catalog, sent inline unless the flags name a served one.
func (f *callFlags) scenarioInputs() (*callInputs, error) {
	if f.cluster != "" || f.request != "" || f.facts != (factFlags{}) {
		return nil, fmt.Errorf("%w: --scenario holds the cluster and request; do not give them too, nor the cluster's facts", errUsage)
	}
	sc, err := catalog.LoadScenario(f.scenario)
	if err != nil {
		return nil, err
	}
	in := &callInputs{catalogName: f.catalogName, cluster: server.ClusterProto(sc.Cluster), request: server.RequestProto(sc.Request),
		origins: []catalog.Origin{sc.Origin("cluster"), sc.Origin("request")}}
	switch {
	case f.catalogName != "" || len(f.sources) > 0:
	case sc.CatalogDoc == nil:
		return nil, fmt.Errorf("%w: %s: its catalog is a directory or several sources, which cannot travel inline; serve it and name it with --catalog-name", errUsage, f.scenario)
	default:
		in.inline = string(sc.CatalogDoc)
	}
	return in, nil
}

// clusterProto reads --cluster: modsolver's cluster state, with the facts
// the flags give over it, or a kubectl dump, which travels as it is, with
// the facts beside it for the service to read it with (D150).
func (f *callFlags) clusterProto() (*modsolverv1.ClusterState, error) {
	given, err := f.facts.given()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errUsage, err)
	}
	name, data := f.cluster, []byte(nil)
	if f.cluster == "-" {
		name = stdinName
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(f.cluster)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: cluster state: %w", model.ErrInvalidInput, err)
	}
	if catalog.IsKubectlDump(data) {
		return &modsolverv1.ClusterState{KubectlResources: string(data), Deckhouse: f.facts.deckhouse, Kubernetes: f.facts.kubernetes,
			Edition: f.facts.edition, Bundle: f.facts.bundle}, nil
	}
	state, err := catalog.ParseCluster(name, data)
	if err != nil {
		return nil, err
	}
	catalog.ApplyFacts(state, given)
	return server.ClusterProto(state), nil
}

func callResolve(ctx context.Context, c *client.Client, f *callFlags, out io.Writer) (int, error) {
	in, err := f.resolveInputs()
	if err != nil {
		return 0, err
	}
	req := &modsolverv1.ResolveRequest{Cluster: in.cluster, Request: in.request, Sources: f.sources}
	switch {
	case in.inline != "":
		req.Catalog = &modsolverv1.ResolveRequest_InlineCatalog{InlineCatalog: in.inline}
	case in.catalogName != "":
		req.Catalog = &modsolverv1.ResolveRequest_CatalogName{CatalogName: in.catalogName}
	}
	ans, err := c.Resolve(ctx, req)
	if err != nil {
		return 0, err
	}
	res, err := f.answer(ans.ResolveResponse, in.origins)
	if err != nil {
		return 0, err
	}
	return resultCode(res), printResult(out, f.output, res, f.verbose, f.all)
}

func callExplain(ctx context.Context, c *client.Client, f *callFlags, out io.Writer) (int, error) {
	if len(f.sources) > 0 {
		return 0, fmt.Errorf("%w: Explain takes one catalog: --catalog-name, not --source", errUsage)
	}
	in, err := f.resolveInputs()
	if err != nil {
		return 0, err
	}
	req := &modsolverv1.ExplainRequest{Cluster: in.cluster, Request: in.request}
	switch {
	case in.inline != "":
		req.Catalog = &modsolverv1.ExplainRequest_InlineCatalog{InlineCatalog: in.inline}
	case in.catalogName != "":
		req.Catalog = &modsolverv1.ExplainRequest_CatalogName{CatalogName: in.catalogName}
	}
	resp, err := c.Explain(ctx, req)
	if err != nil {
		return 0, err
	}
	res, err := f.answer(&modsolverv1.ResolveResponse{Status: resp.GetStatus(), Explanation: resp.GetExplanation(), Stats: resp.GetStats()}, in.origins)
	if err != nil {
		return 0, err
	}
	if f.output == "json" {
		r := server.Response(res)
		return resultCode(res), writeJSON(out, &modsolverv1.ExplainResponse{Status: r.GetStatus(), Explanation: r.GetExplanation(), Stats: r.GetStats()})
	}
	return resultCode(res), printResult(out, f.output, res, f.verbose, f.all)
}

// answer reads the service's answer back into the model result resolve
// prints, its facts placed in the files the inputs were read from, as
// resolve places them (the service knows no file).
func (f *callFlags) answer(resp *modsolverv1.ResolveResponse, origins []catalog.Origin) (*model.Result, error) {
	res, err := server.ResultFromProto(resp)
	if err != nil {
		return nil, fmt.Errorf("the service's answer: %w", err)
	}
	if f.noTiming {
		res.Stats.SolveMicros = 0
	}
	placeFacts(res, origins...)
	return res, nil
}

// resultCode is resolve's exit code for res: 1 when it is unsatisfiable.
func resultCode(res *model.Result) int {
	if res.Status == model.StatusUnsatisfiable {
		return exitUnsatisfiable
	}
	return exitResolved
}

func callWhatIf(ctx context.Context, c *client.Client, f *callFlags, out io.Writer) (int, error) {
	req, err := f.whatIfRequest()
	if err != nil {
		return 0, err
	}
	var results []*modsolverv1.WhatIfResult
	code := exitResolved
	err = c.WhatIf(ctx, req, func(r *modsolverv1.WhatIfResult) error {
		if f.noTiming && r.GetResponse() != nil {
			// As whatif --no-timing: a class member carries its class's
			// figures (D53, D120).
			r.GetResponse().Stats = &modsolverv1.Stats{}
		}
		if r.GetError() != "" {
			code = exitBadInput // as whatif --scenarios exits (D368)
		}
		if f.output == "jsonl" { // as they come, as whatif -o jsonl prints them
			return writeJSONLine(out, r)
		}
		results = append(results, r)
		return nil
	})
	if err != nil {
		return 0, err
	}
	switch f.output {
	case "json":
		err = writeWhatIfJSON(out, results)
	case "table":
		err = writeWhatIfTable(out, results)
	}
	return code, err
}

// whatIfRequest reads what whatif sends: --cluster and --scenarios, each
// scenario as written; a scenario that is bad input as written is bad
// input here, before the call.
func (f *callFlags) whatIfRequest() (*modsolverv1.WhatIfRequest, error) {
	switch {
	case f.catalogName != "" && len(f.sources) > 0:
		return nil, fmt.Errorf("%w: give --catalog-name or --source, not both", errUsage)
	case f.cluster == "" || f.scenarios == "":
		return nil, fmt.Errorf("%w: call whatif needs --cluster and --scenarios", errUsage)
	}
	cluster, err := f.clusterProto()
	if err != nil {
		return nil, err
	}
	named, err := catalog.LoadWhatIf(f.scenarios)
	if err != nil {
		return nil, err
	}
	req := &modsolverv1.WhatIfRequest{Cluster: cluster, Accept: f.accept, Sources: f.sources}
	if f.catalogName != "" {
		req.Catalog = &modsolverv1.WhatIfRequest_CatalogName{CatalogName: f.catalogName}
	}
	var bad []error
	for _, n := range named {
		if n.Err != nil {
			bad = append(bad, fmt.Errorf("%s: %w", n.Name, n.Err))
			continue
		}
		req.Scenarios = append(req.Scenarios, &modsolverv1.Scenario{Name: n.Name, Request: server.RequestProto(n.Request)})
	}
	return req, errors.Join(bad...)
}

// writeWhatIfJSON prints {"results": [WhatIfResult…]}, as whatif -o json
// prints a batch.
func writeWhatIfJSON(out io.Writer, results []*modsolverv1.WhatIfResult) error {
	raw := make([]json.RawMessage, len(results))
	for i, r := range results {
		data, err := server.MarshalJSON(r)
		if err != nil {
			return err
		}
		raw[i] = data
	}
	data, err := json.MarshalIndent(struct {
		Results []json.RawMessage `json:"results"`
	}{raw}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", data)
	return err
}

// writeWhatIfTable prints each scenario's answer as resolve prints one,
// under a line that names it, its group and its blockers. The grid of a
// matrix is whatif's: it reads the catalog, which a client does not have.
func writeWhatIfTable(out io.Writer, results []*modsolverv1.WhatIfResult) error {
	for i, r := range results {
		head := fmt.Sprintf("scenario %d, %s", r.GetIndex(), r.GetName())
		if r.Group != nil && r.GetGroup() != r.GetIndex() {
			head += fmt.Sprintf(" (the same answer as scenario %d)", r.GetGroup())
		}
		if i > 0 {
			head = "\n" + head
		}
		if _, err := fmt.Fprintln(out, head+":"); err != nil {
			return err
		}
		if r.GetError() != "" {
			if _, err := fmt.Fprintf(out, "bad input: %s\n", r.GetError()); err != nil {
				return err
			}
			continue
		}
		var blockers []string
		for _, b := range r.GetBlockers() {
			text := b.GetModule() + " (" + strings.ToLower(strings.TrimPrefix(b.GetSeverity().String(), "SEVERITY_"))
			if b.GetAccepted() {
				text += ", accepted"
			}
			blockers = append(blockers, text+")")
		}
		if len(blockers) > 0 {
			if _, err := fmt.Fprintf(out, "blockers: %s\n", strings.Join(blockers, ", ")); err != nil {
				return err
			}
		}
		res, err := server.ResultFromProto(r.GetResponse())
		if err != nil {
			return fmt.Errorf("the service's answer to scenario %d: %w", r.GetIndex(), err)
		}
		if err := report.Result(out, res); err != nil {
			return err
		}
	}
	return nil
}

func callCatalogs(ctx context.Context, c *client.Client, f *callFlags, out io.Writer) (int, error) {
	cats, err := c.ListCatalogs(ctx)
	if err != nil {
		return 0, err
	}
	if f.output == "json" {
		return exitResolved, writeJSON(out, &modsolverv1.ListCatalogsResponse{Catalogs: cats})
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tDEFAULT\tFORMAT\tMODULES\tBUILT-IN\tRELEASES\tSOURCE")
	for _, cat := range cats {
		def := ""
		if cat.GetDefault() {
			def = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%s\n", cat.GetName(), def, cat.GetFormat(), cat.GetModules(), cat.GetBuiltInModules(), cat.GetReleases(), cat.GetSource())
	}
	return exitResolved, tw.Flush()
}

func callModule(ctx context.Context, c *client.Client, f *callFlags, out io.Writer) (int, error) {
	m, err := c.GetModule(ctx, f.catalogName, f.module)
	if err != nil {
		return 0, err
	}
	if f.output == "json" {
		return exitResolved, writeJSON(out, &modsolverv1.GetModuleResponse{Module: m})
	}
	kind := "external, with releases of its own"
	if m.GetBuiltIn() {
		kind = "built in: its version is the DKP version"
	}
	rows := [][]string{{"module", m.GetName()}, {"kind", kind}}
	if ch := m.GetChannels(); len(ch) > 0 {
		var parts []string
		for _, name := range model.Channels {
			if v, ok := ch[name]; ok {
				parts = append(parts, name+" "+v)
			}
		}
		rows = append(rows, []string{"channels", strings.Join(parts, ", ")})
	}
	if d := m.GetDefaultChannel(); d != "" {
		rows = append(rows, []string{"default channel", d})
	}
	if rels := m.GetReleases(); len(rels) > 0 {
		versions := make([]string, len(rels))
		for i, r := range rels {
			versions[i] = r.GetVersion()
		}
		rows = append(rows, []string{"releases", fmt.Sprintf("%d: %s", len(rels), strings.Join(versions, ", "))})
	}
	return exitResolved, report.Columns(out, rows)
}

// writeJSON prints m as the service's JSON, as -o json does elsewhere.
func writeJSON(out io.Writer, m proto.Message) error {
	data, err := server.MarshalJSON(m)
	if err != nil {
		return err
	}
	_, err = out.Write(data)
	return err
}

// writeJSONLine prints m as one line of JSON, as -o jsonl does.
func writeJSONLine(out io.Writer, m proto.Message) error {
	data, err := server.MarshalJSON(m)
	if err != nil {
		return err
	}
	var line bytes.Buffer
	if err := json.Compact(&line, data); err != nil {
		return err
	}
	line.WriteByte('\n')
	_, err = out.Write(line.Bytes())
	return err
}

// callFail prints why a call has no answer and returns the exit code its
// status calls for: bad input for what the caller sent (INVALID_ARGUMENT,
// with each field violation on a line of its own; NOT_FOUND, a catalog or
// module the service does not hold; UNIMPLEMENTED, what this service is
// not set up to take), no answer for the rest. An error that is no
// status is the command line's own, as fail words it.
func callFail(errOut io.Writer, method, addr string, err error) int {
	st, ok := status.FromError(err)
	if !ok {
		return fail(errOut, err)
	}
	var vs []*errdetails.BadRequest_FieldViolation
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			vs = append(vs, br.GetFieldViolations()...)
		}
	}
	switch st.Code() {
	case codes.InvalidArgument, codes.NotFound, codes.Unimplemented, codes.FailedPrecondition, codes.OutOfRange:
		if len(vs) == 0 {
			fmt.Fprintf(errOut, "modsolver: call %s: bad input (%s): %s\n", method, st.Code(), st.Message())
			return exitBadInput
		}
		fmt.Fprintf(errOut, "modsolver: call %s: bad input (%s), %s:\n", method, st.Code(), countOf(len(vs), "field"))
		for _, v := range vs {
			fmt.Fprintf(errOut, "  %s: %s\n", v.GetField(), v.GetDescription())
		}
		return exitBadInput
	}
	fmt.Fprintf(errOut, "modsolver: call %s: no answer from %s (%s): %s\n", method, addr, st.Code(), st.Message())
	return exitNoAnswer
}

// countOf is "1 field" or "3 fields".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
