// Package loadgen drives a Resolver service with a bounded, closed-loop
// load and measures its throughput and latency.
//
// Run starts a fixed number of workers. Each sends one Resolve call, waits
// for its answer and sends the next, cycling through the requests it was
// given, so that never more calls are in flight than there are workers.
// A run lasts a fixed duration or a fixed number of calls, after an
// optional warm-up that is not measured. Memory is fixed too: the workers
// share one recorder of counters and one latency histogram, whatever the
// length of the run.
//
// A tour of the files:
//
//   - run.go: Run, its options, the phases (warm-up, then the measured
//     run) and the workers.
//   - record.go: the recorder the workers share: calls, errors by gRPC
//     code, answers by status, latencies.
//   - histogram.go: the latency histogram, a fixed array of log-linear
//     buckets, exact below 256 ns and within 1/128 (0.8%) above, and its
//     percentiles.
//   - report.go: Report, what a run measured.
//   - cpu_unix.go, cpu_other.go: the process's CPU time, read before and
//     after the measured run where the platform reports it.
package loadgen
