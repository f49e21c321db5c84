package solver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// change is one candidate suggestion and the edit of the inputs it stands for.
type change struct {
	sug   model.Suggestion
	apply func(c *model.ClusterState, r *model.Request)
	// downgrade marks a pin below the deployed release (R9), proposed
	// only where nothing else works or the question is a downgrade.
	downgrade bool
}

// resolver solves a changed request: suggestions and route walks verify
// a change by solving with it. The facade hands its *Compiled in
// (newAnswering, Compiled.addRoute, Compiled.platformRefusal).
type resolver interface {
	Solve(ctx context.Context, cluster *model.ClusterState, req *model.Request, opts ...Option) (*model.Result, error)
}

// suggesting is a session's suggestion part: it finds changes to the
// inputs and verifies each by solving the changed request on solver. It
// reads the session's explain part (a pointer back).
type suggesting struct {
	*explaining
	solver resolver
	// stuck names, once found, the modules of the session's problem with
	// no release left (stuckNames).
	stuck []string
}

// suggest proposes, for the facts of a core, changes to the inputs that
// make the request satisfiable. Each is verified by solving the changed
// problem (D21); of alternatives for one fact, the smallest that works is
// kept. A downgrade is proposed only where nothing else works, or where
// the question itself lowers the platform (D173); and when no single
// change works, the smallest sets of changes that do (combine.go).
func (s *suggesting) suggest(core, blockers []*fact) ([]model.Suggestion, error) {
	groups := s.changeGroups(core)
	if len(blockers) > 1 {
		names := make([]string, len(blockers))
		for i, f := range blockers {
			names[i] = f.v.name
		}
		groups = append(groups, []change{disableAllChange(names)})
	}
	ss := newSetSearch(s)
	lowers := s.p.in.lowersPlatform()
	if !lowers {
		groups, _ = splitDowngrades(groups)
	}
	out, err := s.working(groups, ss.tried)
	if err != nil || len(out) > 0 {
		return out, err
	}
	if !lowers {
		downgrades, err := ss.downgrades(core)
		if err != nil {
			return nil, err
		}
		if out, err = s.working(downgrades, ss.tried); err != nil || len(out) > 0 {
			return out, err
		}
	}
	return ss.run(core)
}

// changeGroups lists the groups of alternative changes the facts of a
// core offer, the downgrades last.
func (s *suggesting) changeGroups(core []*fact) [][]change {
	rest, downgrades := splitDowngrades(append(s.alternatives(core), s.sourceMoves(core)...))
	return append(rest, downgrades...)
}

// working verifies each group of alternatives and keeps, for each, the
// first that works, once per wording.
func (s *suggesting) working(groups [][]change, tried map[string]bool) ([]model.Suggestion, error) {
	var out []model.Suggestion
	seen := map[string]bool{}
	for _, alts := range groups {
		sug, ok, err := s.firstWorking(alts, tried)
		if err != nil {
			return nil, err
		}
		if ok && !seen[sug.Message] {
			seen[sug.Message] = true
			out = append(out, sug)
		}
	}
	return out, nil
}

// splitDowngrades separates the groups of downgrades from the others,
// keeping the order of each.
func splitDowngrades(groups [][]change) (rest, downgrades [][]change) {
	for _, alts := range groups {
		if len(alts) > 0 && alts[0].downgrade {
			downgrades = append(downgrades, alts)
		} else {
			rest = append(rest, alts)
		}
	}
	return rest, downgrades
}

// alternatives lists the groups of alternative changes for a core. The
// platform upgrades of all facts form one group per platform, lowest
// version first, so that only the smallest upgrade that works is named.
func (s *suggesting) alternatives(core []*fact) [][]change {
	var groups [][]change
	upgrades := map[model.SuggestionKind][]change{}
	for _, f := range chainOrder(core) {
		for _, alts := range s.changesFor(f) {
			if len(alts) > 0 && isUpgrade(alts[0].sug.Kind) {
				upgrades[alts[0].sug.Kind] = append(upgrades[alts[0].sug.Kind], alts...)
				continue
			}
			groups = append(groups, alts)
		}
	}
	for _, kind := range []model.SuggestionKind{model.SuggestUpgradeKubernetes, model.SuggestUpgradeDeckhouse} {
		alts := upgrades[kind]
		slices.SortStableFunc(alts, func(a, b change) int {
			return model.CompareVersions(model.MustParseVersion(a.sug.Version), model.MustParseVersion(b.sug.Version))
		})
		alts = slices.CompactFunc(alts, func(a, b change) bool { return a.sug.Version == b.sug.Version })
		if len(alts) > 0 {
			groups = append(groups, alts)
		}
	}
	return groups
}

func isUpgrade(k model.SuggestionKind) bool {
	return k == model.SuggestUpgradeKubernetes || k == model.SuggestUpgradeDeckhouse
}

// statusOnly makes Solve answer only whether a request resolves.
func statusOnly() Option { return func(s *settings) { s.statusOnly = true } }

// firstWorking tries alternatives in order and returns the first that
// makes the request satisfiable; tried records each outcome, by the key
// of the set of that one change.
func (s *suggesting) firstWorking(alts []change, tried map[string]bool) (model.Suggestion, bool, error) {
	for _, c := range alts {
		cluster, req := s.p.in.cluster.Clone(), s.p.in.req.Clone()
		c.apply(cluster, req)
		res, err := s.verify(c.sug, cluster, req)
		tried[changeSet{c}.key()] = err == nil && res.Status == model.StatusResolved
		if errors.Is(err, model.ErrInvalidInput) {
			continue // the change contradicts the request itself
		}
		if err != nil {
			return model.Suggestion{}, false, err
		}
		if res.Status == model.StatusResolved {
			return finishSuggestion(c.sug, res), true, nil
		}
	}
	return model.Suggestion{}, false, nil
}

// finishSuggestion adds what the verifying answer shows, such as the
// version an update reaches.
func finishSuggestion(sug model.Suggestion, res *model.Result) model.Suggestion {
	if sug.Kind != model.SuggestUpdateModule {
		return sug
	}
	for _, m := range res.Modules {
		if m.Name == sug.Module {
			sug.Version = m.ToVersion
			sug.Message = fmt.Sprintf("update module %s to %s (add it to request.update)", m.Name, m.ToVersion)
		}
	}
	return sug
}

// changesFor lists, for one fact, groups of alternative changes.
func (s *suggesting) changesFor(f *fact) [][]change {
	if changes := factChanges[f.kind]; changes != nil {
		return changes(s, f)
	}
	return nil
}

// The changes of each kind of fact (factKinds).

func kubernetesUpgrades(s *suggesting, f *fact) [][]change {
	if lowers(s.p.in.cluster.Kubernetes, s.p.in.req.Platform.Kubernetes) {
		return nil
	}
	return [][]change{s.upgrades(model.SuggestUpgradeKubernetes, f.cons, s.p.in.kubernetes)}
}

func deckhouseUpgrades(s *suggesting, f *fact) [][]change {
	if lowers(s.p.in.cluster.Deckhouse, s.p.in.req.Platform.Deckhouse) {
		return nil
	}
	return [][]change{s.upgrades(model.SuggestUpgradeDeckhouse, f.cons, model.Core(s.p.in.deckhouse))}
}

// builtInUpgrades upgrades DKP for a requirement on a built-in module,
// whose version is DKP's; other requirements change nothing by
// themselves.
func builtInUpgrades(s *suggesting, f *fact) [][]change {
	if s.p.view(f.dep).m.Embedded {
		return deckhouseUpgrades(s, f)
	}
	return nil
}

func componentUpgrades(s *suggesting, f *fact) [][]change {
	return [][]change{s.componentUpgrades(f.dep, f.cons)}
}

func disableTheModule(_ *suggesting, f *fact) [][]change {
	return [][]change{{disableChange(f.v.name)}}
}
func enableTheModule(_ *suggesting, f *fact) [][]change { return [][]change{{enableChange(f.v.name)}} }
func updateTheModule(_ *suggesting, f *fact) [][]change { return [][]change{{updateChange(f.v.name)}} }
func goDirect(*suggesting, *fact) [][]change            { return [][]change{{directChange()}} }
func switchChannel(_ *suggesting, f *fact) [][]change   { return [][]change{channelChanges(f.v)} }
func pinPrereleases(_ *suggesting, f *fact) [][]change {
	return [][]change{pinsNewestFirst(f.v, f.rels)}
}
func allowExperimental(*suggesting, *fact) [][]change { return [][]change{{allowExperimentalChange()}} }

func enableOrAutoEnable(_ *suggesting, f *fact) [][]change {
	return [][]change{{enableChange(f.v.name)}, {autoEnableChange(f.v.name)}}
}

func otherEditions(s *suggesting, f *fact) [][]change {
	return [][]change{editionChanges(f.v, s.p.in.cluster.Edition)}
}

func enableAProvider(s *suggesting, f *fact) [][]change {
	return [][]change{providerChanges(s.p.in.cat.Providers(f.dep), enableChange)}
}

func disableAProvider(_ *suggesting, f *fact) [][]change {
	return [][]change{providerChanges(viewNames(f.members), disableChange)}
}

func compoundAlternatives(s *suggesting, f *fact) [][]change {
	return [][]change{s.compoundChanges(f)}
}

// componentUpgrades lists upgrades of a platform component the cluster
// runs to the versions a constraint names, lowest first (R22).
func (s *suggesting) componentUpgrades(name string, c *model.Constraint) []change {
	current := s.p.in.components[name]
	if current == nil || lowers(s.p.in.cluster.Platform[name], s.p.in.req.Platform.Components[name]) {
		return nil
	}
	return upgradeChanges(model.SuggestUpgradePlatform, name, c, current, func(r *model.Request, v model.Version) {
		r.Platform.Components = maps.Clone(r.Platform.Components)
		if r.Platform.Components == nil {
			r.Platform.Components = map[string]model.Version{}
		}
		r.Platform.Components[name] = v
	})
}

// providerChanges makes one change per module name, in name order.
func providerChanges(names []string, toChange func(string) change) []change {
	out := make([]change, 0, len(names))
	for _, n := range names {
		out = append(out, toChange(n))
	}
	return out
}

// upgrades lists platform upgrades to the versions a constraint names,
// lowest first, that satisfy it and are above the current version.
func (s *suggesting) upgrades(kind model.SuggestionKind, c *model.Constraint, current model.Version) []change {
	if kind == model.SuggestUpgradeKubernetes {
		return upgradeChanges(kind, "Kubernetes", c, current, func(r *model.Request, v model.Version) { r.Platform.Kubernetes = v })
	}
	return upgradeChanges(kind, "DKP", c, current, func(r *model.Request, v model.Version) { r.Platform.Deckhouse = v })
}

// upgradeChanges lists the changes that set a platform component, what, to
// each version c names above current, lowest first.
func upgradeChanges(kind model.SuggestionKind, what string, c *model.Constraint, current model.Version, set func(*model.Request, model.Version)) []change {
	var out []change
	for _, v := range boundsAbove(c, current) {
		out = append(out, change{
			sug:   model.Suggestion{Kind: kind, Version: v.String(), Message: fmt.Sprintf("upgrade %s to at least %s", what, v)},
			apply: func(_ *model.ClusterState, r *model.Request) { set(r, v) },
		})
	}
	return out
}

// boundsAbove reads the versions a constraint's text names, and the next
// patch of each, keeping those above current that satisfy it, ascending.
func boundsAbove(c *model.Constraint, current model.Version) []model.Version {
	var out []model.Version
	for _, cand := range namedCandidates(c) {
		if cand.GreaterThan(current) && !slices.ContainsFunc(out, cand.Equal) {
			out = append(out, cand)
		}
	}
	slices.SortFunc(out, model.CompareVersions)
	return out
}

func disableChange(name string) change {
	return change{
		sug: model.Suggestion{Kind: model.SuggestDisableModule, Module: name, Message: fmt.Sprintf("disable module %s", name)},
		apply: func(_ *model.ClusterState, r *model.Request) {
			r.Enable = slices.DeleteFunc(r.Enable, func(n string) bool { return n == name })
			delete(r.Pin, name)
			r.Disable = append(r.Disable, name)
		},
	}
}

// disableAllChange disables several modules at once: the blockers of a
// platform upgrade, none of which is enough on its own (R12).
func disableAllChange(names []string) change {
	one := make([]change, len(names))
	for i, n := range names {
		one[i] = disableChange(n)
	}
	return change{
		sug: model.Suggestion{Kind: model.SuggestDisableModule, Message: "disable modules " + strings.Join(names, ", ")},
		apply: func(c *model.ClusterState, r *model.Request) {
			for _, ch := range one {
				ch.apply(c, r)
			}
		},
	}
}

func enableChange(name string) change {
	return change{
		sug: model.Suggestion{Kind: model.SuggestEnableModule, Module: name, Message: fmt.Sprintf("enable module %s", name)},
		apply: func(_ *model.ClusterState, r *model.Request) {
			r.Disable = slices.DeleteFunc(r.Disable, func(n string) bool { return n == name })
			r.Enable = append(r.Enable, name)
		},
	}
}

func autoEnableChange(name string) change {
	return change{
		sug:   model.Suggestion{Kind: model.SuggestAutoEnable, Module: name, Message: fmt.Sprintf("set autoEnable: true, so that %s can be enabled as a dependency", name)},
		apply: func(_ *model.ClusterState, r *model.Request) { r.AutoEnable = true },
	}
}

func updateChange(name string) change {
	return change{
		sug:   model.Suggestion{Kind: model.SuggestUpdateModule, Module: name, Message: fmt.Sprintf("update module %s", name)},
		apply: func(_ *model.ClusterState, r *model.Request) { r.Update = append(r.Update, name) },
	}
}

func directChange() change {
	return change{
		sug:   model.Suggestion{Kind: model.SuggestDirectStrategy, Message: "set strategy: direct, so that updates may skip the sequential steps"},
		apply: func(_ *model.ClusterState, r *model.Request) { r.Strategy = model.StrategyDirect },
	}
}

// channelChanges lists switches to less stable channels with newer heads.
func channelChanges(v *view) []change {
	var out []change
	for i := len(model.Channels) - 1; i >= 0; i-- {
		ch := model.Channels[i]
		head, ok := v.m.Channels[ch]
		if !ok || ch == v.channel || (v.headVersion != nil && !v.noChannel && !head.GreaterThan(v.headVersion)) {
			continue
		}
		name := v.name
		out = append(out, change{
			sug: model.Suggestion{Kind: model.SuggestChangeChannel, Module: name, Version: head.String(),
				Message: fmt.Sprintf("switch module %s to channel %s (head %s)", name, ch, head)},
			apply: func(c *model.ClusterState, _ *model.Request) {
				st := c.Modules[name]
				st.Channel = ch
				c.Modules[name] = st
			},
		})
	}
	return out
}

// editionChanges lists the editions where the module is available.
func editionChanges(v *view, current string) []change {
	var eds []string
	for _, r := range v.rels {
		if a := v.m.Access(r); a != nil {
			for ed := range a.Editions {
				if ok, _ := a.For(ed); ok && ed != model.DefaultEdition && ed != current && !slices.Contains(eds, ed) {
					eds = append(eds, ed)
				}
			}
		}
	}
	slices.Sort(eds)
	out := make([]change, 0, len(eds))
	for _, ed := range eds {
		out = append(out, change{
			sug:   model.Suggestion{Kind: model.SuggestChangeEdition, Module: v.name, Message: fmt.Sprintf("use edition %s, where %s is available", ed, v.name)},
			apply: func(c *model.ClusterState, _ *model.Request) { c.Edition = ed },
		})
	}
	return out
}

// pinDowngrades lists the downgrades that lift R9's floor: pins to the
// releases of the fact below the deployed one, the nearest first, so that
// the smallest downgrade that works is named; at most maxDowngradePins of
// them, since each costs a verification and an operator who must go
// further back than that has the explanation to start with (D173).
func pinDowngrades(_ *suggesting, f *fact) [][]change {
	below := slices.DeleteFunc(slices.Clone(f.rels), func(r int) bool { return r >= f.v.deployed })
	if len(below) == 0 {
		return nil
	}
	pins := pinsNewestFirst(f.v, below[max(len(below)-maxDowngradePins, 0):])
	for i := range pins {
		pins[i].downgrade = true
	}
	return [][]change{pins}
}

// updateOrDowngrade lifts R9's keep: an update, or else a downgrade.
func updateOrDowngrade(s *suggesting, f *fact) [][]change {
	return append(updateTheModule(s, f), pinDowngrades(s, f)...)
}

const maxDowngradePins = 5

// pinsNewestFirst lists pins of v to each of rels, newest first.
func pinsNewestFirst(v *view, rels []int) []change {
	var out []change
	for i := len(rels) - 1; i >= 0; i-- {
		out = append(out, pinChange(v.name, v.rels[rels[i]].Version))
	}
	return out
}

// pinChange pins module name to version ver.
func pinChange(name string, ver model.Version) change {
	return change{
		sug: model.Suggestion{Kind: model.SuggestPinModule, Module: name, Version: ver.String(),
			Message: fmt.Sprintf("pin %s to %s (request.pin)", name, ver)},
		apply: func(_ *model.ClusterState, r *model.Request) {
			if r.Pin == nil {
				r.Pin = map[string]model.Version{}
			}
			r.Pin[name] = ver
		},
	}
}

// verify resolves the changed inputs of a suggestion, status first: the
// answer Solve gives, or one it gives for a request of the same class.
// An update suggestion reads the version its module reaches, so it is
// always resolved on its own, to its optimum; so is a change to the
// cluster state. Every other suggestion reads only the status, so its
// check stops once it knows whether the request resolves.
func (s *suggesting) verify(sug model.Suggestion, cluster *model.ClusterState, req *model.Request) (*model.Result, error) {
	opts := []Option{WithoutHeldBack(), WithoutSuggestions(), statusOnly(), stuckOn(s.stuckNames()), WithMemoryLimit(s.budget.remaining())}
	if sug.Kind != model.SuggestUpdateModule {
		opts = append(opts, feasibleOnly())
	}
	solve := func() (*model.Result, error) {
		return s.solver.Solve(s.ctx, cluster, req, opts...)
	}
	b := s.cfg.batch
	if b == nil || sug.Kind == model.SuggestUpdateModule || !sameState(cluster, s.p.in.cluster) {
		return solve()
	}
	key := b.axes.key(req)
	b.mu.Lock()
	v, ok := b.verified[key]
	b.mu.Unlock()
	if ok {
		return v.res, v.err
	}
	res, err := solve()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return res, err
	}
	b.mu.Lock()
	b.verified[key] = verified{res, err}
	b.mu.Unlock()
	return res, err
}

// stuckNames names, sorted, the modules of the session's problem that
// have no release left (noReleaseLeft): a changed request that leaves one
// of them so is unsatisfiable, which its check learns without a solve
// (stillStuck).
func (s *suggesting) stuckNames() []string {
	if s.stuck == nil {
		s.stuck = []string{}
		for name, v := range s.p.views {
			if noReleaseLeft(v) {
				s.stuck = append(s.stuck, name)
			}
		}
		slices.Sort(s.stuck)
	}
	return s.stuck
}
