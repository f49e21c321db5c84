package solver

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// The route, one minor at a time (R33).
//
// DKP moves one minor at a time, and so does Kubernetes; every point on
// the way must be a pair DKP runs, and a DKP step needs its release's
// Kubernetes floor (k8s) at the point it leaves. An answer that moves a
// platform minor up is found as before, at the answer's platform; the
// route then places the platform steps and, before each, the module
// changes it needs (D386):
//
//   - the platform routes are the monotone walks of the grid from the
//     cluster's minors to the answer's that pass only such pairs, listed
//     DKP step first;
//   - on each, every module the cluster runs passes each point with the
//     fewest changes (placeModule): it stays while its release admits the
//     point (its DKP and Kubernetes requirements; on a DKP step, the
//     release's disabledModules and autoK8sVersion); else, before the
//     step, it moves to a release above its own, up to the answer's, that
//     admits both the point it is deployed at and the next (DKP deploys a
//     module release against the version it runs, and does not move to a
//     version an enabled module's release refuses), or, when the answer
//     turns it off, is turned off;
//   - routes are ranked as R33 says: fewest module changes, then DKP
//     before Kubernetes.
//
// A target no route reaches is unsatisfiable, with one platform-route
// fact: where no pair DKP runs goes on, or the step of the best route
// that a module cannot pass. The rules between modules (dependencies,
// groups) are the answer's, checked at its platform: the points on the
// way are not solved again (D386).

// gridPoint is a point of the platform grid: a DKP and a Kubernetes
// minor, and the point's index among those of the walks (at), under
// which a module remembers what it admits there.
type gridPoint struct {
	d, k model.MajorMinor
	at   int
}

func (g gridPoint) String() string { return g.d.String() + "/" + g.k.String() }

// routeChange is one module change before a step: to nil turns it off.
type routeChange struct {
	rm       *routeModule
	from, to model.Version
}

// route is one platform route with its module changes placed.
type route struct {
	points  []gridPoint     // after each step; the last is the answer's
	changes [][]routeChange // before each step
	cost    int
	// stuck, when set, is why no release of stuckModule passes step
	// stuckAt.
	stuck       string
	stuckAt     int
	stuckModule *model.Module
}

// routeModule is a module the cluster runs at a release of its own.
type routeModule struct {
	m        *model.Module
	from, to model.Version // to nil: the answer turns it off
	// cands are the releases above from, up to to, highest first; for
	// a module that runs built in, the answer's release from a source,
	// if it moves to one (R29).
	cands []model.Version
	// builtIn: it runs built in, so that it moves with DKP, and a DKP
	// release's migratedModules needs it served by a source first.
	builtIn bool
	// answer is the module's result in the answer, if listed: a move to
	// a source before a step is worded as the answer words it.
	answer *model.ModuleResult
	// vers are its states: from, then the candidates, ascending; admit
	// remembers, by state and point, whether the state admits the point
	// (0 not asked yet, 1 yes, 2 no), shared by every walk.
	vers  []model.Version
	admit []int8
}

// router places the routes of one answer.
type router struct {
	c       *Compiled
	data    model.PlatformReleases
	cluster *model.ClusterState
	req     *model.Request
	from    gridPoint
	to      gridPoint
	// dkp and kube are the answer's platform versions.
	dkp, kube model.Version
	mods      []routeModule
	// points counts the grid's points the walks may pass (gridPoint.at).
	points int
}

// maxRoutes bounds the platform routes listed for one answer: five DKP
// minors and four Kubernetes minors have 126 walks at most.
const maxRoutes = 1000

// addRoute sets the route of res, a resolved answer to req (R33), or
// answers unsatisfiable when no route reaches its platform. Nothing is
// done for an answer that keeps the platform's minors, moves one down, or
// whose catalog carries no release data.
func (c *Compiled) addRoute(ctx context.Context, solver resolver, cfg settings, cluster *model.ClusterState, req *model.Request, res *model.Result) (*model.Result, error) {
	r := newRouter(c, cluster, req, res)
	if r == nil {
		return res, nil
	}
	out := r.route(res)
	if out.Status == model.StatusUnsatisfiable && cfg.suggest {
		return out, r.suggest(ctx, solver, out.Explanation)
	}
	return out, nil
}

// route sets res's route, or is the refusal of a target no route reaches.
func (r *router) route(res *model.Result) *model.Result {
	walks := r.walks()
	if len(walks) == 0 {
		return r.refusal(r.noWalk(), nil)
	}
	routes := make([]*route, len(walks))
	for i, w := range walks {
		routes[i] = r.place(w)
	}
	slices.SortStableFunc(routes, func(a, b *route) int {
		if (a.stuck == "") != (b.stuck == "") {
			if a.stuck == "" {
				return -1
			}
			return 1
		}
		return a.cost - b.cost
	})
	if routes[0].stuck != "" {
		return r.refusal(r.stuckFact(routes[0]), routes[0].stuckModule)
	}
	res.Route = r.steps(routes[0])
	return res
}

// newRouter is the router of res, or nil when res needs no route.
func newRouter(c *Compiled, cluster *model.ClusterState, req *model.Request, res *model.Result) *router {
	if res.Status != model.StatusResolved {
		return nil
	}
	r := c.routeEnds(cluster, req)
	if r == nil {
		return nil
	}
	answer := map[string]*model.ModuleResult{}
	for i := range res.Modules {
		answer[res.Modules[i].Name] = &res.Modules[i]
	}
	for _, m := range c.cat.Modules() {
		from, runs := cluster.Deployed(m)
		if !runs {
			continue
		}
		// A module that runs built in moves with DKP: it has no release
		// of its own to change, but may have to be turned off.
		builtIn := m.Embedded || (m.BuiltInSource() != "" && cluster.DeployedSource(m) == m.BuiltInSource())
		rm := routeModule{m: m, from: from, to: from, builtIn: builtIn, answer: answer[m.Name]}
		if a := answer[m.Name]; a != nil {
			switch {
			case a.Action == model.ActionDisable || a.ToVersion == "":
				rm.to = nil
			default:
				to, err := model.ParseVersion(a.ToVersion)
				if err != nil {
					continue // the answer's own text: never unreadable
				}
				rm.to = to
			}
		}
		if rm.to != nil && builtIn && !m.Embedded && m.Release(rm.to) != nil {
			rm.cands = []model.Version{rm.to} // it moves to a source (R29)
		}
		if rm.to != nil && !builtIn {
			for i := len(m.Releases) - 1; i >= 0; i-- {
				v := m.Releases[i].Version
				if v.Compare(from) > 0 && v.Compare(rm.to) <= 0 && (!model.IsPrerelease(v) || model.SameVersion(v, rm.to)) {
					rm.cands = append(rm.cands, v)
				}
			}
		}
		r.mods = append(r.mods, rm)
	}
	return r
}

// routeEnds is the router of req's platform move, its modules not placed
// yet, or nil when req takes no route: the catalog carries no release
// data, or the move keeps the platform's minors or takes one down.
func (c *Compiled) routeEnds(cluster *model.ClusterState, req *model.Request) *router {
	data := c.cat.PlatformReleases()
	if data == nil || cluster.Deckhouse == nil || cluster.Kubernetes == nil {
		return nil
	}
	dkp, kube := orElse(req.Platform.Deckhouse, cluster.Deckhouse), orElse(req.Platform.Kubernetes, cluster.Kubernetes)
	r := &router{c: c, data: data, cluster: cluster, req: req, dkp: dkp, kube: kube,
		from: gridPoint{d: model.MinorOf(cluster.Deckhouse), k: model.MinorOf(cluster.Kubernetes)},
		to:   gridPoint{d: model.MinorOf(dkp), k: model.MinorOf(kube)}}
	dd, dk := r.to.d.Compare(r.from.d), r.to.k.Compare(r.from.k)
	if dd < 0 || dk < 0 || dd+dk == 0 {
		return nil // a downgrade is not a route; no minor moves, no steps
	}
	return r
}

// minorSteps lists the minors a component passes from from to to: each
// minor of the same major, or the minors known between two majors.
func minorSteps(from, to model.MajorMinor, known []model.MajorMinor) []model.MajorMinor {
	var out []model.MajorMinor
	if from.Major == to.Major {
		for m := from.Minor + 1; m <= to.Minor; m++ {
			out = append(out, model.MajorMinor{Major: from.Major, Minor: m})
		}
		return out
	}
	for _, m := range known {
		if m.Compare(from) > 0 && m.Compare(to) < 0 {
			out = append(out, m)
		}
	}
	return append(out, to)
}

// supports reports whether DKP minor d runs Kubernetes minor k; a minor
// without release data runs any.
func (r *router) supports(d, k model.MajorMinor) bool {
	rel := r.data[d]
	if rel == nil {
		return true
	}
	_, ok := rel.Kubernetes[k]
	return ok
}

// floorMet reports whether DKP minor d's Kubernetes floor holds at k.
func (r *router) floorMet(d, k model.MajorMinor) bool {
	rel := r.data[d]
	return rel == nil || rel.Requirements.K8s == (model.MajorMinor{}) || k.Compare(rel.Requirements.K8s) >= 0
}

// dkpStepOK and kubeStepOK report whether a step from at to DKP minor d
// (Kubernetes minor k) passes the platform's own rules.
func (r *router) dkpStepOK(at gridPoint, d model.MajorMinor) bool {
	return r.supports(d, at.k) && r.floorMet(d, at.k)
}

func (r *router) kubeStepOK(at gridPoint, k model.MajorMinor) bool { return r.supports(at.d, k) }

// minors lists the DKP and the Kubernetes minors the route passes, each
// up to the answer's.
func (r *router) minors() (ds, ks []model.MajorMinor) {
	if r.from.d != r.to.d {
		known := slices.SortedFunc(maps.Keys(r.data), model.MajorMinor.Compare)
		ds = minorSteps(r.from.d, r.to.d, known)
	}
	if r.from.k != r.to.k {
		ks = minorSteps(r.from.k, r.to.k, nil)
	}
	return ds, ks
}

// walks lists the platform routes, DKP step first at each point.
func (r *router) walks() [][]gridPoint {
	ds, ks := r.minors()
	r.points = (len(ds) + 1) * (len(ks) + 1)
	var out [][]gridPoint
	var walk func(at gridPoint, i, j int, acc []gridPoint)
	walk = func(at gridPoint, i, j int, acc []gridPoint) {
		if len(out) >= maxRoutes {
			return
		}
		if i == len(ds) && j == len(ks) {
			out = append(out, slices.Clone(acc))
			return
		}
		if i < len(ds) && r.dkpStepOK(at, ds[i]) {
			next := gridPoint{d: ds[i], k: at.k, at: (i+1)*(len(ks)+1) + j}
			walk(next, i+1, j, append(acc, next))
		}
		if j < len(ks) && r.kubeStepOK(at, ks[j]) {
			next := gridPoint{d: at.d, k: ks[j], at: i*(len(ks)+1) + j + 1}
			walk(next, i, j+1, append(acc, next))
		}
	}
	walk(r.from, 0, 0, nil)
	return out
}

// versions are the platform versions a point runs: the answer's or the
// cluster's where the minor is theirs, else the minor's first patch.
func (r *router) versions(g gridPoint) (dkp, kube model.Version) {
	pick := func(m model.MajorMinor, answer, cluster model.Version) model.Version {
		switch m {
		case model.MinorOf(answer):
			return answer
		case model.MinorOf(cluster):
			return cluster
		}
		return m.Version()
	}
	return pick(g.d, r.dkp, r.cluster.Deckhouse), pick(g.k, r.kube, r.cluster.Kubernetes)
}

// versionText is how a step names the version of minor m: the version
// itself where it is the answer's or the cluster's, else the minor.
func (r *router) versionText(m model.MajorMinor, v model.Version) string {
	if model.SameVersion(v, m.Version()) && !model.SameVersion(v, r.dkp) && !model.SameVersion(v, r.kube) {
		return m.String()
	}
	return model.VersionString(v)
}

// admits reports whether release v of m admits the platform at g: its
// DKP and Kubernetes requirements, and no DKP step's disabledModules.
func (r *router) admits(m *model.Module, v model.Version, g gridPoint) bool {
	rel := m.Release(v)
	if rel == nil {
		return true // a version the catalog does not list: the solve decides
	}
	dkp, kube := r.versions(g)
	if c := rel.Requirements.Deckhouse; c != nil && !c.Allows(model.Core(dkp)) {
		return false
	}
	if c := rel.Requirements.Kubernetes; c != nil && !c.Allows(kube) {
		return false
	}
	return true
}

// autoRefuses reports whether DKP's step to minor d, on a cluster whose
// Kubernetes is Automatic, moves Kubernetes to a minor release v of m
// does not admit (autoK8sVersion).
func (r *router) autoRefuses(m *model.Module, v model.Version, d model.MajorMinor) bool {
	rel, mr := r.data[d], m.Release(v)
	if rel == nil || mr == nil || !r.cluster.KubernetesAutomatic || rel.Requirements.AutoK8sVersion == (model.MajorMinor{}) {
		return false
	}
	c := mr.Requirements.Kubernetes
	return c != nil && !c.Allows(rel.Requirements.AutoK8sVersion.Version())
}

// migratedBy reports whether DKP's step to minor d needs m served by a
// source rather than built in (migratedModules).
func (r *router) migratedBy(d model.MajorMinor, m *model.Module) bool {
	rel := r.data[d]
	return rel != nil && slices.Contains(rel.Requirements.MigratedModules, m.Name)
}

// disabledBy reports whether DKP's step to minor d needs m off.
func (r *router) disabledBy(d model.MajorMinor, m *model.Module) bool {
	rel := r.data[d]
	return rel != nil && slices.Contains(rel.Requirements.DisabledModules, m.Name)
}

// place puts the module changes on a walk: for each module, the fewest
// changes that pass every point (placeModule).
func (r *router) place(points []gridPoint) *route {
	rt := &route{points: points, changes: make([][]routeChange, len(points))}
	for i := range r.mods {
		changes, stuck, at := r.placeModule(&r.mods[i], points)
		if stuck != "" {
			rt.stuck, rt.stuckAt, rt.stuckModule = stuck, at, r.mods[i].m
			return rt
		}
		for s, ch := range changes {
			if ch != nil {
				rt.changes[s] = append(rt.changes[s], *ch)
				rt.cost++
			}
		}
	}
	return rt
}

// placeModule finds the fewest changes of rm that pass every point of a
// walk, one change at most before each step: the module stays where its
// release passes the point; else it moves to a release above its own, up
// to the answer's, that admits the point it is deployed at and the next,
// or, when the answer turns it off, is turned off. Between equally few
// changes it stays where it can, then takes the highest release. It
// returns the change before each step (nil for none), or why no changes
// pass and before which step.
func (r *router) placeModule(rm *routeModule, points []gridPoint) ([]*routeChange, string, int) {
	if rm.vers == nil {
		rm.vers = []model.Version{rm.from}
		for _, v := range slices.Backward(rm.cands) {
			rm.vers = append(rm.vers, v)
		}
		rm.admit = make([]int8, len(rm.vers)*r.points)
	}
	vers := rm.vers
	off, n := len(vers), len(points)
	admitsAt := func(a int, g gridPoint) bool {
		at := a*r.points + g.at
		if rm.admit[at] == 0 {
			rm.admit[at] = 2
			if r.admits(rm.m, vers[a], g) {
				rm.admit[at] = 1
			}
		}
		return rm.admit[at] == 1
	}
	prevOf := func(s int) gridPoint {
		if s == 0 {
			return r.from
		}
		return points[s-1]
	}
	passes := func(a, s int) bool {
		if a == off {
			return true
		}
		g := points[s]
		if g.d != prevOf(s).d && (r.disabledBy(g.d, rm.m) || r.autoRefuses(rm.m, vers[a], g.d) || (a == 0 && rm.builtIn && r.migratedBy(g.d, rm.m))) {
			return false
		}
		return admitsAt(a, g)
	}
	if rm.to != nil {
		stays := true // the common case: the module passes every point as it is
		for s := range n {
			stays = stays && passes(0, s)
		}
		if stays {
			return make([]*routeChange, n), "", 0
		}
	}
	moves := func(a, b, s int) bool {
		if a == off {
			return false
		}
		if b == off {
			return rm.to == nil
		}
		if rm.builtIn { // the move to a source: a release of the module's own
			return a == 0 && b > a && admitsAt(b, prevOf(s)) && passes(b, s)
		}
		return b > a && admitsAt(b, prevOf(s)) && passes(b, s)
	}
	const never = math.MaxInt / 2
	cost := make([][]int, n+1) // cost[s][a]: fewest changes from step s on, at state a
	cost[n] = make([]int, off+1)
	for s := n - 1; s >= 0; s-- {
		cost[s] = make([]int, off+1)
		for a := range cost[s] {
			best := never
			if passes(a, s) {
				best = cost[s+1][a]
			}
			for b := range cost[s] {
				if moves(a, b, s) {
					best = min(best, 1+cost[s+1][b])
				}
			}
			cost[s][a] = best
		}
	}
	if cost[0][0] >= never {
		return r.whereStuck(rm, vers, points, passes, moves)
	}
	out := make([]*routeChange, n)
	a := 0
	for s := range n {
		if passes(a, s) && cost[s+1][a] == cost[s][a] {
			continue
		}
		next := -1
		for b := off; b > a; b-- { // off first, then the highest release
			if moves(a, b, s) && 1+cost[s+1][b] == cost[s][a] {
				next = b
				break
			}
		}
		ch := &routeChange{rm: rm, from: vers[a]}
		if next != off {
			ch.to = vers[next]
		}
		out[s], a = ch, next
	}
	return out, "", 0
}

// whereStuck finds the first step of points that no state of rm reached
// so far passes, and says why.
func (r *router) whereStuck(rm *routeModule, vers []model.Version, points []gridPoint, passes func(a, s int) bool, moves func(a, b, s int) bool) ([]*routeChange, string, int) {
	reach, prev := []int{0}, r.from
	for s, g := range points {
		var next []int
		for _, a := range reach {
			for b := range len(vers) + 1 {
				if (b == a && passes(a, s)) || moves(a, b, s) {
					next = append(next, b)
				}
			}
		}
		if len(next) == 0 {
			off := g.d != prev.d && r.disabledBy(g.d, rm.m)
			return nil, r.stuckText(rm, vers[slices.Max(reach)], prev, g, off), s
		}
		slices.Sort(next)
		reach, prev = slices.Compact(next), g
	}
	return nil, "", 0 // unreachable: the costs said no changes pass
}

// stuckText says why module rm, at cur, cannot pass the step from prev to g.
func (r *router) stuckText(rm *routeModule, cur model.Version, prev, g gridPoint, off bool) string {
	if off {
		return fmt.Sprintf("DKP %s requires %s to be disabled before it moves to %s (its release requirement disabledModules), and the answer keeps it on", g.d, rm.m.Name, g.d)
	}
	if rm.builtIn && model.SameVersion(cur, rm.from) && r.migratedBy(g.d, rm.m) {
		return fmt.Sprintf("DKP %s no longer carries %s built in (its release requirement migratedModules), and the answer keeps it built in", g.d, rm.m.Name)
	}
	dkp, kube := r.versions(g)
	why := ""
	if g.d != prev.d && r.autoRefuses(rm.m, cur, g.d) {
		why = fmt.Sprintf(" (DKP %s moves a cluster on kubernetesVersion: Automatic to Kubernetes %s)", g.d, r.data[g.d].Requirements.AutoK8sVersion)
	} else if rel := rm.m.Release(cur); rel != nil {
		if c := rel.Requirements.Deckhouse; c != nil && !c.Allows(model.Core(dkp)) {
			why = fmt.Sprintf(" (it requires deckhouse %s)", c.Text)
		} else if c := rel.Requirements.Kubernetes; c != nil && !c.Allows(kube) {
			why = fmt.Sprintf(" (it requires kubernetes %s)", c.Text)
		}
	}
	return fmt.Sprintf("%s %s does not admit it%s, and no release of %s up to %s admits both it and DKP %s on Kubernetes %s, where it would be deployed",
		rm.m.Name, cur, why, rm.m.Name, rm.to, prev.d, prev.k)
}

// steps renders rt as the answer's route.
func (r *router) steps(rt *route) []model.RouteStep {
	out := make([]model.RouteStep, len(rt.points))
	prev := r.from
	for s, g := range rt.points {
		dkp, kube := r.versions(g)
		st := model.RouteStep{Deckhouse: r.versionText(g.d, dkp), Kubernetes: r.versionText(g.k, kube), Requirements: r.checked(prev, g)}
		for _, ch := range rt.changes[s] {
			ps := model.PlanStep{Module: ch.rm.m.Name, Action: model.ActionUpdate, FromVersion: model.VersionString(ch.from)}
			switch a := ch.rm.answer; {
			case ch.to == nil:
				ps.Action = model.ActionDisable
			case ch.rm.builtIn && a != nil: // it leaves the platform for a source (R29)
				ps.Action, ps.FromSource, ps.ToSource = a.Action, a.FromSource, a.ToSource
			}
			if ch.to != nil {
				ps.ToVersion = model.VersionString(ch.to)
			}
			st.Modules = append(st.Modules, ps)
		}
		out[s] = st
		prev = g
	}
	return out
}

// checked says what the step from prev to g checked.
func (r *router) checked(prev, g gridPoint) []string {
	var out []string
	if rel := r.data[g.d]; rel != nil {
		out = append(out, fmt.Sprintf("DKP %s runs Kubernetes %s (it supports %s)", g.d, g.k, rel.SupportedText()))
	}
	if g.d == prev.d {
		return out
	}
	rel := r.data[g.d]
	if rel == nil {
		return out
	}
	req := rel.Requirements
	if req.K8s != (model.MajorMinor{}) {
		out = append(out, fmt.Sprintf("k8s: %s (the cluster runs Kubernetes %s)", req.K8s, prev.k))
	}
	if len(req.DisabledModules) > 0 {
		out = append(out, "disabledModules: "+strings.Join(req.DisabledModules, ", "))
	}
	if len(req.MigratedModules) > 0 {
		out = append(out, "migratedModules: "+strings.Join(req.MigratedModules, ", "))
	}
	if req.AutoK8sVersion != (model.MajorMinor{}) && r.cluster.KubernetesAutomatic {
		out = append(out, "autoK8sVersion: "+req.AutoK8sVersion.String())
	}
	for _, key := range slices.Sorted(maps.Keys(req.Other)) {
		g := model.GateFor(key)
		state := "assumed"
		if v, ok := r.cluster.Facts[g.Fact]; ok {
			state = "the cluster's " + g.Fact + " is " + v
		}
		out = append(out, fmt.Sprintf("%s: %s (%s)", key, req.Other[key], state))
	}
	return out
}

// noWalk is the fact of a target that no walk of supported pairs reaches:
// where the DKP-first walk stops, and why neither step passes there.
func (r *router) noWalk() *model.Fact {
	ds, ks := r.minors()
	at, i, j := r.from, 0, 0
	for {
		switch {
		case i < len(ds) && r.dkpStepOK(at, ds[i]):
			at = gridPoint{d: ds[i], k: at.k}
			i++
			continue
		case j < len(ks) && r.kubeStepOK(at, ks[j]):
			at = gridPoint{d: at.d, k: ks[j]}
			j++
			continue
		}
		break
	}
	var why []string
	if i < len(ds) {
		d := ds[i]
		if !r.supports(d, at.k) {
			why = append(why, fmt.Sprintf("DKP %s does not run Kubernetes %s (it supports %s)", d, at.k, r.data[d].SupportedText()))
		} else {
			why = append(why, fmt.Sprintf("DKP %s requires Kubernetes %s or newer before it moves (its release requirement k8s)", d, r.data[d].Requirements.K8s))
		}
	}
	if j < len(ks) {
		why = append(why, fmt.Sprintf("DKP %s does not run Kubernetes %s (it supports %s)", at.d, ks[j], r.data[at.d].SupportedText()))
	}
	msg := fmt.Sprintf("no route one minor at a time from DKP %s on Kubernetes %s to DKP %s on Kubernetes %s passes only pairs DKP runs: at DKP %s on Kubernetes %s, %s",
		r.from.d, r.from.k, r.to.d, r.to.k, at.d, at.k, strings.Join(why, ", and "))
	return &model.Fact{Kind: model.FactPlatformRoute, Version: at.String(), Subject: model.PlatformDeckhouse, Message: msg}
}

// stepOf says which step of rt step s is, where the route has several:
// " (step 2 of 3 to DKP 1.76 on Kubernetes 1.31)"; "" for a route of one.
func (r *router) stepOf(rt *route, s int) string {
	if len(rt.points) < 2 {
		return ""
	}
	return fmt.Sprintf(" (step %d of %d to DKP %s on Kubernetes %s)", s+1, len(rt.points), r.to.d, r.to.k)
}

// stuckFact is the fact of a route whose changes no release makes.
func (r *router) stuckFact(rt *route) *model.Fact {
	g := rt.points[rt.stuckAt]
	return &model.Fact{Kind: model.FactPlatformRoute, Version: g.String(), Subject: model.PlatformDeckhouse,
		Message: fmt.Sprintf("before the step to DKP %s on Kubernetes %s%s: %s", g.d, g.k, r.stepOf(rt, rt.stuckAt), rt.stuck)}
}

// refusal is the unsatisfiable answer of a target no route reaches;
// stuck is the module that cannot pass, if that is why.
func (r *router) refusal(f *model.Fact, stuck *model.Module) *model.Result {
	if stuck != nil {
		f.Module = stuck.Name
	}
	return oneFactRefusal(f)
}

// suggest adds to a route's refusal the changes that let a route pass,
// each verified by solving with it, its route included: turning off the
// module that cannot pass, or, where no walk of pairs DKP runs reaches
// the target, the nearest Kubernetes minor above the target's that its
// DKP runs and that works.
func (r *router) suggest(ctx context.Context, solver resolver, expl *model.Explanation) error {
	var changes []change
	if f := expl.Facts[0]; f.Module != "" {
		changes = append(changes, disableChange(f.Module))
	} else if rel := r.data[r.to.d]; rel != nil {
		for _, k := range rel.Supported() {
			if k.Compare(r.to.k) > 0 && len(changes) < 2 {
				changes = append(changes, kubernetesChange(k.Version()))
			}
		}
	}
	sugs, err := verifiedChanges(ctx, solver, r.cluster, r.req, changes, 1) // the nearest that works is the least change
	expl.Suggestions = sugs
	return err
}

// platformRefusal answers a request whose platform DKP does not run, or
// whose Kubernetes is below the floor of a DKP release on the way (R31),
// with that one fact and the changes that fix it, each verified by
// solving; nil when the platform is one DKP runs, or the catalog carries
// no release data.
func (c *Compiled) platformRefusal(ctx context.Context, solver resolver, cfg settings, cluster *model.ClusterState, req *model.Request) (*model.Result, error) {
	data := c.cat.PlatformReleases()
	dkp, kube := orElse(req.Platform.Deckhouse, cluster.Deckhouse), orElse(req.Platform.Kubernetes, cluster.Kubernetes)
	if data == nil || dkp == nil || kube == nil {
		return nil, nil
	}
	f, changes := platformFact(data, cluster, dkp, kube)
	if f == nil {
		f, changes = gateFact(c.cat, cluster, dkp) // R32
	}
	if f == nil {
		return nil, nil
	}
	res := oneFactRefusal(f)
	if cfg.suggest {
		sugs, err := verifiedChanges(ctx, solver, cluster, req, changes, len(changes))
		if err != nil {
			return nil, err
		}
		res.Explanation.Suggestions = sugs
	}
	return res, nil
}

// verifiedChanges is the suggestions of changes, in order, that make req
// resolve on cluster, each verified by solving with it on solver (its
// route included, R33), at most most of them; a change that is itself bad
// input is no suggestion.
func verifiedChanges(ctx context.Context, solver resolver, cluster *model.ClusterState, req *model.Request, changes []change, most int) ([]model.Suggestion, error) {
	var out []model.Suggestion
	for _, ch := range changes {
		if len(out) >= most {
			break
		}
		c2, r2 := copyState(cluster), req.Clone()
		ch.apply(c2, r2)
		res, err := solver.Solve(ctx, c2, r2, WithoutHeldBack(), WithoutSuggestions(), statusOnly(), feasibleOnly())
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		if res.Status == model.StatusResolved {
			out = append(out, ch.sug)
		}
	}
	return out, nil
}
