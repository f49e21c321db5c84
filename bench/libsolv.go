package bench

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// ErrNoLibsolv marks a binary built without libsolv: the libsolv peer
// needs cgo, Debian's libsolv-dev and the build tag libsolv
// (`go build -tags libsolv`, which `make bench` does).
var ErrNoLibsolv = errors.New("built without libsolv")

// LibsolvBuilt reports whether this binary carries the libsolv peer.
func LibsolvBuilt() bool { return libsolvBuilt }

// LibsolvAnswer is libsolv's answer to one request, with the time of each
// step of its pipeline.
type LibsolvAnswer struct {
	PeerAnswer
	// Steps is the number of steps of the ordered transaction.
	Steps  int
	Timing LibsolvTiming
}

// LibsolvTiming is the time of each step of the libsolv pipeline.
type LibsolvTiming struct {
	// Prune is solver.NewDomains and the domains of the modules the pool
	// holds: the releases each module's own rules leave (D110).
	Prune time.Duration
	// Load is writing the pool from the domains and loading it into
	// libsolv: strings, solvables, dependencies and the provides index.
	Load time.Duration
	// Solve is creating the solver and solver_solve.
	Solve time.Duration
	// Transaction is solver_create_transaction and transaction_order; zero
	// when there is no solution.
	Transaction time.Duration
}

// Pipeline is the whole pipeline: pruning, loading, solving, the
// transaction and its order.
func (t LibsolvTiming) Pipeline() time.Duration { return t.Prune + t.Load + t.Solve + t.Transaction }

// Libsolv resolves req with libsolv (Debian's 0.7.23, through cgo), in
// this process, on a translation of the same inputs Solve takes
// (DESIGN.md §8):
//
//   - a release is a solvable: name the module, evr its version; the
//     deployed release of a module, when its domain allows it, is in the
//     installed repo (pool_set_installed), every other allowed release in
//     the available one; the releases a module's own rules forbid
//     (solver.Domains, D110) and the modules that are off are left out;
//   - a required range is one requires whose comparisons are joined by
//     REL_WITH; an optional range (!optional) is one conflicts per
//     comparison, negated: a release outside the range breaks one of them;
//   - a platform requirement requires the package of its component,
//     platform(deckhouse), platform(kubernetes), platform(openshift)…
//     (platformPackage), which is one installed solvable at the version
//     the request runs on, locked;
//   - an exclusive group (R13) is a provides and a conflicts of
//     group(name) on each release of its modules (libsolv ignores a
//     solvable's conflict with itself);
//   - jobs: SOLVER_INSTALL of the name of every module that must be on,
//     SOLVER_LOCK of each platform package, SOLVER_UPDATE of the modules
//     the request lets update (SOLVER_SOLVABLE_ALL for update-all), and
//     SOLVER_VERIFY of every solvable, so that an installed release whose
//     requirements the request breaks (a module disabled) is not kept.
//
// libsolv prefers the newest candidate, as modsolver does, but greedily:
// where the two optimise differently (R14), libsolv's answer may differ,
// which the peer check accepts. The catalog must be one the translation
// carries (LibsolvTranslatable). ctx is checked before the solve: libsolv
// cannot be stopped inside it.
func Libsolv(ctx context.Context, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) (*LibsolvAnswer, error) {
	if !libsolvBuilt {
		return nil, ErrNoLibsolv
	}
	if err := LibsolvTranslatable(cat); err != nil {
		return nil, err
	}
	return solveLibsolv(ctx, cat, cluster, req)
}

// solveLibsolv is Libsolv on a catalog already found translatable: the
// timed pipeline on a pool made for the request.
func solveLibsolv(ctx context.Context, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) (*LibsolvAnswer, error) {
	return libsolvPipeline(ctx, cat, cluster, req, nil)
}

// libsolvPipeline answers req, timed: the pruning, then the translation,
// counted as loading, and libsolv's own steps, on held's pool when held
// is set (only the request's repos and its considered map are written),
// else on a pool made of the whole translation.
func libsolvPipeline(ctx context.Context, cat *model.Catalog, cluster *model.ClusterState, req *model.Request, held *libsolvService) (*LibsolvAnswer, error) {
	start := time.Now()
	ds, err := solver.NewDomains(cat, cluster, req)
	if err != nil {
		return nil, err
	}
	t := &poolTranslation{cat: cat, cluster: cluster, req: req, ds: ds, inSet: map[string]bool{}, held: held}
	t.findClosure()
	pruned := time.Now()
	if err := t.translate(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out *poolOutput
	if held != nil {
		out, err = held.pool.run(&t.in, t.considered, time.Since(pruned))
	} else {
		out, err = runPool(&t.in, time.Since(pruned))
	}
	if err != nil {
		return nil, err
	}
	out.timing.Prune = pruned.Sub(start)
	return t.answer(out), nil
}

// LibsolvTranslatable reports, as an error wrapping ErrNotTranslated, the
// first rule of cat the libsolv translation does not carry over: several
// sources (R23) and dependency loops the catalog refuses (R27). Capabilities, compound requirements,
// prereleases and ranges that are not plain comparisons are found while
// translating a request. The generated catalogs use none of them.
func LibsolvTranslatable(cat *model.Catalog) error {
	if len(cat.Sources()) > 0 {
		return fmt.Errorf("%w: the catalog has several sources (R23)", ErrNotTranslated)
	}
	return refusedLoops(cat)
}

// poolTranslation turns one request into a libsolv pool.
type poolTranslation struct {
	cat     *model.Catalog
	cluster *model.ClusterState
	req     *model.Request
	ds      *solver.Domains
	// closure holds the modules that get solvables, in the order found.
	closure []*solver.Domain
	inSet   map[string]bool
	in      poolInput
	// solvables maps each module solvable, installed ones first, in the
	// order loaded, to its release; platform packages map to nil.
	solvables []poolRelease
	deps      int
	// held, when set, holds the catalog's releases in a pool loaded once
	// (libsolvService): the translation then writes only the installed
	// repo and the jobs, and considered lists the held solvables the
	// request allows, which heldRels maps to their releases.
	held       *libsolvService
	considered []int32
	heldRels   []poolRelease
}

type poolRelease struct {
	d *solver.Domain
	i int
}

// findClosure collects the modules that must be on or run now, and every
// module a release they may take requires, transitively, as deppy's
// translation does: the other modules cannot be on in any answer.
func (t *poolTranslation) findClosure() {
	visit := func(name string) {
		if t.inSet[name] {
			return
		}
		if d := t.ds.Of(name); d != nil && d.Role != solver.RoleOff {
			t.inSet[name] = true
			t.closure = append(t.closure, d)
		}
	}
	for _, name := range namedModules(t.req, t.cluster) {
		if d := t.ds.Of(name); d != nil && (d.Role == solver.RoleMust || t.installed(d) >= 0) {
			visit(name)
		}
	}
	for k := 0; k < len(t.closure); k++ {
		d := t.closure[k]
		for i, r := range d.Releases {
			if d.Allowed[i] {
				for _, dep := range r.Requirements.Modules {
					if !dep.Constraint.Optional {
						visit(dep.Module)
					}
				}
			}
		}
	}
}

// installed is the index of the release of d the cluster runs, when d's
// domain allows it, else -1: a deployed release that the request forbids
// (below a pin, off the new platform) is not kept, so it is not loaded.
func (t *poolTranslation) installed(d *solver.Domain) int {
	from, running := t.cluster.Deployed(d.Module)
	if !running {
		return -1
	}
	for i, r := range d.Releases {
		if d.Allowed[i] && r.Version.Equal(from) {
			return i
		}
	}
	return -1
}

// translate writes the pool: the platform packages and the deployed
// releases in the installed repo, the other allowed releases in the
// available one, and the jobs.
func (t *poolTranslation) translate() error {
	if t.req.Devel {
		return fmt.Errorf("%w: devel (R6) admits prereleases", ErrNotTranslated)
	}
	if err := t.addPlatform(); err != nil {
		return err
	}
	for _, d := range t.closure {
		if i := t.installed(d); i >= 0 {
			if err := t.addRelease(&t.in.installed, d, i); err != nil {
				return err
			}
		}
	}
	for _, d := range t.closure {
		skip := t.installed(d)
		for i := range d.Releases {
			if !d.Allowed[i] || i == skip {
				continue
			}
			if k, ok := t.held.solvable(d.Releases[i]); ok {
				t.considered = append(t.considered, k)
				t.heldRels = append(t.heldRels, poolRelease{d, i})
			} else if err := t.addRelease(&t.in.available, d, i); err != nil {
				return err // held or not, a release the catalog does not hold (a built-in module's, R5) is the request's own
			}
		}
		if d.Role == solver.RoleMust {
			t.in.job(jobInstall, d.Module.Name)
		}
	}
	t.solvables = append(t.solvables, t.heldRels...)
	t.addUpdates()
	t.in.job(jobVerifyAll, "")
	return nil
}

// addPlatform adds one installed, locked package per platform component,
// at the version the request runs on.
func (t *poolTranslation) addPlatform() error {
	for _, c := range platformOf(t.cluster, t.req) {
		if c.version == nil {
			continue
		}
		evr, err := evrOf(c.version)
		if err != nil {
			return err
		}
		t.in.installed = append(t.in.installed, t.in.str(platformPackage(c.name)), t.in.str(evr), 0, 0, 0)
		t.solvables = append(t.solvables, poolRelease{})
		t.in.job(jobLock, platformPackage(c.name))
	}
	return nil
}

// platformPackage names the package of a platform component:
// platform(deckhouse), which no module name can be, as DKP has a module
// named deckhouse.
func platformPackage(component string) string { return "platform(" + component + ")" }

type component struct {
	name    string
	version model.Version
}

// platformOf lists the platform components the request runs on: the
// cluster's, with the request's candidate versions (R12, R22).
func platformOf(cluster *model.ClusterState, req *model.Request) []component {
	out := []component{
		{model.PlatformDeckhouse, cmpOr(req.Platform.Deckhouse, cluster.Deckhouse)},
		{model.PlatformKubernetes, cmpOr(req.Platform.Kubernetes, cluster.Kubernetes)},
	}
	names := map[string]bool{}
	for name := range cluster.Platform {
		names[name] = true
	}
	for name := range req.Platform.Components {
		names[name] = true
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		out = append(out, component{name, cmpOr(req.Platform.Components[name], cluster.Platform[name])})
	}
	return out
}

func cmpOr(a, b model.Version) model.Version {
	if a != nil {
		return a
	}
	return b
}

// addUpdates adds the update jobs: every installed package for
// update-all, else each module the request lets update.
func (t *poolTranslation) addUpdates() {
	if t.req.UpdateAll {
		t.in.job(jobUpdateAll, "")
		return
	}
	for _, name := range t.req.Update {
		if t.inSet[name] {
			t.in.job(jobUpdate, name)
		}
	}
}

// addRelease writes release i of d as one solvable of repo (writeRelease).
func (t *poolTranslation) addRelease(repo *[]int32, d *solver.Domain, i int) error {
	deps, err := writeRelease(&t.in, repo, d.Module, d.Releases[i], func(name string) bool { return t.inSet[name] })
	if err != nil {
		return err
	}
	t.deps += deps
	t.solvables = append(t.solvables, poolRelease{d, i})
	return nil
}

// writeRelease writes release r of m as one solvable of repo: its name
// and evr, then its provides, requires and conflicts; it returns how many
// requires and conflicts it wrote. An optional requirement (R3) is
// written, as conflicts, only where loaded says its module may have
// solvables: a module left out is off, so it conflicts with nothing.
func writeRelease(in *poolInput, repo *[]int32, m *model.Module, r *model.Release, loaded func(string) bool) (int, error) {
	if len(r.Provides) > 0 || len(r.Requirements.Capabilities) > 0 {
		return 0, fmt.Errorf("%w: module %s uses capabilities (R19, R20)", ErrNotTranslated, m.Name)
	}
	if len(r.Requirements.Compound) > 0 {
		return 0, fmt.Errorf("%w: module %s has compound requirements (R24)", ErrNotTranslated, m.Name)
	}
	evr, err := evrOf(r.Version)
	if err != nil {
		return 0, fmt.Errorf("module %s: %w", m.Name, err)
	}
	var w depWriter
	if g := m.ExclusiveGroup; g != "" {
		w.provides = append(w.provides, []int32{in.str("group(" + g + ")"), 0})
		w.conflicts = append(w.conflicts, []int32{in.str("group(" + g + ")"), 0})
	}
	if err := platformDeps(in, &w, r.Requirements); err != nil {
		return 0, fmt.Errorf("module %s %s: %w", m.Name, evr, err)
	}
	for _, dep := range r.Requirements.Modules {
		if err := moduleDep(in, &w, dep, loaded); err != nil {
			return 0, fmt.Errorf("module %s %s: %w", m.Name, evr, err)
		}
	}
	*repo = append(*repo, in.str(m.Name), in.str(evr))
	*repo = w.appendTo(*repo)
	return len(w.requires) + len(w.conflicts), nil
}

// platformDeps requires the platform packages req names, in range.
func platformDeps(in *poolInput, w *depWriter, req model.Requirements) error {
	for _, c := range []struct {
		name string
		c    *model.Constraint
	}{{model.PlatformDeckhouse, req.Deckhouse}, {model.PlatformKubernetes, req.Kubernetes}} {
		if c.c != nil {
			if err := w.require(in, platformPackage(c.name), *c.c); err != nil {
				return err
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(req.Platform)) {
		if err := w.require(in, platformPackage(name), *req.Platform[name]); err != nil {
			return err
		}
	}
	return nil
}

// moduleDep translates one module requirement: R2 as a requires, R3 as
// conflicts. A required module left out (off, or every release
// forbidden) has no provider, so the requires leaves the release
// uninstallable; an optional one left out is off, so it conflicts with
// nothing.
func moduleDep(in *poolInput, w *depWriter, dep model.Dependency, loaded func(string) bool) error {
	if !dep.Constraint.Optional {
		return w.require(in, dep.Module, dep.Constraint)
	}
	if !loaded(dep.Module) {
		return nil
	}
	return w.conflict(in, dep.Module, dep.Constraint)
}

// answer turns libsolv's outcome into a LibsolvAnswer.
func (t *poolTranslation) answer(out *poolOutput) *LibsolvAnswer {
	ans := &LibsolvAnswer{PeerAnswer: PeerAnswer{Peer: "libsolv", Variables: len(t.solvables), Constraints: t.deps + len(t.in.jobs)/2},
		Steps: out.steps, Timing: out.timing}
	if len(out.problems) > 0 {
		ans.Result = &model.Result{Status: model.StatusUnsatisfiable,
			Explanation: &model.Explanation{Summary: fmt.Sprintf("libsolv: %d problems", len(out.problems))}}
		ans.Conflicts = out.problems
		return ans
	}
	after := map[string][]int{}
	for k, on := range out.chosen {
		if p := t.solvables[k]; on && p.d != nil {
			after[p.d.Module.Name] = append(after[p.d.Module.Name], p.i)
		}
	}
	ans.Result, ans.Multiple = peerResult(t.cat, t.cluster, t.ds, after)
	if t.req.ChangesOnly() {
		reportChanges(ans.Result)
	}
	return ans
}
