package server

import (
	"context"
	"path"
	"time"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// Observer is told about every resolution the server answers, so that the
// caller can count them (cmd/modsolver feeds Prometheus metrics). The
// server reads the outcome from the response, so handlers stay unaware.
// Methods are called from many goroutines at once.
type Observer interface {
	// SolveStarted is called when a Resolve, Explain or WhatIf call starts.
	SolveStarted(method string)
	// SolveFinished is called once per started call. status is one of
	// the Solve* constants; variables and clauses are the encoding's size
	// (zero for WhatIf and for errors).
	SolveFinished(method, status string, d time.Duration, variables, clauses int)
	// WhatIfScenario is called once per scenario result a WhatIf stream
	// sends, with one of the Scenario* constants.
	WhatIfScenario(outcome string)
}

// The status of a finished call, as an Observer is told.
const (
	SolveResolved      = "resolved"
	SolveUnsatisfiable = "unsatisfiable"
	// SolveAnswered is a WhatIf stream that answered every scenario.
	SolveAnswered = "answered"
	// SolveError is any call that ended with an error status.
	SolveError = "error"
)

// The outcome of one what-if scenario.
const (
	ScenarioResolved      = "resolved"
	ScenarioUnsatisfiable = "unsatisfiable"
	// ScenarioInvalid is a scenario that was bad input; the batch went on.
	ScenarioInvalid = "invalid"
)

// WithObserver reports every Resolve, Explain and WhatIf call to o.
func WithObserver(o Observer) Option { return func(c *config) { c.observer = o } }

// WithServerOptions adds options to the *grpc.Server: transport
// credentials, keepalive, stream limits, or outer interceptors. Their
// interceptors run outside the server's own logging and recovery.
func WithServerOptions(opts ...grpc.ServerOption) Option {
	return func(c *config) { c.grpcOpts = append(c.grpcOpts, opts...) }
}

// solving lists the methods that run the solver, by their short name.
var solving = map[string]bool{"Resolve": true, "Explain": true, "WhatIf": true}

// observed returns the short name of a solving method of the Resolver
// service, or "" for any other method.
func observed(fullMethod string) string {
	service, method := path.Split(fullMethod)
	if service != "/"+ServiceName+"/" || !solving[method] {
		return ""
	}
	return method
}

func observeUnary(o Observer) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		method := observed(info.FullMethod)
		if method == "" {
			return handler(ctx, req)
		}
		o.SolveStarted(method)
		start := time.Now()
		resp, err := handler(ctx, req)
		status, vars, clauses := unaryOutcome(resp, err)
		o.SolveFinished(method, status, time.Since(start), vars, clauses)
		return resp, err
	}
}

// unaryOutcome reads the status and encoding size of a Resolve or
// Explain response.
func unaryOutcome(resp any, err error) (status string, variables, clauses int) {
	if err != nil {
		return SolveError, 0, 0
	}
	var st modsolverv1.Status
	var stats *modsolverv1.Stats
	switch r := resp.(type) {
	case *modsolverv1.ResolveResponse:
		st, stats = r.GetStatus(), r.GetStats()
	case *modsolverv1.ExplainResponse:
		st, stats = r.GetStatus(), r.GetStats()
	}
	status = SolveResolved
	if st == modsolverv1.Status_STATUS_UNSATISFIABLE {
		status = SolveUnsatisfiable
	}
	return status, int(stats.GetVariables()), int(stats.GetClauses())
}

func observeStream(o Observer) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		method := observed(info.FullMethod)
		if method == "" {
			return handler(srv, ss)
		}
		o.SolveStarted(method)
		start := time.Now()
		err := handler(srv, &observedStream{ServerStream: ss, o: o})
		status := SolveAnswered
		if err != nil {
			status = SolveError
		}
		o.SolveFinished(method, status, time.Since(start), 0, 0)
		return err
	}
}

// observedStream reports each WhatIfResult it sends.
type observedStream struct {
	grpc.ServerStream
	o Observer
}

func (s *observedStream) SendMsg(m any) error {
	err := s.ServerStream.SendMsg(m)
	if r, ok := m.(*modsolverv1.WhatIfResult); ok && err == nil {
		s.o.WhatIfScenario(scenarioOutcome(r))
	}
	return err
}

func scenarioOutcome(r *modsolverv1.WhatIfResult) string {
	switch {
	case r.GetResponse() == nil:
		return ScenarioInvalid
	case r.GetResponse().GetStatus() == modsolverv1.Status_STATUS_UNSATISFIABLE:
		return ScenarioUnsatisfiable
	}
	return ScenarioResolved
}

// Ready reports whether the server is serving: its catalogs are loaded
// (New needs them) and Shutdown has not begun. It backs /readyz.
func (s *Server) Ready(ctx context.Context) bool {
	resp, err := s.health.Check(ctx, &healthpb.HealthCheckRequest{Service: ServiceName})
	return err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING
}

// serverOptions are the options from WithServerOptions, then the
// observer's interceptors: all of them run outside logging and recovery,
// so that they see a recovered panic as the Internal status it becomes.
func (c *config) serverOptions() []grpc.ServerOption {
	opts := append([]grpc.ServerOption(nil), c.grpcOpts...)
	if c.observer != nil {
		opts = append(opts, grpc.ChainUnaryInterceptor(observeUnary(c.observer)), grpc.ChainStreamInterceptor(observeStream(c.observer)))
	}
	return opts
}

// ReleaseCounts returns the number of releases of each served catalog,
// by name, for metrics.
func (c *Catalogs) ReleaseCounts() map[string]int {
	set := c.load()
	out := make(map[string]int, len(set.sorted))
	for _, cat := range set.sorted {
		out[cat.Name] = cat.Catalog.ReleaseCount()
	}
	return out
}
