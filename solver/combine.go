package solver

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// The bounds of the search for combined suggestions (D171): sets of up to
// maxSetSize changes; at most maxRelaxations questions on the explain
// encoding, each a few assumption solves, widening its cone at most
// maxWidenings times; at most maxSetTrials solves of a changed request,
// each a fresh encoding; at most maxCombinations sets of changes tried
// for one set of facts.
//
// A question's solves cost in proportion to the encoding they run on: a
// question on an encoding of more than relaxationVars variables counts
// as one per relaxationVars (D223). A platform question's explanation
// names every blocker on the whole closure, and on M a set search there
// asked 64 questions of 100,000 variables, 3 s, to find no set.
const (
	maxSetSize      = 3
	maxRelaxations  = 64
	maxSetTrials    = 12
	maxCombinations = 4
	maxWidenings    = 3
	relaxationVars  = 4096
)

// setSearch finds the smallest sets of changes that make a request
// satisfiable when no single change does (R16, D170). It searches sets
// of facts first, on the explain encoding the core came from, as libsolv
// and the minimal-correction-set searches do: a set of facts that still
// has a core without them grows by a fact of that core, and a set
// without which the facts have a model is a candidate. Only then is a
// candidate's set of changes verified by solving the changed request, a
// fresh encoding each (D21). The sets of one size are all asked before
// the next size, and the search stops at the first size that yields any.
type setSearch struct {
	s *suggesting
	x *explainer
	// tried records each set of changes solved, by key: whether it
	// resolved; the single changes suggest tried first are in it.
	tried        map[string]bool
	trials       int
	relaxations  int
	widenings    int
	seen         map[string]bool // fact sets asked, by factsKey
	found        []model.Suggestion
	foundTargets map[string]bool
}

func newSetSearch(s *suggesting) *setSearch {
	return &setSearch{s: s, x: s.conflictExplainer(), tried: map[string]bool{}, seen: map[string]bool{}, foundTargets: map[string]bool{}}
}

// downgrades lists the groups of downgrades of the facts of core without
// which the facts have a model: a downgrade lifts only its own fact, so
// one whose fact is not alone in the way is not tried (D173).
func (ss *setSearch) downgrades(core []*fact) ([][]change, error) {
	var out [][]change
	for _, f := range chainOrder(core) {
		_, down := splitDowngrades(ss.s.changesFor(f))
		if len(down) == 0 {
			continue
		}
		if _, open, err := ss.relaxed([]*fact{f}); err != nil || !open {
			if err != nil {
				return nil, err
			}
			continue
		}
		out = append(out, down...)
	}
	return out, nil
}

// run searches, for a core no single change fixes, from the facts of
// core that a change may lift.
func (ss *setSearch) run(core []*fact) ([]model.Suggestion, error) {
	var frontier [][]*fact
	for _, f := range chainOrder(core) {
		if ss.changeable(f) {
			frontier = append(frontier, []*fact{f})
		}
	}
	for size := 2; size <= maxSetSize && len(frontier) > 0; size++ {
		next, err := ss.extend(frontier, size < maxSetSize)
		if err != nil || len(ss.found) > 0 {
			return ss.found, err
		}
		frontier = next
	}
	return nil, nil
}

// changeable reports whether a set may lift f.
func (ss *setSearch) changeable(f *fact) bool { return len(ss.s.setGroups([]*fact{f})) > 0 }

// extend adds to each fact set of frontier one changeable fact of the
// core that remains without it, and verifies the changes of each larger
// set without which the facts have a model. It returns the larger sets
// that still have a core, when grow asks for them.
func (ss *setSearch) extend(frontier [][]*fact, grow bool) ([][]*fact, error) {
	var next [][]*fact
	for _, set := range frontier {
		core, _, err := ss.relaxed(set)
		if err != nil {
			return nil, err
		}
		for _, g := range chainOrder(core) {
			if slices.Contains(set, g) || !ss.changeable(g) {
				continue
			}
			bigger := append(slices.Clone(set), g)
			key := factsKey(bigger)
			if ss.seen[key] {
				continue
			}
			ss.seen[key] = true
			left, open, err := ss.relaxed(bigger)
			switch {
			case err != nil:
				return nil, err
			case open:
				if err := ss.verify(bigger); err != nil {
					return nil, err
				}
			case left != nil && grow:
				next = append(next, bigger)
			}
		}
	}
	return next, nil
}

// factsKey names a set of facts whatever its order.
func factsKey(facts []*fact) string {
	ids := make([]string, len(facts))
	for i, f := range facts {
		ids[i] = strconv.Itoa(f.id)
	}
	slices.Sort(ids)
	return strings.Join(ids, ",")
}

// relaxed returns a core of the explain encoding's input facts without
// set, and without the facts of the platform components a platform fact
// of set is about, which its upgrade changes too; or, open, that they
// have a model; or neither once the search is out of questions. On a
// cone (cone.go) it widens the cone while they have a model there, by
// the modules the facts speak of, as whyNot does: a core of a cone is a
// core of the whole closure. It widens at most maxWidenings times in a
// search, since a set that does have a model would widen the cone to the
// whole closure to show it; a model of the cone only makes the set a
// candidate, as a model of the closure would (the changes are not the
// mere absence of the facts), and verify settles it.
func (ss *setSearch) relaxed(set []*fact) (core []*fact, open bool, err error) {
	if ss.relaxations >= maxRelaxations {
		return nil, false, nil
	}
	for ss.relaxations < maxRelaxations {
		ss.relaxations += max(1, int(ss.x.e.g.MaxVar())/relaxationVars)
		facts := slices.DeleteFunc(slices.Clone(ss.x.inputFacts()), func(f *fact) bool {
			return slices.ContainsFunc(set, func(g *fact) bool { return f == g || samePlatform(ss.s.p, f, g) })
		})
		core, err = ss.x.minimalCore(nil, facts)
		if err != nil || core != nil || ss.widenings >= maxWidenings || !ss.x.growDown() {
			return core, err == nil && core == nil, err
		}
		ss.widenings++
	}
	return nil, false, nil
}

// samePlatform reports whether f and g are both requirements on one
// platform component.
func samePlatform(p *problem, f, g *fact) bool {
	pf, pg := kindOf(f).platform, kindOf(g).platform
	return pf != nil && pg != nil && pf(p, f).name == pg(p, g).name
}

// verify tries the sets of changes a candidate set of facts offers, one
// group of each fact's, and keeps the first that resolves and has no
// smaller subset that does.
func (ss *setSearch) verify(facts []*fact) error {
	for _, set := range ss.changeSets(facts) {
		if len(set) < 2 || ss.foundTargets[set.targets()] {
			continue
		}
		if _, seen := ss.tried[set.key()]; seen || ss.trials >= maxSetTrials {
			continue
		}
		res, ok, err := ss.try(set)
		if err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		minimal, err := ss.minimal(set)
		if err != nil || minimal {
			if minimal {
				if set, res, err = ss.lowered(facts, set, res); err != nil {
					return err
				}
				ss.found = append(ss.found, combinedSuggestion(set, res))
				ss.foundTargets[set.targets()] = true
			}
			return err
		}
	}
	return nil
}

// try solves the request with set's changes made, once per set.
func (ss *setSearch) try(set changeSet) (*model.Result, bool, error) {
	ss.trials++
	res, err := ss.s.trySet(set)
	if errors.Is(err, model.ErrInvalidInput) {
		ss.tried[set.key()] = false
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	ok := res.Status == model.StatusResolved
	ss.tried[set.key()] = ok
	return res, ok, nil
}

// changeSets lists, for a set of facts, the sets of changes that lift
// them: one group of each fact, in the order of the facts' groups, at
// most maxCombinations. A group's change is its first alternative, or,
// for a platform upgrade, the lowest that every requirement of the set
// on that component allows.
func (ss *setSearch) changeSets(facts []*fact) []changeSet {
	out := []changeSet{{}}
	for _, f := range facts {
		var grown []changeSet
		for _, set := range out {
			for _, alts := range ss.s.setGroups([]*fact{f}) {
				c := ss.lowestFor(facts, alts)
				if !set.has(c.target()) {
					grown = append(grown, append(slices.Clone(set), c))
				} else {
					grown = append(grown, set)
				}
			}
		}
		out = grown[:min(len(grown), maxCombinations)]
	}
	return out
}

// lowestFor is the first of alts, or for a platform upgrade the lowest
// that every requirement of facts on that component allows.
func (ss *setSearch) lowestFor(facts []*fact, alts []change) change {
	k := alts[0].sug.Kind
	if !isUpgrade(k) && k != model.SuggestUpgradePlatform {
		return alts[0]
	}
	var bounds []*model.Constraint
	for _, f := range facts {
		if f.cons == nil || kindOf(f).platform == nil {
			continue
		}
		for _, g := range ss.s.setGroups([]*fact{f}) {
			if len(g) > 0 && g[0].target() == alts[0].target() {
				bounds = append(bounds, f.cons)
			}
		}
	}
	for _, c := range alts {
		v := model.MustParseVersion(c.sug.Version)
		if !slices.ContainsFunc(bounds, func(b *model.Constraint) bool { return !b.Allows(v) }) {
			return c
		}
	}
	return alts[len(alts)-1]
}

// maxLowerings bounds the solves lowered spends on one set.
const maxLowerings = 4

// lowered returns set with each platform upgrade lowered to the lowest
// alternative of its group that still resolves with the set's other
// changes, and the answer it gives: the set was found from the facts it
// lifts, whose bound may be higher than what the set needs (a newer
// release's requirement, where the other changes make an older one do).
// Each lower version is verified by solving, the lowest first.
func (ss *setSearch) lowered(facts []*fact, set changeSet, res *model.Result) (changeSet, *model.Result, error) {
	solves := 0
	for i, c := range set {
		if !isUpgrade(c.sug.Kind) {
			continue
		}
		chosen := model.MustParseVersion(c.sug.Version)
		for _, alt := range ss.lowerAlternatives(facts, c, chosen) {
			if solves >= maxLowerings {
				return set, res, nil
			}
			solves++
			trial := slices.Clone(set)
			trial[i] = alt
			r, ok, err := ss.try(trial)
			if err != nil {
				return nil, nil, err
			}
			if ok {
				set, res = trial, r
				break
			}
		}
	}
	return set, res, nil
}

// lowerAlternatives lists, lowest first, the alternatives below chosen
// that the groups of facts, and of the other facts on the same platform
// component (which the set lifts with them, relaxed), offer for c's
// target.
func (ss *setSearch) lowerAlternatives(facts []*fact, c change, chosen model.Version) []change {
	var out []change
	seen := map[string]bool{}
	related := slices.Clone(facts)
	for _, g := range ss.x.inputFacts() {
		if !slices.Contains(related, g) && slices.ContainsFunc(facts, func(f *fact) bool { return samePlatform(ss.s.p, f, g) }) {
			related = append(related, g)
		}
	}
	for _, f := range related {
		for _, alts := range ss.s.setGroups([]*fact{f}) {
			for _, a := range alts {
				if a.target() != c.target() || seen[a.sug.Version] {
					continue
				}
				if v, err := model.ParseVersion(a.sug.Version); err == nil && v.Compare(chosen) < 0 {
					seen[a.sug.Version] = true
					out = append(out, a)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b change) int {
		return model.MustParseVersion(a.sug.Version).Compare(model.MustParseVersion(b.sug.Version))
	})
	return out
}

// minimal reports whether no subset of set one change smaller resolves,
// solving those not tried yet.
func (ss *setSearch) minimal(set changeSet) (bool, error) {
	for i := range set {
		sub := set.without(i)
		ok, seen := ss.tried[sub.key()]
		if !seen {
			var err error
			if _, ok, err = ss.try(sub); err != nil {
				return false, err
			}
		}
		if ok {
			return false, nil
		}
	}
	return true, nil
}

// setGroups lists the groups of alternative changes a set may draw from
// a core: those a single suggestion draws from, but downgrades only where
// the question is one, since a downgrade group costs a verification per
// release and a set answers what no single change could (D173).
func (s *suggesting) setGroups(core []*fact) [][]change {
	groups := slices.DeleteFunc(s.changeGroups(core), func(alts []change) bool { return len(alts) == 0 })
	if s.p.in.lowersPlatform() {
		return groups
	}
	rest, _ := splitDowngrades(groups)
	return rest
}

// trySet solves the request with every change of set applied, status
// only, and again to its optimum when it resolves and an update reads
// the version its module reaches.
func (s *suggesting) trySet(set changeSet) (*model.Result, error) {
	cluster, req := s.p.in.cluster.Clone(), s.p.in.req.Clone()
	for _, c := range set {
		c.apply(cluster, req)
	}
	if err := validate(s.p.in.cat, cluster, req); err != nil {
		return nil, err
	}
	// Through Compiled.Solve, so that a set is held to its route (R33)
	// as every other verified change is.
	opts := []Option{WithWorkers(1), WithMemoryLimit(s.budget.remaining()), WithoutHeldBack(), WithoutSuggestions(), statusOnly(), stuckOn(s.stuckNames())}
	res, err := s.solver.Solve(s.ctx, cluster, req, append(opts, feasibleOnly())...)
	if err != nil || res.Status != model.StatusResolved || !set.readsOptimum() {
		return res, err
	}
	return s.solver.Solve(s.ctx, cluster, req, opts...)
}

// combinedSuggestion is the suggestion of a verified set: its parts,
// each finished with what the verifying answer shows, in the order the
// search added them, and a message that names them all.
func combinedSuggestion(set changeSet, res *model.Result) model.Suggestion {
	parts := make([]model.Suggestion, len(set))
	msgs := make([]string, len(set))
	for i, c := range set {
		parts[i] = finishSuggestion(c.sug, res)
		msgs[i] = parts[i].Message
	}
	return model.Suggestion{Kind: model.SuggestCombined, Message: strings.Join(msgs, " and "), Changes: parts}
}
