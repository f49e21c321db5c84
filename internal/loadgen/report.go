package loadgen

import (
	"time"

	"google.golang.org/grpc/codes"
)

// Report is what the measured run saw; the warm-up is not in it.
type Report struct {
	// Concurrency is the number of workers: the most calls that were in
	// flight at once.
	Concurrency int
	// Requests counts the calls that were answered, with or without an
	// error. Calls that the end of ctx cut short are not counted.
	Requests int
	// Errors counts the calls that ended with a non-OK gRPC status;
	// ErrorsByCode splits them by code, and is nil when there are none.
	// An error that carries no status counts as Unknown.
	Errors       int
	ErrorsByCode map[codes.Code]int
	// Statuses counts the answers of the calls without an error.
	Statuses Statuses
	// Wall is the time from the start of the first call to the last
	// answer.
	Wall time.Duration
	// Latency is the distribution of the time of one call, from sending
	// it to its answer, errors included.
	Latency Latency
	// CPU is the CPU time, user and system, that this whole process used
	// during the measured run: the client's and, when the server runs in
	// the same process, the server's. It is zero where the platform does
	// not report it (only Unix systems do).
	CPU time.Duration
}

// CPUPerRequest returns the CPU time of the process per answered call,
// or zero when CPU or Requests is. On a machine shared with other work,
// it varies less than RPS does: a busy neighbour takes cores away from
// the run but adds little to what each call costs.
func (r Report) CPUPerRequest() time.Duration {
	if r.CPU <= 0 || r.Requests == 0 {
		return 0
	}
	return r.CPU / time.Duration(r.Requests)
}

// RPS returns the answered calls per second of wall time.
func (r Report) RPS() float64 {
	if r.Wall <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Wall.Seconds()
}

// Statuses counts answers by their status.
type Statuses struct {
	Resolved      int
	Unsatisfiable int
	// Other counts STATUS_UNSPECIFIED and statuses this client does not
	// know.
	Other int
}

// Latency is a latency distribution in brief. The percentiles use the
// nearest-rank method and are the upper bound of the histogram bucket
// the rank falls in: exact below 256 ns, above at most 0.8% more than the
// true value and never less, and never more than Max. Max is exact.
type Latency struct {
	P50, P90, P99, Max time.Duration
}
