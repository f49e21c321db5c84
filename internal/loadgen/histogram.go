package loadgen

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// The histogram's buckets are log-linear, as in HdrHistogram: a value v
// keeps its top subBits+1 significant bits. Values below 2^(subBits+1)
// (256 ns) have a bucket each; above, every power of two splits into
// 2^subBits buckets, each at most 1/2^subBits (0.8%) of the values it
// holds wide. 57 powers of two cover every non-negative time.Duration
// in 7,296 buckets, 57 KiB.
const (
	subBits    = 7
	subBuckets = 1 << subBits
	numBuckets = (63 - subBits + 1) * subBuckets
)

// histogram counts latencies into fixed buckets, from any goroutine.
type histogram struct {
	counts [numBuckets]atomic.Uint64
	max    atomic.Int64
}

// bucketOf returns the bucket of v: the bits above its top subBits+1
// are dropped and counted in the shift.
func bucketOf(v uint64) int {
	shift := max(bits.Len64(v)-subBits-1, 0)
	return shift*subBuckets + int(v>>shift)
}

// upperBound returns the largest value bucket i holds.
func upperBound(i int) uint64 {
	shift := max(i/subBuckets-1, 0)
	top := uint64(i - shift*subBuckets)
	return (top+1)<<shift - 1
}

func (h *histogram) record(d time.Duration) {
	d = max(d, 0)
	h.counts[bucketOf(uint64(d))].Add(1)
	for cur := h.max.Load(); int64(d) > cur; cur = h.max.Load() {
		if h.max.CompareAndSwap(cur, int64(d)) {
			return
		}
	}
}

// summary returns the percentiles and the maximum of what was recorded.
func (h *histogram) summary() Latency {
	counts := make([]uint64, numBuckets)
	var total uint64
	for i := range h.counts {
		counts[i] = h.counts[i].Load()
		total += counts[i]
	}
	top := time.Duration(h.max.Load())
	return Latency{
		P50: percentile(counts, total, 500, top),
		P90: percentile(counts, total, 900, top),
		P99: percentile(counts, total, 990, top),
		Max: top,
	}
}

// percentile returns the value at rank ⌈total × permille / 1000⌉ (the
// nearest-rank method) as the upper bound of its bucket, never more than
// top, the largest value recorded; 0 when there are no values.
func percentile(counts []uint64, total, permille uint64, top time.Duration) time.Duration {
	rank := (total*permille + 999) / 1000
	var seen uint64
	for i, c := range counts {
		seen += c
		if c > 0 && seen >= rank {
			return min(time.Duration(upperBound(i)), top)
		}
	}
	return 0
}
