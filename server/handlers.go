package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc"

	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/readiness"
	"github.com/modsolver/modsolver/solver"
)

// resolver implements modsolver.v1.Resolver. Each handler validates,
// converts, calls the solver and converts back; errors go through
// toStatus.
type resolver struct {
	modsolverv1.UnimplementedResolverServer
	catalogs *Catalogs
	cfg      config
	// timedOut is the cause of a solve that the server's own timeout
	// ends, made once rather than per call.
	timedOut error
}

func newResolver(catalogs *Catalogs, cfg config) *resolver {
	return &resolver{catalogs: catalogs, cfg: cfg,
		timedOut: fmt.Errorf("no answer within the server's solve timeout of %s: %w", cfg.solveTimeout, context.DeadlineExceeded)}
}

func (r *resolver) Resolve(ctx context.Context, in *modsolverv1.ResolveRequest) (*modsolverv1.ResolveResponse, error) {
	res, err := r.solve(ctx, catalogRefOf(in.GetCatalog()).with(in.GetSources()), in.GetCluster(), in.GetRequest())
	if err != nil {
		return nil, r.fail(ctx, err)
	}
	return resultToProto(res), nil
}

func (r *resolver) Explain(ctx context.Context, in *modsolverv1.ExplainRequest) (*modsolverv1.ExplainResponse, error) {
	res, err := r.solve(ctx, catalogRefOf(in.GetCatalog()), in.GetCluster(), in.GetRequest(), solver.WithoutHeldBack())
	if err != nil {
		return nil, r.fail(ctx, err)
	}
	return explainToProto(res), nil
}

func (r *resolver) WhatIf(in *modsolverv1.WhatIfRequest, stream grpc.ServerStreamingServer[modsolverv1.WhatIfResult]) error {
	ctx := stream.Context()
	if err := r.whatIf(ctx, in, stream.Send); err != nil {
		return r.fail(ctx, err)
	}
	return nil
}

func (r *resolver) ListCatalogs(context.Context, *modsolverv1.ListCatalogsRequest) (*modsolverv1.ListCatalogsResponse, error) {
	set := r.catalogs.load()
	out := &modsolverv1.ListCatalogsResponse{Catalogs: make([]*modsolverv1.CatalogInfo, 0, len(set.sorted))}
	for _, c := range set.sorted {
		out.Catalogs = append(out.Catalogs, catalogInfoToProto(c, c == set.def))
	}
	return out, nil
}

func (r *resolver) GetModule(ctx context.Context, in *modsolverv1.GetModuleRequest) (*modsolverv1.GetModuleResponse, error) {
	cat, err := r.catalogs.load().lookup(in.GetCatalogName())
	if err != nil {
		return nil, r.fail(ctx, err)
	}
	if in.GetName() == "" {
		return nil, r.fail(ctx, &model.FieldError{Path: model.Field("name"), Err: fmt.Errorf("%w: a module name is required", model.ErrMissingField)})
	}
	m := cat.Catalog.Module(in.GetName())
	if m == nil {
		hint := ""
		if near := cat.Catalog.NearestModules(in.GetName()); len(near) > 0 {
			hint = fmt.Sprintf("; did you mean %q?", near[0])
		}
		return nil, r.fail(ctx, fmt.Errorf("%w: catalog %s has no module %q%s", ErrNotFound, cat.Name, in.GetName(), hint))
	}
	return &modsolverv1.GetModuleResponse{Module: moduleToProto(m)}, nil
}

// fail maps err to the call's status.
func (r *resolver) fail(ctx context.Context, err error) error {
	method, _ := grpc.Method(ctx)
	return toStatus(r.cfg.log, method, err)
}

// solve converts one request and resolves it within the solve timeout,
// holding a solve slot (limits.go) from before the catalog is read.
func (r *resolver) solve(ctx context.Context, ref catalogRef, pc *modsolverv1.ClusterState, pr *modsolverv1.Request, opts ...solver.Option) (*model.Result, error) {
	ctx, cancel := r.withTimeout(ctx)
	defer cancel()
	_, release, err := r.cfg.limit.acquire(ctx, 0)
	if err != nil {
		return nil, timeoutCause(ctx, err)
	}
	defer release()
	cat, err := r.catalog(ref)
	if err != nil {
		return nil, err
	}
	cluster, clusterErr := r.cluster(pc, cat.Catalog())
	req, reqErr := requestFromProto(pr)
	if err := errors.Join(clusterErr, reqErr); err != nil {
		return nil, errors.Join(err, alsoBad(cat.Catalog(), cluster, clusterErr, req))
	}
	res, err := cat.Solve(ctx, cluster, req, append(opts, solver.WithMemoryLimit(r.cfg.maxMemory))...)
	return res, timeoutCause(ctx, err)
}

// alsoBad is what else is wrong with a request whose cluster state or
// request could not be read in full, so that each bad field is its own
// violation at once, rather than one now and the next on the retry
// (D413). It checks what was read, and nothing that leans on what was
// not: with the cluster state read, both as the solver checks them (the
// request without the versions it could not read); without it, the
// request's fields that need no cluster state.
func alsoBad(cat *model.Catalog, cluster *model.ClusterState, clusterErr error, req *model.Request) error {
	if clusterErr != nil {
		return req.ValidateAlone(cat)
	}
	return errors.Join(cluster.Validate(cat), req.Validate(cat, cluster))
}

// whatIf answers a batch, calling send once per scenario in order. A
// scenario that is bad input gets its error in its result; a bad catalog
// or cluster state fails the whole call. The solve timeout bounds the
// whole batch, and the batch holds its solve slots, one and those it
// borrows as extra workers, until its last result is sent.
func (r *resolver) whatIf(ctx context.Context, in *modsolverv1.WhatIfRequest, send func(*modsolverv1.WhatIfResult) error) error {
	if len(in.GetScenarios()) == 0 { // a batch of nothing is a mistake, as the CLI says (D403)
		return &model.FieldError{Path: model.Field("scenarios"), Err: fmt.Errorf("%w: give at least one scenario", model.ErrMissingField)}
	}
	ctx, cancel := r.withTimeout(ctx)
	defer cancel()
	workers, release, err := r.cfg.limit.acquire(ctx, whatIfWorkers(len(in.GetScenarios()))-1)
	if err != nil {
		return timeoutCause(ctx, err)
	}
	defer release()
	cat, err := r.catalog(catalogRefOf(in.GetCatalog()).with(in.GetSources()))
	if err != nil {
		return err
	}
	cluster, err := r.cluster(in.GetCluster(), cat.Catalog())
	if err != nil {
		return err
	}
	// Both, so that a bad cluster state and a bad accept list are two
	// violations at once (D413).
	if err := errors.Join(cluster.Validate(cat.Catalog()), model.ValidateAccept(cat.Catalog(), model.Field("accept"), in.GetAccept())); err != nil {
		return err
	}
	b := newBatch(in.GetScenarios(), send)
	b.readiness = readiness.New(cluster, b.reqs, in.GetAccept())
	if err := cat.WhatIf(ctx, cluster, b.reqs, b.emit, solver.WithWorkers(workers), solver.WithMemoryLimit(r.cfg.maxMemory)); err != nil {
		return timeoutCause(ctx, err)
	}
	return b.flush(len(b.scenarios))
}

// cluster converts a request's cluster state; one given as a kubectl dump
// (kubectl_resources, D150) is read by the ClusterParser, with the
// state's other fields as what the request gives beside it.
func (r *resolver) cluster(pc *modsolverv1.ClusterState, cat *model.Catalog) (*model.ClusterState, error) {
	c, err := clusterFromProto(pc)
	if err != nil || pc.GetKubectlResources() == "" {
		return c, err
	}
	field := model.Field("cluster", "kubectl_resources")
	switch {
	case len(pc.GetModules()) > 0:
		return nil, &model.FieldError{Path: model.Field("cluster", "modules"), Err: fmt.Errorf("%w: the modules are read from cluster.kubectl_resources; give them in one form", model.ErrConflict)}
	case r.cfg.parseCluster == nil:
		return nil, &model.FieldError{Path: field, Err: fmt.Errorf("%w: this server reads no kubectl dumps; send the cluster state's modules instead", ErrUnsupported)}
	}
	out, err := r.cfg.parseCluster(field, []byte(pc.GetKubectlResources()), c, cat)
	if err == nil && out == nil {
		return nil, errors.New("cluster parser returned neither a cluster state nor an error")
	}
	return out, err
}

// catalog finds the catalog a request names, compiled when the set was
// loaded, or reads and compiles the catalog it merges or holds inline.
func (r *resolver) catalog(ref catalogRef) (*solver.Compiled, error) {
	if !ref.isInline && len(ref.sources) == 0 {
		return r.catalogs.lookupCompiled(ref.name)
	}
	cat, err := r.requestCatalog(ref)
	if err != nil {
		return nil, err
	}
	return solver.Compile(cat)
}

// requestCatalog reads the catalog of a request that names sources or
// holds one inline.
func (r *resolver) requestCatalog(ref catalogRef) (*model.Catalog, error) {
	if len(ref.sources) > 0 {
		return r.sourcesCatalog(ref)
	}
	if r.cfg.parse == nil {
		return nil, &model.FieldError{Path: model.Field("inline_catalog"), Err: fmt.Errorf("%w: this server takes no inline catalogs; name one of %s",
			ErrUnsupported, strings.Join(r.catalogs.Names(), ", "))}
	}
	if err := r.cfg.checkInlineSize(ref.inline); err != nil {
		return nil, err
	}
	// The document has no file name: the field names it, once.
	cat, err := r.cfg.parse("", []byte(ref.inline))
	switch {
	case err != nil:
		return nil, &model.FieldError{Path: model.Field("inline_catalog"), Err: err}
	case cat == nil:
		return nil, errors.New("catalog parser returned neither a catalog nor an error")
	}
	if err := r.cfg.checkInlineModules(cat); err != nil {
		return nil, err
	}
	return cat, nil
}

// withTimeout applies the solve timeout, unless the client's deadline is
// sooner. Its expiry is named in the error.
func (r *resolver) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, r.cfg.solveTimeout, r.timedOut)
}

// timeoutCause names why a solve ended early. The server's own timeout
// names itself. A client whose deadline passes cancels its call, so the
// handler sees context.Canceled; that is reported as the deadline it is.
func timeoutCause(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
		return err
	}
	if cause := context.Cause(ctx); errors.Is(cause, context.DeadlineExceeded) {
		return cause
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return fmt.Errorf("the client's deadline passed: %w", context.DeadlineExceeded)
	}
	return err
}

// batch streams what-if results in scenario order, interleaving the
// scenarios that could not be converted with the solver's answers.
type batch struct {
	scenarios []*modsolverv1.Scenario
	send      func(*modsolverv1.WhatIfResult) error
	reqs      []*model.Request
	readiness *readiness.Readiness // groups and classes the answers (R30)
	at        []int                // at[j] is the scenario index of reqs[j]
	bad       map[int]error        // conversion errors by scenario index
	next      int                  // the next scenario index to send
}

func newBatch(scenarios []*modsolverv1.Scenario, send func(*modsolverv1.WhatIfResult) error) *batch {
	b := &batch{scenarios: scenarios, send: send, bad: map[int]error{}}
	for i, sc := range scenarios {
		req, err := requestFromProto(sc.GetRequest())
		if err != nil {
			b.bad[i] = err
			continue
		}
		b.reqs = append(b.reqs, req)
		b.at = append(b.at, i)
	}
	return b
}

// emit reads the answer to reqs[j] and sends the answers the readiness
// hands out, each after the bad scenarios before it. An answer whose
// error is not bad input stops the batch.
func (b *batch) emit(j int, a solver.Answer) error {
	if a.Err != nil && !errors.Is(a.Err, model.ErrInvalidInput) {
		return a.Err
	}
	for _, c := range b.readiness.Add(j, readiness.Answer{Result: a.Result, Err: a.Err}) {
		i := b.at[c.Index]
		if err := b.flush(i); err != nil {
			return err
		}
		b.next = i + 1
		if err := b.send(whatIfResultToProto(i, b.scenarios[i].GetName(), c, b.scenarioIndex)); err != nil {
			return err
		}
	}
	return nil
}

// scenarioIndex is the scenario index of reqs[j].
func (b *batch) scenarioIndex(j int) int { return b.at[j] }

// flush sends the results of the bad scenarios before index upto.
func (b *batch) flush(upto int) error {
	for ; b.next < upto; b.next++ {
		err, ok := b.bad[b.next]
		if !ok {
			return fmt.Errorf("internal error: scenario %d has no answer", b.next)
		}
		bad := readiness.Cell{Answer: readiness.Answer{Err: err}}
		if err := b.send(whatIfResultToProto(b.next, b.scenarios[b.next].GetName(), bad, func(int) int { return b.next })); err != nil {
			return err
		}
	}
	return nil
}
