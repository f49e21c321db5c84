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
func (rf ruleFacts) addSettingsFacts(v *view) {
	p := rf.p
	st := p.in.cluster.Modules[v.name].Settings
	if st == nil {
		return
	}
	type group struct {
		problem model.SettingsProblem
		rels    []int
	}
	var groups []group
	for i, r := range v.rels {
		if !v.reads(i) || !p.in.checksSettings(v, i) {
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
