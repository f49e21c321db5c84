package solver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Releases an ecosystem refuses (R27's loop of one, D347, D348): the
// importer set them aside, so no answer selects one, and an answer that
// would have taken one says so, in the ecosystem's words, with a
// dependency-loop warning; the facts of a module left without a release,
// and of a pin on a refused release, name the refusal too.

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

// coreRefusals warns of every refused release of the modules an
// unsatisfiable answer's facts name: the module of each fact, and the
// module a requirement fact requires.
func (p *problem) coreRefusals(core []*fact) []model.Warning {
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
		if m := p.cat.Module(name); m != nil {
			for _, r := range m.Refusals() {
				out = append(out, refusedWarning(name, r))
			}
		}
	}
	return out
}

// refusedWarning says that release r of module name is refused, and why.
func refusedWarning(name string, r model.RefusedRelease) model.Warning {
	text := model.VersionString(r.Version)
	return model.Warning{Kind: model.WarningDependencyLoop, Module: name, Version: text,
		Message: refusedText(name, []model.RefusedRelease{r})}
}

// refusedAdmitted completes the sentence that no release of d meets
// constraint c of v with the refused releases c would admit: the
// releases that would have met it ("; vault 1.0.0 is refused: …"); ""
// for none.
func (p *problem) refusedAdmitted(v *view, c *model.Constraint, d *view) string {
	var admitted []model.RefusedRelease
	for _, r := range d.m.Refusals() {
		if p.admits(v, c, d, r.Version) {
			admitted = append(admitted, r)
		}
	}
	if len(admitted) == 0 {
		return ""
	}
	return "; " + refusedText(d.name, admitted)
}

// refusedText names refusals of module name, each with its reason.
func refusedText(name string, rs []model.RefusedRelease) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s %s is refused: %s", name, model.VersionString(r.Version), r.Reason)
	}
	return strings.Join(parts, "; ")
}
