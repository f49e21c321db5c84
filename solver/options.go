package solver

import (
	"errors"
	"runtime"

	"github.com/modsolver/modsolver/model"
)

// Option tunes one resolution.
type Option func(*settings)

type settings struct {
	explainHeldBack bool
	suggest         bool
	workers         int
	maxBytes        int64 // WithMemoryLimit; 0: no limit
	// statusOnly leaves an unsatisfiable answer unexplained: verifying a
	// suggestion asks only whether the changed request resolves.
	statusOnly bool
	// feasibleOnly answers with the status alone, a resolved request
	// without its optimum (session.feasible).
	feasibleOnly bool
	// stuck names modules that had no release left in the request a
	// status-only check changes (suggest.go): the check answers
	// unsatisfiable at once when one of them still has none.
	stuck []string
	// batch is shared by the requests of one what-if batch (classes.go).
	batch *batch
	// hooks are the switches only tests set.
	hooks testHooks
	// sideBySide is the number of outcomes, and of a closure's views,
	// from which an answer is rendered and filtered in two halves side by
	// side (D330, D331): below it, the goroutine costs more than it saves,
	// and a service answering many small requests at once has no idle
	// core to give (on S, 100 modules, it cost 8% of the gRPC load test's
	// throughput). Tests set it to compare both ways.
	sideBySide int
}

// testHooks are the switches only tests set, each to compare the answers
// of an optimisation with the answers without it; their zero value is
// what every caller outside the tests gets. A test sets them through an
// Option (export_test.go) or on the struct that holds them.
type testHooks struct {
	// noStateMemo answers without the state memos (statememo.go).
	noStateMemo bool
	// keepFrozen encodes every frozen module, detaching none (detach.go).
	keepFrozen bool
	// searchAll searches every module from the top of its domain, as
	// before D117 and D220 (optimize.go).
	searchAll bool
}

// sideBySide is settings.sideBySide's default.
const sideBySide = 512

func newSettings(opts []Option) settings {
	s := settings{explainHeldBack: true, suggest: true, workers: runtime.GOMAXPROCS(0), sideBySide: sideBySide}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// WithoutHeldBack skips the R17 search for what holds modules back, for
// callers that need only the answer.
func WithoutHeldBack() Option { return func(s *settings) { s.explainHeldBack = false } }

// WithoutSuggestions skips verifying suggestions for unsatisfiable answers.
func WithoutSuggestions() Option { return func(s *settings) { s.suggest = false } }

// WithWorkers sets how many scenarios WhatIf solves at once (default: one
// per usable core). Each worker has its own solver.
func WithWorkers(n int) Option { return func(s *settings) { s.workers = max(n, 1) } }

// WithMemoryLimit bounds the estimated memory of one resolution's
// encodings to n bytes (default: no limit; n <= 0 keeps it). A resolution
// that needs more stops with a *model.MemoryLimitError, which wraps
// model.ErrTooLarge; Stats.MemoryBytes reports the estimate of one that
// fits. The checks of suggestions run within what is left of the limit.
// In WhatIf the limit holds for each worker's encoding.
func WithMemoryLimit(n int64) Option { return func(s *settings) { s.maxBytes = max(n, 0) } }

// validate checks a request's inputs against the catalog, as Solve does.
func validate(cat *model.Catalog, cluster *model.ClusterState, req *model.Request) error {
	if err := missingInput(cat, cluster, req); err != nil {
		return err
	}
	return errors.Join(cluster.Validate(cat), req.Validate(cat, cluster))
}

// missingInput is the error of a nil input, or nil.
func missingInput(cat *model.Catalog, cluster *model.ClusterState, req *model.Request) error {
	switch {
	case cat == nil:
		return &model.FieldError{Path: model.Field("catalog"), Err: model.ErrMissingField}
	case cluster == nil:
		return &model.FieldError{Path: model.Field("cluster"), Err: model.ErrMissingField}
	case req == nil:
		return &model.FieldError{Path: model.Field("request"), Err: model.ErrMissingField}
	}
	return nil
}

// stuckOn hands a status-only check the modules that had no release
// left before its change (settings.stuck).
func stuckOn(names []string) Option { return func(s *settings) { s.stuck = names } }

// feasibleOnly makes Solve answer only whether a request resolves, with
// no optimum for a request that does.
func feasibleOnly() Option { return func(s *settings) { s.feasibleOnly = true } }
