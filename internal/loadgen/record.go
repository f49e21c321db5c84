package loadgen

import (
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// numCodes is the number of gRPC codes, OK to Unauthenticated; an error
// with any other code counts as Unknown.
const numCodes = int(codes.Unauthenticated) + 1

// Answer statuses, as indices of recorder.statuses.
const (
	resolved = iota
	unsatisfiable
	otherStatus
	numStatuses
)

// recorder counts the calls of a measured run. The workers share it:
// every field is atomic and its size is fixed.
type recorder struct {
	latency  histogram
	requests atomic.Int64
	errors   atomic.Int64
	byCode   [numCodes]atomic.Int64
	statuses [numStatuses]atomic.Int64
}

// record counts one answered call that took d.
func (r *recorder) record(d time.Duration, resp *modsolverv1.ResolveResponse, err error) {
	r.latency.record(d)
	r.requests.Add(1)
	if err != nil {
		r.errors.Add(1)
		r.byCode[codeIndex(status.Code(err))].Add(1)
		return
	}
	r.statuses[statusIndex(resp.GetStatus())].Add(1)
}

func codeIndex(c codes.Code) int {
	if int(c) >= numCodes {
		return int(codes.Unknown)
	}
	return int(c)
}

func statusIndex(s modsolverv1.Status) int {
	switch s {
	case modsolverv1.Status_STATUS_RESOLVED:
		return resolved
	case modsolverv1.Status_STATUS_UNSATISFIABLE:
		return unsatisfiable
	}
	return otherStatus
}

func (r *recorder) progress(elapsed time.Duration) Progress {
	return Progress{Elapsed: elapsed, Requests: int(r.requests.Load()), Errors: int(r.errors.Load())}
}

// report summarises the run once its workers have stopped.
func (r *recorder) report(concurrency int, wall time.Duration) Report {
	rep := Report{
		Concurrency: concurrency,
		Requests:    int(r.requests.Load()),
		Errors:      int(r.errors.Load()),
		Wall:        wall,
		Latency:     r.latency.summary(),
		Statuses: Statuses{
			Resolved:      int(r.statuses[resolved].Load()),
			Unsatisfiable: int(r.statuses[unsatisfiable].Load()),
			Other:         int(r.statuses[otherStatus].Load()),
		},
	}
	for c := range r.byCode {
		if n := r.byCode[c].Load(); n > 0 {
			if rep.ErrorsByCode == nil {
				rep.ErrorsByCode = map[codes.Code]int{}
			}
			rep.ErrorsByCode[codes.Code(c)] = int(n)
		}
	}
	return rep
}
