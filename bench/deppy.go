package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync/atomic"

	"github.com/operator-framework/deppy/pkg/deppy"
	"github.com/operator-framework/deppy/pkg/deppy/constraint"
	deppysolver "github.com/operator-framework/deppy/pkg/deppy/solver"

	"github.com/modsolver/modsolver/model"
)

// PeerAnswer is deppy's answer to one request, in modsolver's terms.
type PeerAnswer struct {
	// Result lists every module enabled before or after, with actions as
	// modsolver reports them; it has no plan, held-back reasons or paths.
	// Its status is unsatisfiable when deppy found no solution.
	Result *model.Result
	// Variables and Constraints measure deppy's input.
	Variables, Constraints int
	// Conflicts are deppy's reasons when it found no solution.
	Conflicts []string
	// Multiple names the modules deppy selected more than one release of
	// (an R1 violation the Result cannot show).
	Multiple []string
}

// DeppyOption tunes the translation to deppy.
type DeppyOption func(*deppyConfig)

type deppyConfig struct {
	prune bool
}

// WithPruning leaves out the variables of releases that a module's own
// rules forbid, instead of giving them Prohibited, and follows only the
// requirements of the releases left. deppy documents both as equivalent;
// pruning gives deppy a much smaller problem. It is the translation a
// client would write that first does what modsolver's static facts do.
func WithPruning() DeppyOption { return func(c *deppyConfig) { c.prune = true } }

// Deppy resolves req with operator-framework/deppy v0.3.0, in this
// process, on a translation of the same inputs Solve takes:
//
//   - one variable per release of each module in the closure (below);
//     a release that the module's own rules forbid is Prohibited: the
//     edition (R7), a prerelease (D1), the platform (R4, with the
//     candidate versions of R12), a required module the catalog lacks,
//     the channel head (R10), stability and no-downgrade (R9), the update
//     steps (R11) and a pin (WithPruning leaves these releases out);
//   - for every module that must be on (enabled by the request or the
//     cluster, or pinned), a Mandatory "enabled" variable with a
//     Dependency on its releases, newest first;
//   - per release, a Dependency on the releases of each required module
//     that satisfy the range, newest first (R2), and a Conflict with each
//     release of an optional dependency outside its range (R3);
//   - AtMost(1) over the releases of each module (R1) and over the
//     releases of each exclusive group (R13).
//
// Only the dependency closure of the modules that must be on gets
// variables, as deppy's users (OLM, operator-controller) build them: from
// the required packages outward, through the requirements of every
// release.
//
// Where the translation is weaker than modsolver:
//
//   - deppy has no preference levels beyond candidate order, so "newest
//     first" is a greedy choice in its search, not R14's lexicographic
//     optimum: deppy may settle on older versions than modsolver, which
//     the peer check accepts;
//   - deppy has no soft constraints: a module on by bundle default, an
//     enabled module under allowDisable and an unconfigured module under
//     autoEnable may be enabled, but nothing prefers them on (deppy
//     leaves them off unless something requires them);
//   - the update steps (R11) need no lever of the solver: they depend on
//     the deployed version alone, so both solvers answer the same
//     sequential request, and a direct one is translated without them;
//   - deppy has no explanation beyond its conflict list, no plan and no
//     held-back reasons.
//
// ctx stops the search: deppy has no context, so the translation checks
// it on every guess and every backtrack of deppy's search and abandons the
// run with ctx.Err(). A run deep inside one gini call is abandoned to
// finish in the background.
func Deppy(ctx context.Context, cat *model.Catalog, cluster *model.ClusterState, req *model.Request, opts ...DeppyOption) (*PeerAnswer, error) {
	if err := errors.Join(cluster.Validate(cat), req.Validate(cat, cluster)); err != nil {
		return nil, err
	}
	if err := errors.Join(Translatable(cat), TranslatableCluster(cat, cluster)); err != nil {
		return nil, err
	}
	var cfg deppyConfig
	for _, o := range opts {
		o(&cfg)
	}
	t := newTranslation(cat, cluster, req, cfg)
	t.translate()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ans := &PeerAnswer{Variables: len(t.vars), Constraints: t.constraints}
	sel, err := solveDeppy(ctx, t.vars, t.stop)
	var unsat deppy.NotSatisfiable
	switch {
	case errors.As(err, &unsat):
		ans.Result = &model.Result{Status: model.StatusUnsatisfiable, Explanation: &model.Explanation{Summary: "deppy: constraints not satisfiable"}}
		for _, a := range unsat {
			ans.Conflicts = append(ans.Conflicts, a.String())
		}
		return ans, nil
	case err != nil:
		return nil, fmt.Errorf("deppy: %w", err)
	}
	ans.Result, ans.Multiple = t.result(sel)
	if req.ChangesOnly() {
		reportChanges(ans.Result)
	}
	return ans, nil
}

// ErrNotTranslated marks a catalog that uses rules the deppy translation
// does not carry over: capabilities (R19, R20), update graphs (R21),
// other platform components (R22), compound requirements (R24) and
// channels of a module's own (D32).
// The generated benchmark catalogs and the DKP and Helm catalogs use none
// of them.
var ErrNotTranslated = errors.New("not translated for deppy")

// Translatable reports, as an error wrapping ErrNotTranslated, the first
// rule of cat that the deppy translation does not carry over.
func Translatable(cat *model.Catalog) error {
	if len(cat.Sources()) > 0 {
		return fmt.Errorf("%w: the catalog has several sources (R23)", ErrNotTranslated)
	}
	for _, m := range cat.Modules() {
		if m.Policy() == model.UpdateGraph {
			return fmt.Errorf("%w: module %s has an update graph (R21)", ErrNotTranslated, m.Name)
		}
		if m.HasCompoundRequirements() {
			return fmt.Errorf("%w: module %s has compound requirements (R24)", ErrNotTranslated, m.Name)
		}
		if m.DefaultChannel != "" || slices.ContainsFunc(slices.Collect(maps.Keys(m.Channels)), func(ch string) bool { return !model.IsChannel(ch) }) {
			return fmt.Errorf("%w: module %s has channels of its own (D32)", ErrNotTranslated, m.Name)
		}
		for _, r := range m.Releases {
			switch {
			case len(r.Provides) > 0 || len(r.Requirements.Capabilities) > 0:
				return fmt.Errorf("%w: module %s uses capabilities (R19, R20)", ErrNotTranslated, m.Name)
			case r.Edges != nil:
				return fmt.Errorf("%w: module %s has an update graph (R21)", ErrNotTranslated, m.Name)
			case len(r.Requirements.Platform) > 0:
				return fmt.Errorf("%w: module %s requires other platform components (R22)", ErrNotTranslated, m.Name)
			}
		}
	}
	return nil
}

// TranslatableCluster reports whether the translation can carry a cluster
// state: a deployed version the catalog does not list (D73) has no deppy
// variable to keep.
func TranslatableCluster(cat *model.Catalog, cluster *model.ClusterState) error {
	for _, name := range cluster.ModuleNames() {
		m := cat.Module(name)
		if m == nil || m.Embedded {
			continue
		}
		if v, ok := cluster.Deployed(m); ok && m.Release(v) == nil {
			return fmt.Errorf("%w: module %s is deployed at %s, which the catalog does not list (D73)", ErrNotTranslated, name, v)
		}
	}
	return nil
}

// translation turns one request into deppy variables.
type translation struct {
	ds *domains
	// closure holds the modules that get variables, sorted by name.
	closure []*domain
	inSet   map[string]bool
	vars    []deppy.Variable
	// picks maps a release variable back to its module and release.
	picks       map[deppy.Identifier]pick
	constraints int
	// stop is set when the caller's context ends; variables check it.
	stop *atomic.Bool
	cfg  deppyConfig
}

type pick struct {
	d *domain
	i int
}

func newTranslation(cat *model.Catalog, cluster *model.ClusterState, req *model.Request, cfg deppyConfig) *translation {
	return &translation{ds: newDomains(cat, cluster, req), inSet: map[string]bool{}, picks: map[deppy.Identifier]pick{}, stop: &atomic.Bool{}, cfg: cfg}
}

// releases lists the releases of d that get variables, newest first:
// every release, or with pruning only the allowed ones.
func (t *translation) releases(d *domain) []int {
	if t.cfg.prune {
		return d.newestAllowed()
	}
	out := make([]int, len(d.rels))
	for k := range out {
		out[k] = len(d.rels) - 1 - k
	}
	return out
}

func releaseID(d *domain, i int) deppy.Identifier {
	return deppy.Identifier(d.m.Name + "@" + model.VersionString(d.rels[i].Version))
}

func (t *translation) translate() {
	t.findClosure()
	for _, d := range t.closure {
		t.addModule(d)
	}
	t.addGroups()
}

// findClosure collects the modules that must be on, and every module a
// release they may take requires, transitively. Only the modules the
// inputs name can be on without being required, so only they are read
// first.
func (t *translation) findClosure() {
	var queue []*domain
	visit := func(name string) {
		if t.inSet[name] {
			return
		}
		if d := t.ds.of(name); d != nil && d.role != roleOff {
			t.inSet[name] = true
			queue = append(queue, d)
		}
	}
	for _, name := range t.namedModules() {
		if d := t.ds.of(name); d != nil && d.role == roleMust {
			visit(name)
		}
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		t.closure = append(t.closure, d)
		for _, i := range t.releases(d) {
			for _, dep := range d.rels[i].Requirements.Modules {
				if !dep.Constraint.Optional {
					visit(dep.Module)
				}
			}
		}
	}
	slices.SortFunc(t.closure, func(a, b *domain) int { return cmp.Compare(a.m.Name, b.m.Name) })
}

// namedModules lists the modules the request or the cluster names, sorted.
func (t *translation) namedModules() []string {
	names := slices.Concat(t.ds.req.Enable, t.ds.req.PinnedNames(), t.ds.cluster.ModuleNames())
	slices.Sort(names)
	return slices.Compact(names)
}

// addModule adds the release variables of d, newest first, and its
// "enabled" variable when it must be on. AtMost(1) goes on the enabled
// variable, or else on the newest release: deppy applies it whatever
// variable carries it.
func (t *translation) addModule(d *domain) {
	rels := t.releases(d)
	ids := make([]deppy.Identifier, len(rels))
	for k, i := range rels {
		ids[k] = releaseID(d, i)
		t.picks[ids[k]] = pick{d, i}
	}
	var atMost []deppy.Constraint
	if len(ids) > 1 {
		atMost = append(atMost, constraint.AtMost(1, ids...))
	}
	if d.role == roleMust {
		t.add(deppy.Identifier("enabled:"+d.m.Name), slices.Concat([]deppy.Constraint{constraint.Mandatory(), constraint.Dependency(ids...)}, atMost)...)
		atMost = nil
	}
	for k, i := range rels {
		cs := t.requirements(d.rels[i].Requirements)
		if !d.allowed[i] {
			cs = append(cs, constraint.Prohibited())
		}
		if k == 0 {
			cs = append(cs, atMost...)
		}
		t.add(ids[k], cs...)
	}
}

// requirements translates one release's module requirements: R2 as a
// Dependency on the allowed releases in range, newest first; R3 as a
// Conflict with each allowed release out of range.
func (t *translation) requirements(req model.Requirements) []deppy.Constraint {
	var out []deppy.Constraint
	for _, dep := range req.Modules {
		if !t.inSet[dep.Module] {
			if !dep.Constraint.Optional {
				out = append(out, constraint.Dependency()) // the module stays off: nothing satisfies it
			}
			continue
		}
		d := t.ds.of(dep.Module)
		var in []deppy.Identifier
		for _, i := range t.releases(d) {
			switch ok := dep.Constraint.Allows(model.Core(d.rels[i].Version)); {
			case ok && !dep.Constraint.Optional:
				in = append(in, releaseID(d, i))
			case !ok && dep.Constraint.Optional:
				out = append(out, constraint.Conflict(releaseID(d, i)))
			}
		}
		if !dep.Constraint.Optional {
			out = append(out, constraint.Dependency(in...))
		}
	}
	return out
}

// addGroups adds AtMost(1) over the releases of each exclusive group
// (R13) with more than one module in the closure.
func (t *translation) addGroups() {
	groups := map[string][]deppy.Identifier{}
	modules := map[string]int{}
	var names []string
	for _, d := range t.closure {
		g := d.m.ExclusiveGroup
		if g == "" {
			continue
		}
		if modules[g] == 0 {
			names = append(names, g)
		}
		modules[g]++
		for _, i := range t.releases(d) {
			groups[g] = append(groups[g], releaseID(d, i))
		}
	}
	slices.Sort(names)
	for _, g := range names {
		if modules[g] > 1 {
			t.add(deppy.Identifier("group:"+g), constraint.AtMost(1, groups[g]...))
		}
	}
}

func (t *translation) add(id deppy.Identifier, cs ...deppy.Constraint) {
	t.vars = append(t.vars, &variable{id: id, constraints: cs, stop: t.stop})
	t.constraints += len(cs)
}

// variable is a deppy.Variable that stops deppy's search when its stop
// flag is set: deppy reads a variable's constraints on every guess.
type variable struct {
	id          deppy.Identifier
	constraints []deppy.Constraint
	stop        *atomic.Bool
}

func (v *variable) Identifier() deppy.Identifier { return v.id }

func (v *variable) Constraints() []deppy.Constraint {
	if v.stop.Load() {
		panic(stopped{})
	}
	return v.constraints
}

// stopped is the panic value that abandons a deppy run.
type stopped struct{}

// stopTracer stops deppy's search on a backtrack once stop is set.
type stopTracer struct{ stop *atomic.Bool }

func (s stopTracer) Trace(deppy.SearchPosition) {
	if s.stop.Load() {
		panic(stopped{})
	}
}

// solveDeppy runs deppy's solver on vars in a goroutine, so that ctx can
// end the wait even inside a gini call that deppy cannot interrupt.
func solveDeppy(ctx context.Context, vars []deppy.Variable, stop *atomic.Bool) ([]deppy.Variable, error) {
	type outcome struct {
		sel []deppy.Variable
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stopped); !ok {
					panic(r)
				}
				o = outcome{err: context.Cause(ctx)}
			}
			done <- o
		}()
		s, err := deppysolver.New(deppysolver.WithTracer(stopTracer{stop}))
		if err != nil {
			o.err = err
			return
		}
		o.sel, o.err = s.Solve(vars)
	}()
	release := context.AfterFunc(ctx, func() { stop.Store(true) })
	defer release()
	select {
	case o := <-done:
		return o.sel, o.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
