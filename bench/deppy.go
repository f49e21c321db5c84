package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/operator-framework/deppy/pkg/deppy"
	"github.com/operator-framework/deppy/pkg/deppy/constraint"
	deppysolver "github.com/operator-framework/deppy/pkg/deppy/solver"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// PeerAnswer is a peer's answer to one request (deppy's, or libsolv's in
// a LibsolvAnswer), in modsolver's terms.
type PeerAnswer struct {
	// Peer names the solver that answered: "deppy" when empty.
	Peer string
	// Result lists every module enabled before or after, with actions as
	// modsolver reports them; it has no plan, held-back reasons or paths.
	// Its status is unsatisfiable when deppy found no solution.
	Result *model.Result
	// Variables and Constraints measure the peer's input: deppy's
	// variables and constraints, libsolv's solvables and dependencies.
	Variables, Constraints int
	// Conflicts are the peer's reasons when it found no solution.
	Conflicts []string
	// Multiple names the modules the peer selected more than one release of
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
//   - one variable per release of each module in the closure (below),
//     and with several sources (R23) one per (source, release) pair; a
//     release that solver.Domains says the request forbids (its static
//     facts: R4, R7, R9–R11, R21, R22, R25, D1, channels, sources and
//     pins) is Prohibited (WithPruning leaves these releases out);
//   - for every module that must be on (its role is solver.RoleMust), a
//     Mandatory "enabled" variable with a Dependency on its releases,
//     newest first, and with several sources those of the
//     highest-priority source first;
//   - per release, a Dependency on the releases of each required module
//     that satisfy the range, newest first (R2), and a Conflict with each
//     release of an optional dependency outside its range (R3);
//   - per compound requirement of a release (R24), a Dependency on the
//     releases of the other modules that satisfy its predicate, or for a
//     conflict a Conflict with each of them: the predicate speaks of one
//     release, so its all, any and not are evaluated per release before
//     deppy runs, as OLM evaluates olm.constraint;
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
//     the peer check accepts; with several sources it takes no account of
//     requirements met across sources (R23's tie-break);
//   - deppy has no soft constraints: a module on by bundle default, an
//     enabled module under allowDisable and an unconfigured module under
//     autoEnable may be enabled, but nothing prefers them on (deppy
//     leaves them off unless something requires them);
//   - the update steps (R11, R21) need no lever of the solver: they depend
//     on the deployed version alone, so both solvers answer the same
//     sequential request, and a direct one is translated without them;
//   - deppy has no explanation beyond its conflict list, no plan and no
//     held-back reasons.
//
// ctx stops the search: deppy has no context, so the translation checks
// it on every guess and every backtrack of deppy's search and abandons the
// run with ctx.Err(). A run deep inside one gini call is abandoned to
// finish in the background.
func Deppy(ctx context.Context, cat *model.Catalog, cluster *model.ClusterState, req *model.Request, opts ...DeppyOption) (*PeerAnswer, error) {
	ds, err := solver.NewDomains(cat, cluster, req)
	if err != nil {
		return nil, err
	}
	if err := Translatable(cat); err != nil {
		return nil, err
	}
	var cfg deppyConfig
	for _, o := range opts {
		o(&cfg)
	}
	t := newTranslation(cat, cluster, req, ds, cfg)
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

// ErrNotTranslated marks a catalog or request that uses rules a peer's
// translation does not carry over: for deppy, capabilities (R19, R20),
// which need a provider index and a uniqueness rule of their own; for
// libsolv, those of LibsolvTranslatable. The generated benchmark catalogs
// use none of them.
var ErrNotTranslated = errors.New("not translated for the peer")

// Translatable reports, as an error wrapping ErrNotTranslated, the first
// rule of cat that the deppy translation does not carry over. A module
// built in in one source and listed in another (R29) is carried: its
// domain is the source the request places it in, and peerResult reports
// a move out of the platform as DKP's install (D160, D350).
func Translatable(cat *model.Catalog) error {
	for _, m := range cat.Modules() {
		for _, r := range m.Releases {
			if len(r.Provides) > 0 || len(r.Requirements.Capabilities) > 0 {
				return fmt.Errorf("%w: module %s uses capabilities (R19, R20)", ErrNotTranslated, m.Name)
			}
		}
	}
	return refusedLoops(cat)
}

// translation turns one request into deppy variables.
type translation struct {
	cat     *model.Catalog
	cluster *model.ClusterState
	req     *model.Request
	ds      *solver.Domains
	// closure holds the modules that get variables, sorted by name.
	closure []*solver.Domain
	inSet   map[string]bool
	// order remembers each module's releases in candidate order.
	order map[*solver.Domain][]int
	vars  []deppy.Variable
	// picks maps a release variable back to its module and release.
	picks       map[deppy.Identifier]pick
	constraints int
	// stop is set when the caller's context ends; variables check it.
	stop *atomic.Bool
	cfg  deppyConfig
}

type pick struct {
	d *solver.Domain
	i int
}

func newTranslation(cat *model.Catalog, cluster *model.ClusterState, req *model.Request, ds *solver.Domains, cfg deppyConfig) *translation {
	return &translation{cat: cat, cluster: cluster, req: req, ds: ds, inSet: map[string]bool{}, order: map[*solver.Domain][]int{},
		picks: map[deppy.Identifier]pick{}, stop: &atomic.Bool{}, cfg: cfg}
}

// releases lists the releases of d that get variables in candidate order:
// every release, or with pruning only the allowed ones; newest first, and
// with several sources the releases of the higher-priority source first
// (R23).
func (t *translation) releases(d *solver.Domain) []int {
	if out, ok := t.order[d]; ok {
		return out
	}
	out := make([]int, 0, len(d.Releases))
	for i := len(d.Releases) - 1; i >= 0; i-- {
		if !t.cfg.prune || d.Allowed[i] {
			out = append(out, i)
		}
	}
	if len(t.cat.Sources()) > 0 {
		slices.SortStableFunc(out, func(a, b int) int {
			return cmp.Compare(t.cat.SourceRank(d.Sources[a]), t.cat.SourceRank(d.Sources[b]))
		})
	}
	t.order[d] = out
	return out
}

// releaseID names release i of d: its module and version, and its source
// when the module is in several (R23).
func releaseID(d *solver.Domain, i int) deppy.Identifier {
	id := d.Module.Name + "@" + model.VersionString(d.Releases[i].Version)
	if d.Sources[i] != "" {
		id += " (source " + d.Sources[i] + ")"
	}
	return deppy.Identifier(id)
}

func (t *translation) translate() {
	t.findClosure()
	for _, d := range t.closure {
		t.addModule(d)
	}
	t.addGroups()
}

// findClosure collects the modules that must be on, and every module a
// release they may take requires or may meet a compound requirement
// with, transitively. Only the modules the inputs name can be on without
// being required, so only they are read first.
func (t *translation) findClosure() {
	var queue []*solver.Domain
	visit := func(name string) {
		if t.inSet[name] {
			return
		}
		if d := t.ds.Of(name); d != nil && d.Role != solver.RoleOff {
			t.inSet[name] = true
			queue = append(queue, d)
		}
	}
	for _, name := range namedModules(t.req, t.cluster) {
		if d := t.ds.Of(name); d != nil && d.Role == solver.RoleMust {
			visit(name)
		}
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		t.closure = append(t.closure, d)
		for _, i := range t.releases(d) {
			t.pushNeeds(d.Releases[i].Requirements, visit)
		}
	}
	slices.SortFunc(t.closure, func(a, b *solver.Domain) int { return cmp.Compare(a.Module.Name, b.Module.Name) })
}

// pushNeeds visits the modules req may need on: those it requires, not
// optionally, and those that may meet one of its compound requirements
// (R24). A conflict needs nothing on.
func (t *translation) pushNeeds(req model.Requirements, visit func(string)) {
	for _, dep := range req.Modules {
		if !dep.Constraint.Optional {
			visit(dep.Module)
		}
	}
	for _, c := range req.Compound {
		if c.Conflict() {
			continue
		}
		for _, name := range t.ds.MayMeet(c) {
			visit(name)
		}
	}
}

// namedModules lists the modules the request or the cluster names, sorted.
func namedModules(req *model.Request, cluster *model.ClusterState) []string {
	names := slices.Concat(req.Enable, req.PinnedNames(), cluster.ModuleNames())
	slices.Sort(names)
	return slices.Compact(names)
}

// addModule adds the release variables of d in candidate order, and its
// "enabled" variable when it must be on. AtMost(1) goes on the enabled
// variable, or else on the first release: deppy applies it whatever
// variable carries it.
func (t *translation) addModule(d *solver.Domain) {
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
	if d.Role == solver.RoleMust {
		t.add(deppy.Identifier("enabled:"+d.Module.Name), slices.Concat([]deppy.Constraint{constraint.Mandatory(), constraint.Dependency(ids...)}, atMost)...)
		atMost = nil
	}
	for k, i := range rels {
		cs := slices.Concat(t.requirements(d.Module.Reading(), d.Releases[i].Requirements), t.compound(d, d.Releases[i].Requirements))
		if !d.Allowed[i] {
			cs = append(cs, constraint.Prohibited())
		}
		if k == 0 {
			cs = append(cs, atMost...)
		}
		t.add(ids[k], cs...)
	}
}

// requirements translates one release's module requirements: R2 as a
// Dependency on the releases in range, in candidate order; R3 as a
// Conflict with each release out of range.
// The ranges are read by rd, the reading of the module that wrote them
// (R6); the benchmarks never ask for devel.
func (t *translation) requirements(rd model.VersionReading, req model.Requirements) []deppy.Constraint {
	var out []deppy.Constraint
	for _, dep := range req.Modules {
		if !t.inSet[dep.Module] {
			if !dep.Constraint.Optional {
				out = append(out, constraint.Dependency()) // the module stays off: nothing satisfies it
			}
			continue
		}
		d := t.ds.Of(dep.Module)
		var in []deppy.Identifier
		for _, i := range t.releases(d) {
			switch ok := rd.Admits(&dep.Constraint, d.Releases[i].Version, false); {
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

// compound translates the compound requirements of a release of d (R24):
// a requirement as a Dependency on the releases of the other modules in
// the closure that satisfy its predicate, in name and candidate order; a
// conflict as a Conflict with each of them.
func (t *translation) compound(d *solver.Domain, req model.Requirements) []deppy.Constraint {
	var out []deppy.Constraint
	for _, c := range req.Compound {
		target := c.Target()
		var ids []deppy.Identifier
		for _, other := range t.closure {
			if other == d {
				continue
			}
			for _, i := range t.releases(other) {
				if r := other.Releases[i]; target.Holds(other.Module.Name, r.Version, r.Provides, d.Module.Reading(), false) {
					ids = append(ids, releaseID(other, i))
				}
			}
		}
		if !c.Conflict() {
			out = append(out, constraint.Dependency(ids...))
			continue
		}
		for _, id := range ids {
			out = append(out, constraint.Conflict(id))
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
		g := d.Module.ExclusiveGroup
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
