package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"

	"github.com/modsolver/modsolver/internal/metrics"
	"github.com/modsolver/modsolver/server"
)

// The production flags of serve: the metrics port, TLS and connection
// hygiene (DESIGN.md §9). They live here, apart from the core flags.

// Keepalive enforcement: clients may ping every keepaliveMinTime, with or
// without calls in flight; the client package pings every 30 s.
const keepaliveMinTime = 15 * time.Second

type prodFlags struct {
	metricsListen         string
	tlsCertFile, tlsKey   string
	clientCAFile          string
	tlsMinVersion         string
	tlsRefresh            time.Duration
	maxConnectionAge      time.Duration
	maxConnectionAgeGrace time.Duration
	maxConcurrentStreams  uint
	minTLSVersion         uint16 // parsed from tlsMinVersion by check
}

func (p *prodFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.metricsListen, "metrics-listen", "", "plaintext HTTP `address` for /metrics, /healthz and /readyz (off when empty)")
	fs.StringVar(&p.tlsCertFile, "tls-cert-file", "", "PEM certificate `file` to serve TLS with (re-read when it changes)")
	fs.StringVar(&p.tlsKey, "tls-private-key-file", "", "PEM private key `file` of --tls-cert-file")
	fs.StringVar(&p.clientCAFile, "client-ca-file", "", "PEM CA `file`: require client certificates signed by it (mutual TLS)")
	fs.StringVar(&p.tlsMinVersion, "tls-min-version", "VersionTLS12", "lowest TLS `version`: VersionTLS12 or VersionTLS13")
	fs.DurationVar(&p.tlsRefresh, "tls-refresh-interval", server.DefaultTLSRefresh, "read the TLS files again every `duration`")
	fs.DurationVar(&p.maxConnectionAge, "max-connection-age", 5*time.Minute, "close a client connection after this `duration`, so that clients rebalance onto new replicas")
	fs.DurationVar(&p.maxConnectionAgeGrace, "max-connection-age-grace", 30*time.Second, "let calls on a connection closed for its age finish within this `duration`")
	fs.UintVar(&p.maxConcurrentStreams, "max-concurrent-streams", 100, "concurrent calls per client `connection`")
}

func (p *prodFlags) check() error {
	switch {
	case (p.tlsCertFile == "") != (p.tlsKey == ""):
		return fmt.Errorf("%w: --tls-cert-file and --tls-private-key-file go together", errUsage)
	case p.clientCAFile != "" && p.tlsCertFile == "":
		return fmt.Errorf("%w: --client-ca-file needs --tls-cert-file and --tls-private-key-file", errUsage)
	case p.tlsRefresh <= 0:
		return fmt.Errorf("%w: --tls-refresh-interval %s: want a positive duration", errUsage, p.tlsRefresh)
	case p.maxConnectionAge <= 0 || p.maxConnectionAgeGrace <= 0:
		return fmt.Errorf("%w: --max-connection-age and --max-connection-age-grace: want positive durations", errUsage)
	case p.maxConcurrentStreams == 0 || p.maxConcurrentStreams > math.MaxUint32:
		return fmt.Errorf("%w: --max-concurrent-streams %d: want a positive number", errUsage, p.maxConcurrentStreams)
	}
	v, err := server.ParseTLSVersion(p.tlsMinVersion)
	if err != nil {
		return fmt.Errorf("%w: --tls-min-version: %w", errUsage, err)
	}
	p.minTLSVersion = v
	return nil
}

// prodRun holds what the production flags started: the TLS file watch,
// the metrics and their HTTP server.
type prodRun struct {
	flags   prodFlags
	opts    []server.Option
	metrics *metrics.Metrics
	stopTLS func()
	http    *http.Server
	httpErr chan error
}

// start builds the server options of the production flags; close
// releases what it started.
func (p prodFlags) start(reg *server.Catalogs) (*prodRun, error) {
	r := &prodRun{flags: p, stopTLS: func() {}}
	r.opts = append(r.opts, server.WithServerOptions(
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionAge: p.maxConnectionAge, MaxConnectionAgeGrace: p.maxConnectionAgeGrace}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: keepaliveMinTime, PermitWithoutStream: true}),
		grpc.MaxConcurrentStreams(uint32(p.maxConcurrentStreams)),
	))
	if p.tlsCertFile != "" {
		creds, stop, err := server.TLSCredentials(server.TLSFiles{CertFile: p.tlsCertFile, KeyFile: p.tlsKey,
			ClientCAFile: p.clientCAFile, MinVersion: p.minTLSVersion, Refresh: p.tlsRefresh})
		if err != nil {
			return nil, err
		}
		r.stopTLS = stop
		r.opts = append(r.opts, server.WithServerOptions(grpc.Creds(creds)))
	}
	if p.metricsListen != "" {
		r.metrics = metrics.New(version, reg.ReleaseCounts)
		r.opts = append(r.opts, server.WithServerOptions(r.metrics.ServerOptions()...), server.WithObserver(r.metrics))
	}
	return r, nil
}

// serve starts the metrics HTTP server, if any, once srv exists.
func (r *prodRun) serve(srv *server.Server, log *slog.Logger, format string, errOut io.Writer) error {
	if r.metrics == nil {
		return nil
	}
	r.metrics.InitializeGRPC(srv.GRPC())
	lis, err := net.Listen("tcp", r.flags.metricsListen)
	if err != nil {
		return fmt.Errorf("metrics: listen: %w", err)
	}
	r.http = &http.Server{Handler: r.metrics.Handler(srv.Ready), ReadHeaderTimeout: 10 * time.Second}
	r.httpErr = make(chan error, 1)
	go func() { r.httpErr <- r.http.Serve(lis) }()
	if format == "json" {
		log.Info("metrics", "addr", lis.Addr().String())
	} else {
		fmt.Fprintf(errOut, "modsolver: metrics on http://%s/metrics\n", lis.Addr())
	}
	return nil
}

// reloaded counts one catalog reload.
func (r *prodRun) reloaded(err error) {
	if r.metrics != nil {
		r.metrics.Reloaded(err)
	}
}

// close stops the metrics server and the TLS file watch.
func (r *prodRun) close() {
	if r.http != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = r.http.Shutdown(ctx)
		cancel()
		if err := <-r.httpErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Default().Warn("metrics server", "error", err)
		}
	}
	r.stopTLS()
}
