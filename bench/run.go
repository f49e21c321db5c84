package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"github.com/modsolver/modsolver/internal/checker"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// The cases Run measures.
const (
	// CaseCompile: compiling the catalog (solver.Compile), which a server
	// does once per load; the other cases solve on the compiled catalog.
	CaseCompile = "compile"
	// CaseUpdateAll: every enabled module may update (updateAll).
	CaseUpdateAll = "update-all"
	// CaseInstallOne: enable one module that is off, with autoEnable.
	CaseInstallOne = "install-one"
	// CaseInstallOneChanges: install-one with report: changes, which
	// lists only the modules that change (DESIGN.md §3).
	CaseInstallOneChanges = "install-one-changes"
	// CasePlatformUpgrade: update-all on a newer DKP and Kubernetes (R12).
	CasePlatformUpgrade = "platform-upgrade"
	// CaseUnsatisfiable: a request with no answer, explained by a minimal
	// core (R16). Suggestions are not verified: DESIGN.md §8 times the core.
	CaseUnsatisfiable = "unsatisfiable"
	// CaseUnsatisfiableSuggest: the unsatisfiable case with its
	// suggestions verified, as DESIGN.md §8's explanation target counts
	// them.
	CaseUnsatisfiableSuggest = "unsatisfiable-suggest"
	// CaseUnsatisfiableCombined: a request no single change fixes
	// (UnsatisfiableCombined), with its suggestions: sets of changes,
	// each verified as a whole (R16).
	CaseUnsatisfiableCombined = "unsatisfiable-combined"
	// CaseWhatIf: 1,000 platform scenarios in one solver.WhatIf batch,
	// timed in total, computed as `modsolver whatif` computes its matrix
	// (explanations and suggestions, no held-back reasons).
	CaseWhatIf = "whatif-1000"
	// CaseResolveDKP: update-all on the real DKP tree (RunDKP).
	CaseResolveDKP = "resolve-dkp"
	// CaseRouteDKP: a platform upgrade five DKP minors and two
	// Kubernetes minors up on the real DKP tree, answered with its route
	// (RunRouteDKP, R33); it runs with CaseResolveDKP.
	CaseRouteDKP = "route-dkp"
)

// GeneratedCases lists the cases that run on a generated instance, in
// the order a benchmark runs them.
func GeneratedCases() []string {
	return []string{CaseCompile, CaseUpdateAll, CaseInstallOne, CaseInstallOneChanges, CasePlatformUpgrade, CaseUnsatisfiable,
		CaseUnsatisfiableSuggest, CaseUnsatisfiableCombined, CaseWhatIf}
}

// DefaultDeppyTimeout caps one deppy run, and DefaultTimeout one
// modsolver run: a case that long is far off every target of DESIGN.md §8.
const (
	DefaultDeppyTimeout = time.Minute
	DefaultTimeout      = 2 * time.Minute
)

// RunOption tunes Run and RunDKP.
type RunOption func(*runConfig)

type runConfig struct {
	runs         int
	warmUp       time.Duration
	timeout      time.Duration
	deppy        bool
	deppyTimeout time.Duration
	deppyOpts    []DeppyOption
	libsolv      bool
	progress     func(string)
}

// WithRuns sets how many timed runs each solver makes after its warm-up
// (default 5); the median is reported.
func WithRuns(n int) RunOption { return func(c *runConfig) { c.runs = max(n, 1) } }

// WithWarmUp makes each solver run, before its timed runs, one warm-up
// run and more until d has passed (D429): a process that has just
// loaded its inputs answers its first requests on a heap that is still
// growing, and pays page faults and early collections that a service
// answering request after request does not. 0 (the default) is one
// warm-up run.
func WithWarmUp(d time.Duration) RunOption { return func(c *runConfig) { c.warmUp = max(d, 0) } }

// WithTimeout caps one modsolver run (DefaultTimeout when 0). A run that
// hits the cap ends the case: it is reported as a timeout, with the
// number of requests answered in time, and deppy does not run, as there
// is no answer to check it against.
func WithTimeout(d time.Duration) RunOption {
	return func(c *runConfig) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithDeppy also runs deppy on every request, each run capped at timeout
// (DefaultDeppyTimeout when 0). A run that hits the cap ends deppy's part
// of the case: it is reported as a timeout and not repeated.
func WithDeppy(timeout time.Duration, opts ...DeppyOption) RunOption {
	return func(c *runConfig) {
		c.deppy, c.deppyOpts = true, opts
		if timeout > 0 {
			c.deppyTimeout = timeout
		}
	}
}

// WithLibsolv also runs libsolv on every request (Libsolv), and modsolver
// once more with report: changes, which DESIGN.md §8 compares with
// libsolv's solve alone. libsolv does not run on a what-if batch, nor on
// a catalog its translation does not carry (LibsolvTranslatable); the
// outcome says why. Without libsolv in the binary, Run fails with
// ErrNoLibsolv.
func WithLibsolv() RunOption { return func(c *runConfig) { c.libsolv = true } }

// WithProgress calls report before every run, with a line such as
// "M update-all: deppy run 2/6".
func WithProgress(report func(msg string)) RunOption {
	return func(c *runConfig) { c.progress = report }
}

func newRunConfig(opts []RunOption) runConfig {
	c := runConfig{runs: 5, timeout: DefaultTimeout, deppyTimeout: DefaultDeppyTimeout, progress: func(string) {}}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Run measures case name on the generated instance in.
func Run(ctx context.Context, in *Instance, name string, opts ...RunOption) (*Outcome, error) {
	w := &workload{name: name, size: in.Size.Name, cat: in.Catalog, cluster: in.Cluster}
	switch name {
	case CaseCompile:
		return w.measureCompile(newRunConfig(opts))
	case CaseUpdateAll:
		w.reqs = []*model.Request{in.UpdateAll()}
	case CaseInstallOne:
		w.reqs = []*model.Request{in.InstallOne()}
	case CaseInstallOneChanges:
		w.reqs = []*model.Request{in.InstallOneChanges()}
	case CasePlatformUpgrade:
		w.reqs = []*model.Request{in.PlatformUpgrade()}
	case CaseUnsatisfiable:
		w.reqs = []*model.Request{in.Unsatisfiable()}
		w.solveOpts = []solver.Option{solver.WithoutSuggestions()}
	case CaseUnsatisfiableSuggest:
		w.reqs = []*model.Request{in.Unsatisfiable()}
	case CaseUnsatisfiableCombined:
		w.reqs = []*model.Request{in.UnsatisfiableCombined()}
	case CaseWhatIf:
		// As the readiness matrix computes it: no held-back reasons.
		w.reqs, w.batch = in.WhatIf(1000), true
		w.solveOpts = []solver.Option{solver.WithoutHeldBack()}
	default:
		return nil, fmt.Errorf("%w: unknown case %q (want one of %v)", model.ErrInvalidInput, name, GeneratedCases())
	}
	return w.measure(ctx, newRunConfig(opts))
}

// workload is one case ready to measure: the inputs and the requests.
type workload struct {
	name, size string
	cat        *model.Catalog
	cluster    *model.ClusterState
	reqs       []*model.Request
	// compiled is cat compiled, before any run is timed, as a server
	// compiles its catalogs when it loads them.
	compiled *solver.Compiled
	// batch answers reqs with one solver.WhatIf call; otherwise each
	// request is one solver.Solve call.
	batch     bool
	solveOpts []solver.Option
}

// measure times modsolver, then deppy if asked, and checks both answers.
// Peak memory is sampled over modsolver's timed runs and their warm-up
// only.
func (w *workload) measure(ctx context.Context, cfg runConfig) (*Outcome, error) {
	o := &Outcome{Case: w.name, Size: w.size, Runs: cfg.runs, Requests: len(w.reqs)}
	compiled, err := solver.Compile(w.cat)
	if err != nil {
		return nil, err
	}
	w.compiled = compiled
	peers := cfg.deppy || cfg.libsolv
	var answers []*model.Result
	if w.batch {
		// A batch's answers come from a run of their own, checked before
		// the timed runs and kept only for the peers: the timed runs hand
		// each answer to a consumer that keeps none, as a service streams
		// them, so that the peak is the batch's own (D433).
		cfg.progress(w.label("modsolver") + " answers to check")
		answers, err = w.modsolver(ctx, cfg.timeout, &o.Answered, true)
		if done, out, err := o.ended(ctx, err); done {
			return out, err
		}
		w.read(o, answers)
		if !peers {
			answers = nil
		}
	}
	debug.FreeOSMemory()
	peak := startPeakSampler()
	got, times, err := repeat(cfg, w.label("modsolver"), func() ([]*model.Result, error) {
		return w.modsolver(ctx, cfg.timeout, &o.Answered, !w.batch)
	})
	o.PeakBytes = peak.Stop()
	if done, out, err := o.ended(ctx, err); done {
		return out, err
	}
	o.Modsolver = median(times)
	if !w.batch {
		answers = got
		w.read(o, answers)
	}
	if cfg.deppy {
		debug.FreeOSMemory()
		if err := w.vsDeppy(ctx, cfg, o, answers); err != nil {
			return nil, err
		}
	}
	if cfg.libsolv {
		debug.FreeOSMemory()
		if err := w.vsLibsolv(ctx, cfg, o, answers); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// ended reads err from modsolver's runs: done when they hit their own
// cap, which o records as a timeout and the case reports, or failed.
func (o *Outcome) ended(ctx context.Context, err error) (done bool, out *Outcome, _ error) {
	switch {
	case timedOut(ctx, err):
		o.ModsolverTimeout = true
		return true, o, nil
	case err != nil:
		return true, nil, err
	}
	return false, nil, nil
}

// read records the size of modsolver's encodings and checks its answers.
func (w *workload) read(o *Outcome, answers []*model.Result) {
	for _, res := range answers {
		o.Variables, o.Clauses = max(o.Variables, res.Stats.Variables), max(o.Clauses, res.Stats.Clauses)
	}
	o.ModsolverViolations = w.check(answers)
}

// measureCompile times compiling the catalog, with the peak memory of
// the process while it compiles (the catalog included). Deppy has no
// such step, so it does not run.
func (w *workload) measureCompile(cfg runConfig) (*Outcome, error) {
	o := &Outcome{Case: w.name, Size: w.size, Runs: cfg.runs}
	debug.FreeOSMemory()
	peak := startPeakSampler()
	_, times, err := repeat(cfg, w.label("modsolver"), func() (*solver.Compiled, error) { return solver.Compile(w.cat) })
	o.PeakBytes = peak.Stop()
	if err != nil {
		return nil, err
	}
	o.Modsolver = median(times)
	return o, nil
}

func (w *workload) label(solverName string) string {
	return fmt.Sprintf("%s %s: %s", w.size, w.name, solverName)
}

// timedOut reports whether err is a run's own cap rather than the
// caller's context ending.
func timedOut(ctx context.Context, err error) bool {
	return errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil
}

// modsolver answers every request once within timeout, counting the
// answers in answered; it returns them when keep asks, or nil.
func (w *workload) modsolver(ctx context.Context, timeout time.Duration, answered *int, keep bool) ([]*model.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out := make([]*model.Result, len(w.reqs))
	*answered = 0
	if w.batch {
		err := w.compiled.WhatIf(ctx, w.cluster, w.reqs, func(i int, a solver.Answer) error {
			if keep {
				out[i] = a.Result
			}
			*answered++
			return a.Err
		}, w.solveOpts...)
		if !keep {
			out = nil
		}
		return out, err
	}
	for i, r := range w.reqs {
		res, err := w.compiled.Solve(ctx, w.cluster, r, w.solveOpts...)
		if err != nil {
			return nil, err
		}
		out[i] = res
		*answered++
	}
	return out, nil
}

// deppy answers every request once within one deppy timeout, counting
// the answers in answered.
func (w *workload) deppy(ctx context.Context, cfg runConfig, answered *int) ([]*PeerAnswer, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.deppyTimeout)
	defer cancel()
	out := make([]*PeerAnswer, len(w.reqs))
	*answered = 0
	for i, r := range w.reqs {
		a, err := Deppy(ctx, w.cat, w.cluster, r, cfg.deppyOpts...)
		if err != nil {
			return nil, err
		}
		out[i] = a
		*answered++
	}
	return out, nil
}

// vsDeppy times deppy on the same requests and checks its answers
// against modsolver's.
func (w *workload) vsDeppy(ctx context.Context, cfg runConfig, o *Outcome, answers []*model.Result) error {
	o.DeppyRan = true
	peers, times, err := repeat(cfg, w.label("deppy"), func() ([]*PeerAnswer, error) { return w.deppy(ctx, cfg, &o.DeppyAnswered) })
	switch {
	case timedOut(ctx, err):
		o.DeppyTimeout = true
		return nil
	case err != nil:
		return err
	}
	o.Deppy = median(times)
	for i, p := range peers {
		o.DeppyViolations = append(o.DeppyViolations, w.prefix(i, CheckPeer(w.cat, w.cluster, w.reqs[i], p, answers[i].Status))...)
		o.DeppyDiffers += differences(answers[i], p.Result)
	}
	return nil
}

// repeat makes warm-up runs (one, and more until cfg.warmUp has passed)
// and cfg.runs timed runs of run, and returns the first warm-up's answer
// with the timed runs' durations. It stops at the first error.
func repeat[T any](cfg runConfig, label string, run func() (T, error)) (T, []time.Duration, error) {
	var first T
	began := time.Now()
	for k := 0; k == 0 || time.Since(began) < cfg.warmUp; k++ {
		cfg.progress(fmt.Sprintf("%s warm-up %d", label, k+1))
		got, err := run()
		if err != nil {
			return first, nil, err
		}
		if k == 0 {
			first = got
		}
	}
	var times []time.Duration
	for i := range cfg.runs {
		cfg.progress(fmt.Sprintf("%s run %d/%d", label, i+1, cfg.runs))
		start := time.Now()
		_, err := run()
		elapsed := time.Since(start)
		if err != nil {
			return first, nil, err
		}
		times = append(times, elapsed)
	}
	return first, times, nil
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// check runs the independent checker on each of modsolver's answers.
func (w *workload) check(answers []*model.Result) []string {
	var out []string
	for i, res := range answers {
		out = append(out, w.prefix(i, checker.Check(w.cat, w.cluster, w.reqs[i], res))...)
	}
	return out
}

// prefix renders violations, naming the scenario in a batch.
func (w *workload) prefix(i int, vs []checker.Violation) []string {
	out := make([]string, len(vs))
	for k, v := range vs {
		out[k] = v.String()
		if w.batch {
			out[k] = fmt.Sprintf("scenario %d: %s", i, v)
		}
	}
	return out
}

// differences counts the modules whose state after differs between two
// resolved answers: another version, or on in one and off in the other.
func differences(a, b *model.Result) int {
	if a.Status != model.StatusResolved || b.Status != model.StatusResolved {
		return 0
	}
	after := func(res *model.Result) map[string]string {
		m := map[string]string{}
		for _, r := range res.Modules {
			if r.ToVersion != "" {
				m[r.Name] = r.ToVersion
			}
		}
		return m
	}
	x, y := after(a), after(b)
	n := 0
	for name, v := range x {
		if y[name] != v {
			n++
		}
	}
	for name := range y {
		if _, ok := x[name]; !ok {
			n++
		}
	}
	return n
}
