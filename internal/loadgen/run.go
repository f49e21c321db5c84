package loadgen

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// DefaultDuration is how long a run lasts when no option says otherwise.
const DefaultDuration = 10 * time.Second

// DefaultConcurrency returns the number of workers of a run when
// WithConcurrency does not set it: two per GOMAXPROCS. When client and
// server share the cores, one call then waits behind each running one, so
// that no core idles while a call is in transit; more workers mostly
// lengthen the queue, and with it the latency of every call.
func DefaultConcurrency() int { return 2 * runtime.GOMAXPROCS(0) }

// ErrInvalid marks a run that cannot start as asked.
var ErrInvalid = errors.New("loadgen: invalid run")

// Option tunes a run.
type Option func(*config)

type config struct {
	concurrency int
	duration    time.Duration
	requests    uint64
	warmup      time.Duration
	every       time.Duration
	progress    func(Progress)
}

// WithConcurrency sets the number of workers, and so the most calls in
// flight (default DefaultConcurrency). Values below 1 keep the default.
func WithConcurrency(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.concurrency = n
		}
	}
}

// WithDuration ends the measured run after d, once the calls in flight
// are answered. Without WithRequests the default is DefaultDuration; with
// it, there is no time limit unless this option sets one, and the first
// limit reached ends the run.
func WithDuration(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.duration = d
		}
	}
}

// WithRequests ends the measured run after n calls.
func WithRequests(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.requests = uint64(n)
		}
	}
}

// WithWarmup runs the same load for d before the measured run, and
// forgets it (default: no warm-up).
func WithWarmup(d time.Duration) Option { return func(c *config) { c.warmup = max(d, 0) } }

// WithProgress calls fn every interval during the measured run, from a
// goroutine of its own; Run returns only after the last call to fn.
func WithProgress(every time.Duration, fn func(Progress)) Option {
	return func(c *config) {
		if every > 0 && fn != nil {
			c.every, c.progress = every, fn
		}
	}
}

// Progress is the state of a measured run so far.
type Progress struct {
	Elapsed  time.Duration
	Requests int
	Errors   int
}

// Run sends reqs to client in turn, from a fixed number of workers, and
// reports what it measured. A call that ends with a non-OK status counts
// as an error and the run goes on. When ctx ends, the calls in flight are
// cancelled and not counted, and Run returns what it measured so far with
// an error that wraps ctx.Err().
func Run(ctx context.Context, client modsolverv1.ResolverClient, reqs []*modsolverv1.ResolveRequest, opts ...Option) (Report, error) {
	cfg, err := configure(client, reqs, opts)
	if err != nil {
		return Report{}, err
	}
	r := &runner{client: client, reqs: reqs, cfg: cfg}
	if cfg.warmup > 0 {
		r.run(ctx, &phase{length: cfg.warmup})
	}
	if err := ctx.Err(); err != nil {
		return Report{Concurrency: cfg.concurrency}, fmt.Errorf("loadgen: interrupted during the warm-up: %w", err)
	}
	p := &phase{length: cfg.duration, limit: cfg.requests, rec: &recorder{}}
	cpu0, cpuOK := ProcessCPU()
	wall := r.run(ctx, p)
	rep := p.rec.report(cfg.concurrency, wall)
	if cpu1, ok := ProcessCPU(); ok && cpuOK {
		rep.CPU = cpu1 - cpu0
	}
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("loadgen: interrupted: %w", err)
	}
	return rep, nil
}

func configure(client modsolverv1.ResolverClient, reqs []*modsolverv1.ResolveRequest, opts []Option) (config, error) {
	cfg := config{concurrency: DefaultConcurrency()}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.duration == 0 && cfg.requests == 0 {
		cfg.duration = DefaultDuration
	}
	switch {
	case client == nil:
		return cfg, fmt.Errorf("%w: no client", ErrInvalid)
	case len(reqs) == 0:
		return cfg, fmt.Errorf("%w: no requests to send", ErrInvalid)
	}
	return cfg, nil
}

// runner holds what every phase of one run shares.
type runner struct {
	client modsolverv1.ResolverClient
	reqs   []*modsolverv1.ResolveRequest
	cfg    config
}

// phase is one stretch of calls: the warm-up (rec nil, nothing recorded)
// or the measured run.
type phase struct {
	length time.Duration // 0: no time limit
	limit  uint64        // 0: no limit on the number of calls
	rec    *recorder
	end    time.Time
	issued atomic.Uint64
}

// next hands out the number of the next call, or false when the phase is
// over.
func (p *phase) next() (uint64, bool) {
	if p.length > 0 && !time.Now().Before(p.end) {
		return 0, false
	}
	n := p.issued.Add(1) - 1
	return n, p.limit == 0 || n < p.limit
}

// run runs p on every worker and returns its wall time, once every worker
// and the progress reporter have stopped.
func (r *runner) run(ctx context.Context, p *phase) time.Duration {
	start := time.Now()
	p.end = start.Add(p.length)
	stop := r.watch(p, start)
	var wg sync.WaitGroup
	for range r.cfg.concurrency {
		wg.Go(func() { r.work(ctx, p) })
	}
	wg.Wait()
	wall := time.Since(start)
	stop()
	return wall
}

// work sends one call at a time until the phase or ctx ends.
func (r *runner) work(ctx context.Context, p *phase) {
	for ctx.Err() == nil {
		n, ok := p.next()
		if !ok {
			return
		}
		start := time.Now()
		resp, err := r.client.Resolve(ctx, r.reqs[n%uint64(len(r.reqs))])
		if err != nil && ctx.Err() != nil {
			return // cut short by the end of the run: not an answer
		}
		if p.rec != nil {
			p.rec.record(time.Since(start), resp, err)
		}
	}
}

// watch reports the progress of a measured phase until stop is called.
func (r *runner) watch(p *phase, start time.Time) (stop func()) {
	if r.cfg.progress == nil || p.rec == nil {
		return func() {}
	}
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(r.cfg.every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-tick.C:
				r.cfg.progress(p.rec.progress(now.Sub(start)))
			}
		}
	}()
	return func() { close(done); <-exited }
}
