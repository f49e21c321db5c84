package solver

import (
	"context"
	"sync"

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
// goes on; a cancelled ctx stops the batch with ctx.Err(). Every answer is
// the one Solve gives for that request alone.
func WhatIf(ctx context.Context, cat *model.Catalog, cluster *model.ClusterState, reqs []*model.Request, emit func(i int, a Answer) error, opts ...Option) error {
	ctx, cancel := context.WithCancel(ctx)
	cfg := newSettings(opts)
	answers := make([]chan Answer, len(reqs))
	for i := range answers {
		answers[i] = make(chan Answer, 1)
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(cfg.workers, max(len(reqs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				res, err := Solve(ctx, cat, cluster, reqs[i], opts...)
				answers[i] <- Answer{Result: res, Err: err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range reqs {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
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
