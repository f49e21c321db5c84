// Package metrics owns modsolver's Prometheus metrics and the plaintext
// HTTP endpoints beside the gRPC port: /metrics, /healthz and /readyz.
//
// Every metric lives on a registry of its own, never the global one: the
// grpc-ecosystem server metrics (grpc_server_handled_total and the
// handling-time histogram), the Go and process collectors, and the
// modsolver_* domain metrics, named by Prometheus conventions (base
// units, _total counters, modsolver_build_info).
package metrics

import (
	"context"
	"net/http"
	"runtime"
	"time"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"
)

// DurationBuckets are the buckets, in seconds, of both the gRPC handling
// time and the solve duration: a resolve takes milliseconds, a large
// what-if batch up to the default solve timeout (30 s) and beyond.
var DurationBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// sizeBuckets count variables or clauses of one encoding.
var sizeBuckets = prometheus.ExponentialBuckets(100, 4, 10)

// Reload results, the values of modsolver_catalog_reloads_total{result}.
const (
	ReloadSuccess = "success"
	ReloadFailure = "failure"
)

// CatalogSizes returns the number of releases of each served catalog, by
// name; it is called at every scrape.
type CatalogSizes func() map[string]int

// Metrics is the registry and every metric on it. It implements
// server.Observer.
type Metrics struct {
	reg       *prometheus.Registry
	grpc      *grpcprom.ServerMetrics
	duration  *prometheus.HistogramVec
	variables *prometheus.HistogramVec
	clauses   *prometheus.HistogramVec
	inflight  *prometheus.GaugeVec
	scenarios *prometheus.CounterVec
	reloads   *prometheus.CounterVec
}

// New registers every metric on a new registry. version is the binary's
// version, for modsolver_build_info; sizes feeds
// modsolver_catalog_releases.
func New(version string, sizes CatalogSizes) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		grpc: grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram(
			grpcprom.WithHistogramBuckets(DurationBuckets))),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "modsolver_solve_duration_seconds",
			Help:    "Time to answer one Resolve, Explain or WhatIf call, by method and status.",
			Buckets: DurationBuckets,
		}, []string{"method", "status"}),
		variables: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "modsolver_encoding_variables",
			Help:    "Variables of the encoding of one Resolve or Explain call.",
			Buckets: sizeBuckets,
		}, []string{"method"}),
		clauses: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "modsolver_encoding_clauses",
			Help:    "Clauses of the encoding of one Resolve or Explain call.",
			Buckets: sizeBuckets,
		}, []string{"method"}),
		inflight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "modsolver_solves_in_flight",
			Help: "Resolve, Explain and WhatIf calls being handled now, those queued for a slot included.",
		}, []string{"method"}),
		scenarios: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "modsolver_whatif_scenarios_total",
			Help: "What-if scenarios answered, by outcome: resolved, unsatisfiable or invalid.",
		}, []string{"outcome"}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "modsolver_catalog_reloads_total",
			Help: "Reloads of the served catalogs (SIGHUP), by result: success or failure.",
		}, []string{"result"}),
	}
	for _, r := range []string{ReloadSuccess, ReloadFailure} {
		m.reloads.WithLabelValues(r)
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.grpc, m.duration, m.variables, m.clauses, m.inflight, m.scenarios, m.reloads,
		buildInfo(version),
		&catalogCollector{sizes: sizes},
	)
	return m
}

func buildInfo(version string) prometheus.Collector {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "modsolver_build_info",
		Help:        "Always 1; the labels name the build of modsolver that serves.",
		ConstLabels: prometheus.Labels{"version": version, "goversion": runtime.Version()},
	})
	g.Set(1)
	return g
}

// Registry returns the registry every metric is on.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// ServerOptions returns the interceptors that record the gRPC server
// metrics; pass them to the server.
func (m *Metrics) ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(m.grpc.UnaryServerInterceptor()),
		grpc.ChainStreamInterceptor(m.grpc.StreamServerInterceptor()),
	}
}

// InitializeGRPC creates the gRPC metrics of every method gs serves at
// zero, so that they exist before the first call.
func (m *Metrics) InitializeGRPC(gs *grpc.Server) { m.grpc.InitializeMetrics(gs) }

// Reloaded counts one catalog reload, failed when err is not nil.
func (m *Metrics) Reloaded(err error) {
	result := ReloadSuccess
	if err != nil {
		result = ReloadFailure
	}
	m.reloads.WithLabelValues(result).Inc()
}

// SolveStarted implements server.Observer.
func (m *Metrics) SolveStarted(method string) { m.inflight.WithLabelValues(method).Inc() }

// SolveFinished implements server.Observer.
func (m *Metrics) SolveFinished(method, status string, d time.Duration, variables, clauses int) {
	m.inflight.WithLabelValues(method).Dec()
	m.duration.WithLabelValues(method, status).Observe(d.Seconds())
	if variables > 0 || clauses > 0 {
		m.variables.WithLabelValues(method).Observe(float64(variables))
		m.clauses.WithLabelValues(method).Observe(float64(clauses))
	}
}

// WhatIfScenario implements server.Observer.
func (m *Metrics) WhatIfScenario(outcome string) { m.scenarios.WithLabelValues(outcome).Inc() }

// catalogCollector reads the catalog sizes at each scrape, so that a
// reload shows at once and a catalog that is gone leaves no series.
type catalogCollector struct{ sizes CatalogSizes }

var catalogReleases = prometheus.NewDesc("modsolver_catalog_releases",
	"Releases in each served catalog.", []string{"catalog"}, nil)

func (c *catalogCollector) Describe(ch chan<- *prometheus.Desc) { ch <- catalogReleases }

func (c *catalogCollector) Collect(ch chan<- prometheus.Metric) {
	if c.sizes == nil {
		return
	}
	for name, n := range c.sizes() {
		ch <- prometheus.MustNewConstMetric(catalogReleases, prometheus.GaugeValue, float64(n), name)
	}
}

// Handler serves /metrics from the registry, /healthz (the process is
// alive: always 200) and /readyz (200 while ready reports true, else
// 503).
func (m *Metrics) Handler(ready func(context.Context) bool) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if !ready(r.Context()) {
			http.Error(w, "not ready", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok\n"))
	})
	return mux
}
