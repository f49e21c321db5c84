package solver

import (
	"container/list"
	"hash/maphash"
	"maps"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modsolver/modsolver/model"
)

// tables are what Compile computes from a catalog, kept with it
// (compiledFor), and nothing in them changes after compileTables but the
// state memos, which keep their own lock.
type tables struct {
	took  time.Duration
	bytes int64
	// mods holds every module of the catalog, and for a module of several
	// sources each source's own module as well (R23).
	mods map[*model.Module]*moduleTable
	// platform lists, per platform version a request may set, the
	// distinct constraints of the catalog checked against it (R4, R22,
	// and requirements on built-in modules): what-if classes read them
	// (classes.go).
	platform platformConstraints
	// byBundle lists, per bundle, the modules (in name order) that some
	// accessibility data enables in it: those that may be on by default
	// (R7); a module outside its bundle's list never is.
	byBundle map[string][]*model.Module
	// texts interns the distinct texts of DKP and Kubernetes
	// requirements, so that a request checks each once (platformCheck).
	texts map[string]int32
	// loops are the dependency loops a refusing module takes part in
	// (R27, loops.go).
	loops loopTable
	// named holds, by module name and version text, the prereleases that
	// a module requirement of the catalog names (R6, D140); nil when none.
	named map[string]map[string]bool
	// every lists the indices 0, 1, …, as long as the longest release
	// list: each module's table takes its prefix (indices).
	every []int
	// multiSource: some module is in several sources (R23), also in a
	// single catalog that names sources of its own module (R29, D350).
	multiSource bool
	// states are the memos of the cluster states asked about most
	// recently (statememo.go): the one part of the tables that changes
	// after compileTables, behind its own lock.
	states stateMemos
}

// moduleTable is one module's part of the tables: its channel heads (R10,
// D10), its newest final release, and for each of those heads the update
// rule's tables over its releases (R11, R21).
type moduleTable struct {
	// channels maps every channel name the module answers (its own
	// channels and the DKP channels ChannelVersion falls back over) to
	// the channel's version and head.
	channels map[string]headEntry
	newest   headEntry // the newest final release, or the newest one
	steppers map[int]*stepper
	// dkp and kube give, per release, the interned text of its DKP and
	// Kubernetes requirement, or -1 for none.
	dkp, kube []int32
	// platformGroups lists, per platform axis (axisDeckhouse,
	// axisKubernetes), the releases that share each requirement text, in
	// the order of their first release: a request checks each text once
	// and forbids its releases together (R4, D20).
	platformGroups [2][]releaseGroup
	// components: some release requires a platform component (R22);
	// missingModules: some release requires, not optionally, a module the
	// catalog does not have; capabilities: the module or a release
	// requires a capability (R19). Requests skip the checks a module
	// needs not.
	components, missingModules, capabilities bool
	// policy is the module's update policy (model.Module.Policy, which
	// reads every release).
	policy model.UpdatePolicy
	// named lists, sorted, the modules that some release of the module
	// names: its dependencies, the providers of the capabilities it
	// requires and the modules its compound requirements' atoms bound;
	// boundless: some compound requirement is bounded by no atom, so any
	// module may meet it. An explanation's closure and its cone read them
	// instead of every release's requirements (D222).
	named     []string
	boundless bool
	// requirements groups the module requirement texts of every release
	// (requirementGroups), each with its compiled check (D227); every
	// lists the release indices in order, an explain encoding's domain.
	requirements []*reqGroup
	every        []int
	// versions are the releases' versions as text, made the first time
	// an answer quotes one of them (versionText).
	versions atomic.Pointer[[]string]
}

// headEntry is a head version and the index of the highest release at or
// below it, or -1.
type headEntry struct {
	version model.Version
	index   int
}

// platformConstraints are the constraints of a catalog that platform
// versions are checked against, one list per platform version.
type platformConstraints struct {
	deckhouse, kubernetes *axis
	components            map[string]*axis
}

// Estimated sizes, in bytes, of the tables' parts, for CompileStats.
const (
	moduleTableBytes = 400 // a moduleTable with its maps
	headEntryBytes   = 64  // one channel entry
	stepperBytes     = 200 // one stepper without its slices
	intBytes         = 8   // one int of a slice
	reqGroupBytes    = 120 // one compiled requirement text and its check
	constraintBytes  = 150 // one interned or listed constraint
	stringBytes      = 16  // one string header of a slice
)

func compileTables(cat *model.Catalog) *tables {
	start := time.Now()
	t := &tables{mods: map[*model.Module]*moduleTable{}, texts: map[string]int32{}, byBundle: map[string][]*model.Module{}}
	t.named = namedPrereleases(cat) // before the steppers, which read it
	for _, vs := range t.named {
		t.bytes += int64(len(vs)) * headEntryBytes // a version text and its flag
	}
	for _, m := range cat.Modules() {
		t.addModule(cat, m)
		if m.MultiSource() {
			t.multiSource = true
			for _, s := range m.ModuleSources() {
				t.addModule(cat, m.ForSource(s))
			}
		}
	}
	t.platform = readPlatformConstraints(cat)
	t.readBundles(cat)
	t.loops = readLoops(cat)
	t.bytes += int64(len(t.texts)) * constraintBytes
	t.took = time.Since(start)
	return t
}

// namedPrereleases finds, for every module requirement written under a
// reading whose ranges name prereleases (model.ReadingSemver), the
// prereleases of the required module that its range names: admits
// because one of its comparators carries a prerelease (R6, D140).
func namedPrereleases(cat *model.Catalog) map[string]map[string]bool {
	pre := map[string][]model.Version{} // each module's prereleases
	for _, m := range cat.Modules() {
		for _, r := range m.Releases {
			if model.IsPrerelease(r.Version) {
				pre[m.Name] = append(pre[m.Name], r.Version)
			}
		}
	}
	if len(pre) == 0 {
		return nil
	}
	var out map[string]map[string]bool
	seen := map[[2]string]bool{} // requirement texts already read, by module
	for _, m := range cat.Modules() {
		rd := m.Reading()
		if !rd.RangesName() {
			continue
		}
		for _, r := range m.Releases {
			for _, d := range r.Requirements.Modules {
				key := [2]string{d.Module, d.Constraint.Text}
				if len(pre[d.Module]) == 0 || seen[key] {
					continue
				}
				seen[key] = true
				for _, v := range pre[d.Module] {
					if rd.NamesPrerelease(&d.Constraint, v) {
						if out == nil {
							out = map[string]map[string]bool{}
						}
						if out[d.Module] == nil {
							out[d.Module] = map[string]bool{}
						}
						out[d.Module][model.VersionString(v)] = true
					}
				}
			}
		}
	}
	return out
}

// versionText is the version of release i of rels, the module's own
// releases, as text (model.VersionString): an answer quotes the versions
// of a module held back many times over, so the texts of all of them are
// made when the first is, and kept with the tables; sessions that race
// make the same list.
func (mt *moduleTable) versionText(rels []*model.Release, i int) string {
	if vs := mt.versions.Load(); vs != nil {
		return (*vs)[i]
	}
	vs := make([]string, len(rels))
	for k, r := range rels {
		vs[k] = model.VersionString(r.Version)
	}
	mt.versions.Store(&vs)
	return vs[i]
}

// indices returns the release indices 0 … n-1, a prefix of one list that
// every module's table shares (it is never written).
func (t *tables) indices(n int) []int {
	if n > len(t.every) {
		t.every = make([]int, max(n, 2*len(t.every)))
		for i := range t.every {
			t.every[i] = i
		}
		t.bytes += int64(len(t.every)) * intBytes
	}
	return t.every[:n:n]
}

// addModule compiles one module's table.
func (t *tables) addModule(cat *model.Catalog, m *model.Module) {
	if m == nil || t.mods[m] != nil {
		return
	}
	mt := &moduleTable{channels: map[string]headEntry{}, steppers: map[int]*stepper{}}
	t.mods[m] = mt
	t.bytes += moduleTableBytes
	mt.capabilities, mt.policy = m.HasCapabilityRequirements(), m.Policy()
	if m.Embedded {
		return // its one release is the request's DKP version (R5)
	}
	names := slices.Concat(model.Channels, slices.Sorted(maps.Keys(m.Channels)))
	for _, ch := range names {
		if hv := m.ChannelVersion(ch); hv != nil {
			mt.channels[ch] = headEntry{hv, headIndex(m.Releases, hv)}
		}
	}
	mt.newest = headEntry{newestFinal(m.Releases), -1}
	if mt.newest.version != nil {
		mt.newest.index = headIndex(m.Releases, mt.newest.version)
	}
	t.bytes += int64(len(mt.channels)) * headEntryBytes
	for _, h := range append(slices.Collect(maps.Values(mt.channels)), mt.newest) {
		t.addStepper(m, mt, h.index)
	}
	mt.dkp, mt.kube = make([]int32, len(m.Releases)), make([]int32, len(m.Releases))
	for i, r := range m.Releases {
		mt.dkp[i], mt.kube[i] = t.intern(r.Requirements.Deckhouse), t.intern(r.Requirements.Kubernetes)
		mt.platformGroups[axisDeckhouse] = addRelease(mt.platformGroups[axisDeckhouse], mt.dkp, i, r.Requirements.Deckhouse)
		mt.platformGroups[axisKubernetes] = addRelease(mt.platformGroups[axisKubernetes], mt.kube, i, r.Requirements.Kubernetes)
		t.bytes += 2 * intBytes
		mt.components = mt.components || len(r.Requirements.Platform) > 0
		mt.missingModules = mt.missingModules || requiresMissing(cat, r)
	}
	t.bytes += 8 * int64(len(m.Releases))
	mt.named, mt.boundless = namedBy(cat, m.Releases)
	t.bytes += int64(len(mt.named)) * stringBytes
	mt.every = t.indices(len(m.Releases))
	mt.requirements = compileRequirements(cat, m, mt.every)
	for _, g := range mt.requirements {
		t.bytes += reqGroupBytes + int64(len(g.poss))*intBytes + int64(len(g.at))*8
		if g.adm != nil {
			n := len(g.adm.target.Releases)
			t.bytes += int64(n + words(n)*8) // the check, once made: a bool and a bit per release
		}
	}
}

// namedBy lists, sorted, the modules the releases name (moduleTable.named),
// and whether a compound requirement of theirs is bounded by no atom.
func namedBy(cat *model.Catalog, rels []*model.Release) (named []string, boundless bool) {
	for _, r := range rels {
		req := r.Requirements
		for _, d := range req.Modules {
			named = append(named, d.Module)
		}
		for _, c := range req.Capabilities {
			named = append(named, cat.Providers(c)...)
		}
		for _, c := range req.Compound {
			modules, capabilities, bounded := c.Target().Names()
			boundless = boundless || !bounded
			if !bounded {
				continue
			}
			named = append(named, modules...)
			for _, cp := range capabilities {
				named = append(named, cat.Providers(cp)...)
			}
		}
	}
	slices.Sort(named)
	return slices.Compact(named), boundless
}

// textID is the interned requirement text of release i on platform axis.
func (mt *moduleTable) textID(axis, i int) int32 {
	if axis == axisKubernetes {
		return mt.kube[i]
	}
	return mt.dkp[i]
}

// addStepper compiles the update rule of m's releases under head.
func (t *tables) addStepper(m *model.Module, mt *moduleTable, head int) {
	if head < 0 || mt.steppers[head] != nil {
		return
	}
	st := newStepper(m.Releases, head, m, mt.policy, catalogPrereleases(m, t.named[m.Name]))
	st.memo = make([]atomic.Pointer[updateSteps], len(m.Releases))
	mt.steppers[head] = &st
	t.bytes += stepperBytes + intBytes*int64(len(st.eligible)+2*len(st.minors)+len(st.jumps)+len(st.memo))
}

// intern returns the id of c's text, or -1 for no constraint.
func (t *tables) intern(c *model.Constraint) int32 {
	if c == nil {
		return -1
	}
	id, ok := t.texts[c.Text]
	if !ok {
		id = int32(len(t.texts))
		t.texts[c.Text] = id
	}
	return id
}

// readBundles fills byBundle.
func (t *tables) readBundles(cat *model.Catalog) {
	for _, m := range cat.Modules() {
		for _, b := range bundlesOf(m) {
			if b != "" {
				t.byBundle[b] = append(t.byBundle[b], m)
			}
		}
	}
	for _, ms := range t.byBundle {
		t.bytes += intBytes * int64(len(ms))
	}
}

// bundlesOf lists, sorted, the bundles some accessibility data of m
// enables m in.
func bundlesOf(m *model.Module) []string {
	seen := map[string]bool{}
	read := func(a *model.Accessibility) {
		if a == nil {
			return
		}
		for _, e := range a.Editions {
			for _, b := range e.EnabledInBundles {
				seen[b] = true
			}
		}
	}
	read(m.Accessibility)
	if b := m.BuiltInSource(); b != "" {
		read(m.ForSource(b).Accessibility) // R29: its built-in copy's
	}
	for _, r := range m.Releases {
		read(r.Accessibility)
	}
	return slices.Sorted(maps.Keys(seen))
}

// releaseGroup is the releases of a module, ascending, that share one
// requirement text; its slice is full, so that appending copies it.
// Each group keeps its interned text and its first release's constraint,
// so that a request reads neither table nor release to check it.
type releaseGroup struct {
	rels []int
	text int32
	cons *model.Constraint
}

// addRelease adds release i, whose requirement is c, to the group of its
// text in ids, or starts one; releases without the requirement are in no
// group.
func addRelease(groups []releaseGroup, ids []int32, i int, c *model.Constraint) []releaseGroup {
	if ids[i] < 0 {
		return groups
	}
	for k := range groups {
		if groups[k].text == ids[i] {
			groups[k].rels = append(groups[k].rels, i)
			groups[k].rels = groups[k].rels[:len(groups[k].rels):len(groups[k].rels)]
			return groups
		}
	}
	return append(groups, releaseGroup{rels: []int{i}, text: ids[i], cons: c})
}

// requiresMissing reports whether r requires, not optionally, a module
// cat does not have.
func requiresMissing(cat *model.Catalog, r *model.Release) bool {
	for _, d := range r.Requirements.Modules {
		if !d.Constraint.Optional && cat.Module(d.Module) == nil {
			return true
		}
	}
	return false
}

// headIndex is the index of the highest release at or below hv, or -1.
func headIndex(rels []*model.Release, hv model.Version) int {
	return sort.Search(len(rels), func(i int) bool { return model.CompareVersions(rels[i].Version, hv) > 0 }) - 1
}

// readPlatformConstraints reads every constraint of cat that a platform
// version is checked against: DKP, Kubernetes and component requirements
// (R4, R22), requirements on built-in modules, whose version is DKP's,
// plain or in a compound requirement (R24), and the DKP ranges that
// choose a built-in module's settings schema (R34).
func readPlatformConstraints(cat *model.Catalog) platformConstraints {
	pc := platformConstraints{deckhouse: newAxis(), kubernetes: newAxis(), components: map[string]*axis{}}
	builtIn := func(name string) bool { m := cat.Module(name); return m != nil && m.MayBeBuiltIn() }
	readReqs := func(r model.Requirements) {
		pc.deckhouse.add(r.Deckhouse)
		pc.kubernetes.add(r.Kubernetes)
		if len(r.Platform) > 0 {
			for _, name := range slices.Sorted(maps.Keys(r.Platform)) {
				if pc.components[name] == nil {
					pc.components[name] = newAxis()
				}
				pc.components[name].add(r.Platform[name])
			}
		}
		for i := range r.Modules {
			if builtIn(r.Modules[i].Module) {
				pc.deckhouse.add(&r.Modules[i].Constraint)
			}
		}
		for _, c := range r.Compound {
			builtInAtoms(c.Predicate, builtIn, pc.deckhouse.add)
		}
	}
	for _, m := range cat.Modules() {
		readReqs(m.BuiltInRequirements())
		for _, r := range m.Releases {
			readReqs(r.Requirements)
		}
		for _, ps := range m.BuiltInSettings() {
			pc.deckhouse.add(ps.Deckhouse) // a built-in module's settings schema is its DKP version's (R34)
		}
	}
	return pc
}

// builtInAtoms calls add with the version constraint of every module atom
// of p that names a built-in module, whose version is DKP's (R24, R5).
func builtInAtoms(p *model.Predicate, builtIn func(string) bool, add func(*model.Constraint)) {
	if p == nil {
		return
	}
	if p.Op == model.PredicateModule && p.Version != nil && builtIn(p.Module) {
		add(p.Version)
	}
	for _, o := range p.Operands {
		builtInAtoms(o, builtIn, add)
	}
}

// table returns the compiled table of m; every module of the catalog has
// one.
func (t *tables) table(m *model.Module) *moduleTable { return t.mods[m] }

// newestFinal is the newest release that is not a prerelease, or the
// newest release when all are prereleases.
func newestFinal(rels []*model.Release) model.Version {
	return newestWhere(rels, func(r *model.Release) bool { return !model.IsPrerelease(r.Version) })
}

// The platforms whose requirements a release states as one constraint
// each (R4), in the order addStaticFacts reads them.
const (
	axisDeckhouse = iota
	axisKubernetes
)

// newestWhere is the newest release for which ok holds, or the newest
// release when it holds for none.
func newestWhere(rels []*model.Release, ok func(*model.Release) bool) model.Version {
	for i := len(rels) - 1; i >= 0; i-- {
		if ok(rels[i]) {
			return rels[i].Version
		}
	}
	if len(rels) > 0 {
		return rels[len(rels)-1].Version
	}
	return nil
}

// maxStates bounds the states a compiled catalog keeps memos of; the
// least recently asked is dropped first.
const maxStates = 8

// stateMemos are a compiled catalog's memos, by state and shape.
type stateMemos struct {
	mu    sync.Mutex
	seed  maphash.Seed
	order *list.List // of *stateMemo, most recently asked first
	byKey map[uint64][]*list.Element
}
