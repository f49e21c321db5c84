package bench

import (
	"context"
	"errors"
	"time"

	"github.com/modsolver/modsolver/model"
)

// vsLibsolv times modsolver with report: changes, then libsolv, on the
// same requests, and checks libsolv's answers against modsolver's.
func (w *workload) vsLibsolv(ctx context.Context, cfg runConfig, o *Outcome, answers []*model.Result) error {
	if !libsolvBuilt {
		return ErrNoLibsolv
	}
	if w.batch {
		o.LibsolvSkipped = "a what-if batch"
		return nil
	}
	if err := w.timeChanges(ctx, cfg, o); err != nil {
		return err
	}
	if err := LibsolvTranslatable(w.cat); err != nil {
		if !errors.Is(err, ErrNotTranslated) {
			return err
		}
		o.LibsolvSkipped = err.Error()
		return nil
	}
	var solve, pipeline []time.Duration
	peers, _, err := repeat(cfg, w.label("libsolv"), func() ([]*LibsolvAnswer, error) {
		out := make([]*LibsolvAnswer, len(w.reqs))
		var run LibsolvTiming
		for i, r := range w.reqs {
			a, err := solveLibsolv(ctx, w.cat, w.cluster, r)
			if err != nil {
				return nil, err
			}
			out[i] = a
			run.Prune, run.Load = run.Prune+a.Timing.Prune, run.Load+a.Timing.Load
			run.Solve, run.Transaction = run.Solve+a.Timing.Solve, run.Transaction+a.Timing.Transaction
		}
		solve, pipeline = append(solve, run.Solve), append(pipeline, run.Pipeline())
		return out, nil
	})
	if errors.Is(err, ErrNotTranslated) {
		o.LibsolvSkipped = err.Error()
		return nil
	}
	if err != nil {
		return err
	}
	o.LibsolvRan = true
	o.LibsolvSolve, o.LibsolvPipeline = median(solve[1:]), median(pipeline[1:]) // without the warm-up
	for i, p := range peers {
		o.LibsolvViolations = append(o.LibsolvViolations, w.prefix(i, CheckPeer(w.cat, w.cluster, w.reqs[i], &p.PeerAnswer, answers[i].Status))...)
		o.LibsolvDiffers += differences(answers[i], p.Result)
	}
	return nil
}

// timeChanges times modsolver on the requests with report: changes, the
// answer DESIGN.md §8 sets against libsolv's solve alone, and checks it.
func (w *workload) timeChanges(ctx context.Context, cfg runConfig, o *Outcome) error {
	changes := *w
	changes.reqs = make([]*model.Request, len(w.reqs))
	for i, r := range w.reqs {
		changes.reqs[i] = r.Clone()
		changes.reqs[i].Report = model.ReportChanges
	}
	var answered int
	answers, times, err := repeat(cfg, w.label("modsolver (report: changes)"), func() ([]*model.Result, error) {
		return changes.modsolver(ctx, cfg.timeout, &answered)
	})
	switch {
	case timedOut(ctx, err):
		return nil // no time to report; the full answer's time stands
	case err != nil:
		return err
	}
	o.ModsolverChanges = median(times)
	for _, v := range changes.check(answers) {
		o.ModsolverViolations = append(o.ModsolverViolations, "report: changes: "+v)
	}
	return nil
}
