package server

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/modsolver/modsolver/model"
)

// ErrOverloaded is a call refused because the server already runs as many
// solves as it may and its queue is full, or the call waited in the queue
// for the longest wait allowed. A later call may succeed.
var ErrOverloaded = errors.New("overloaded")

// OverloadedError is ErrOverloaded with the server's hint of when to try
// again. It unwraps to ErrOverloaded.
type OverloadedError struct {
	// RetryAfter is how long a client should wait before it tries again.
	RetryAfter time.Duration
	// Reason says which bound refused the call.
	Reason string
}

func (e *OverloadedError) Error() string {
	return fmt.Sprintf("%v: %s; retry after %s", ErrOverloaded, e.Reason, e.RetryAfter)
}

func (e *OverloadedError) Unwrap() error { return ErrOverloaded }

// Defaults of the limits on inline catalogs.
const (
	DefaultMaxInlineCatalogBytes   = 4 << 20
	DefaultMaxInlineCatalogModules = 1000
	DefaultQueueTimeout            = time.Second
)

// WithMaxInflight bounds the solves that run at once to n (default: no
// bound). A Resolve or Explain call holds one slot while it solves; a
// WhatIf stream holds one and borrows free ones as extra workers, up to
// GOMAXPROCS, for as long as it streams. A call that finds every slot
// taken waits in a queue of at most queued calls (negative: n) for up to
// wait (0: DefaultQueueTimeout), or for its own deadline if that is
// sooner; beyond that it fails with an *OverloadedError, which the client
// sees as RESOURCE_EXHAUSTED with a google.rpc.RetryInfo of wait.
func WithMaxInflight(n, queued int, wait time.Duration) Option {
	return func(c *config) {
		if n <= 0 {
			c.limit = nil
			return
		}
		if queued < 0 {
			queued = n
		}
		if wait <= 0 {
			wait = DefaultQueueTimeout
		}
		c.limit = newLimiter(n, queued, wait)
	}
}

// WithMaxInlineCatalog bounds an inline catalog to bytes of text and to
// modules modules (defaults 4 MiB and 1,000); values below 1 keep the
// default. A larger one is bad input, on the field inline_catalog.
func WithMaxInlineCatalog(bytes, modules int) Option {
	return func(c *config) {
		if bytes > 0 {
			c.maxInlineBytes = bytes
		}
		if modules > 0 {
			c.maxInlineModules = modules
		}
	}
}

// WithMaxRequestMemory bounds the solver's estimated memory for one
// resolution to n bytes (default: no bound); in a WhatIf stream it bounds
// each worker. A resolution that needs more ends with RESOURCE_EXHAUSTED.
func WithMaxRequestMemory(n int64) Option { return func(c *config) { c.maxMemory = max(n, 0) } }

// limiter bounds the solves in flight with a weighted semaphore, and the
// calls admitted, those that hold slots and those that wait for one, with
// a counter: a call counts as admitted from before it queues until it
// gives its slots back, so that a call answered and the next call of its
// client never count twice.
type limiter struct {
	sem      *semaphore.Weighted
	slots    int64
	queued   int64 // the most calls that wait
	admitted atomic.Int64
	wait     time.Duration
}

func newLimiter(slots, queued int, wait time.Duration) *limiter {
	return &limiter{sem: semaphore.NewWeighted(int64(slots)), slots: int64(slots), queued: int64(queued), wait: wait}
}

// acquire takes one slot, waiting in the queue if it must, and then
// borrows up to extra more slots that are free right now. It returns the
// number of slots held and the function that gives them back. A nil
// limiter bounds nothing: it grants 1+extra at once.
func (l *limiter) acquire(ctx context.Context, extra int) (int, func(), error) {
	if l == nil {
		return 1 + extra, func() {}, nil
	}
	if l.admitted.Add(1) > l.slots+l.queued {
		l.admitted.Add(-1)
		return 0, nil, &OverloadedError{RetryAfter: l.wait,
			Reason: fmt.Sprintf("%d solves in flight and %d calls queued, the most this server takes", l.slots, l.queued)}
	}
	if !l.sem.TryAcquire(1) {
		if err := l.queue(ctx); err != nil {
			l.admitted.Add(-1)
			return 0, nil, err
		}
	}
	held, want := int64(1), min(1+int64(extra), l.slots)
	for held < want && l.sem.TryAcquire(1) {
		held++
		l.admitted.Add(1)
	}
	return int(held), func() {
		l.sem.Release(held)
		l.admitted.Add(-held)
	}, nil
}

// queue waits for one slot for at most l.wait.
func (l *limiter) queue(ctx context.Context) error {
	wctx, cancel := context.WithTimeout(ctx, l.wait)
	defer cancel()
	err := l.sem.Acquire(wctx, 1)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err() // the call's own deadline or cancellation
	}
	return &OverloadedError{RetryAfter: l.wait,
		Reason: fmt.Sprintf("no solve slot of %d came free within the queue timeout of %s", l.slots, l.wait)}
}

// checkInlineSize refuses an inline catalog text above the byte limit,
// before it is parsed.
func (c *config) checkInlineSize(text string) error {
	if len(text) <= c.maxInlineBytes {
		return nil
	}
	return &model.FieldError{Path: model.Field("inline_catalog"), Err: fmt.Errorf("%w: %d bytes, more than this server takes inline (%d bytes); serve the catalog and name it instead",
		model.ErrInvalidValue, len(text), c.maxInlineBytes)}
}

// checkInlineModules refuses a parsed inline catalog above the module
// limit.
func (c *config) checkInlineModules(cat *model.Catalog) error {
	if cat.Len() <= c.maxInlineModules {
		return nil
	}
	return &model.FieldError{Path: model.Field("inline_catalog"), Err: fmt.Errorf("%w: %d modules, more than this server takes inline (%d); serve the catalog and name it instead",
		model.ErrInvalidValue, cat.Len(), c.maxInlineModules)}
}

// whatIfWorkers is how many workers a WhatIf stream of n scenarios would
// use with no bound: one per scenario, up to GOMAXPROCS.
func whatIfWorkers(n int) int { return max(min(n, runtime.GOMAXPROCS(0)), 1) }
