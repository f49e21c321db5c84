package server

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/readiness"
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
	model.FactPlatformRequirement:   modsolverv1.FactKind_FACT_KIND_PLATFORM_REQUIREMENT,
	model.FactCapabilityRequirement: modsolverv1.FactKind_FACT_KIND_CAPABILITY_REQUIREMENT,
	model.FactMissingCapability:     modsolverv1.FactKind_FACT_KIND_MISSING_CAPABILITY,
	model.FactCapabilityConflict:    modsolverv1.FactKind_FACT_KIND_CAPABILITY_CONFLICT,
	model.FactExperimental:          modsolverv1.FactKind_FACT_KIND_EXPERIMENTAL,
	model.FactCompoundRequirement:   modsolverv1.FactKind_FACT_KIND_COMPOUND_REQUIREMENT,
	model.FactCompoundConflict:      modsolverv1.FactKind_FACT_KIND_COMPOUND_CONFLICT,
	model.FactSource:                modsolverv1.FactKind_FACT_KIND_SOURCE,
	model.FactDependencyLoop:        modsolverv1.FactKind_FACT_KIND_DEPENDENCY_LOOP,
	model.FactSettings:              modsolverv1.FactKind_FACT_KIND_SETTINGS,
	model.FactPlatformKubernetes:    modsolverv1.FactKind_FACT_KIND_PLATFORM_KUBERNETES,
	model.FactPlatformGate:          modsolverv1.FactKind_FACT_KIND_PLATFORM_GATE,
	model.FactPlatformRelease:       modsolverv1.FactKind_FACT_KIND_PLATFORM_RELEASE,
	model.FactPlatformRoute:         modsolverv1.FactKind_FACT_KIND_PLATFORM_ROUTE,
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
	model.SuggestUpgradePlatform:   modsolverv1.SuggestionKind_SUGGESTION_KIND_UPGRADE_PLATFORM,
	model.SuggestAllowExperimental: modsolverv1.SuggestionKind_SUGGESTION_KIND_ALLOW_EXPERIMENTAL,
	model.SuggestMoveSource:        modsolverv1.SuggestionKind_SUGGESTION_KIND_MOVE_SOURCE,
	model.SuggestCombined:          modsolverv1.SuggestionKind_SUGGESTION_KIND_COMBINED,
	model.SuggestChangeSettings:    modsolverv1.SuggestionKind_SUGGESTION_KIND_CHANGE_SETTINGS,
}

var warningKindToProto = map[model.WarningKind]modsolverv1.WarningKind{
	model.WarningDeprecated:        modsolverv1.WarningKind_WARNING_KIND_DEPRECATED,
	model.WarningUnknownVersion:    modsolverv1.WarningKind_WARNING_KIND_UNKNOWN_VERSION,
	model.WarningNormalisedVersion: modsolverv1.WarningKind_WARNING_KIND_NORMALISED_VERSION,
	model.WarningDependencyLoop:    modsolverv1.WarningKind_WARNING_KIND_DEPENDENCY_LOOP,
	model.WarningSettingsRequired:  modsolverv1.WarningKind_WARNING_KIND_SETTINGS_REQUIRED,
	model.WarningSettingsRefused:   modsolverv1.WarningKind_WARNING_KIND_SETTINGS_REFUSED,
	model.WarningKubernetesStatus:  modsolverv1.WarningKind_WARNING_KIND_KUBERNETES_STATUS,
}

var groupKindToProto = map[model.GroupKind]modsolverv1.GroupKind{
	model.GroupAnyOf:  modsolverv1.GroupKind_GROUP_KIND_ANY_OF,
	model.GroupNoneOf: modsolverv1.GroupKind_GROUP_KIND_NONE_OF,
}

var packageTypeToProto = map[model.PackageType]modsolverv1.PackageType{
	model.PackageModule:      modsolverv1.PackageType_PACKAGE_TYPE_MODULE,
	model.PackageApplication: modsolverv1.PackageType_PACKAGE_TYPE_APPLICATION,
}

// groupToProto converts a DKP v2 group (R28); nil for none.
func groupToProto(g *model.Group) *modsolverv1.ModuleGroup {
	if g == nil {
		return nil
	}
	return &modsolverv1.ModuleGroup{Kind: groupKindToProto[g.Kind], Name: g.Name, Description: g.Description}
}

var stageToProto = map[model.Stage]modsolverv1.Stage{
	model.StageGeneralAvailability: modsolverv1.Stage_STAGE_GENERAL_AVAILABILITY,
	model.StagePreview:             modsolverv1.Stage_STAGE_PREVIEW,
	model.StageExperimental:        modsolverv1.Stage_STAGE_EXPERIMENTAL,
	model.StageDeprecated:          modsolverv1.Stage_STAGE_DEPRECATED,
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

// kib is n bytes in KiB, rounded up, capped at the largest uint32.
func kib(n int64) uint32 { return uint32(min((max(n, 0)+1023)/1024, math.MaxUint32)) }

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
			MemoryKib:   kib(res.Stats.MemoryBytes),
			Unchanged:   uint32(res.Stats.Unchanged),
		},
	}
	if len(res.Modules) > 0 {
		out.Modules = make([]*modsolverv1.ModuleResult, len(res.Modules))
		slab := make([]modsolverv1.ModuleResult, len(res.Modules)) // one allocation for every module
		for i := range res.Modules {
			out.Modules[i] = &slab[i]
			moduleResultToProto(&slab[i], &res.Modules[i])
		}
	}
	if len(res.Plan) > 0 {
		out.Plan = make([]*modsolverv1.PlanStep, len(res.Plan))
		slab := make([]modsolverv1.PlanStep, len(res.Plan))
		for i := range res.Plan {
			out.Plan[i] = &slab[i]
			planStepToProto(&slab[i], &res.Plan[i])
		}
	}
	for _, a := range res.Assumptions {
		out.Assumptions = append(out.Assumptions, &modsolverv1.Assumption{Gate: a.Gate, Subject: a.Subject, Needs: a.Needs, Message: a.Message})
	}
	for _, w := range res.Warnings {
		out.Warnings = append(out.Warnings, &modsolverv1.Warning{Kind: warningKindToProto[w.Kind], Module: w.Module, Version: w.Version, Message: w.Message})
	}
	for i := range res.Route {
		out.Route = append(out.Route, routeStepToProto(&res.Route[i]))
	}
	return out
}

// routeStepToProto converts one step of a route (R33).
func routeStepToProto(s *model.RouteStep) *modsolverv1.RouteStep {
	out := &modsolverv1.RouteStep{Deckhouse: s.Deckhouse, Kubernetes: s.Kubernetes, Requirements: slices.Clone(s.Requirements)}
	for i := range s.Modules {
		var p modsolverv1.PlanStep
		planStepToProto(&p, &s.Modules[i])
		out.Modules = append(out.Modules, &p)
	}
	return out
}

// moduleResultToProto fills out, a zero message, from m.
func moduleResultToProto(out *modsolverv1.ModuleResult, m *model.ModuleResult) {
	out.Name = m.Name
	out.Action = actionProto(m.Action)
	out.FromVersion, out.ToVersion, out.ChannelHead = m.FromVersion, m.ToVersion, m.ChannelHead
	out.HeldBack, out.PathNote = m.HeldBack, m.PathNote
	out.FromSource, out.ToSource, out.Moved = m.FromSource, m.ToSource, m.Moved
	if len(m.Path) > 0 {
		out.Path = append([]string(nil), m.Path...)
	}
}

// planStepToProto fills out, a zero message, from s.
func planStepToProto(out *modsolverv1.PlanStep, s *model.PlanStep) {
	out.Module = s.Module
	out.Action = actionProto(s.Action)
	out.FromVersion, out.ToVersion = s.FromVersion, s.ToVersion
	out.ConfirmationMessage, out.ConfirmationAnnotation = s.ConfirmationMessage, s.ConfirmationAnnotation
	out.FromSource, out.ToSource = s.FromSource, s.ToSource
	out.CycleWith = slices.Clone(s.CycleWith)
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
				Requires:   f.Requires,
				Subject:    f.Subject,
				Group:      groupToProto(f.Group),
				Versions:   slices.Clone(f.Versions),
				Origin:     originToProto(f.Origin),

				EcosystemMessage: f.EcosystemMessage,
			})
		}
	}
	for _, st := range e.Steps {
		out.Steps = append(out.Steps, stepToProto(st))
	}
	if len(e.Suggestions) > 0 {
		out.Suggestions = suggestionsToProto(e.Suggestions)
	}
	return out
}

// originToProto converts where a fact was read from; nil when nothing is
// known of it.
func originToProto(o model.Origin) *modsolverv1.Origin {
	if o.IsZero() {
		return nil
	}
	return &modsolverv1.Origin{File: o.File, Line: int32(o.Line), Field: o.Field, Object: o.Object}
}

// stepToProto converts one step of a derivation.
func stepToProto(st model.Step) *modsolverv1.ExplanationStep {
	facts := make([]int32, len(st.Facts))
	for i, n := range st.Facts {
		facts[i] = int32(n)
	}
	return &modsolverv1.ExplanationStep{Facts: facts, After: int32(st.After), Module: st.Module,
		Needs: st.Needs, Constraint: st.Constraint, Conclusion: st.Conclusion}
}

// suggestionsToProto converts suggestions, a combined one with its parts.
func suggestionsToProto(sugs []model.Suggestion) []*modsolverv1.Suggestion {
	out := make([]*modsolverv1.Suggestion, 0, len(sugs))
	for _, s := range sugs {
		p := &modsolverv1.Suggestion{
			Kind:    suggestionKindProto(s.Kind),
			Module:  s.Module,
			Version: s.Version,
			Message: s.Message,
		}
		if len(s.Changes) > 0 {
			p.Changes = suggestionsToProto(s.Changes)
		}
		out = append(out, p)
	}
	return out
}

// catalogRef reads the catalog oneof of a request: the name of a served
// catalog, or an inline catalog document.
type catalogRef struct {
	name     string
	inline   string
	isInline bool
	// sources are several served catalogs as sources (R23).
	sources []*modsolverv1.SourceRef
}

func catalogRefOf(oneof any) catalogRef {
	switch c := oneof.(type) {
	case *modsolverv1.ResolveRequest_CatalogName:
		return catalogRef{name: c.CatalogName}
	case *modsolverv1.ResolveRequest_InlineCatalog:
		return catalogRef{inline: c.InlineCatalog, isInline: true}
	case *modsolverv1.WhatIfRequest_CatalogName:
		return catalogRef{name: c.CatalogName}
	case *modsolverv1.WhatIfRequest_InlineCatalog:
		return catalogRef{inline: c.InlineCatalog, isInline: true}
	case *modsolverv1.ExplainRequest_CatalogName:
		return catalogRef{name: c.CatalogName}
	case *modsolverv1.ExplainRequest_InlineCatalog:
		return catalogRef{inline: c.InlineCatalog, isInline: true}
	}
	return catalogRef{} // unset: the default catalog
}

// parseVersion reads an optional version: "" is nil. A bad one is a
// *model.FieldError at field.
func parseVersion(field model.Path, text string) (model.Version, error) {
	if text == "" {
		return nil, nil
	}
	v, err := model.ParseVersion(text)
	if err != nil {
		return nil, &model.FieldError{Path: field, Err: err}
	}
	return v, nil
}

// clusterFromProto converts a cluster state. It reports every version it
// cannot read; what the versions mean is checked later, by the solver.
func clusterFromProto(pc *modsolverv1.ClusterState) (*model.ClusterState, error) {
	if pc == nil {
		return nil, &model.FieldError{Path: model.Field("cluster"), Err: fmt.Errorf("%w: the cluster state is required", model.ErrMissingField)}
	}
	var errs model.InputErrors
	// The versions the cluster runs are releases, patch included (D412).
	running := func(field model.Path, text string) model.Version {
		if text == "" {
			return nil
		}
		v, err := model.ParseRunningVersion(text)
		if err != nil {
			errs = append(errs, &model.FieldError{Path: field, Err: err})
		}
		return v
	}
	out := &model.ClusterState{
		Deckhouse:      running(model.Field("cluster", "deckhouse"), pc.GetDeckhouse()),
		Kubernetes:     running(model.Field("cluster", "kubernetes"), pc.GetKubernetes()),
		Edition:        pc.GetEdition(),
		Bundle:         pc.GetBundle(),
		ReleaseChannel: pc.GetReleaseChannel(),

		AllowExperimentalModules:   pc.GetAllowExperimentalModules(),
		AllowedExperimentalModules: slices.Clone(pc.GetAllowedExperimentalModules()),
		KubernetesAutomatic:        pc.GetKubernetesAutomatic(),
		Facts:                      maps.Clone(pc.GetFacts()),
	}
	out.Modules, errs = modulesFromProto(pc.GetModules(), errs)
	out.Platform = componentsFromProto(model.Field("cluster", "platform"), pc.GetPlatform(), &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// modulesFromProto converts the module states of a cluster, adding the
// fields it cannot read to errs in module name order. A field's path is
// spelled out only for an error: a request carries one per module.
func modulesFromProto(in map[string]*modsolverv1.ModuleState, errs model.InputErrors) (map[string]model.ModuleState, model.InputErrors) {
	out := make(map[string]model.ModuleState, len(in))
	var bad []string // the modules with a field that cannot be read
	for name, pm := range in {
		v, verr := parseVersion(nil, pm.GetVersion())
		settings, serr := settingsFromProto(nil, pm)
		if verr != nil || serr != nil {
			bad = append(bad, name)
		}
		s := model.ModuleState{Version: v, Channel: pm.GetChannel(), Source: pm.GetSource(), Settings: settings}
		if pm.Enabled != nil {
			s.Enabled = new(pm.GetEnabled())
		}
		out[name] = s
	}
	slices.Sort(bad)
	for _, name := range bad {
		field := model.Field("cluster", "modules").Key(name)
		if _, err := parseVersion(field.Field("version"), in[name].GetVersion()); err != nil {
			errs = append(errs, err)
		}
		if _, err := settingsFromProto(field, in[name]); err != nil {
			errs = append(errs, err)
		}
	}
	return out, errs
}

// settingsFromProto reads a module's ModuleConfig settings (R34): nil when
// the state gives neither settings nor a settings version, as in the
// cluster state file. A bad one is a *model.FieldError under module, the
// module's path.
func settingsFromProto(module model.Path, pm *modsolverv1.ModuleState) (*model.Settings, error) {
	if pm.GetSettings() == nil && pm.GetSettingsVersion() == 0 {
		return nil, nil
	}
	s, err := model.NewSettings(int(pm.GetSettingsVersion()), pm.GetSettings().AsMap())
	if err != nil {
		field := "settings"
		if pm.GetSettingsVersion() < 0 {
			field = "settingsVersion"
		}
		return nil, &model.FieldError{Path: module.Field(field), Err: err}
	}
	return s, nil
}

// settingsToProto renders a module's settings; nil for none.
func settingsToProto(s *model.Settings) *structpb.Struct {
	if s == nil {
		return nil
	}
	// NewSettings has checked that JSON holds the values; JSON is also
	// the one way to a Struct that takes every value it accepts.
	text, err := json.Marshal(s.Values)
	if err != nil {
		panic(fmt.Sprintf("internal error: settings: %v", err))
	}
	out := &structpb.Struct{}
	if err := protojson.Unmarshal(text, out); err != nil {
		panic(fmt.Sprintf("internal error: settings: %v", err))
	}
	return out
}

// componentsFromProto reads platform component versions (R22), adding
// what it cannot read to errs; nil for none.
func componentsFromProto(field model.Path, in map[string]string, errs *model.InputErrors) map[string]model.Version {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]model.Version, len(in))
	for _, name := range slices.Sorted(maps.Keys(in)) {
		v, err := parseVersion(field.Key(name), in[name])
		if err != nil {
			*errs = append(*errs, err)
			continue
		}
		out[name] = v
	}
	return out
}

// componentsToProto renders platform component versions; nil for none.
func componentsToProto(in map[string]model.Version) map[string]string {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]string, len(in))
	for name, v := range in {
		out[name] = model.VersionString(v)
	}
	return out
}

// requestFromProto converts a request; nil is the empty request, which
// asks for nothing but a consistent answer. With the versions it cannot
// read, it also returns the request without them, for the checks that
// can still be made of its other fields (D413).
func requestFromProto(pr *modsolverv1.Request) (*model.Request, error) {
	out := &model.Request{
		Enable:       slices.Clone(pr.GetEnable()),
		Disable:      slices.Clone(pr.GetDisable()),
		Update:       slices.Clone(pr.GetUpdate()),
		UpdateAll:    pr.GetUpdateAll(),
		Strategy:     model.Strategy(pr.GetStrategy()),
		AllowDisable: pr.GetAllowDisable(),
		AutoEnable:   pr.GetAutoEnable(),
		Report:       model.Report(pr.GetReport()),
		Sources:      maps.Clone(pr.GetSources()),
		Devel:        pr.GetDevel(),
	}
	var errs model.InputErrors
	var err error
	if out.Platform.Deckhouse, err = parseVersion(model.Field("request", "platform", "deckhouse"), pr.GetPlatform().GetDeckhouse()); err != nil {
		errs = append(errs, err)
	}
	if out.Platform.Kubernetes, err = parseVersion(model.Field("request", "platform", "kubernetes"), pr.GetPlatform().GetKubernetes()); err != nil {
		errs = append(errs, err)
	}
	out.Platform.Components = componentsFromProto(model.Field("request", "platform", "components"), pr.GetPlatform().GetComponents(), &errs)
	if len(pr.GetPin()) > 0 {
		out.Pin = make(map[string]model.Version, len(pr.GetPin()))
	}
	for _, name := range slices.Sorted(maps.Keys(pr.GetPin())) {
		v, err := parseVersion(model.Field("request", "pin").Key(name), pr.GetPin()[name])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out.Pin[name] = v
	}
	return out, errs.Err()
}

// ClusterProto converts a model cluster state into its proto form, for
// clients and tests that hold model values.
func ClusterProto(c *model.ClusterState) *modsolverv1.ClusterState {
	if c == nil {
		return nil
	}
	out := &modsolverv1.ClusterState{
		Deckhouse:      model.VersionString(c.Deckhouse),
		Kubernetes:     model.VersionString(c.Kubernetes),
		Edition:        c.Edition,
		Bundle:         c.Bundle,
		ReleaseChannel: c.ReleaseChannel,
		Platform:       componentsToProto(c.Platform),

		AllowExperimentalModules:   c.AllowExperimentalModules,
		AllowedExperimentalModules: slices.Clone(c.AllowedExperimentalModules),
		KubernetesAutomatic:        c.KubernetesAutomatic,
		Facts:                      maps.Clone(c.Facts),
	}
	if len(c.Modules) > 0 {
		out.Modules = make(map[string]*modsolverv1.ModuleState, len(c.Modules))
	}
	for name, s := range c.Modules {
		pm := &modsolverv1.ModuleState{Version: model.VersionString(s.Version), Channel: s.Channel, Source: s.Source}
		if s.Settings != nil {
			pm.Settings = settingsToProto(s.Settings)
			pm.SettingsVersion = int32(min(s.Settings.Version, math.MaxInt32))
		}
		if s.Enabled != nil {
			pm.Enabled = new(*s.Enabled)
		}
		out.Modules[name] = pm
	}
	return out
}

// RequestProto converts a model request into its proto form, for clients
// and tests that hold model values.
func RequestProto(r *model.Request) *modsolverv1.Request {
	if r == nil {
		return nil
	}
	out := &modsolverv1.Request{
		Enable:       slices.Clone(r.Enable),
		Disable:      slices.Clone(r.Disable),
		Update:       slices.Clone(r.Update),
		UpdateAll:    r.UpdateAll,
		Strategy:     string(r.Strategy),
		AllowDisable: r.AllowDisable,
		AutoEnable:   r.AutoEnable,
		Report:       string(r.Report),
		Sources:      maps.Clone(r.Sources),
		Devel:        r.Devel,
	}
	if r.Platform.Deckhouse != nil || r.Platform.Kubernetes != nil || len(r.Platform.Components) > 0 {
		out.Platform = &modsolverv1.Platform{
			Deckhouse:  model.VersionString(r.Platform.Deckhouse),
			Kubernetes: model.VersionString(r.Platform.Kubernetes),
			Components: componentsToProto(r.Platform.Components),
		}
	}
	if len(r.Pin) > 0 {
		out.Pin = make(map[string]string, len(r.Pin))
	}
	for name, v := range r.Pin {
		out.Pin[name] = model.VersionString(v)
	}
	return out
}

// explainToProto keeps what Explain returns of a result: no module list
// and no plan.
func explainToProto(res *model.Result) *modsolverv1.ExplainResponse {
	full := resultToProto(res)
	return &modsolverv1.ExplainResponse{Status: full.GetStatus(), Explanation: full.GetExplanation(), Stats: full.GetStats()}
}

// catalogInfoToProto describes a served catalog, with counts taken from
// the catalog itself.
func catalogInfoToProto(c *Catalog, isDefault bool) *modsolverv1.CatalogInfo {
	out := &modsolverv1.CatalogInfo{
		Name:    c.Name,
		Source:  c.Source,
		Format:  c.Format,
		Notes:   slices.Clone(c.Notes),
		Default: isDefault,
	}
	if c.compiled != nil {
		st := c.compiled.Stats()
		out.CompileMicros, out.CompiledBytes = uint64(st.Duration.Microseconds()), uint64(st.Bytes)
	}
	for _, m := range c.Catalog.Modules() {
		out.Modules++
		if m.Embedded {
			out.BuiltInModules++
		}
		for _, r := range m.Releases {
			out.Releases++
			if model.IsPrerelease(r.Version) {
				out.Prereleases++
			}
		}
	}
	return out
}

// moduleToProto converts one catalog module.
func moduleToProto(m *model.Module) *modsolverv1.Module {
	out := &modsolverv1.Module{
		Name:           m.Name,
		BuiltIn:        m.Embedded,
		Weight:         int32(min(max(m.Weight, math.MinInt32), math.MaxInt32)),
		ExclusiveGroup: m.ExclusiveGroup,
		Requirements:   requirementsToProto(m.Requirements),
		DefaultChannel: m.DefaultChannel,
		Type:           packageTypeToProto[m.Type],
		Critical:       m.Critical,
	}
	if m.Embedded {
		out.Stage, out.Disable = stageToProto[m.Stage], disableToProto(m.Disable)
	}
	if len(m.Channels) > 0 {
		out.Channels = make(map[string]string, len(m.Channels))
	}
	for ch, v := range m.Channels {
		out.Channels[ch] = model.VersionString(v)
	}
	if len(m.ChannelSets) > 0 {
		out.ChannelSets = make(map[string]*modsolverv1.ChannelSet, len(m.ChannelSets))
	}
	for ch, set := range m.ChannelSets {
		out.ChannelSets[ch] = &modsolverv1.ChannelSet{Entries: model.VersionStrings(set.Entries), Skipped: model.VersionStrings(set.Skipped)}
	}
	for _, r := range m.Releases {
		pr := &modsolverv1.Release{Version: model.VersionString(r.Version), Requirements: requirementsToProto(r.Requirements)}
		for _, u := range r.UpdateRules {
			pr.UpdateRules = append(pr.UpdateRules, &modsolverv1.UpdateRule{From: u.From.String(), To: u.To.String()})
		}
		pr.Provides = slices.Clone(r.Provides)
		pr.Edges = edgesToProto(r.Edges)
		pr.Stage, pr.Disable = stageToProto[r.Stage], disableToProto(r.Disable)
		out.Releases = append(out.Releases, pr)
	}
	return out
}

// disableToProto converts a disable declaration (R26); nil when it asks
// for nothing.
func disableToProto(d model.Disable) *modsolverv1.Disable {
	if d == (model.Disable{}) {
		return nil
	}
	return &modsolverv1.Disable{Confirmation: d.Confirmation, Message: d.Message}
}

// edgesToProto converts a release's update edges; nil for none.
func edgesToProto(e *model.UpdateEdges) *modsolverv1.UpdateEdges {
	if e == nil {
		return nil
	}
	out := &modsolverv1.UpdateEdges{Replaces: model.VersionString(e.Replaces), Skips: model.VersionStrings(e.Skips)}
	if e.SkipRange != nil {
		out.SkipRange = e.SkipRange.Text
	}
	return out
}

// requirementsToProto gives nil for no requirements at all.
func requirementsToProto(r model.Requirements) *modsolverv1.Requirements {
	if r.Deckhouse == nil && r.Kubernetes == nil && len(r.Modules) == 0 && len(r.Capabilities) == 0 && len(r.Platform) == 0 && len(r.Compound) == 0 {
		return nil
	}
	out := &modsolverv1.Requirements{Capabilities: slices.Clone(r.Capabilities), Compound: compoundToProto(r.Compound)}
	for name, c := range r.Platform {
		if out.Platform == nil {
			out.Platform = make(map[string]string, len(r.Platform))
		}
		out.Platform[name] = c.Text
	}
	if r.Deckhouse != nil {
		out.Deckhouse = r.Deckhouse.Text
	}
	if r.Kubernetes != nil {
		out.Kubernetes = r.Kubernetes.Text
	}
	if len(r.Modules) > 0 {
		out.Modules = make(map[string]string, len(r.Modules))
	}
	for _, d := range r.Modules {
		out.Modules[d.Module] = d.Constraint.Text
	}
	return out
}

// whatIfResultToProto is the result of scenario i: its answer, or what
// makes it bad input, in the words of BadInput; with its group and
// blockers (R30), whose scenario indices index maps from the cell's
// batch to the request's.
func whatIfResultToProto(i int, name string, c readiness.Cell, index func(int) int) *modsolverv1.WhatIfResult {
	out := &modsolverv1.WhatIfResult{Index: uint32(i), Name: name, Group: proto.Uint32(uint32(index(c.Group)))}
	if c.Answer.Err != nil {
		out.Error = BadInput(c.Answer.Err)
		return out
	}
	out.Response = resultToProto(c.Answer.Result)
	for _, b := range c.Blockers {
		out.Blockers = append(out.Blockers, &modsolverv1.Blocker{
			Module: b.Module, Severity: severityToProto[b.Severity], FirstScenario: uint32(index(b.First)), Accepted: b.Accepted,
		})
	}
	return out
}

// severityToProto maps each R30 severity to its enum.
var severityToProto = map[model.Severity]modsolverv1.Severity{
	model.SeverityError:   modsolverv1.Severity_SEVERITY_ERROR,
	model.SeverityWarning: modsolverv1.Severity_SEVERITY_WARNING,
}

// The enum tables backwards, for answers read back from their proto form
// (ResultFromProto); the proto UNSPECIFIED value, in no table, reads as
// the model's zero value.
var (
	statusFromProto         = invert(statusToProto)
	actionFromProto         = invert(actionToProto)
	factKindFromProto       = invert(factKindToProto)
	suggestionKindFromProto = invert(suggestionKindToProto)
	warningKindFromProto    = invert(warningKindToProto)
	groupKindFromProto      = invert(groupKindToProto)
)

func invert[K, V comparable](m map[K]V) map[V]K {
	out := make(map[V]K, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}

// enumFromProto reads p by table; a value this build does not know is
// added to errs, at the path field spells (only then: a result has many
// enum fields).
func enumFromProto[P ~int32, M any](table map[P]M, p P, field func() model.Path, errs *model.InputErrors) M {
	m, ok := table[p]
	if !ok && p != 0 {
		*errs = append(*errs, &model.FieldError{Path: field(), Err: fmt.Errorf("%w: %d is no value this build knows", model.ErrInvalidValue, p)})
	}
	return m
}

// ResultFromProto converts a response back into the model result that
// resultToProto rendered it from, for a client that holds answers in
// their proto or protojson form: whatif merge reads a batch's shards
// back so. Converting the result to proto again gives the response
// again, stats included (memory comes back in whole KiB, which is what
// the response holds). An enum value this build does not know is bad
// input, at its field's path under "response".
func ResultFromProto(pr *modsolverv1.ResolveResponse) (*model.Result, error) {
	if pr == nil {
		return nil, nil
	}
	var errs model.InputErrors
	at := model.Field("response")
	st := pr.GetStats()
	out := &model.Result{
		Status:      enumFromProto(statusFromProto, pr.GetStatus(), func() model.Path { return at.Field("status") }, &errs),
		Explanation: explanationFromProto(pr.GetExplanation(), at.Field("explanation"), &errs),
		Stats: model.Stats{
			Variables:   int(st.GetVariables()),
			Clauses:     int(st.GetClauses()),
			Solves:      int(st.GetSolves()),
			SolveMicros: int64(st.GetSolveMicros()),
			MemoryBytes: int64(st.GetMemoryKib()) * 1024,
			Unchanged:   int(st.GetUnchanged()),
		},
	}
	for i, m := range pr.GetModules() {
		out.Modules = append(out.Modules, model.ModuleResult{
			Name:        m.GetName(),
			Action:      enumFromProto(actionFromProto, m.GetAction(), func() model.Path { return at.Field("modules").Index(i).Field("action") }, &errs),
			FromVersion: m.GetFromVersion(), ToVersion: m.GetToVersion(), ChannelHead: m.GetChannelHead(),
			HeldBack: m.GetHeldBack(), PathNote: m.GetPathNote(), Path: slices.Clone(m.GetPath()),
			FromSource: m.GetFromSource(), ToSource: m.GetToSource(), Moved: m.GetMoved(),
		})
	}
	for i, s := range pr.GetPlan() {
		out.Plan = append(out.Plan, planStepFromProto(s, at.Field("plan").Index(i), &errs))
	}
	for _, a := range pr.GetAssumptions() {
		out.Assumptions = append(out.Assumptions, model.Assumption{Gate: a.GetGate(), Subject: a.GetSubject(), Needs: a.GetNeeds(), Message: a.GetMessage()})
	}
	for i, w := range pr.GetWarnings() {
		kind := enumFromProto(warningKindFromProto, w.GetKind(), func() model.Path { return at.Field("warnings").Index(i).Field("kind") }, &errs)
		out.Warnings = append(out.Warnings, model.Warning{Kind: kind, Module: w.GetModule(), Version: w.GetVersion(), Message: w.GetMessage()})
	}
	for i, s := range pr.GetRoute() {
		step := model.RouteStep{Deckhouse: s.GetDeckhouse(), Kubernetes: s.GetKubernetes(), Requirements: slices.Clone(s.GetRequirements())}
		for k, p := range s.GetModules() {
			step.Modules = append(step.Modules, planStepFromProto(p, at.Field("route").Index(i).Field("modules").Index(k), &errs))
		}
		out.Route = append(out.Route, step)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func planStepFromProto(s *modsolverv1.PlanStep, field model.Path, errs *model.InputErrors) model.PlanStep {
	return model.PlanStep{
		Module:              s.GetModule(),
		Action:              enumFromProto(actionFromProto, s.GetAction(), func() model.Path { return field.Field("action") }, errs),
		FromVersion:         s.GetFromVersion(),
		ToVersion:           s.GetToVersion(),
		ConfirmationMessage: s.GetConfirmationMessage(), ConfirmationAnnotation: s.GetConfirmationAnnotation(),
		FromSource: s.GetFromSource(), ToSource: s.GetToSource(),
		CycleWith: slices.Clone(s.GetCycleWith()),
	}
}

func explanationFromProto(pe *modsolverv1.Explanation, field model.Path, errs *model.InputErrors) *model.Explanation {
	if pe == nil {
		return nil
	}
	out := &model.Explanation{Summary: pe.GetSummary(), Suggestions: suggestionsFromProto(pe.GetSuggestions(), field.Field("suggestions"), errs)}
	for i, f := range pe.GetFacts() {
		at := field.Field("facts").Index(i)
		fact := model.Fact{
			Kind:   enumFromProto(factKindFromProto, f.GetKind(), func() model.Path { return at.Field("kind") }, errs),
			Module: f.GetModule(), Version: f.GetVersion(), Constraint: f.GetConstraint(), Message: f.GetMessage(),
			Requires: f.GetRequires(), Subject: f.GetSubject(), EcosystemMessage: f.GetEcosystemMessage(),
			Versions: slices.Clone(f.GetVersions()), Origin: originFromProto(f.GetOrigin()),
		}
		if g := f.GetGroup(); g != nil {
			fact.Group = &model.Group{Kind: enumFromProto(groupKindFromProto, g.GetKind(), func() model.Path { return at.Field("group", "kind") }, errs), Name: g.GetName(), Description: g.GetDescription()}
		}
		out.Facts = append(out.Facts, fact)
	}
	for _, st := range pe.GetSteps() {
		out.Steps = append(out.Steps, stepFromProto(st))
	}
	return out
}

// originFromProto reads where a fact was read from; the zero Origin for
// none.
func originFromProto(o *modsolverv1.Origin) model.Origin {
	return model.Origin{File: o.GetFile(), Line: int(o.GetLine()), Field: o.GetField(), Object: o.GetObject()}
}

// stepFromProto reads one step of a derivation.
func stepFromProto(st *modsolverv1.ExplanationStep) model.Step {
	var facts []int
	for _, n := range st.GetFacts() {
		facts = append(facts, int(n))
	}
	return model.Step{Facts: facts, After: int(st.GetAfter()), Module: st.GetModule(),
		Needs: st.GetNeeds(), Constraint: st.GetConstraint(), Conclusion: st.GetConclusion()}
}

// suggestionsFromProto converts suggestions, a combined one with its
// parts; nil for none.
func suggestionsFromProto(ps []*modsolverv1.Suggestion, field model.Path, errs *model.InputErrors) []model.Suggestion {
	var out []model.Suggestion
	for i, p := range ps {
		out = append(out, model.Suggestion{
			Kind:   enumFromProto(suggestionKindFromProto, p.GetKind(), func() model.Path { return field.Index(i).Field("kind") }, errs),
			Module: p.GetModule(), Version: p.GetVersion(), Message: p.GetMessage(),
			Changes: suggestionsFromProto(p.GetChanges(), field.Index(i).Field("changes"), errs),
		})
	}
	return out
}
