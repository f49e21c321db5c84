package solver

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modsolver/modsolver/model"
)

// Answer is the outcome of one what-if scenario: a result, or the error
// that made the scenario bad input.
type Answer struct {
	Result *model.Result
	Err    error
	// patch is what Result's lists take in place of entries they share
	// with the first answer of the request's class, put in by settle as
	// the answer is handed out.
	patch *listPatch
}

// settle puts a's patch in, once.
func (a *Answer) settle() {
	if a.patch != nil {
		a.patch.apply(a.Result)
		a.patch = nil
	}
}

// WhatIf answers many requests against one catalog and cluster state. It
// calls emit once per request, in request order, from the calling
// goroutine; an error from emit stops the batch and is returned. A
// scenario that is bad input gets an Answer with Err set and the batch
// goes on; a cancelled ctx stops the batch with ctx.Err(). Each Answer's
// Result is emit's own, but its lists may share their contents with
// other answers of the batch: emit may change a Result's fields, not what
// its lists hold.
//
// Requests that differ only in platform versions the catalog cannot tell
// apart form a class (classes.go): one of them is resolved, the others
// are rendered from its answer. Each worker takes whole classes and
// resolves each class's first request with a session of its own, as
// Solve does (D436). Every answer is the one Solve gives for that request
// alone, apart from its stats.
func WhatIf(ctx context.Context, cat *model.Catalog, cluster *model.ClusterState, reqs []*model.Request, emit func(i int, a Answer) error, opts ...Option) error {
	c, err := compiledOrNew(cat)
	if err != nil {
		return err
	}
	return c.WhatIf(ctx, cluster, reqs, emit, opts...)
}

// WhatIf is the package-level WhatIf on c's catalog.
func (c *Compiled) WhatIf(ctx context.Context, cluster *model.ClusterState, reqs []*model.Request, emit func(i int, a Answer) error, opts ...Option) error {
	cat := c.cat
	ctx, cancel := context.WithCancel(ctx)
	cfg := newSettings(opts)
	answers := make([]chan Answer, len(reqs))
	for i := range answers {
		answers[i] = make(chan Answer, 1)
	}
	axes := newPlatformAxes(c, cluster)
	cfg.batch = newBatch(axes)
	classes := classify(axes, cat, cluster, reqs, answers)
	workers := min(cfg.workers, max(len(classes), 1))
	if workers > 1 {
		cfg.sideBySide = 0 // the workers keep the cores busy
	}
	// Workers take the classes in order, each the next one left when it
	// is free: an unsatisfiable class, explained and with its suggestions
	// checked, takes ten times a resolved one.
	var taken atomic.Int64
	next := func() ([]int, bool) {
		k := int(taken.Add(1)) - 1
		if k >= len(classes) {
			return nil, false
		}
		return classes[k], true
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answerAll(ctx, cfg, c, cluster, reqs, next, answers)
		}()
	}
	defer func() { cancel(); wg.Wait() }()
	for i := range reqs {
		select {
		case a := <-answers[i]:
			if err := ctx.Err(); err != nil {
				return err
			}
			a.settle()
			if err := emit(i, a); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// classify answers the requests that are bad input at once and groups
// the others by class, each class in request order and the classes in
// the order of their first request.
func classify(axes *platformAxes, cat *model.Catalog, cluster *model.ClusterState, reqs []*model.Request, answers []chan Answer) [][]int {
	clusterErr := cluster.Validate(cat)
	byKey := map[string]int{}
	var classes [][]int
	for i, req := range reqs {
		if req == nil {
			answers[i] <- Answer{Err: validate(cat, cluster, req)}
			continue
		}
		if err := errors.Join(clusterErr, req.Validate(cat, cluster)); err != nil {
			answers[i] <- Answer{Err: err}
			continue
		}
		k := axes.key(req)
		c, ok := byKey[k]
		if !ok {
			c = len(classes)
			byKey[k] = c
			classes = append(classes, nil)
		}
		classes[c] = append(classes[c], i)
	}
	return classes
}

// answerAll answers the classes of requests next hands it, class by
// class, and sends each answer to its channel: the first request of a
// class is resolved with a session of its own, as Solve resolves it
// (D436), and the others are rendered from that session.
func answerAll(ctx context.Context, cfg settings, c *Compiled, cluster *model.ClusterState, reqs []*model.Request, next func() ([]int, bool), answers []chan Answer) {
	resolve := func(req *model.Request) (*answering, *model.Result, error) {
		s := newAnswering(newSession(ctx, cfg, c, cluster, req, memoUse{}), c)
		res, err := s.run()
		return s, res, err
	}
	for class, ok := next(); ok; class, ok = next() {
		var s *answering
		var first *model.Result
		// The class's first answer goes out once the others are rendered
		// from it, so that emit never has it while this worker reads it.
		var held Answer
		heldAt := -1
		for k, i := range class {
			if ctx.Err() != nil {
				return
			}
			start := time.Now()
			var res *model.Result
			var patch *listPatch
			var err error
			if refused, rerr := c.platformRefusal(ctx, c, cfg, cluster, reqs[i]); refused != nil || rerr != nil { // R31: the class's pair is not one DKP runs
				if refused != nil {
					refused.Stats.SolveMicros = time.Since(start).Microseconds()
				}
				answers[i] <- Answer{Result: refused, Err: rerr}
				continue
			}
			if k == 0 {
				s, first, err = resolve(reqs[i])
				res = first
			} else if first != nil {
				res, patch, err = s.rerender(reqs[i], first)
			} else {
				_, res, err = resolve(reqs[i])
			}
			if err == nil && res != nil {
				if patch != nil && c.routeEnds(cluster, reqs[i]) != nil {
					patch.apply(res) // a route reads the answer's modules
					patch = nil
				}
				res, err = c.addRoute(ctx, c, cfg, cluster, reqs[i], res) // R33
			}
			if k == 0 && err == nil && res != nil {
				cfg.batch.answered(reqs[i], res) // the class's status, its route's refusal included
			}
			if res != nil {
				res.Stats.SolveMicros = time.Since(start).Microseconds()
			}
			if k == 0 && first != nil && len(class) > 1 {
				held, heldAt = Answer{Result: res, Err: err}, i
				continue
			}
			answers[i] <- Answer{Result: res, Err: err, patch: patch}
		}
		if heldAt >= 0 {
			answers[heldAt] <- held
		}
	}
}

// Sweep is the package-level Sweep on c's catalog.
func (c *Compiled) Sweep(ctx context.Context, cluster *model.ClusterState, emit func(Installability) error, opts ...Option) error {
	cat := c.cat
	var names []string
	var reqs []*model.Request
	heads := map[string]model.Version{}
	probe := newProblem(c, cluster, &model.Request{})
	for _, m := range cat.Modules() {
		if !swept(m, cluster) {
			continue
		}
		head := probe.view(m.Name).headVersion
		names = append(names, m.Name)
		heads[m.Name] = head
		reqs = append(reqs, &model.Request{Enable: []string{m.Name}, Pin: map[string]model.Version{m.Name: head}, AutoEnable: true})
	}
	opts = append([]Option{WithoutHeldBack(), WithoutSuggestions()}, opts...)
	return c.WhatIf(ctx, cluster, reqs, func(i int, a Answer) error {
		in := Installability{Module: names[i], Version: model.VersionString(heads[names[i]]), Result: a.Result, Err: a.Err}
		if a.Result != nil && a.Result.Explanation != nil {
			in.Reasons, in.Kinds, in.Groups = reasons(in.Module, a.Result.Explanation.Facts)
		}
		return emit(in)
	}, opts...)
}
