package solver

import (
	"context"
	"sync"
	"time"

	"github.com/modsolver/modsolver/model"
)

// Answer is the outcome of one what-if scenario: a result, or the error
// that made the scenario bad input.
type Answer struct {
	Result *model.Result
	Err    error
}

// WhatIf answers many requests against one catalog and cluster state. It
// calls emit once per request, in request order, from the calling
// goroutine; an error from emit stops the batch and is returned. A
// scenario that is bad input gets an Answer with Err set and the batch
// goes on; a cancelled ctx stops the batch with ctx.Err().
//
// Each worker encodes its share of the requests once (shared.go) and
// answers every request of it with assumptions. Every answer is the one
// Solve gives for that request alone, apart from its stats.
func WhatIf(ctx context.Context, cat *model.Catalog, cluster *model.ClusterState, reqs []*model.Request, emit func(i int, a Answer) error, opts ...Option) error {
	ctx, cancel := context.WithCancel(ctx)
	cfg := newSettings(opts)
	answers := make([]chan Answer, len(reqs))
	for i := range answers {
		answers[i] = make(chan Answer, 1)
	}
	workers := min(cfg.workers, max(len(reqs), 1))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []int
			for i := w; i < len(reqs); i += workers {
				mine = append(mine, i)
			}
			answerAll(ctx, cfg, cat, cluster, reqs, mine, answers)
		}()
	}
	defer func() { cancel(); wg.Wait() }()
	for i := range reqs {
		select {
		case a := <-answers[i]:
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := emit(i, a); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// sharedLimit is the largest catalog, in releases, that a worker answers
// on one shared encoding (D40). On a shared encoding every fact is an
// assumption, so each solve pays for the whole catalog: on the generated M
// catalog (60,000 releases) 40 platform scenarios took 2.5 times as long
// as solving each on its own, while on the S catalog and on DKP-sized ones
// the two are alike.
const sharedLimit = 5000

// answerAll answers the requests at indices mine, in order, and sends
// each answer to its channel: on one shared encoding for a catalog of up
// to sharedLimit releases, else each with a Solve of its own.
func answerAll(ctx context.Context, cfg settings, cat *model.Catalog, cluster *model.ClusterState, reqs []*model.Request, mine []int, answers []chan Answer) {
	solve := func(req *model.Request) (*model.Result, error) { return solveValid(ctx, cfg, cat, cluster, req) }
	if cat.ReleaseCount() <= sharedLimit && len(cat.Sources()) == 0 { // R23: each request on its own (D77)
		se := newShared(cat, cluster)
		solve = func(req *model.Request) (*model.Result, error) { return se.solve(ctx, cfg, req) }
	}
	for _, i := range mine {
		if err := validate(cat, cluster, reqs[i]); err != nil {
			answers[i] <- Answer{Err: err}
			continue
		}
		if ctx.Err() != nil {
			return
		}
		start := time.Now()
		res, err := solve(reqs[i])
		if res != nil {
			res.Stats.SolveMicros = time.Since(start).Microseconds()
		}
		answers[i] <- Answer{Result: res, Err: err}
	}
}
