package loadgen

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every value lies in its bucket, and a bucket is at most 1/128 of its
// values wide: exact below 256.
func TestLoadBucketPrecision(t *testing.T) {
	values := []uint64{0, 1, 127, 128, 255, 256, 257, 511, 512, 1e3, 1e6, 1e9, math.MaxInt64}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		values = append(values, rng.Uint64N(math.MaxInt64)>>rng.IntN(63))
	}
	for _, v := range values {
		i := bucketOf(v)
		require.Less(t, i, numBuckets, "value %d", v)
		hi := upperBound(i)
		lo := uint64(0)
		if i > 0 {
			lo = upperBound(i-1) + 1
		}
		require.True(t, lo <= v && v <= hi, "value %d: bucket %d holds %d..%d", v, i, lo, hi)
		if v < 256 {
			assert.Equal(t, v, hi, "values below 256 are exact")
		} else {
			assert.LessOrEqual(t, float64(hi-lo+1)/float64(v), 1.0/128, "value %d", v)
		}
	}
}

// The buckets tile the values: each starts where the one before ends.
func TestLoadBucketsContiguous(t *testing.T) {
	for i := 1; i < numBuckets; i++ {
		require.Equal(t, i, bucketOf(upperBound(i-1)+1), "bucket %d", i)
		require.Equal(t, i, bucketOf(upperBound(i)), "bucket %d", i)
	}
	assert.Equal(t, uint64(math.MaxInt64), upperBound(numBuckets-1))
}

func TestLoadPercentiles(t *testing.T) {
	tests := []struct {
		name               string
		values             []time.Duration
		p50, p90, p99, max time.Duration
	}{
		{name: "none"},
		{name: "one", values: []time.Duration{3 * time.Millisecond},
			p50: 3 * time.Millisecond, p90: 3 * time.Millisecond, p99: 3 * time.Millisecond, max: 3 * time.Millisecond},
		{name: "1..100 ms", values: series(100, time.Millisecond),
			p50: 50 * time.Millisecond, p90: 90 * time.Millisecond, p99: 99 * time.Millisecond, max: 100 * time.Millisecond},
		{name: "1..1000 µs", values: series(1000, time.Microsecond),
			p50: 500 * time.Microsecond, p90: 900 * time.Microsecond, p99: 990 * time.Microsecond, max: time.Millisecond},
		{name: "exact below 256 ns", values: series(200, time.Nanosecond),
			p50: 100, p90: 180, p99: 198, max: 200},
		{name: "one slow call in 100", values: append(repeat(99, time.Millisecond), time.Second),
			p50: time.Millisecond, p90: time.Millisecond, p99: time.Millisecond, max: time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h histogram
			for _, v := range tt.values {
				h.record(v)
			}
			got := h.summary()
			assert.Equal(t, tt.max, got.Max, "max is exact")
			for name, pair := range map[string][2]time.Duration{"p50": {tt.p50, got.P50}, "p90": {tt.p90, got.P90}, "p99": {tt.p99, got.P99}} {
				want, got := pair[0], pair[1]
				assert.GreaterOrEqual(t, got, want, "%s is never under-stated", name)
				assert.LessOrEqual(t, float64(got-want), float64(want)/128, "%s: within 1/128 of %s, got %s", name, want, got)
			}
		})
	}
}

// Shuffled input gives the same summary: the order of calls does not
// matter.
func TestLoadPercentilesOrderFree(t *testing.T) {
	values := series(1000, time.Microsecond)
	var sorted, shuffled histogram
	for _, v := range values {
		sorted.record(v)
	}
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(values), func(i, j int) { values[i], values[j] = values[j], values[i] })
	for _, v := range values {
		shuffled.record(v)
	}
	assert.Equal(t, sorted.summary(), shuffled.summary())
}

// series returns step, 2×step, …, n×step.
func series(n int, step time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(i+1) * step
	}
	return out
}

func repeat(n int, d time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = d
	}
	return out
}

// A report with no CPU time or no calls has no CPU time per call.
func TestLoadCPUPerRequestOfNothing(t *testing.T) {
	assert.Zero(t, Report{Requests: 10}.CPUPerRequest())
	assert.Zero(t, Report{CPU: time.Second}.CPUPerRequest())
	assert.Equal(t, 100*time.Millisecond, Report{CPU: time.Second, Requests: 10}.CPUPerRequest())
}
