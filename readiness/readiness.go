package readiness

import (
	"hash/maphash"
	"maps"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// Answer is one scenario's answer: a result, or the error that makes the
// scenario bad input.
type Answer struct {
	Result *model.Result
	Err    error
}

// Readiness reads a what-if batch's answers, in request order, as a
// person reads an upgrade matrix: it puts each answer in the group of
// the first earlier answer equal to it apart from the texts of the
// scenarios' own platform versions, and classes each blocker of a
// platform-upgrade scenario by R30 (error when it blocks the next minor
// the batch asks about, warning when it blocks only a later one, with the
// first scenario it blocks), accepted or not (D190–D193).
//
// A blocker's class needs every scenario at the next minor answered, so
// Add holds answers back until the last of those is in, and then hands
// out each as it comes.
type Readiness struct {
	reqs    []*model.Request
	own     []ownVersions // own[i]: scenario i's platform version texts
	accept  map[string]bool
	next    []bool // next[i]: scenario i asks about the next minors only
	lastNxt int    // the index of the last such scenario; -1 for none

	cells      []Cell
	released   int
	seed       maphash.Seed
	groups     map[uint64][]int // an answer's key → the first index of each group with that key
	first      map[string]int   // module → the first scenario it blocks
	blocksNext map[string]bool  // modules that block a next-minor scenario
}

// Cell is one scenario's answer as Readiness reads it.
type Cell struct {
	Index  int
	Answer Answer
	// Group is the index of the first scenario whose answer equals this
	// one apart from platform version texts; Index for the first.
	Group int
	// Blockers are set for a blocked platform-upgrade scenario.
	Blockers []model.Blocker
}

// New prepares to read the answers to reqs, a batch against cluster
// that accepts the risks accept names: modules or fact kinds
// ("kubernetes-requirement").
func New(cluster *model.ClusterState, reqs []*model.Request, accept []string) *Readiness {
	r := &Readiness{
		reqs: reqs, accept: map[string]bool{}, lastNxt: -1, seed: maphash.MakeSeed(),
		groups: map[uint64][]int{}, first: map[string]int{}, blocksNext: map[string]bool{},
	}
	for _, a := range accept {
		r.accept[a] = true
	}
	for _, req := range reqs {
		r.own = append(r.own, ownVersionsOf(platformVersions(req)))
	}
	r.next = nextMinorScenarios(cluster, reqs)
	for i, n := range r.next {
		if n {
			r.lastNxt = i
		}
	}
	return r
}

// Add reads the answer to scenario i, which must follow scenario i-1,
// and returns the cells that are ready to hand out, in request order.
func (r *Readiness) Add(i int, a Answer) []Cell {
	if i != len(r.cells) {
		panic("internal error: readiness answers out of order")
	}
	c := Cell{Index: i, Answer: a, Group: r.group(i, a)}
	for _, m := range r.blockerModules(i, a) {
		if _, ok := r.first[m]; !ok {
			r.first[m] = i
		}
		if r.next[i] {
			r.blocksNext[m] = true
		}
	}
	r.cells = append(r.cells, c)
	if i < r.lastNxt {
		return nil
	}
	out := r.cells[r.released:]
	for k := range out {
		out[k].Blockers = r.classify(out[k])
	}
	r.released = len(r.cells)
	return out
}

// group is the group of the answer a to scenario i: the first earlier
// scenario whose answer is the same apart from the two scenarios' own
// platform version texts (same.go), or i itself.
func (r *Readiness) group(i int, a Answer) int {
	x := view{own: r.own[i], answer: a}
	key := x.key(r.seed)
	for _, g := range r.groups[key] {
		if x.same(view{own: r.own[g], answer: r.cells[g].Answer}) {
			return g
		}
	}
	r.groups[key] = append(r.groups[key], i)
	return i
}

// Ready says, once every answer is in, whether the first scenario is
// ready with every unaccepted risk counted: it resolves, or each of its
// blockers is accepted, and every other blocker of the batch is
// accepted too (D192), as is every gate an answer assumes (R32; --accept
// names it by its release.yaml key).
func (r *Readiness) Ready() bool {
	if len(r.cells) == 0 || r.released < len(r.cells) {
		return false
	}
	head := r.cells[0]
	switch {
	case head.Answer.Err != nil:
		return false
	case head.Answer.Result.Status == model.StatusUnsatisfiable && len(head.Blockers) == 0:
		return false
	}
	for _, c := range r.cells {
		for _, b := range c.Blockers {
			if !b.Accepted {
				return false
			}
		}
		if res := c.Answer.Result; res != nil {
			for _, a := range res.Assumptions { // R32: a gate no input decides is a risk until accepted
				if !r.accept[a.Gate] {
					return false
				}
			}
		}
	}
	return true
}

// blockerModules names the modules that block scenario i: those of a
// blocked answer to a request that asks about platform versions.
func (r *Readiness) blockerModules(i int, a Answer) []string {
	if a.Result == nil || a.Result.Status != model.StatusUnsatisfiable || a.Result.Explanation == nil || !asksPlatform(r.reqs[i]) {
		return nil
	}
	return a.Result.Explanation.Blockers()
}

func (r *Readiness) classify(c Cell) []model.Blocker {
	var out []model.Blocker
	for _, m := range r.blockerModules(c.Index, c.Answer) {
		b := model.Blocker{Module: m, Severity: model.SeverityWarning, First: r.first[m], Accepted: r.accepts(m, c.Answer.Result.Explanation)}
		if r.blocksNext[m] {
			b.Severity = model.SeverityError
		}
		out = append(out, b)
	}
	return out
}

// accepts says whether the batch accepts module's risk: it names the
// module, or the kind of every fact that makes it a blocker.
func (r *Readiness) accepts(module string, e *model.Explanation) bool {
	if r.accept[module] {
		return true
	}
	kinds := e.BlockingKinds(module)
	return len(kinds) > 0 && !slices.ContainsFunc(kinds, func(k model.FactKind) bool { return !r.accept[k.String()] })
}

// asksPlatform says whether req asks about a platform version.
func asksPlatform(req *model.Request) bool {
	return req != nil && (req.Platform.Deckhouse != nil || req.Platform.Kubernetes != nil || len(req.Platform.Components) > 0)
}

// platformVersions lists the platform versions req asks about, by
// component name ("deckhouse", "kubernetes", then R22's others).
func platformVersions(req *model.Request) map[string]model.Version {
	out := map[string]model.Version{}
	if req == nil {
		return out
	}
	maps.Copy(out, req.Platform.Components)
	if req.Platform.Deckhouse != nil {
		out["deckhouse"] = req.Platform.Deckhouse
	}
	if req.Platform.Kubernetes != nil {
		out["kubernetes"] = req.Platform.Kubernetes
	}
	return out
}

// nextMinorScenarios marks the scenarios that ask about the next minors
// only: for each component, the next minor is the lowest minor the batch
// asks about above the one the cluster runs, or the one it runs when the
// batch asks about none above it (D191).
func nextMinorScenarios(cluster *model.ClusterState, reqs []*model.Request) []bool {
	running := map[string]model.Version{"deckhouse": cluster.Deckhouse, "kubernetes": cluster.Kubernetes}
	maps.Copy(running, cluster.Platform)
	next := map[string]model.MajorMinor{}
	has := map[string]bool{}
	for _, req := range reqs {
		for c, v := range platformVersions(req) {
			mm := model.MinorOf(v)
			if now := running[c]; now != nil && mm.Compare(model.MinorOf(now)) <= 0 {
				continue
			}
			if !has[c] || mm.Compare(next[c]) < 0 {
				next[c], has[c] = mm, true
			}
		}
	}
	out := make([]bool, len(reqs))
	for i, req := range reqs {
		out[i] = asksPlatform(req)
		for c, v := range platformVersions(req) {
			limit, ok := next[c]
			if !ok && running[c] != nil {
				limit, ok = model.MinorOf(running[c]), true
			}
			if ok && model.MinorOf(v).Compare(limit) > 0 {
				out[i] = false
			}
		}
	}
	return out
}
