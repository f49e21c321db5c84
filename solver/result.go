package solver

import (
	"fmt"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// outcome is one module's final state, read from the optimal model.
type outcome struct {
	v      *view
	sel    int // selected release index, -1 when off
	action model.Action
	// detached: a frozen module left out of the encoding (detach.go).
	detached bool
}

func actionOf(o *outcome) model.Action {
	v := o.v
	switch {
	case v.src.leftPlatform && o.sel < 0:
		return model.ActionDisable // it ran built in (R29)
	case !v.before && o.sel < 0:
		return model.ActionAbsent
	case !v.before:
		return model.ActionInstall
	case o.sel < 0:
		return model.ActionDisable
	}
	switch c := model.CompareVersions(v.rels[o.sel].Version, v.deployedVersion()); {
	case c > 0:
		return model.ActionUpdate
	case c < 0:
		return model.ActionDowngrade
	}
	return model.ActionKeep
}

// path lists the update steps from the deployed version (or from the
// chosen version, for an install) up to the head (R11, D14), as release
// indices.
func (s *session) path(o *outcome) []int {
	v := o.v
	if o.sel < 0 || v.m.Embedded || v.head < 0 {
		return nil
	}
	if v.src.free {
		return freePath(v, o.sel)
	}
	var idx []int
	from := v.deployed
	if !v.before {
		idx, from = []int{o.sel}, o.sel
	}
	switch {
	case from >= v.head:
	case s.p.in.stepped(v):
		if from == v.deployed && from >= 0 {
			idx = append(idx, v.steps().path...)
		} else {
			idx = append(idx, newStepper(v.rels, v.head, v.m, v.policy(), v.takes).path(from, v.head)...)
		}
	default:
		idx = append(idx, v.head)
	}
	return idx
}

// belowHead reports whether the outcome leaves the module below its head.
func (o *outcome) belowHead() bool {
	v := o.v
	if o.sel < 0 {
		return v.intent == intentDefaultOn || (v.configuredOn && !v.before)
	}
	_, hv := v.headFor(o.sel)
	return hv != nil && model.CompareVersions(v.rels[o.sel].Version, hv) < 0
}

// runningLoops warns of every circle of refusing modules the answer
// keeps (R27): the cluster ran it before, and DKP does not refuse what
// it already runs. outs are the answer's outcomes in name order.
func runningLoops(p *problem, outs []*outcome) []model.Warning {
	lt := &p.in.compiled.t.loops
	if len(lt.loops) == 0 {
		return nil
	}
	sel := make(map[string]*outcome, len(outs))
	for _, o := range outs {
		if o.sel >= 0 {
			sel[o.v.name] = o
		}
	}
	var out []model.Warning
	for _, l := range lt.loops {
		closed := true
		for i, name := range l.members {
			o := sel[name]
			next := l.members[(i+1)%len(l.members)]
			if o == nil || !model.LoopEdge(o.v.m, o.v.rels[o.sel].Requirements, next) {
				closed = false
				break
			}
		}
		if closed {
			out = append(out, model.Warning{Kind: model.WarningDependencyLoop, Module: l.members[0],
				Message: fmt.Sprintf("dependency cycle through: %s: the cluster runs these modules in a dependency loop, which is refused for any new release; the answer keeps their releases, and none of them may move to another release that keeps the loop", l.text())})
		}
	}
	return out
}

// settingsWarnings names what the module's settings mean for the
// releases the answer selects (R34): for each module that stays below its
// head while newer releases refuse its settings, which they are and the
// first problem, so that an answer which does not word its held-back
// reasons (a what-if matrix) still says what the settings cost; and for
// each release the answer moves a module to, the fields its schema
// requires that the settings lack.
func (in *inputs) settingsWarnings(outs []*outcome) []model.Warning {
	var out []model.Warning
	for _, o := range outs {
		st := in.cluster.Modules[o.v.name].Settings
		if st == nil || o.sel < 0 {
			continue
		}
		if w, ok := refusedAbove(o, st); ok {
			out = append(out, w)
		}
		if !in.checksSettings(o.v, o.sel) {
			continue
		}
		r := o.v.rels[o.sel]
		for _, m := range r.CheckSettings(st).Missing {
			ver := model.VersionString(r.Version)
			out = append(out, model.Warning{Kind: model.WarningSettingsRequired, Module: o.v.name, Version: ver,
				Message: fmt.Sprintf("%s %s requires %s, which the module's settings lack: DKP's release gate lets the update through, and the next edit of the module's ModuleConfig must set it", o.v.name, ver, m.Path)})
		}
	}
	return out
}

// refusedAbove is the warning that the releases above o's, up to its
// head, refuse the module's settings (prereleases aside, unless o's is
// one); false when none does or the module is not one the answer may
// move.
func refusedAbove(o *outcome, st *model.Settings) (model.Warning, bool) {
	v := o.v
	if v.m.Embedded || (v.before && !v.inUpdate && v.pinned < 0) || !o.belowHead() {
		return model.Warning{}, false
	}
	head, _ := v.headFor(o.sel)
	var refused []int
	var first *model.SettingsProblem
	for i := o.sel + 1; i <= head && i < len(v.rels); i++ {
		r := v.rels[i]
		if !v.sameSource(i, o.sel) || (model.IsPrerelease(r.Version) && !model.IsPrerelease(v.rels[o.sel].Version)) {
			continue
		}
		if verdict := r.CheckSettings(st); verdict.Refused != nil {
			refused = append(refused, i)
			if first == nil {
				first = verdict.Refused
			}
		}
	}
	if len(refused) == 0 {
		return model.Warning{}, false
	}
	ver := v.versionText(o.sel)
	return model.Warning{Kind: model.WarningSettingsRefused, Module: v.name, Version: ver,
		Message: fmt.Sprintf("%s stays at %s: the module's settings are refused by %s (%s)", v.name, ver, releasesText(v, refused), first)}, true
}

// answerWarnings are the warnings of an answer beyond its releases' own:
// what the modules' settings mean (R34) and a preview or end-of-life
// Kubernetes minor (R31).
func (in *inputs) answerWarnings(outs []*outcome) []model.Warning {
	out := in.settingsWarnings(outs)
	if w, ok := in.kubernetesStatusWarning(); ok {
		out = append(out, w)
	}
	return out
}

// refusedWarnings warns of the refused releases of o's module newer
// than the release o selects, the releases the answer might have taken,
// and of the one it keeps, when the cluster runs a refused release (D73
// keeps a deployed version the catalog does not list).
func refusedWarnings(o *outcome) []model.Warning {
	if o.sel < 0 || o.v.m.Embedded {
		return nil
	}
	var out []model.Warning
	for _, r := range o.v.m.Refusals() {
		if model.CompareVersions(r.Version, o.v.rels[o.sel].Version) >= 0 {
			out = append(out, refusedWarning(o.v.name, r))
		}
	}
	return out
}

// outcomes reads the fast encoding's model back: every module's
// outcome, in name order (final), those the answer lists (outs), those
// that may warn, listed or not (warned), and how many kept modules an
// answer of the changes only counts instead of listing (unchanged).
func (s *session) outcomes() (outs, warned []*outcome, unchanged int) {
	n := len(s.fast.mods) + len(s.fast.detached) // at most this many outcomes
	all := make([]outcome, 0, n)                 // one allocation for every outcome; never grows
	outs = make([]*outcome, 0, n)
	s.final = make(map[*view]int, n)
	changes := s.p.in.req.ChangesOnly()
	warned = make([]*outcome, 0, n) // every outcome that may warn, listed or not
	add := func(v *view, sel int, detached bool) {
		all = append(all, outcome{v: v, sel: sel, detached: detached})
		o := &all[len(all)-1]
		s.final[v] = sel
		o.action = actionOf(o)
		if sel >= 0 || v.unlisted {
			warned = append(warned, o)
		}
		switch {
		case changes && o.action == model.ActionKeep:
			unchanged++ // counted, never rendered: no path, no held-back reason
		case changes && !o.action.Changes():
		case o.action != model.ActionAbsent || v.intent == intentDefaultOn || v.configuredOn || v.src.leftPlatform:
			outs = append(outs, o)
		}
	}
	detached := s.fast.detached
	for _, mv := range s.fast.mods {
		for len(detached) > 0 && detached[0].name < mv.v.name {
			add(detached[0], detached[0].deployed, true)
			detached = detached[1:]
		}
		add(mv.v, s.fast.release(mv), false)
	}
	for _, v := range detached {
		add(v, v.deployed, true)
	}
	return outs, warned, unchanged
}

// withKept merges into modules, both by name, the results the state memo
// rendered of kept, frozen modules the encoding left without views: an
// answer that lists every module lists them as the memo's neutral request
// did (statememo.go).
func (s *session) withKept(modules []model.ModuleResult, kept []*frozenModule) []model.ModuleResult {
	if len(kept) == 0 {
		return modules
	}
	out := make([]model.ModuleResult, 0, len(modules)+len(kept))
	for _, r := range modules {
		for len(kept) > 0 && kept[0].name < r.Name {
			out = append(out, s.keptResult(kept[0]))
			kept = kept[1:]
		}
		out = append(out, r)
	}
	for _, f := range kept {
		out = append(out, s.keptResult(f))
	}
	return out
}

// coreRefusals warns of every refused release of the modules an
// unsatisfiable answer's facts name: the module of each fact, and the
// module a requirement fact requires.
func (in *inputs) coreRefusals(core []*fact) []model.Warning {
	var names []string
	for _, f := range core {
		if f.v != nil {
			names = append(names, f.v.name)
		}
		if f.kind == model.FactModuleRequirement || f.kind == model.FactMissingModule {
			names = append(names, f.dep)
		}
	}
	slices.Sort(names)
	var out []model.Warning
	for _, name := range slices.Compact(names) {
		if m := in.cat.Module(name); m != nil {
			for _, r := range m.Refusals() {
				out = append(out, refusedWarning(name, r))
			}
		}
	}
	return out
}
