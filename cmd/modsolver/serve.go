package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/server"
)

const serveUsage = `Usage:
  modsolver serve [--listen ADDR] [--catalog [NAME=]PATH]... [flags]

Serves the gRPC service modsolver.v1.Resolver, with the standard health
service (grpc.health.v1) and server reflection, so that grpcurl works.

Catalogs: each --catalog is a single YAML or JSON file in modsolver's
format, a directory in DKP's module-source layout, an OLM bundle dump or
file-based catalog, or a Helm repository index, its format detected from
its content (see 'modsolver catalog --help'). NAME=PATH serves it
under NAME; a bare PATH is named after its base name without extension
(/data/dkp serves as "dkp", catalogs/prod.yaml as "prod"). The first
catalog is the default, used when a request names none. Without --catalog,
the embedded demo catalog is served as "demo". Requests may also carry an
inline catalog in the single-file format.

Every resolution is bounded by --timeout, or by the client's deadline when
that is sooner. Requests larger than --max-request-bytes are refused.

Resource bounds: at most --max-inflight solves run at once (a WhatIf
stream holds one slot, and borrows free ones as extra workers, until it
ends); up to --max-queued more calls wait for a slot, each for at most
--queue-timeout; beyond that a call is refused with RESOURCE_EXHAUSTED and
a google.rpc.RetryInfo of --queue-timeout. A request whose solver memory
(an estimate, reported as stats.memoryKib) would pass --max-request-memory
ends with RESOURCE_EXHAUSTED. An inline catalog larger than
--max-inline-catalog-bytes or with more than --max-inline-catalog-modules
modules is INVALID_ARGUMENT.

Signals:
  SIGHUP            reload every catalog from its path and swap the whole
                    set at once; if any catalog fails to load, the previous
                    set keeps serving and the log says why
  SIGINT, SIGTERM   stop gracefully: health turns NOT_SERVING, new calls are
                    refused, in-flight calls finish; after --shutdown-timeout
                    the rest are cancelled. While the catalogs load at start,
                    stop at once (exit 3); a reload still reading is
                    abandoned, nothing of it served, and the stop goes on

Logs go to stderr, as text or JSON, from --log-level up: one line per call
(method, code, duration, peer) that fails, at info, or error for a fault of
the server; a call answered OK is logged at debug, so that a busy service
writes no line per answer unless --log-level debug asks for one. Once listening, serve prints the address on stderr:
  modsolver: serving modsolver.v1.Resolver on 127.0.0.1:50051 (catalogs: demo)
(with --log-format json, as a JSON record with the same fields). Use
--listen 127.0.0.1:0 to pick a free port.

In a cluster: --metrics-listen serves /metrics, /healthz and /readyz over
plaintext HTTP; --tls-cert-file and --tls-private-key-file turn TLS on,
re-read every --tls-refresh-interval so that a renewed Secret takes effect
without a restart; --client-ca-file requires client certificates signed by
that CA (mutual TLS). --max-connection-age makes clients reconnect now and
then, so that they rebalance onto new replicas.

Exit codes: 0 after a clean shutdown, 2 bad flags or a bad catalog, 3 the
server could not listen or failed, or was stopped while loading its
catalogs.

Flags:
`

type serveFlags struct {
	listen          string
	catalogs        []catalogSource
	timeout         time.Duration
	shutdownTimeout time.Duration
	maxRequestBytes int
	logFormat       string
	logLevel        slog.Level
	prod            prodFlags // serve_prod.go
	limits          limitFlags
}

// catalogSource is one --catalog flag; path "" is the embedded demo.
// priority is the one --catalog-priority gives it as a source (R23).
type catalogSource struct {
	name, path string
	priority   int
}

func runServe(ctx context.Context, args []string, out, errOut io.Writer) int {
	f, code, done := parseServeFlags(args, out, errOut)
	if done {
		return code
	}
	errOut = &lockedWriter{w: errOut} // shared by the log and the announcement
	log := newLogger(errOut, f.logFormat, f.logLevel)
	cats, err := f.load(ctx, errOut)
	if err != nil {
		return fail(errOut, err)
	}
	reg, err := server.NewCatalogs(cats...)
	if err != nil {
		return fail(errOut, fmt.Errorf("%w: %w", model.ErrInvalidInput, err))
	}
	prod, err := f.prod.start(reg)
	if err != nil {
		return fail(errOut, fmt.Errorf("%w: %w", model.ErrInvalidInput, err))
	}
	defer prod.close()
	srv := server.New(reg, append([]server.Option{
		server.WithSolveTimeout(f.timeout),
		server.WithLogger(log),
		server.WithCatalogParser(parseInlineCatalog),
		server.WithClusterParser(parseKubectlCluster),
		server.WithMaxRequestBytes(f.maxRequestBytes),
	}, append(f.limits.options(), prod.opts...)...)...)
	if err := prod.serve(srv, log, f.logFormat, errOut); err != nil {
		return fail(errOut, err)
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	lis, err := net.Listen("tcp", f.listen)
	if err != nil {
		return fail(errOut, fmt.Errorf("listen: %w", err))
	}
	announce(errOut, log, f.logFormat, lis.Addr(), reg.Names())
	reload := func() { prod.reloaded(f.reload(ctx, reg, log, errOut)) }
	return serveUntilDone(ctx, srv, lis, hup, reload, f.shutdownTimeout, log, errOut)
}

func parseServeFlags(args []string, out, errOut io.Writer) (f serveFlags, code int, done bool) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.Usage = func() { fmt.Fprint(fs.Output(), serveUsage); fs.PrintDefaults() }
	fs.StringVar(&f.listen, "listen", ":50051", "`address` to listen on (host:port)")
	fs.Func("catalog", "catalog to serve, as `[NAME=]PATH`; repeatable, the first is the default (default: the embedded demo catalog)", func(arg string) error {
		src, err := parseCatalogArg(arg)
		if err == nil {
			f.catalogs = append(f.catalogs, src)
		}
		return err
	})
	fs.DurationVar(&f.timeout, "timeout", server.DefaultSolveTimeout, "bound every resolution by this `duration` (a sooner client deadline wins)")
	fs.DurationVar(&f.shutdownTimeout, "shutdown-timeout", 30*time.Second, "on SIGINT or SIGTERM, wait this `duration` for in-flight calls")
	intVar(fs, &f.maxRequestBytes, "max-request-bytes", server.DefaultMaxRequestBytes, 1, "largest request message in `bytes`, inline catalogs included")
	fs.StringVar(&f.logFormat, "log-format", "text", "log `format`: text or json")
	fs.TextVar(&f.logLevel, "log-level", slog.LevelInfo, "log from this `level` up: debug (every call), info, warn or error")
	priorities := map[string]int{}
	fs.Func("catalog-priority", "a served catalog's priority as a source, `NAME=N` (repeatable, R23): used when a request names several catalogs as sources without priorities of their own; default 0", func(arg string) error {
		name, text, ok := strings.Cut(arg, "=")
		n, err := strconv.Atoi(text)
		if !ok || name == "" || err != nil {
			return fmt.Errorf("%q: want NAME=N with an integer N", arg)
		}
		priorities[name] = n
		return nil
	})
	f.prod.register(fs)
	f.limits.register(fs)
	if code, done := parseFlags(fs, args, out, errOut); done {
		return f, code, true
	}
	if err := f.setPriorities(priorities); err != nil {
		return f, fail(errOut, err), true
	}
	if err := errors.Join(f.check(), f.prod.check()); err != nil {
		return f, fail(errOut, err), true
	}
	if len(f.catalogs) == 0 {
		f.catalogs = []catalogSource{{name: "demo"}}
	}
	return f, 0, false
}

func (f *serveFlags) check() error {
	switch {
	case f.listen == "":
		return fmt.Errorf("%w: --listen: want host:port", errUsage)
	case f.timeout <= 0:
		return fmt.Errorf("%w: --timeout %s: want a positive duration", errUsage, f.timeout)
	case f.shutdownTimeout <= 0:
		return fmt.Errorf("%w: --shutdown-timeout %s: want a positive duration", errUsage, f.shutdownTimeout)
	case f.logFormat != "text" && f.logFormat != "json":
		return fmt.Errorf("%w: --log-format %q: want text or json", errUsage, f.logFormat)
	}
	if err := f.limits.check(); err != nil {
		return err
	}
	seen := map[string]string{}
	for _, src := range f.catalogs {
		if prev, dup := seen[src.name]; dup {
			return fmt.Errorf("%w: --catalog: %s and %s are both named %q; name one with NAME=PATH", errUsage, prev, src.path, src.name)
		}
		seen[src.name] = src.path
	}
	return nil
}

// setPriorities gives each named catalog its --catalog-priority; a name
// that no --catalog serves is a usage error.
func (f *serveFlags) setPriorities(priorities map[string]int) error {
	for name, n := range priorities {
		i := slices.IndexFunc(f.catalogs, func(c catalogSource) bool { return c.name == name })
		if i < 0 {
			return fmt.Errorf("%w: --catalog-priority %s=%d: no --catalog is named %s", errUsage, name, n, name)
		}
		f.catalogs[i].priority = n
	}
	return nil
}

// parseCatalogArg reads "NAME=PATH" or a bare PATH, named after its base
// name without extension. A "=" after a path separator belongs to PATH.
func parseCatalogArg(arg string) (catalogSource, error) {
	if name, path, ok := strings.Cut(arg, "="); ok && name != "" && !strings.ContainsAny(name, `/\`) {
		if path == "" {
			return catalogSource{}, fmt.Errorf("%q: want NAME=PATH", arg)
		}
		return catalogSource{name: name, path: path}, nil
	}
	if arg == "" {
		return catalogSource{}, fmt.Errorf("empty path")
	}
	base := filepath.Base(filepath.Clean(arg))
	name := strings.TrimSuffix(base, filepath.Ext(base))
	if name == "" || name == "." || name == string(filepath.Separator) {
		return catalogSource{}, fmt.Errorf("%q: cannot name a catalog after this path; use NAME=PATH", arg)
	}
	return catalogSource{name: name, path: arg}, nil
}

// loadServed loads every source; the first error stops it.
func loadServed(srcs []catalogSource, log *slog.Logger) ([]server.Catalog, error) {
	cats := make([]server.Catalog, 0, len(srcs))
	for _, src := range srcs {
		cat, err := loadServedOne(src, log)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: %w", src.name, err)
		}
		cats = append(cats, cat)
	}
	return cats, nil
}

func loadServedOne(src catalogSource, log *slog.Logger) (server.Catalog, error) {
	if src.path == "" {
		cat, err := catalog.Demo()
		return server.Catalog{Name: src.name, Source: "embedded", Format: "embedded", Catalog: cat, Priority: src.priority}, err
	}
	cat, rep, err := catalog.Load(src.path)
	if err != nil {
		return server.Catalog{}, err
	}
	var notes []string
	for _, s := range rep.Skipped {
		notes = append(notes, fmt.Sprintf("skipped %s: %s", s.Path, s.Reason))
	}
	notes = append(notes, rep.Warnings...)
	if len(notes) > 0 { // one line per event: a note a line, never the report in one (D402)
		log.Warn("catalog loaded with notes", "catalog", src.name, "skipped", len(rep.Skipped), "warnings", len(rep.Warnings))
		for _, n := range notes {
			log.Warn("catalog note", "catalog", src.name, "note", n)
		}
	}
	return server.Catalog{Name: src.name, Source: src.path, Format: string(rep.Format), Notes: notes, Catalog: cat, Priority: src.priority}, nil
}

// parseInlineCatalog adapts catalog.Parse to server.CatalogParser.
func parseInlineCatalog(name string, data []byte) (*model.Catalog, error) {
	cat, _, err := catalog.Parse(name, data)
	return cat, err
}

// load reads every catalog until it is done or ctx ends (SIGINT,
// SIGTERM): a stop does not wait for a large catalog to be read (D323).
// What the loading logs reaches errOut only when it is done in time.
func (f *serveFlags) load(ctx context.Context, errOut io.Writer) ([]server.Catalog, error) {
	names := make([]string, len(f.catalogs))
	for i, src := range f.catalogs {
		names[i] = src.name
	}
	what := "loading catalog " + strings.Join(names, ", ")
	return loadWithin(ctx, 0, what, errOut, func(w io.Writer) ([]server.Catalog, error) {
		return loadServed(f.catalogs, newLogger(w, f.logFormat, f.logLevel))
	})
}

// reload reads every catalog again and swaps the set; on any error, or
// when ctx ends first (a stop), the old set keeps serving and nothing of
// the new one is kept.
func (f *serveFlags) reload(ctx context.Context, reg *server.Catalogs, log *slog.Logger, errOut io.Writer) error {
	cats, err := f.load(ctx, errOut)
	if err != nil && ctx.Err() != nil {
		log.Warn("reload abandoned for the stop; the previous catalogs serve until then", "error", err)
		return err
	}
	if err == nil {
		err = reg.Replace(cats...)
	}
	if err != nil {
		log.Error("reload failed; still serving the previous catalogs", "error", err)
		return err
	}
	log.Info("catalogs reloaded", "catalogs", strings.Join(reg.Names(), ","))
	return nil
}

// serveUntilDone serves until ctx ends (a graceful stop, exit 0) or the
// server fails (exit 3), reloading on every signal from hup.
func serveUntilDone(ctx context.Context, srv *server.Server, lis net.Listener, hup <-chan os.Signal, reload func(),
	grace time.Duration, log *slog.Logger, errOut io.Writer) int {
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	for {
		select {
		case <-hup:
			reload()
		case err := <-served:
			return fail(errOut, fmt.Errorf("serve: %w", err))
		case <-ctx.Done():
			log.Info("shutting down", "grace", grace.String())
			sctx, cancel := context.WithTimeout(context.Background(), grace)
			srv.Shutdown(sctx)
			cancel()
			// A stop that comes before Serve has started makes Serve
			// return ErrServerStopped: that is a clean stop too.
			if err := <-served; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
				return fail(errOut, fmt.Errorf("serve: %w", err))
			}
			log.Info("stopped")
			return exitResolved
		}
	}
}

func announce(errOut io.Writer, log *slog.Logger, format string, addr net.Addr, names []string) {
	if format == "json" {
		log.Info("serving", "service", server.ServiceName, "addr", addr.String(), "catalogs", strings.Join(names, ","))
		return
	}
	fmt.Fprintf(errOut, "modsolver: serving %s on %s (catalogs: %s)\n", server.ServiceName, addr, strings.Join(names, ", "))
}

func newLogger(w io.Writer, format string, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// lockedWriter serialises writes from the log and the announcement.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
