package loadgen_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/modsolver/modsolver/internal/loadgen"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// fake is a ResolverClient that answers Resolve with answer, after delay
// if one is set, and tracks the calls in flight.
type fake struct {
	delay  time.Duration
	answer func(n int64, in *modsolverv1.ResolveRequest) (*modsolverv1.ResolveResponse, error)

	calls, inFlight, maxInFlight atomic.Int64
	mu                           sync.Mutex
	order                        []string
}

func (f *fake) Resolve(ctx context.Context, in *modsolverv1.ResolveRequest, _ ...grpc.CallOption) (*modsolverv1.ResolveResponse, error) {
	n := f.calls.Add(1)
	cur := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for m := f.maxInFlight.Load(); cur > m && !f.maxInFlight.CompareAndSwap(m, cur); m = f.maxInFlight.Load() {
	}
	f.mu.Lock()
	f.order = append(f.order, in.GetCatalogName())
	f.mu.Unlock()
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		}
	}
	if f.answer == nil {
		return answer(modsolverv1.Status_STATUS_RESOLVED), nil
	}
	return f.answer(n, in)
}

func (f *fake) WhatIf(context.Context, *modsolverv1.WhatIfRequest, ...grpc.CallOption) (grpc.ServerStreamingClient[modsolverv1.WhatIfResult], error) {
	return nil, status.Error(codes.Unimplemented, "fake")
}

func (f *fake) Explain(context.Context, *modsolverv1.ExplainRequest, ...grpc.CallOption) (*modsolverv1.ExplainResponse, error) {
	return nil, status.Error(codes.Unimplemented, "fake")
}

func (f *fake) ListCatalogs(context.Context, *modsolverv1.ListCatalogsRequest, ...grpc.CallOption) (*modsolverv1.ListCatalogsResponse, error) {
	return nil, status.Error(codes.Unimplemented, "fake")
}

func (f *fake) GetModule(context.Context, *modsolverv1.GetModuleRequest, ...grpc.CallOption) (*modsolverv1.GetModuleResponse, error) {
	return nil, status.Error(codes.Unimplemented, "fake")
}

func answer(s modsolverv1.Status) *modsolverv1.ResolveResponse {
	return &modsolverv1.ResolveResponse{Status: s}
}

// requests returns one request per name, each naming a catalog so that
// the fake can tell them apart.
func requests(names ...string) []*modsolverv1.ResolveRequest {
	out := make([]*modsolverv1.ResolveRequest, len(names))
	for i, n := range names {
		out[i] = &modsolverv1.ResolveRequest{Catalog: &modsolverv1.ResolveRequest_CatalogName{CatalogName: n}}
	}
	return out
}

// byCatalog answers each request by its catalog name.
func byCatalog(answers map[string]func() (*modsolverv1.ResolveResponse, error)) func(int64, *modsolverv1.ResolveRequest) (*modsolverv1.ResolveResponse, error) {
	return func(_ int64, in *modsolverv1.ResolveRequest) (*modsolverv1.ResolveResponse, error) {
		return answers[in.GetCatalogName()]()
	}
}

func TestLoadRunCounts(t *testing.T) {
	f := &fake{answer: byCatalog(map[string]func() (*modsolverv1.ResolveResponse, error){
		"yes": func() (*modsolverv1.ResolveResponse, error) { return answer(modsolverv1.Status_STATUS_RESOLVED), nil },
		"no": func() (*modsolverv1.ResolveResponse, error) {
			return answer(modsolverv1.Status_STATUS_UNSATISFIABLE), nil
		},
		"blank": func() (*modsolverv1.ResolveResponse, error) {
			return answer(modsolverv1.Status_STATUS_UNSPECIFIED), nil
		},
	})}
	rep, err := loadgen.Run(t.Context(), f, requests("yes", "no", "yes", "blank"), loadgen.WithRequests(1000), loadgen.WithConcurrency(4))
	require.NoError(t, err)
	assert.Equal(t, 1000, rep.Requests)
	assert.EqualValues(t, 1000, f.calls.Load(), "exactly the calls asked for")
	assert.Zero(t, rep.Errors)
	assert.Nil(t, rep.ErrorsByCode)
	assert.Equal(t, loadgen.Statuses{Resolved: 500, Unsatisfiable: 250, Other: 250}, rep.Statuses)
	assert.Equal(t, 4, rep.Concurrency)
	assert.Positive(t, rep.Wall)
	assert.Positive(t, rep.RPS())
	assert.Equal(t, rep.CPU/1000, rep.CPUPerRequest())
	assert.LessOrEqual(t, rep.Latency.P50, rep.Latency.P90)
	assert.LessOrEqual(t, rep.Latency.P90, rep.Latency.P99)
	assert.LessOrEqual(t, rep.Latency.P99, rep.Latency.Max)
}

// One worker sends the requests in their order, again and again.
func TestLoadRunCycles(t *testing.T) {
	f := &fake{}
	_, err := loadgen.Run(t.Context(), f, requests("a", "b", "c"), loadgen.WithRequests(7), loadgen.WithConcurrency(1))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c", "a", "b", "c", "a"}, f.order)
}

// Every non-OK status is an error, counted by code, and the run goes on.
func TestLoadRunErrorCodes(t *testing.T) {
	f := &fake{answer: byCatalog(map[string]func() (*modsolverv1.ResolveResponse, error){
		"ok":          func() (*modsolverv1.ResolveResponse, error) { return answer(modsolverv1.Status_STATUS_RESOLVED), nil },
		"unavailable": func() (*modsolverv1.ResolveResponse, error) { return nil, status.Error(codes.Unavailable, "down") },
		"invalid":     func() (*modsolverv1.ResolveResponse, error) { return nil, status.Error(codes.InvalidArgument, "bad") },
		"plain":       func() (*modsolverv1.ResolveResponse, error) { return nil, errors.New("no status") },
		"odd":         func() (*modsolverv1.ResolveResponse, error) { return nil, status.Error(codes.Code(99), "odd") },
	})}
	rep, err := loadgen.Run(t.Context(), f, requests("ok", "unavailable", "invalid", "plain", "odd"), loadgen.WithRequests(500), loadgen.WithConcurrency(3))
	require.NoError(t, err, "errors of calls are measurements, not a failed run")
	assert.Equal(t, 500, rep.Requests)
	assert.Equal(t, 400, rep.Errors)
	assert.Equal(t, map[codes.Code]int{codes.Unavailable: 100, codes.InvalidArgument: 100, codes.Unknown: 200}, rep.ErrorsByCode)
	assert.Equal(t, loadgen.Statuses{Resolved: 100}, rep.Statuses)
}

// Never more calls in flight than workers, however many calls are asked.
func TestLoadRunConcurrencyBound(t *testing.T) {
	for _, n := range []int{1, 3, 8} {
		f := &fake{delay: time.Millisecond}
		rep, err := loadgen.Run(t.Context(), f, requests("a"), loadgen.WithRequests(20*n), loadgen.WithConcurrency(n))
		require.NoError(t, err)
		assert.Equal(t, 20*n, rep.Requests)
		assert.LessOrEqual(t, f.maxInFlight.Load(), int64(n), "concurrency %d", n)
		assert.Positive(t, f.maxInFlight.Load())
	}
}

// The default is two workers per GOMAXPROCS.
func TestLoadRunDefaultConcurrency(t *testing.T) {
	rep, err := loadgen.Run(t.Context(), &fake{}, requests("a"), loadgen.WithRequests(10))
	require.NoError(t, err)
	assert.Equal(t, loadgen.DefaultConcurrency(), rep.Concurrency)
}

// A duration run sends calls until its time is up, then waits for the
// calls in flight; none of them is an error.
func TestLoadRunDuration(t *testing.T) {
	f := &fake{delay: time.Millisecond}
	rep, err := loadgen.Run(t.Context(), f, requests("a"), loadgen.WithDuration(50*time.Millisecond), loadgen.WithConcurrency(2))
	require.NoError(t, err)
	assert.Positive(t, rep.Requests)
	assert.Zero(t, rep.Errors)
	assert.EqualValues(t, f.calls.Load(), rep.Requests, "every call sent is answered and counted")
	assert.GreaterOrEqual(t, rep.Wall, 50*time.Millisecond)
}

// With both limits, the first one reached ends the run.
func TestLoadRunFirstLimit(t *testing.T) {
	rep, err := loadgen.Run(t.Context(), &fake{}, requests("a"), loadgen.WithRequests(5), loadgen.WithDuration(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, 5, rep.Requests)
}

// Warm-up calls are sent but not counted.
func TestLoadRunWarmup(t *testing.T) {
	f := &fake{}
	rep, err := loadgen.Run(t.Context(), f, requests("a"), loadgen.WithWarmup(20*time.Millisecond), loadgen.WithRequests(10), loadgen.WithConcurrency(2))
	require.NoError(t, err)
	assert.Equal(t, 10, rep.Requests)
	assert.Greater(t, f.calls.Load(), int64(10), "the warm-up sent calls too")
}

// Cancelling ctx stops the run: the calls it cut short are not counted,
// and what was measured before comes back with the context's error.
func TestLoadRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	f := &fake{delay: time.Millisecond}
	f.answer = func(n int64, _ *modsolverv1.ResolveRequest) (*modsolverv1.ResolveResponse, error) {
		if n == 50 {
			cancel()
		}
		return answer(modsolverv1.Status_STATUS_RESOLVED), nil
	}
	rep, err := loadgen.Run(ctx, f, requests("a"), loadgen.WithDuration(time.Hour), loadgen.WithConcurrency(4))
	require.ErrorIs(t, err, context.Canceled)
	assert.GreaterOrEqual(t, rep.Requests, 50-4, "the calls answered before the cancel")
	assert.Zero(t, rep.Errors, "calls cut short are not errors")
	assert.Equal(t, rep.Requests, rep.Statuses.Resolved)
	assert.Zero(t, f.inFlight.Load(), "no call outlives Run")
}

func TestLoadRunCancelDuringWarmup(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	f := &fake{answer: func(int64, *modsolverv1.ResolveRequest) (*modsolverv1.ResolveResponse, error) {
		cancel()
		return answer(modsolverv1.Status_STATUS_RESOLVED), nil
	}}
	rep, err := loadgen.Run(ctx, f, requests("a"), loadgen.WithWarmup(time.Hour), loadgen.WithConcurrency(2))
	require.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, rep.Requests)
}

// Progress reports the run so far, and stops before Run returns.
func TestLoadRunProgress(t *testing.T) {
	held := make(chan struct{})
	var once sync.Once
	f := &fake{answer: func(n int64, _ *modsolverv1.ResolveRequest) (*modsolverv1.ResolveResponse, error) {
		if n == 10 {
			<-held // until progress has reported the nine calls before
		}
		return answer(modsolverv1.Status_STATUS_RESOLVED), nil
	}}
	var reports []loadgen.Progress // only the reporting goroutine appends
	rep, err := loadgen.Run(t.Context(), f, requests("a"), loadgen.WithRequests(20), loadgen.WithConcurrency(1),
		loadgen.WithProgress(time.Millisecond, func(p loadgen.Progress) {
			reports = append(reports, p)
			if p.Requests == 9 {
				once.Do(func() { close(held) })
			}
		}))
	require.NoError(t, err)
	assert.Equal(t, 20, rep.Requests)
	require.NotEmpty(t, reports)
	for i, p := range reports {
		assert.Zero(t, p.Errors)
		assert.LessOrEqual(t, p.Requests, 20)
		if i > 0 {
			assert.GreaterOrEqual(t, p.Requests, reports[i-1].Requests, "counts only grow")
			assert.Greater(t, p.Elapsed, reports[i-1].Elapsed)
		}
	}
	n := len(reports)
	time.Sleep(5 * time.Millisecond)
	assert.Len(t, reports, n, "no report after Run returns")
}

func TestLoadRunInvalid(t *testing.T) {
	_, err := loadgen.Run(t.Context(), &fake{}, nil)
	require.ErrorIs(t, err, loadgen.ErrInvalid)
	_, err = loadgen.Run(t.Context(), nil, requests("a"))
	require.ErrorIs(t, err, loadgen.ErrInvalid)
}
