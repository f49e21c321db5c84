package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/modsolver/modsolver/model"
)

func TestLimiterQueue(t *testing.T) {
	l := newLimiter(1, 1, 100*time.Millisecond)
	ctx := context.Background()
	n, release, err := l.acquire(ctx, 0)
	require.NoError(t, err)
	assert.Equal(t, 1, n)

	// The second call waits in the queue; while it does, a third finds
	// the queue full and is refused at once.
	queued := make(chan error, 1)
	go func() {
		_, rel, err := l.acquire(ctx, 0)
		if err == nil {
			rel()
		}
		queued <- err
	}()
	require.Eventually(t, func() bool { return l.admitted.Load() == 2 }, 5*time.Second, time.Millisecond)
	start := time.Now()
	_, _, err = l.acquire(ctx, 0)
	var over *OverloadedError
	require.ErrorAs(t, err, &over)
	assert.Less(t, time.Since(start), 50*time.Millisecond, "a full queue refuses at once")
	assert.Equal(t, 100*time.Millisecond, over.RetryAfter)
	assert.Contains(t, err.Error(), "1 solves in flight and 1 calls queued")

	// The queued call gives up after the queue timeout.
	err = <-queued
	require.ErrorIs(t, err, ErrOverloaded)
	assert.Contains(t, err.Error(), "queue timeout of 100ms")

	// A call's own deadline, sooner than the queue timeout, is its error.
	dctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	_, _, err = l.acquire(dctx, 0)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.NotErrorIs(t, err, ErrOverloaded)

	// A slot given back serves the next call.
	release()
	_, release, err = l.acquire(ctx, 0)
	require.NoError(t, err)
	release()
	assert.Zero(t, l.admitted.Load())
}

func TestLimiterQueueTurnsOver(t *testing.T) {
	l := newLimiter(1, 1, 5*time.Second)
	_, release, err := l.acquire(context.Background(), 0)
	require.NoError(t, err)
	got := make(chan error, 1)
	go func() {
		_, rel, err := l.acquire(context.Background(), 0)
		if err == nil {
			rel()
		}
		got <- err
	}()
	require.Eventually(t, func() bool { return l.admitted.Load() == 2 }, 5*time.Second, time.Millisecond)
	release()
	assert.NoError(t, <-got, "a queued call gets the slot given back")
}

func TestLimiterBorrowsFreeSlots(t *testing.T) {
	l := newLimiter(3, 0, time.Second)
	n, releaseAll, err := l.acquire(context.Background(), 5)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "at most every slot")
	_, _, err = l.acquire(context.Background(), 0)
	assert.ErrorIs(t, err, ErrOverloaded, "no queue: refused at once")
	releaseAll()

	_, release1, err := l.acquire(context.Background(), 0)
	require.NoError(t, err)
	n, release2, err := l.acquire(context.Background(), 5)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "borrows only the free slots")
	release1()
	release2()

	var none *limiter
	n, release, err := none.acquire(context.Background(), 3)
	require.NoError(t, err)
	assert.Equal(t, 4, n, "no limiter: all it asks for")
	release()
}

func TestResourceExhaustedDetails(t *testing.T) {
	tests := []struct {
		name  string
		err   error
		check func(t *testing.T, d any)
	}{
		{"overloaded", fmt.Errorf("solve: %w", &OverloadedError{RetryAfter: 1500 * time.Millisecond, Reason: "busy"}), func(t *testing.T, d any) {
			ri, ok := d.(*errdetails.RetryInfo)
			require.True(t, ok, "%T", d)
			assert.Equal(t, 1500*time.Millisecond, ri.GetRetryDelay().AsDuration())
		}},
		{"memory", &model.MemoryLimitError{Limit: 1 << 20, Estimate: 1<<20 + 10, Variables: 5, Clauses: 7}, func(t *testing.T, d any) {
			ei, ok := d.(*errdetails.ErrorInfo)
			require.True(t, ok, "%T", d)
			assert.Equal(t, "MEMORY_LIMIT", ei.GetReason())
			assert.Equal(t, map[string]string{"limitBytes": "1048576", "estimateBytes": "1048586"}, ei.GetMetadata())
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := status.Convert(toStatus(slog.Default(), "/m", tc.err))
			assert.Equal(t, codes.ResourceExhausted, st.Code())
			assert.Equal(t, tc.err.Error(), st.Message())
			require.Len(t, st.Details(), 1)
			tc.check(t, st.Details()[0])
		})
	}
	assert.Equal(t, codes.ResourceExhausted, status.Code(toStatus(slog.Default(), "/m", fmt.Errorf("x: %w", model.ErrTooLarge))))
	assert.False(t, errors.Is(&OverloadedError{}, model.ErrInvalidInput))
}
