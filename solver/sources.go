package solver

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/go-air/gini/z"

	"github.com/modsolver/modsolver/model"
)

// sourcePlace is where one module's releases come from (R23, D74–D76).
type sourcePlace struct {
	// named: the catalog module is in several sources, so messages and
	// results name the source of its releases.
	named bool
	// free: the module may come from several sources, and R14 chooses
	// (sources.go's levels); its view holds every source's releases.
	free bool
	// from is the source of the deployed release; to the source the
	// module must come from when it is fixed (deployed, or named by
	// request.sources); moved says they differ.
	from, to string
	moved    bool
	// heads and headVersions are, for a free module, each source's head
	// (R10 per source): the index of its highest release at or below its
	// channel's version, or -1.
	heads        map[string]int
	headVersions map[string]model.Version
	// channeled holds the sources whose own module follows a channel, and
	// channels the channel each follows.
	channeled map[string]bool
	channels  map[string]string
	fact      *fact // FactSource, for a move to a source without the deployed release
	// leftPlatform: the module ran built in and moves to a source that
	// lists its releases (R29); it is installed there as new, whatever
	// the DKP version was (D160).
	leftPlatform bool
}

// placeSource reads R23 for v before anything else: a module of several
// sources that is deployed stays in its source unless the request moves
// it, and one the request names in sources comes from there; either way
// the view is that source's own module, so its channels, steps and update
// policy apply unchanged. Any other module of several sources is free.
func (p *problem) placeSource(v *view) {
	m := v.m
	v.src.named = m.MultiSource()
	if _, ok := p.cluster.Deployed(m); ok {
		v.src.from = p.cluster.DeployedSource(m)
	}
	v.src.to = v.src.from
	if s := p.req.Sources[m.Name]; s != "" {
		v.src.to = s
	}
	if !m.MultiSource() {
		if v.src.to == "" {
			v.src.to = m.Source
		}
		v.src.moved = v.src.from != "" && v.src.from != v.src.to
		return
	}
	if v.src.to == "" && m.BuiltInSource() != "" {
		v.src.to = m.BuiltInSource() // R29: DKP ships it, until a request moves it out
	}
	if v.src.to == m.BuiltInSource() && v.src.to != "" && p.req.Sources[m.Name] == "" && !m.CarriedBuiltIn(p.deckhouse) {
		v.src.to = m.MovedTo() // the DKP version no longer carries it: DKP moves it (D161)
	}
	if v.src.to == "" {
		v.src.free = true
		return
	}
	v.m = m.ForSource(v.src.to)
	v.src.moved = v.src.from != "" && v.src.from != v.src.to
	v.src.leftPlatform = v.src.moved && v.src.from == m.BuiltInSource()
}

// setSourceHeads finds each source's head for a free module: the channel
// and head of every source's own module (R10), read as setHead reads them.
func (p *problem) setSourceHeads(v *view) {
	v.src.heads = map[string]int{}
	v.src.headVersions = map[string]model.Version{}
	v.src.channeled = map[string]bool{}
	v.src.channels = map[string]string{}
	for _, s := range v.m.ModuleSources() {
		sv := &view{m: v.m.ForSource(s), name: v.name, rels: v.m.ForSource(s).Releases, deployed: -1, pinned: -1, head: -1, takes: v.takes}
		p.setHead(sv)
		v.channel = sv.channel
		v.src.channeled[s] = sv.channel != ""
		v.src.channels[s] = sv.channel
		v.src.headVersions[s] = sv.headVersion
		v.src.heads[s] = -1
		if sv.noChannel {
			continue
		}
		for i, r := range v.rels {
			if r.Source == s && sv.headVersion != nil && model.CompareVersions(r.Version, sv.headVersion) <= 0 {
				v.src.heads[s] = i
			}
		}
		if h := v.src.heads[s]; h > v.head {
			v.head, v.headVersion = h, v.rels[h].Version
		}
	}
	if v.head < 0 {
		v.noChannel = v.channel != ""
	}
}

// aboveHead reports whether release i is above its channel's head (R10):
// for a free module, the head of the release's own source.
func (v *view) aboveHead(i int) bool {
	if v.src.free {
		return i > v.src.heads[v.rels[i].Source]
	}
	return i > v.head
}

// offChannel reports whether release i is off its channel: above its
// head (R10), or not held by the channel's set of releases, where the
// catalog lists one (D182).
func (v *view) offChannel(i int) bool {
	return v.aboveHead(i) || !v.channelSet(i).Holds(v.rels[i].Version)
}

// channelSet is the set of releases of the channel release i is read
// against (D182), or nil when that channel lists none: for a free module,
// its own source's.
func (v *view) channelSet(i int) *model.ChannelSet {
	m, ch := v.m, v.channel
	if v.src.free {
		s := v.rels[i].Source
		m, ch = v.m.ForSource(s), v.src.channels[s]
	}
	if ch == "" || m == nil {
		return nil
	}
	return m.ChannelSets[m.HeadChannel(ch)]
}

// headFor returns the head that applies to release sel: its source's for
// a free module, else the module's.
func (v *view) headFor(sel int) (int, model.Version) {
	if v.src.free && sel >= 0 {
		s := v.rels[sel].Source
		return v.src.heads[s], v.src.headVersions[s]
	}
	return v.head, v.headVersion
}

// sameSource reports whether releases i and j come from one source.
func (v *view) sameSource(i, j int) bool {
	return !v.src.free || v.rels[i].Source == v.rels[j].Source
}

// sourceOf names the source release i comes from; "" in a single catalog.
func (v *view) sourceOf(i int) string {
	if i < 0 || i >= len(v.rels) {
		return ""
	}
	if s := v.rels[i].Source; s != "" {
		return s
	}
	return v.src.to
}

// addSourceFacts forbids, on a move to a source that does not list the
// deployed release, that release: the module runs it from the source it
// leaves (D76).
func (p *problem) addSourceFacts(v *view) {
	if !v.src.moved || v.deployed < 0 || v.rels[v.deployed].Source == v.src.to {
		return
	}
	p.forbid(v, model.FactSource, v.where(func(i int, _ *model.Release) bool { return i == v.deployed }), func(f *fact) { v.src.fact = f })
}

func sourceMessage(f *fact) string {
	v := f.v
	return fmt.Sprintf("the request moves %s from source %s to source %s, which does not list its deployed release %s",
		v.name, v.src.from, v.src.to, v.deployedVersion())
}

// releaseLabel names releases rels of v for messages: the versions, and
// their source when the module is in several (R23).
func releaseLabel(v *view, rels []int) string {
	text := releasesText(v, rels)
	if !v.src.named || len(rels) == 0 {
		return text
	}
	srcs := map[string]bool{}
	for _, r := range rels {
		srcs[v.sourceOf(r)] = true
	}
	if len(srcs) == 1 {
		return fmt.Sprintf("%s (source %s)", text, v.sourceOf(rels[0]))
	}
	parts := make([]string, len(rels))
	for i, r := range rels {
		parts[i] = fmt.Sprintf("%s (source %s)", v.rels[r].Version, v.sourceOf(r))
	}
	return strings.Join(parts, ", ")
}

// sources lists the sources of mv's candidates, in source order.
func (e *encoder) sources(mv *modVars) []string {
	var out []string
	for _, s := range mv.v.m.ModuleSources() {
		if slices.ContainsFunc(mv.dom, func(r int) bool { return mv.v.sourceOf(r) == s }) {
			out = append(out, s)
		}
	}
	return out
}

// otherSources returns "mv is not from s" for each source s of srcs but
// keep: mv is off, or on from keep.
func (e *encoder) otherSources(mv *modVars, srcs []string, keep string) []z.Lit {
	var out []z.Lit
	for _, s := range srcs {
		if s != keep {
			out = append(out, e.sourceLit(mv, s).Not())
		}
	}
	return out
}

// notExact returns the clause "mv is not at position j": ¬ge(j), or
// ge(j+1) unless j is the last position.
func (e *encoder) notExact(mv *modVars, j int) []z.Lit {
	out := []z.Lit{mv.ge[j].Not()}
	if j+1 < len(mv.ge) {
		out = append(out, mv.ge[j+1])
	}
	return out
}

type sourceKey struct {
	mv  *modVars
	src string
}

// sourceLit returns the literal "mv is on at a release of source s".
func (e *encoder) sourceLit(mv *modVars, s string) z.Lit {
	key := sourceKey{mv, s}
	if l, ok := e.srcLits[key]; ok {
		return l
	}
	x := e.g.Lit()
	if len(mv.ge) > 0 {
		e.add(nil, x.Not(), mv.ge[0])
	} else {
		e.add(nil, x.Not())
	}
	for j, r := range mv.dom {
		if mv.v.sourceOf(r) == s {
			e.add(nil, append(e.notExact(mv, j), x)...)
		} else {
			e.add(nil, append(e.notExact(mv, j), x.Not())...)
		}
	}
	if e.srcLits == nil {
		e.srcLits = map[sourceKey]z.Lit{}
	}
	e.srcLits[key] = x
	return x
}

// crossLits returns, for mv taken from source s, one literal per
// requirement between mv and another module (module, capability and
// compound requirements, D181) that, if true, is met across sources (R23's "fewest requirements met from another source than the
// requiring release's own"): each is implied by such a requirement, so
// minimising their count counts them exactly. Both directions count, each
// with its own literal, so that a pair that requires each other counts
// twice: d's selected release from another source requiring mv, and mv's
// selected release requiring d, met by d from another source.
//
// On the explain encoding, reqs gives each clause the requirement fact it
// reads, so that an explanation that counts a requirement names it; the
// fast encoding passes nil, and the clauses are hard.
func (e *encoder) crossLits(mv *modVars, s string, reqs requirementFacts) []z.Lit {
	var out []z.Lit
	for _, d := range e.mods {
		if d == mv {
			continue
		}
		out = e.appendCross(out, e.requiredFrom(d, mv, s, reqs))
		out = e.appendCross(out, e.requiring(mv, d, s, reqs))
		out = e.capabilityAndCompoundCross(out, mv, d, s, reqs) // D181
	}
	return out
}

// crossClause is a clause of crossLits, under the fact of the requirement
// it reads (nil: hard).
type crossClause struct {
	f    *fact
	lits []z.Lit
}

// requiredFrom lists the clauses "mv is not from source s, or d is not at
// a release of another source than s that requires mv". The first part
// keeps them true while mv is off, so that a bound on them, which level
// 5a commits, leaves off free (D123).
func (e *encoder) requiredFrom(d, mv *modVars, s string, reqs requirementFacts) []crossClause {
	var clauses []crossClause
	for j, r := range d.dom {
		if d.v.sourceOf(r) != s && requires(d.v.rels[r], mv.v.name) {
			f, ok := reqs.of(reqKey{d.v, r, model.FactModuleRequirement, mv.v.name})
			if !ok {
				continue
			}
			lits := append(e.notExact(d, j), e.sourceLit(mv, s).Not())
			clauses = append(clauses, crossClause{f, lits})
		}
	}
	return clauses
}

// requiring lists the clauses "mv is not at a release of s that requires
// d, or d is not from source t", for each other source t of d.
func (e *encoder) requiring(mv, d *modVars, s string, reqs requirementFacts) []crossClause {
	var clauses []crossClause
	for _, t := range e.sources(d) {
		if t == s {
			continue
		}
		for j, r := range mv.dom {
			if mv.v.sourceOf(r) == s && requires(mv.v.rels[r], d.v.name) {
				f, ok := reqs.of(reqKey{mv.v, r, model.FactModuleRequirement, d.v.name})
				if !ok {
					continue
				}
				lits := append(e.notExact(mv, j), e.sourceLit(d, t).Not())
				clauses = append(clauses, crossClause{f, lits})
			}
		}
	}
	return clauses
}

// appendCross adds to out a fresh literal that each clause, when false,
// makes true; none when there is no clause.
func (e *encoder) appendCross(out []z.Lit, clauses []crossClause) []z.Lit {
	if len(clauses) == 0 {
		return out
	}
	y := e.g.Lit()
	for _, c := range clauses {
		e.add(c.f, append(c.lits, y)...)
	}
	return append(out, y)
}

// reqKey names a requirement of release rel of v: of kind module
// requirement on module dep, capability requirement on capability dep,
// or compound requirement whose text is dep.
type reqKey struct {
	v    *view
	rel  int
	kind model.FactKind
	dep  string
}

// requirementFacts finds the module-requirement fact of a release's
// requirement on a module.
type requirementFacts map[reqKey]*fact

// of returns the fact of requirement k, and whether the requirement
// counts: on the fast encoding (nil) every requirement counts, as a hard
// clause; on an explain encoding only one it holds as a fact. A cone
// (D124) holds no fact of a module it does not cover yet, and a
// requirement it does not hold meets nothing across sources (an
// unguarded clause for it would bind more than the whole closure does).
func (reqs requirementFacts) of(k reqKey) (*fact, bool) {
	if reqs == nil {
		return nil, true
	}
	f := reqs[k]
	return f, f != nil
}

// requirementFacts indexes the explain encoding's module, capability
// and compound requirement facts by release and what they require.
func (x *explainer) requirementFacts() requirementFacts {
	out := requirementFacts{}
	for _, f := range x.inputFacts() {
		dep := f.dep
		switch f.kind {
		case model.FactModuleRequirement, model.FactCapabilityRequirement:
		case model.FactCompoundRequirement:
			dep = f.compound.String()
		default:
			continue
		}
		for _, r := range f.rels {
			out[reqKey{f.v, r, f.kind, dep}] = f
		}
	}
	return out
}

func requires(r *model.Release, dep string) bool {
	return slices.ContainsFunc(r.Requirements.Modules, func(d model.Dependency) bool { return d.Module == dep })
}

// preferSources commits, for each module of order with candidates in
// several sources, the source R23 prefers: the highest-priority source
// that can serve it under the commits; among sources of equal priority,
// the fewest requirements met across sources; then the source name. The
// commit is "off, or on from that source": the preference chooses where
// a module comes from, not whether it is on, which levels 2, 4 and 5
// decide (D123). A module no source can serve is left to the version
// level, which turns it off.
func (o *optimizer) preferSources(order []*modVars) error {
	for _, mv := range order {
		if !mv.v.src.free {
			continue
		}
		if err := o.preferSource(mv); err != nil {
			return err
		}
	}
	return nil
}

func (o *optimizer) preferSource(mv *modVars) error {
	srcs := o.e.sources(mv)
	if len(srcs) < 2 {
		return nil
	}
	tier, err := o.bestTier(mv, srcs)
	if err != nil || len(tier) == 0 {
		return err
	}
	best, bestCost, bestBound := tier[0], -1, []z.Lit(nil)
	if len(tier) > 1 {
		for _, s := range tier {
			cost, bound, err := o.leastCross(mv, s)
			if err != nil {
				return err
			}
			if bestCost < 0 || cost < bestCost {
				best, bestCost, bestBound = s, cost, bound
			}
		}
	}
	o.commits = append(o.commits, o.e.otherSources(mv, srcs, best)...)
	o.commits = append(o.commits, bestBound...)
	prio, _ := o.e.p.cat.Source(best)
	o.choices = append(o.choices, &sourceChoice{v: mv.v, src: best, priority: prio.Priority, tied: len(tier) > 1, cross: max(bestCost, 0), bound: bestBound})
	return nil
}

// sourceChoice is the source R23 chose for a free module at level 3a or
// 5a, and what bound the choice committed.
type sourceChoice struct {
	v        *view
	src      string
	priority int
	// tied: several sources of that priority could serve v, and at most
	// cross requirements met across sources decided among them.
	tied  bool
	cross int
	// bound are the literals of the optimizer's encoding that hold the
	// count to cross, as the level committed them.
	bound []z.Lit
}

// message says which source R23 chose for the module, and by what.
func (c *sourceChoice) message() string {
	if !c.tied {
		return fmt.Sprintf("%s comes from source %s, the source of the highest priority (%d) that can serve it (R23)", c.v.name, c.src, c.priority)
	}
	count := "none"
	if c.cross > 0 {
		count = fmt.Sprint(c.cross)
	}
	return fmt.Sprintf("%s comes from source %s, which R23 prefers among the sources of priority %d that can serve it by the fewest requirements met across sources (here %s), then by name",
		c.v.name, c.src, c.priority, count)
}

// sourcePreferences returns the facts of choices in the explain encoding:
// each holds its module off or in its chosen source (D123) and, when
// sources of equal priority tied, to at most its count of requirements
// met across sources. They are preferences (R14), which held-back reasons
// name (R17). A cone makes them again once it grows, since a tie's count
// reads the requirements of every module encoded.
func (x *explainer) sourcePreferences(choices []*sourceChoice) []*fact {
	var out []*fact
	var reqs requirementFacts
	for _, c := range choices {
		mv := x.e.byName[c.v.name]
		if mv == nil {
			continue
		}
		f := x.choices[c]
		if f == nil {
			f = x.e.p.newFact(model.FactPreference, c.v)
			f.choice = c
			for _, l := range x.e.otherSources(mv, x.e.sources(mv), c.src) {
				x.e.add(f, l)
			}
			if c.tied {
				if reqs == nil {
					reqs = x.requirementFacts()
				}
				x.boundCross(f, mv, c, reqs)
			}
			if x.choices == nil {
				x.choices = map[*sourceChoice]*fact{}
			}
			x.choices[c] = f
		}
		out = append(out, f)
	}
	return out
}

// boundCross adds, under fact f, "at most c.cross requirements between mv
// from c.src and other modules are met across sources".
func (x *explainer) boundCross(f *fact, mv *modVars, c *sourceChoice, reqs requirementFacts) {
	bads := x.e.live(x.e.crossLits(mv, c.src, reqs))
	if c.cross == 0 {
		for _, b := range bads {
			x.e.add(f, b.Not())
		}
		return
	}
	if c.cross < len(bads) {
		x.e.add(f, x.e.atLeast(bads, c.cross+1)[c.cross].Not())
	}
}

// choicesBefore lists the source choices made before the version level
// that chose v's release: every named module's (level 3a), and for a
// module the request does not name, every other's too (level 5a).
func (o *optimizer) choicesBefore(v *view) []*sourceChoice {
	if !v.named {
		return o.choices
	}
	return slices.DeleteFunc(slices.Clone(o.choices), func(c *sourceChoice) bool { return !c.v.named })
}

// bestTier returns the sources of the highest priority that can serve mv
// under the commits, in name order.
func (o *optimizer) bestTier(mv *modVars, srcs []string) ([]string, error) {
	cat := o.e.p.cat
	var tier []string
	prio := 0
	for _, s := range srcs {
		info, _ := cat.Source(s)
		if len(tier) > 0 && info.Priority != prio {
			break
		}
		ok, err := o.e.solve(o.ctx, o.with(o.e.sourceLit(mv, s)))
		if err != nil {
			return nil, err
		}
		if ok {
			tier, prio = append(tier, s), info.Priority
		}
	}
	return tier, nil
}

// leastCross returns the fewest requirements met across sources with mv
// from s under the commits, and the assumptions that bound them to it.
func (o *optimizer) leastCross(mv *modVars, s string) (int, []z.Lit, error) {
	at := o.e.sourceLit(mv, s)
	bads := o.e.live(o.e.crossLits(mv, s, nil))
	if len(bads) == 0 {
		return 0, nil, nil
	}
	ok, err := o.e.solve(o.ctx, o.with(append([]z.Lit{at}, negated(bads)...)...))
	if err != nil || ok {
		return 0, negated(bads), err
	}
	if _, err := o.e.solve(o.ctx, o.with(at)); err != nil {
		return 0, nil, err
	}
	cost := 0
	for _, b := range bads {
		if o.e.value(b) {
			cost++
		}
	}
	outs := o.e.atLeast(bads, cost+1)
	for k := 1; k < cost; k++ {
		ok, err := o.e.solve(o.ctx, o.with(at, outs[k].Not()))
		if err != nil {
			return 0, nil, err
		}
		if ok {
			return k, []z.Lit{outs[k].Not()}, nil
		}
	}
	if cost < len(outs) {
		return cost, []z.Lit{outs[cost].Not()}, nil
	}
	return cost, nil, nil
}

// freePath is the path of a free module's install: the chosen release,
// then its own source's head when that is newer.
func freePath(v *view, sel int) []int {
	if head, _ := v.headFor(sel); sel < head {
		return []int{sel, head}
	}
	return []int{sel}
}

// resultSources are a module result's sources (R23): where the deployed
// release came from, where the selected one comes from, and whether they
// differ.
func (v *view) resultSources(sel int) (from, to string, moved bool) {
	if v.before || v.src.leftPlatform {
		from = v.src.from
	}
	if sel < 0 {
		return from, "", false
	}
	to = v.sourceOf(sel)
	return from, to, from != "" && to != "" && from != to
}

// sourceMoves lists, for each module of a core that is fixed to one of
// several sources, the moves to its other sources, in source order (R23):
// each a group, so that the first that works is named.
func (s *session) sourceMoves(core []*fact) [][]change {
	var groups [][]change
	seen := map[*view]bool{}
	for _, f := range chainOrder(core) {
		for _, v := range []*view{f.v, s.depView(f)} {
			if v != nil && !seen[v] && v.src.named && !v.src.free {
				seen[v] = true
				groups = s.appendMoves(groups, v)
			}
		}
	}
	return groups
}

// depView is the view of the module a requirement fact requires, or nil.
func (s *session) depView(f *fact) *view {
	if f.kind != model.FactModuleRequirement {
		return nil
	}
	return s.p.view(f.dep)
}

// appendMoves adds the group of v's moves to its other sources.
func (s *session) appendMoves(groups [][]change, v *view) [][]change {
	var alts []change
	for _, src := range s.p.cat.Module(v.name).ModuleSources() {
		if src != v.src.to {
			alts = append(alts, moveChange(v.name, src))
		}
	}
	if len(alts) > 0 {
		groups = append(groups, alts)
	}
	return groups
}

func moveChange(name, src string) change {
	return change{
		sug: model.Suggestion{Kind: model.SuggestMoveSource, Module: name, Message: fmt.Sprintf("move %s to source %s (set request.sources.%s)", name, src, name)},
		apply: func(_ *model.ClusterState, r *model.Request) {
			r.Sources = maps.Clone(r.Sources)
			if r.Sources == nil {
				r.Sources = map[string]string{}
			}
			r.Sources[name] = src
		},
	}
}
