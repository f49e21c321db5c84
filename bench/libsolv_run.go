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
	svc, err := newLibsolvService(w.cat)
	if errors.Is(err, ErrNotTranslated) {
		o.LibsolvSkipped = err.Error()
		return nil
	}
	if err != nil {
		return err
	}
	defer svc.Close()
	o.LibsolvBuild, o.LibsolvSolvBytes = svc.Build, svc.Bytes
	held := func(ctx context.Context, _ *model.Catalog, cluster *model.ClusterState, req *model.Request) (*LibsolvAnswer, error) {
		return svc.Solve(ctx, cluster, req)
	}
	peers, solve, pipeline, err := w.timeLibsolv(ctx, cfg, "libsolv (pool held)", held)
	if errors.Is(err, ErrNotTranslated) {
		o.LibsolvSkipped = err.Error()
		return nil
	}
	if err != nil {
		return err
	}
	_, _, rebuilt, err := w.timeLibsolv(ctx, cfg, "libsolv (pool rebuilt)", solveLibsolv)
	if err != nil && !errors.Is(err, ErrNotTranslated) {
		return err
	}
	o.LibsolvRan = true
	o.LibsolvSolve, o.LibsolvPipeline = median(solve[1:]), median(pipeline[1:]) // without the warm-up
	if len(rebuilt) > 1 {
		o.LibsolvRebuilt = median(rebuilt[1:])
	}
	for i, p := range peers {
		o.LibsolvViolations = append(o.LibsolvViolations, w.prefix(i, CheckPeer(w.cat, w.cluster, w.reqs[i], &p.PeerAnswer, answers[i].Status))...)
		o.LibsolvDiffers += differences(answers[i], p.Result)
	}
	return nil
}

// timeLibsolv answers the requests with solve, once a run, and returns
// the answers of the last run and each run's solve and pipeline times.
func (w *workload) timeLibsolv(ctx context.Context, cfg runConfig, label string,
	solve func(context.Context, *model.Catalog, *model.ClusterState, *model.Request) (*LibsolvAnswer, error)) ([]*LibsolvAnswer, []time.Duration, []time.Duration, error) {
	var solves, pipelines []time.Duration
	peers, _, err := repeat(cfg, w.label(label), func() ([]*LibsolvAnswer, error) {
		out := make([]*LibsolvAnswer, len(w.reqs))
		var run LibsolvTiming
		for i, r := range w.reqs {
			a, err := solve(ctx, w.cat, w.cluster, r)
			if err != nil {
				return nil, err
			}
			out[i] = a
			run.Prune, run.Load = run.Prune+a.Timing.Prune, run.Load+a.Timing.Load
			run.Solve, run.Transaction = run.Solve+a.Timing.Solve, run.Transaction+a.Timing.Transaction
		}
		solves, pipelines = append(solves, run.Solve), append(pipelines, run.Pipeline())
		return out, nil
	})
	return peers, solves, pipelines, err
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
		return changes.modsolver(ctx, cfg.timeout, &answered, true)
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
