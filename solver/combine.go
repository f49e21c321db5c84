package solver

import (
	"errors"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// The bounds of the search for combined suggestions (D171): sets of up to
// maxSetSize changes, and at most maxSetTrials solves in all, each a set
// verified or the core of a set that failed.
const (
	maxSetSize   = 3
	maxSetTrials = 24
)

// changeSet is a set of changes made together, in the order the search
// added them.
type changeSet []change

// key names the set whatever its order.
func (cs changeSet) key() string {
	keys := make([]string, len(cs))
	for i, c := range cs {
		keys[i] = c.key()
	}
	slices.Sort(keys)
	return strings.Join(keys, "\x00")
}

// key names one change: its kind, module, version and wording.
func (c change) key() string {
	return strings.Join([]string{c.sug.Kind.String(), c.sug.Module, c.sug.Version, c.sug.Message}, "\x01")
}

// target is what a change sets: two changes of one target in a set would
// have the later undo the earlier.
func (c change) target() string { return c.sug.Kind.String() + "\x01" + c.sug.Module }

// targets names what the set sets, whatever its order and alternatives.
func (cs changeSet) targets() string {
	ts := make([]string, len(cs))
	for i, c := range cs {
		ts[i] = c.target()
	}
	slices.Sort(ts)
	return strings.Join(ts, "\x00")
}

func (cs changeSet) has(target string) bool {
	return slices.ContainsFunc(cs, func(c change) bool { return c.target() == target })
}

// with is cs and c, a new set.
func (cs changeSet) with(c change) changeSet { return append(slices.Clone(cs), c) }

// without is cs less its i-th change.
func (cs changeSet) without(i int) changeSet { return slices.Delete(slices.Clone(cs), i, i+1) }

// readsOptimum reports whether a part reads the answer's versions, as an
// update reads the version its module reaches.
func (cs changeSet) readsOptimum() bool {
	return slices.ContainsFunc(cs, func(c change) bool { return c.sug.Kind == model.SuggestUpdateModule })
}

// setSearch finds the smallest sets of changes that make a request
// satisfiable when no single change does (R16, D170). It grows sets as
// libsolv grows its solutions: the core of a set that fails names the
// facts still in the way, and each change those facts offer extends the
// set by one. The sets of one size are all tried before the next size,
// and the search stops at the first size that yields any.
type setSearch struct {
	s *session
	// outcome records each set tried, by key: whether it resolved.
	outcome map[string]bool
	trials  int
	found   []model.Suggestion
	// targets records what the sets found set: a set that sets the same
	// as one found, with other alternatives (a higher upgrade, say), is
	// not offered, as of alternatives only the smallest that works is.
	targets map[string]bool
}

// combined suggests the smallest verified sets of changes for a core no
// single change fixes.
func (s *session) combined(core []*fact) ([]model.Suggestion, error) {
	return newSetSearch(s).run(core)
}

func newSetSearch(s *session) *setSearch {
	return &setSearch{s: s, outcome: map[string]bool{}, targets: map[string]bool{}}
}

// run searches from the single changes core offers, all of which failed.
func (ss *setSearch) run(core []*fact) ([]model.Suggestion, error) {
	var frontier []changeSet
	for _, alts := range ss.s.setGroups(core) {
		for i, c := range alts {
			set := changeSet{c}
			if _, ok := ss.outcome[set.key()]; !ok {
				ss.outcome[set.key()] = false // suggest tried it: it failed, or contradicts the request
				if i == 0 {
					frontier = append(frontier, set)
				}
			}
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

// extend adds one change to each failing set of frontier, drawn from the
// core of the set's own changed problem, and verifies each larger set.
// It returns the larger sets that fail, when grow asks for them.
func (ss *setSearch) extend(frontier []changeSet, grow bool) ([]changeSet, error) {
	var next []changeSet
	for _, set := range frontier {
		groups, err := ss.groupsAfter(set)
		if err != nil {
			return nil, err
		}
		for _, alts := range groups {
			failed, err := ss.firstSet(set, alts)
			if err != nil {
				return nil, err
			}
			if grow {
				next = append(next, failed...)
			}
		}
	}
	return next, nil
}

// groupsAfter lists the groups of alternative changes that the core of
// set's changed problem offers, none for a set whose changed request is
// not valid input or once the search is out of trials.
func (ss *setSearch) groupsAfter(set changeSet) ([][]change, error) {
	if !ss.spend() {
		return nil, nil
	}
	res, child, err := ss.s.trySet(set, true)
	if errors.Is(err, model.ErrInvalidInput) || (err == nil && res.Status != model.StatusUnsatisfiable) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return child.setGroups(child.core), nil
}

// setGroups lists the groups of alternative changes a set may draw from
// a core: those a single suggestion draws from, but downgrades only where
// the question is one, since each downgrade group costs a verification
// per release and a set answers what no single change could (D173).
func (s *session) setGroups(core []*fact) [][]change {
	groups := s.changeGroups(core)
	if s.p.lowersPlatform() {
		return groups
	}
	rest, _ := splitDowngrades(groups)
	return rest
}

// firstSet tries set with each of alts in order and keeps the first that
// resolves and has no smaller subset that does: of alternatives for one
// fact, the smallest that works. It returns the set with the first of
// alts when none works, the one a larger set grows from: the smallest
// change that answers the fact, whose core then names what else is in
// the way (a higher alternative that a later fact needs is offered by
// that fact's own group).
func (ss *setSearch) firstSet(set changeSet, alts []change) ([]changeSet, error) {
	var failed []changeSet
	for _, c := range alts {
		if set.has(c.target()) {
			continue
		}
		bigger := set.with(c)
		if _, seen := ss.outcome[bigger.key()]; seen || ss.targets[bigger.targets()] || !ss.spend() {
			continue
		}
		res, _, err := ss.s.trySet(bigger, false)
		if errors.Is(err, model.ErrInvalidInput) {
			ss.outcome[bigger.key()] = false
			continue
		}
		if err != nil {
			return nil, err
		}
		ok := res.Status == model.StatusResolved
		ss.outcome[bigger.key()] = ok
		if !ok {
			if failed == nil {
				failed = []changeSet{bigger}
			}
			continue
		}
		minimal, err := ss.minimal(bigger)
		if err != nil || minimal {
			if minimal {
				ss.found = append(ss.found, combinedSuggestion(bigger, res))
				ss.targets[bigger.targets()] = true
			}
			return failed, err
		}
	}
	return failed, nil
}

// minimal reports whether no subset of set one change smaller resolves,
// verifying those the search has not tried.
func (ss *setSearch) minimal(set changeSet) (bool, error) {
	for i := range set {
		sub := set.without(i)
		ok, seen := ss.outcome[sub.key()]
		if !seen {
			res, _, err := ss.s.trySet(sub, false)
			ss.trials++
			if err != nil && !errors.Is(err, model.ErrInvalidInput) {
				return false, err
			}
			ok = err == nil && res.Status == model.StatusResolved
			ss.outcome[sub.key()] = ok
		}
		if ok {
			return false, nil
		}
	}
	return true, nil
}

// spend takes one trial, or reports that none is left.
func (ss *setSearch) spend() bool {
	if ss.trials >= maxSetTrials {
		return false
	}
	ss.trials++
	return true
}

// trySet solves the request with every change of set applied, status
// only: with explain, a set that fails has the minimal core of its
// changed problem on the session trySet returns, without the platform
// blockers or the sentences an answer would add; a set that resolves
// and has an update is solved again to its optimum, whose versions the
// update names.
func (s *session) trySet(set changeSet, explain bool) (*model.Result, *session, error) {
	cluster, req := s.p.cluster.Clone(), s.p.req.Clone()
	for _, c := range set {
		c.apply(cluster, req)
	}
	if err := validate(s.p.cat, cluster, req); err != nil {
		return nil, nil, err
	}
	cfg := settings{workers: 1, maxBytes: s.budget.remaining(), statusOnly: true, feasibleOnly: true}
	child := newSession(s.ctx, cfg, s.p.compiled, cluster, req)
	res, err := child.run()
	switch {
	case err != nil:
		return nil, nil, err
	case res.Status == model.StatusUnsatisfiable && explain:
		child.core, err = child.conflictExplainer().inputCore(nil)
		return res, child, err
	case res.Status == model.StatusResolved && set.readsOptimum():
		cfg.feasibleOnly = false
		child = newSession(s.ctx, cfg, s.p.compiled, cluster, req)
		res, err = child.run()
		return res, child, err
	}
	return res, child, nil
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
