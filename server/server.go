package server

import (
	"context"
	"log/slog"
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"

	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// ServiceName is the full name of the Resolver service, as the health
// service and reflection know it.
const ServiceName = "modsolver.v1.Resolver"

// Defaults of the options.
const (
	DefaultSolveTimeout    = 30 * time.Second
	DefaultMaxRequestBytes = 16 << 20
)

// CatalogParser reads an inline catalog document of a request. name is
// the field it came from, for error messages; bad input must be an error
// that wraps model.ErrInvalidInput. The server imports no reader of
// catalog files, so the caller adapts one to this type.
type CatalogParser func(name string, data []byte) (*model.Catalog, error)

// ClusterParser reads the kubectl dump of DKP's resources that a
// request's cluster state carries (kubectl_resources, D150) into the
// cluster state of a resolution against cat. given holds the request's
// other cluster fields, which win over the dump and give what it cannot
// say; field is the field the dump came from. Bad input must wrap
// model.ErrInvalidInput, with a *model.FieldError for each request field
// it concerns. The server imports no reader of cluster files, so the
// caller adapts one to this type.
type ClusterParser func(field model.Path, data []byte, given *model.ClusterState, cat *model.Catalog) (*model.ClusterState, error)

// Option tunes a Server.
type Option func(*config)

type config struct {
	solveTimeout    time.Duration
	log             *slog.Logger
	parse           CatalogParser
	parseCluster    ClusterParser
	maxRequestBytes int
	observer        Observer            // observe.go
	grpcOpts        []grpc.ServerOption // observe.go
	// Resource bounds (limits.go).
	limit            *limiter
	maxInlineBytes   int
	maxInlineModules int
	maxMemory        int64
}

// WithSolveTimeout bounds every resolution: a request whose own deadline
// is later, or that has none, gets this one (default 30 s).
func WithSolveTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.solveTimeout = d
		}
	}
}

// WithLogger sets where requests, panics and internal errors are logged
// (default: slog.Default()). A call answered OK logs at debug level, so
// the logger's level decides whether it is written (D113).
func WithLogger(log *slog.Logger) Option {
	return func(c *config) {
		if log != nil {
			c.log = log
		}
	}
}

// WithCatalogParser lets requests carry an inline catalog. Without it, an
// inline catalog is refused with Unimplemented.
func WithCatalogParser(p CatalogParser) Option { return func(c *config) { c.parse = p } }

// WithClusterParser lets requests carry their cluster state as a kubectl
// dump. Without it, such a request is refused with Unimplemented.
func WithClusterParser(p ClusterParser) Option { return func(c *config) { c.parseCluster = p } }

// WithMaxRequestBytes sets the largest request message the server accepts
// (default 16 MiB); inline catalogs count against it.
func WithMaxRequestBytes(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxRequestBytes = n
		}
	}
}

// Server is the modsolver gRPC server: the Resolver service, the standard
// health service and server reflection, behind recovery and request
// logging interceptors.
type Server struct {
	grpc   *grpc.Server
	health *health.Server
	log    *slog.Logger
}

// New returns a server that answers from catalogs. Replacing the set in
// catalogs takes effect for the next request.
func New(catalogs *Catalogs, opts ...Option) *Server {
	cfg := config{solveTimeout: DefaultSolveTimeout, log: slog.Default(), maxRequestBytes: DefaultMaxRequestBytes,
		maxInlineBytes: DefaultMaxInlineCatalogBytes, maxInlineModules: DefaultMaxInlineCatalogModules}
	for _, o := range opts {
		o(&cfg)
	}
	gs := grpc.NewServer(append(cfg.serverOptions(),
		grpc.MaxRecvMsgSize(cfg.maxRequestBytes),
		grpc.ChainUnaryInterceptor(logUnary(cfg.log), recoverUnary(cfg.log)),
		grpc.ChainStreamInterceptor(logStream(cfg.log), recoverStream(cfg.log)),
	)...)
	modsolverv1.RegisterResolverServer(gs, newResolver(catalogs, cfg))
	hs := health.NewServer()
	hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	hs.SetServingStatus(ServiceName, healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(gs, hs)
	reflection.Register(gs)
	return &Server{grpc: gs, health: hs, log: cfg.log}
}

// GRPC returns the configured *grpc.Server, with every service registered.
func (s *Server) GRPC() *grpc.Server { return s.grpc }

// Serve accepts connections on lis until the server stops. It returns nil
// after Shutdown.
func (s *Server) Serve(lis net.Listener) error { return s.grpc.Serve(lis) }

// Shutdown stops the server gracefully: health turns NOT_SERVING, new
// requests are refused and in-flight ones finish. When ctx ends first,
// the remaining requests are cancelled.
func (s *Server) Shutdown(ctx context.Context) {
	s.health.Shutdown()
	done := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		s.log.Warn("graceful stop timed out; cancelling in-flight requests", "error", ctx.Err())
		s.grpc.Stop()
		<-done
	}
}
