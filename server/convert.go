package server

import (
	"math"

	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// The enum tables below map every model enum value to its proto value. A
// value missing from a table converts to the proto UNSPECIFIED value; the
// tests check that each table covers every model value.

var statusToProto = map[model.Status]modsolverv1.Status{
	model.StatusResolved:      modsolverv1.Status_STATUS_RESOLVED,
	model.StatusUnsatisfiable: modsolverv1.Status_STATUS_UNSATISFIABLE,
}

var actionToProto = map[model.Action]modsolverv1.Action{
	model.ActionInstall:   modsolverv1.Action_ACTION_INSTALL,
	model.ActionUpdate:    modsolverv1.Action_ACTION_UPDATE,
	model.ActionKeep:      modsolverv1.Action_ACTION_KEEP,
	model.ActionDisable:   modsolverv1.Action_ACTION_DISABLE,
	model.ActionDowngrade: modsolverv1.Action_ACTION_DOWNGRADE,
	model.ActionAbsent:    modsolverv1.Action_ACTION_ABSENT,
}

var factKindToProto = map[model.FactKind]modsolverv1.FactKind{
	model.FactRequestEnable:         modsolverv1.FactKind_FACT_KIND_REQUEST_ENABLE,
	model.FactRequestDisable:        modsolverv1.FactKind_FACT_KIND_REQUEST_DISABLE,
	model.FactRequestPin:            modsolverv1.FactKind_FACT_KIND_REQUEST_PIN,
	model.FactClusterEnabled:        modsolverv1.FactKind_FACT_KIND_CLUSTER_ENABLED,
	model.FactClusterDisabled:       modsolverv1.FactKind_FACT_KIND_CLUSTER_DISABLED,
	model.FactNotEnabled:            modsolverv1.FactKind_FACT_KIND_NOT_ENABLED,
	model.FactKeepVersion:           modsolverv1.FactKind_FACT_KIND_KEEP_VERSION,
	model.FactNoDowngrade:           modsolverv1.FactKind_FACT_KIND_NO_DOWNGRADE,
	model.FactChannelHead:           modsolverv1.FactKind_FACT_KIND_CHANNEL_HEAD,
	model.FactUpdateStep:            modsolverv1.FactKind_FACT_KIND_UPDATE_STEP,
	model.FactModuleRequirement:     modsolverv1.FactKind_FACT_KIND_MODULE_REQUIREMENT,
	model.FactDeckhouseRequirement:  modsolverv1.FactKind_FACT_KIND_DECKHOUSE_REQUIREMENT,
	model.FactKubernetesRequirement: modsolverv1.FactKind_FACT_KIND_KUBERNETES_REQUIREMENT,
	model.FactEdition:               modsolverv1.FactKind_FACT_KIND_EDITION,
	model.FactExclusiveGroup:        modsolverv1.FactKind_FACT_KIND_EXCLUSIVE_GROUP,
	model.FactMissingModule:         modsolverv1.FactKind_FACT_KIND_MISSING_MODULE,
	model.FactPrerelease:            modsolverv1.FactKind_FACT_KIND_PRERELEASE,
	model.FactPreference:            modsolverv1.FactKind_FACT_KIND_PREFERENCE,
}

var suggestionKindToProto = map[model.SuggestionKind]modsolverv1.SuggestionKind{
	model.SuggestUpgradeKubernetes: modsolverv1.SuggestionKind_SUGGESTION_KIND_UPGRADE_KUBERNETES,
	model.SuggestUpgradeDeckhouse:  modsolverv1.SuggestionKind_SUGGESTION_KIND_UPGRADE_DECKHOUSE,
	model.SuggestEnableModule:      modsolverv1.SuggestionKind_SUGGESTION_KIND_ENABLE_MODULE,
	model.SuggestUpdateModule:      modsolverv1.SuggestionKind_SUGGESTION_KIND_UPDATE_MODULE,
	model.SuggestDisableModule:     modsolverv1.SuggestionKind_SUGGESTION_KIND_DISABLE_MODULE,
	model.SuggestDirectStrategy:    modsolverv1.SuggestionKind_SUGGESTION_KIND_DIRECT_STRATEGY,
	model.SuggestChangeChannel:     modsolverv1.SuggestionKind_SUGGESTION_KIND_CHANGE_CHANNEL,
	model.SuggestChangeEdition:     modsolverv1.SuggestionKind_SUGGESTION_KIND_CHANGE_EDITION,
	model.SuggestAutoEnable:        modsolverv1.SuggestionKind_SUGGESTION_KIND_AUTO_ENABLE,
	model.SuggestPinModule:         modsolverv1.SuggestionKind_SUGGESTION_KIND_PIN_MODULE,
}

func statusProto(s model.Status) modsolverv1.Status {
	return statusToProto[s] // zero value is STATUS_UNSPECIFIED
}

func actionProto(a model.Action) modsolverv1.Action {
	return actionToProto[a] // zero value is ACTION_UNSPECIFIED
}

func factKindProto(k model.FactKind) modsolverv1.FactKind {
	return factKindToProto[k] // zero value is FACT_KIND_UNSPECIFIED
}

func suggestionKindProto(k model.SuggestionKind) modsolverv1.SuggestionKind {
	return suggestionKindToProto[k] // zero value is SUGGESTION_KIND_UNSPECIFIED
}

// resultToProto converts a model result into its proto response. A nil
// result converts to nil.
func resultToProto(res *model.Result) *modsolverv1.ResolveResponse {
	if res == nil {
		return nil
	}
	out := &modsolverv1.ResolveResponse{
		Status:      statusProto(res.Status),
		Explanation: explanationToProto(res.Explanation),
		Stats: &modsolverv1.Stats{
			Variables:   uint32(res.Stats.Variables),
			Clauses:     uint32(res.Stats.Clauses),
			Solves:      uint32(res.Stats.Solves),
			SolveMicros: uint32(min(res.Stats.SolveMicros, math.MaxUint32)),
		},
	}
	if len(res.Modules) > 0 {
		out.Modules = make([]*modsolverv1.ModuleResult, 0, len(res.Modules))
		for i := range res.Modules {
			out.Modules = append(out.Modules, moduleResultToProto(&res.Modules[i]))
		}
	}
	if len(res.Plan) > 0 {
		out.Plan = make([]*modsolverv1.PlanStep, 0, len(res.Plan))
		for i := range res.Plan {
			out.Plan = append(out.Plan, planStepToProto(&res.Plan[i]))
		}
	}
	return out
}

func moduleResultToProto(m *model.ModuleResult) *modsolverv1.ModuleResult {
	out := &modsolverv1.ModuleResult{
		Name:        m.Name,
		Action:      actionProto(m.Action),
		FromVersion: m.FromVersion,
		ToVersion:   m.ToVersion,
		ChannelHead: m.ChannelHead,
		HeldBack:    m.HeldBack,
	}
	if len(m.Path) > 0 {
		out.Path = append([]string(nil), m.Path...)
	}
	return out
}

func planStepToProto(s *model.PlanStep) *modsolverv1.PlanStep {
	return &modsolverv1.PlanStep{
		Module:      s.Module,
		Action:      actionProto(s.Action),
		FromVersion: s.FromVersion,
		ToVersion:   s.ToVersion,
	}
}

func explanationToProto(e *model.Explanation) *modsolverv1.Explanation {
	if e == nil {
		return nil
	}
	out := &modsolverv1.Explanation{Summary: e.Summary}
	if len(e.Facts) > 0 {
		out.Facts = make([]*modsolverv1.Fact, 0, len(e.Facts))
		for _, f := range e.Facts {
			out.Facts = append(out.Facts, &modsolverv1.Fact{
				Kind:       factKindProto(f.Kind),
				Module:     f.Module,
				Version:    f.Version,
				Constraint: f.Constraint,
				Message:    f.Message,
			})
		}
	}
	if len(e.Suggestions) > 0 {
		out.Suggestions = make([]*modsolverv1.Suggestion, 0, len(e.Suggestions))
		for _, s := range e.Suggestions {
			out.Suggestions = append(out.Suggestions, &modsolverv1.Suggestion{
				Kind:    suggestionKindProto(s.Kind),
				Module:  s.Module,
				Version: s.Version,
				Message: s.Message,
			})
		}
	}
	return out
}
