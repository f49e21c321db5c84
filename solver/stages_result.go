package solver

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// Module stages (R25) and disable confirmation (R26), as an answer says
// them: the warnings of its selected releases and the confirmation of a
// plan step.

// confirmStep adds to the step that disables o's module what R26 asks:
// the module's message and the annotation DKP waits for.
func confirmStep(st *model.PlanStep, o *outcome) {
	if o.action != model.ActionDisable || !o.v.confirmsDisable() {
		return
	}
	st.ConfirmationMessage = o.v.runningRelease().Disable.Message
	st.ConfirmationAnnotation = model.AllowDisablingAnnotation
}

// warnings names every selected Deprecated release (R25), every
// deployed version the catalog does not list (D73), every refused release
// newer than a selected one (D348), in the order of outs,
// which is module name order, and the loops the answer keeps running
// (R27), each with its least module.
func warnings(outs []*outcome, loops []model.Warning) []model.Warning {
	out := releaseWarnings(outs)
	if len(loops) == 0 {
		return out
	}
	out = append(out, loops...)
	slices.SortStableFunc(out, func(a, b model.Warning) int {
		return cmp.Or(cmp.Compare(a.Module, b.Module), cmp.Compare(a.Kind, b.Kind))
	})
	return out
}

// releaseWarnings are the warnings of single releases: Deprecated ones,
// deployed versions the catalog does not list, and refused releases newer
// than the selected one (refused.go).
func releaseWarnings(outs []*outcome) []model.Warning {
	var out []model.Warning
	for _, o := range outs {
		if o.v.unlisted {
			out = append(out, unlistedWarning(o))
		}
		out = append(out, refusedWarnings(o)...)
		if o.sel < 0 || o.v.rels[o.sel].Stage != model.StageDeprecated {
			continue
		}
		out = append(out, deprecatedWarning(o.v.name, o.v.rels[o.sel].Version, o.v.m.Ecosystem))
	}
	return out
}

// deprecatedWarning says that module name runs Deprecated release ver
// (R25), in the words of the ecosystem the module comes from.
func deprecatedWarning(name string, ver model.Version, eco model.Ecosystem) model.Warning {
	text := model.VersionString(ver)
	return model.Warning{Kind: model.WarningDeprecated, Module: name, Version: text,
		Message: fmt.Sprintf("%s %s is Deprecated: %s", name, text, eco.DeprecatedNote())}
}

// unlistedWarning says that a module runs a version the catalog does not
// list, and what that means for the answer (D73).
func unlistedWarning(o *outcome) model.Warning {
	v := o.v
	ver := v.versionText(v.deployed)
	msg := fmt.Sprintf("%s is deployed at %s, which the catalog does not list: its requirements are unknown, so none are checked while it stays", v.name, ver)
	switch {
	case o.sel < 0:
		msg = fmt.Sprintf("%s is deployed at %s, which the catalog does not list: its requirements are unknown; the answer disables it", v.name, ver)
	case o.sel != v.deployed:
		msg = fmt.Sprintf("%s is deployed at %s, which the catalog does not list: the update starts from it, and its requirements are unknown", v.name, ver)
	}
	return model.Warning{Kind: model.WarningUnknownVersion, Module: v.name, Version: ver, Message: msg}
}
