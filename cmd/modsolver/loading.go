package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// loadWithin runs load, which reads files and may take long on a large
// catalog, until it returns or ctx ends: --timeout, SIGINT and SIGTERM
// stop a command that is still reading its inputs, rather than waiting for
// the reading to finish. What load prints goes to errOut only when it
// returns in time, so that nothing is written after the command has
// answered. what names the reading in the error.
func loadWithin[T any](ctx context.Context, timeout time.Duration, what string, errOut io.Writer, load func(errOut io.Writer) (T, error)) (T, error) {
	if ctx.Err() != nil {
		var zero T
		return zero, interrupted(ctx, timeout, what)
	}
	type result struct {
		v   T
		err error
		out bytes.Buffer
	}
	done := make(chan *result, 1)
	go func() {
		r := &result{}
		r.v, r.err = load(&r.out)
		done <- r
	}()
	select {
	case r := <-done:
		_, _ = io.Copy(errOut, &r.out)
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, interrupted(ctx, timeout, what)
	}
}

// interrupted says why ctx ended while what went on.
func interrupted(ctx context.Context, timeout time.Duration, what string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%s took longer than --timeout %s: %w", what, timeout, ctx.Err())
	}
	return fmt.Errorf("interrupted while %s: %w", what, ctx.Err())
}

// noAnswer says why a command that was working on what gave no answer:
// --timeout passed, or an interrupt (SIGINT, SIGTERM) came, and err is
// what the work returned.
func noAnswer(ctx context.Context, timeout time.Duration, what string, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no answer within --timeout %s: %w", timeout, err)
	}
	return fmt.Errorf("interrupted while %s: %w", what, err)
}
