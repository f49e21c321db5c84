package bench

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Outcome is the measurement of one case.
type Outcome struct {
	Case, Size string
	// Runs is the number of timed runs per solver, after one warm-up.
	Runs int
	// Requests is the number of requests one run answers: 1, or the size
	// of a what-if batch.
	Requests int
	// Modsolver and Deppy are the median times of one run: one request, or
	// the whole batch of a what-if case. Modsolver is zero when
	// ModsolverTimeout; Deppy is zero unless DeppyDone.
	Modsolver, Deppy time.Duration
	// ModsolverTimeout is set when a modsolver run hit its cap, which ends
	// the case. Answered counts the requests it answered in time.
	ModsolverTimeout bool
	Answered         int
	// DeppyRan is set when deppy was asked to run and had an answer of
	// modsolver's to be checked against; DeppyTimeout when a run hit its
	// cap, which ends deppy's part of the case, after DeppyAnswered
	// requests.
	DeppyRan, DeppyTimeout bool
	DeppyAnswered          int
	// Variables and Clauses are the size of modsolver's encoding, from its
	// answer's stats (the largest over a batch).
	Variables, Clauses int
	// PeakBytes is the peak of the memory the process holds from the OS
	// during modsolver's runs, catalog included (see peakSampler).
	PeakBytes uint64
	// ModsolverViolations are internal/checker's findings on modsolver's
	// answers; DeppyViolations CheckPeer's on deppy's. Empty means checked.
	ModsolverViolations, DeppyViolations []string
	// DeppyDiffers counts the modules whose state after differs between
	// the two answers. That is not an error: deppy has no R14 preferences.
	DeppyDiffers int

	// ModsolverChanges is modsolver's median time with report: changes,
	// measured with libsolv (WithLibsolv).
	ModsolverChanges time.Duration
	// LibsolvRan is set when libsolv answered every request; otherwise
	// LibsolvSkipped says why it did not run, when it was asked to.
	LibsolvRan     bool
	LibsolvSkipped string
	// LibsolvSolve is libsolv's median solve alone, LibsolvPipeline its
	// median whole pipeline (LibsolvTiming.Pipeline), each over a run,
	// on the pool a service holds (libsolvService); LibsolvRebuilt is
	// the median pipeline that translates the whole pool again for each
	// request, and LibsolvBuild the one-time cost of the held pool
	// (writing its .solv repo, of LibsolvSolvBytes, and loading it).
	LibsolvSolve, LibsolvPipeline time.Duration
	LibsolvRebuilt, LibsolvBuild  time.Duration
	LibsolvSolvBytes              int64
	// LibsolvViolations are CheckPeer's findings on libsolv's answers;
	// LibsolvDiffers counts the modules whose state after differs from
	// modsolver's answer (libsolv's newest-first is greedy, not R14).
	LibsolvViolations []string
	LibsolvDiffers    int
}

// DeppyDone reports whether deppy ran to an answer, so that Deppy and
// Ratio mean something.
func (o *Outcome) DeppyDone() bool { return o.DeppyRan && !o.DeppyTimeout }

// Ratio is deppy's time over modsolver's: how many times faster modsolver is.
func (o *Outcome) Ratio() float64 {
	if !o.DeppyDone() || o.ModsolverTimeout || o.Modsolver <= 0 {
		return 0
	}
	return float64(o.Deppy) / float64(o.Modsolver)
}

// PeakMiB is PeakBytes in MiB.
func (o *Outcome) PeakMiB() float64 { return float64(o.PeakBytes) / (1 << 20) }

// Violations lists every answer's violations: modsolver's, deppy's,
// then libsolv's.
func (o *Outcome) Violations() []string {
	return slices.Concat(o.ModsolverViolations, o.DeppyViolations, o.LibsolvViolations)
}

// Failed reports whether some answer failed its check.
func (o *Outcome) Failed() bool { return len(o.Violations()) > 0 }

// Checked is "ok" when every answer passed its check, "-" when modsolver
// had no answer in time, or else counts the violations of each solver.
func (o *Outcome) Checked() string {
	switch {
	case o.ModsolverTimeout:
		return "-"
	case !o.Failed():
		return "ok"
	case !o.DeppyRan && !o.LibsolvRan:
		return fmt.Sprintf("%d violations", len(o.ModsolverViolations))
	}
	parts := []string{fmt.Sprintf("modsolver %d", len(o.ModsolverViolations))}
	if o.DeppyRan {
		parts = append(parts, fmt.Sprintf("deppy %d", len(o.DeppyViolations)))
	}
	if o.LibsolvRan {
		parts = append(parts, fmt.Sprintf("libsolv %d", len(o.LibsolvViolations)))
	}
	return strings.Join(parts, ", ") + " violations"
}
