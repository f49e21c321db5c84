package solver

import (
	"fmt"

	"github.com/modsolver/modsolver/model"
)

// Settings the target release accepts (R34).
//
// A release whose settings schema refuses the module's settings in the
// cluster (converted, defaulted and validated as DKP's admission does:
// the settings package, through model.Release.CheckSettings) is forbidden
// by a static fact of its own, one per distinct problem, as an edition
// forbids a release (R7): it holds updates back (R17) and makes an
// install or a platform upgrade unsatisfiable when no other release
// serves. The release a module runs is not checked: DKP admitted its
// settings when they were written. A built-in module is checked only
// when the DKP version moves, against the schema of the version it moves
// to. A selected release whose schema requires a field the settings lack
// is a warning, not a refusal: DKP's release gate lets it through.

// addSettingsFacts forbids the releases of v whose schema refuses the
// cluster's settings of v. A module without settings costs one map
// lookup.
func (p *problem) addSettingsFacts(v *view) {
	st := p.cluster.Modules[v.name].Settings
	if st == nil {
		return
	}
	type group struct {
		problem model.SettingsProblem
		rels    []int
	}
	var groups []group
	for i, r := range v.rels {
		if !v.reads(i) || !p.checksSettings(v, i) {
			continue
		}
		verdict := r.CheckSettings(st)
		if verdict.Refused == nil {
			continue
		}
		if !v.recording() {
			v.allowed[i] = false
			continue
		}
		k := 0
		for k < len(groups) && groups[k].problem != *verdict.Refused {
			k++
		}
		if k == len(groups) {
			groups = append(groups, group{problem: *verdict.Refused})
		}
		groups[k].rels = append(groups[k].rels, i)
	}
	for k := range groups {
		g := &groups[k]
		p.forbid(v, model.FactSettings, g.rels, factShape{dep: g.problem.Path, settings: &g.problem})
	}
}

// checksSettings reports whether release i of v is one the module would
// move to: not the release it runs, and for a built-in module, only when
// the DKP version moves.
func (p *problem) checksSettings(v *view, i int) bool {
	if v.m.Embedded {
		return p.cluster.Deckhouse == nil || !model.SameVersion(model.Core(p.deckhouse), model.Core(p.cluster.Deckhouse))
	}
	return i != v.deployed
}

// settingsMessage renders a FactSettings fact.
func settingsMessage(f *fact) string {
	verb := "refuses"
	if len(f.rels) > 1 {
		verb = "refuse"
	}
	return fmt.Sprintf("%s %s %s the module's settings: %s", f.v.name, releasesText(f.v, f.rels), verb, f.settings)
}

// settingsShort names a settings fact in a few words.
func settingsShort(_ string, f model.Fact) string { return "settings " + f.Subject }

// changeTheSettings proposes settings that the refusing releases accept:
// verified by solving with the module's settings left unchecked, which is
// what any settings the schema accepts amount to.
// A built-in module's is named without its version, which is the DKP
// version the question asks about.
func changeTheSettings(_ *session, f *fact) [][]change {
	name, problem := f.v.name, f.settings
	rel, which := "", "the DKP version it moves to"
	if !f.v.m.Embedded {
		rel = model.VersionString(f.v.rels[f.rels[len(f.rels)-1]].Version)
		which = rel
	}
	return [][]change{{{
		sug: model.Suggestion{Kind: model.SuggestChangeSettings, Module: name, Version: rel,
			Message: fmt.Sprintf("change the settings of %s so that %s accepts them (%s)", name, which, problem)},
		apply: func(c *model.ClusterState, _ *model.Request) {
			st := c.Modules[name]
			st.Settings = nil
			c.Modules[name] = st
		},
	}}}
}

// settingsWarnings names what the module's settings mean for the
// releases the answer selects (R34): for each module that stays below its
// head while newer releases refuse its settings, which they are and the
// first problem, so that an answer which does not word its held-back
// reasons (a what-if matrix) still says what the settings cost; and for
// each release the answer moves a module to, the fields its schema
// requires that the settings lack.
func (p *problem) settingsWarnings(outs []*outcome) []model.Warning {
	var out []model.Warning
	for _, o := range outs {
		st := p.cluster.Modules[o.v.name].Settings
		if st == nil || o.sel < 0 {
			continue
		}
		if w, ok := refusedAbove(o, st); ok {
			out = append(out, w)
		}
		if !p.checksSettings(o.v, o.sel) {
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
