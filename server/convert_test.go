package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// protoName is the proto enum value name expected for a model enum's string
// form: "module-requirement" with prefix "FACT_KIND_" gives
// "FACT_KIND_MODULE_REQUIREMENT".
func protoName(prefix, modelName string) string {
	return prefix + strings.ToUpper(strings.ReplaceAll(modelName, "-", "_"))
}

// enumCase is one model enum value with its conversion and expected name.
type enumCase struct {
	model     string // the model value's String()
	protoNum  int32
	protoName string // the converted value's proto name
}

func checkEnum(t *testing.T, prefix string, cases []enumCase, protoValues map[int32]string) {
	t.Helper()
	// Every proto value but UNSPECIFIED is reached by exactly one model value.
	require.Len(t, cases, len(protoValues)-1, "model and proto enums differ in size")
	seen := map[int32]string{}
	for _, c := range cases {
		t.Run(c.model, func(t *testing.T) {
			assert.NotZero(t, c.protoNum, "%s maps to UNSPECIFIED", c.model)
			assert.Equal(t, protoName(prefix, c.model), c.protoName)
			if prev, dup := seen[c.protoNum]; dup {
				assert.Failf(t, "duplicate mapping", "%s and %s both map to %s", prev, c.model, c.protoName)
			}
			seen[c.protoNum] = c.model
		})
	}
}

func TestStatusMapping(t *testing.T) {
	var cases []enumCase
	for s := model.StatusResolved; s <= model.StatusUnsatisfiable; s++ {
		p := statusProto(s)
		cases = append(cases, enumCase{s.String(), int32(p), p.String()})
	}
	// Guard the loop bounds: the value after the last one is not a status.
	require.Equal(t, "unspecified", (model.StatusUnsatisfiable + 1).String())
	assert.Equal(t, modsolverv1.Status_STATUS_UNSPECIFIED, statusProto(model.StatusUnspecified))
	checkEnum(t, "STATUS_", cases, modsolverv1.Status_name)
}

func TestActionMapping(t *testing.T) {
	var cases []enumCase
	for a := model.ActionInstall; a <= model.ActionAbsent; a++ {
		p := actionProto(a)
		cases = append(cases, enumCase{a.String(), int32(p), p.String()})
	}
	require.Equal(t, "unspecified", (model.ActionAbsent + 1).String())
	assert.Equal(t, modsolverv1.Action_ACTION_UNSPECIFIED, actionProto(model.ActionUnspecified))
	checkEnum(t, "ACTION_", cases, modsolverv1.Action_name)
}

func TestFactKindMapping(t *testing.T) {
	var cases []enumCase
	for _, k := range model.FactKinds() {
		p := factKindProto(k)
		cases = append(cases, enumCase{k.String(), int32(p), p.String()})
	}
	assert.Equal(t, modsolverv1.FactKind_FACT_KIND_UNSPECIFIED, factKindProto(model.FactUnspecified))
	checkEnum(t, "FACT_KIND_", cases, modsolverv1.FactKind_name)

	// The example from the contract, spelled out.
	assert.Equal(t, "FACT_KIND_MODULE_REQUIREMENT", factKindProto(model.FactModuleRequirement).String())
}

func TestSuggestionKindMapping(t *testing.T) {
	var cases []enumCase
	for k := model.SuggestUpgradeKubernetes; k <= model.SuggestChangeSettings; k++ {
		p := suggestionKindProto(k)
		cases = append(cases, enumCase{k.String(), int32(p), p.String()})
	}
	require.Equal(t, "unspecified", (model.SuggestChangeSettings + 1).String())
	assert.Equal(t, modsolverv1.SuggestionKind_SUGGESTION_KIND_UNSPECIFIED, suggestionKindProto(model.SuggestUnspecified))
	checkEnum(t, "SUGGESTION_KIND_", cases, modsolverv1.SuggestionKind_name)

	assert.Equal(t, "SUGGESTION_KIND_UPGRADE_KUBERNETES", suggestionKindProto(model.SuggestUpgradeKubernetes).String())
}

func TestWarningKindMapping(t *testing.T) {
	var cases []enumCase
	for _, k := range model.WarningKinds() {
		p := warningKindToProto[k]
		cases = append(cases, enumCase{k.String(), int32(p), p.String()})
	}
	checkEnum(t, "WARNING_KIND_", cases, modsolverv1.WarningKind_name)
}

func TestSeverityMapping(t *testing.T) {
	var cases []enumCase
	for _, k := range model.Severities() {
		p := severityToProto[k]
		cases = append(cases, enumCase{k.String(), int32(p), p.String()})
	}
	checkEnum(t, "SEVERITY_", cases, modsolverv1.Severity_name)
}

func TestGroupKindMapping(t *testing.T) {
	names := map[model.GroupKind]string{model.GroupAnyOf: "any-of", model.GroupNoneOf: "none-of"}
	var cases []enumCase
	for _, k := range model.GroupKinds {
		p := groupKindToProto[k]
		cases = append(cases, enumCase{names[k], int32(p), p.String()})
	}
	checkEnum(t, "GROUP_KIND_", cases, modsolverv1.GroupKind_name)
}

func TestPackageTypeMapping(t *testing.T) {
	var cases []enumCase
	for _, k := range []model.PackageType{model.PackageModule, model.PackageApplication} {
		p := packageTypeToProto[k]
		cases = append(cases, enumCase{k.String(), int32(p), p.String()})
	}
	checkEnum(t, "PACKAGE_TYPE_", cases, modsolverv1.PackageType_name)
}

// R28: a group travels as a structured message, on a fact and on the
// requirement GetModule shows.
func TestGroupConvert(t *testing.T) {
	g := &model.Group{Kind: model.GroupNoneOf, Name: "legacy-cni", Description: "one CNI"}
	want := &modsolverv1.ModuleGroup{Kind: modsolverv1.GroupKind_GROUP_KIND_NONE_OF, Name: "legacy-cni", Description: "one CNI"}
	e := explanationToProto(&model.Explanation{Facts: []model.Fact{{Kind: model.FactCompoundConflict, Group: g}, {Kind: model.FactClusterEnabled}}})
	assert.True(t, proto.Equal(want, e.GetFacts()[0].GetGroup()))
	assert.Nil(t, e.GetFacts()[1].GetGroup())
	c := model.NewGroup(model.GroupNoneOf, "legacy-cni", "one CNI", []*model.Predicate{{Op: model.PredicateModule, Module: "cni-flannel"}})
	m := moduleToProto(&model.Module{Name: "cni-cilium", Type: model.PackageModule, Critical: true, Embedded: true, Requirements: model.Requirements{Compound: []model.CompoundRequirement{c}}})
	assert.True(t, proto.Equal(want, m.GetRequirements().GetCompound()[0].GetGroup()))
	assert.True(t, m.GetRequirements().GetCompound()[0].GetConflict())
	assert.Equal(t, modsolverv1.PackageType_PACKAGE_TYPE_MODULE, m.GetType())
	assert.True(t, m.GetCritical())
}

func TestStageMapping(t *testing.T) {
	var cases []enumCase
	for _, s := range model.Stages() {
		p := stageToProto[s]
		cases = append(cases, enumCase{strings.ReplaceAll(s.String(), " ", "-"), int32(p), p.String()})
	}
	checkEnum(t, "STAGE_", cases, modsolverv1.Stage_name)
}

// TestStagesConvert covers R25 and R26 across the wire: the cluster's
// setting both ways, warnings, and the confirmed disable of a plan step.
func TestStagesConvert(t *testing.T) {
	pc := ClusterProto(&model.ClusterState{AllowExperimentalModules: true})
	assert.True(t, pc.GetAllowExperimentalModules())
	c, err := clusterFromProto(&modsolverv1.ClusterState{Deckhouse: "1.74.0", Kubernetes: "1.31.0", AllowExperimentalModules: true})
	require.NoError(t, err)
	assert.True(t, c.AllowExperimentalModules)

	res := resultToProto(&model.Result{
		Status:   model.StatusResolved,
		Plan:     []model.PlanStep{{Module: "cni-a", Action: model.ActionDisable, ConfirmationMessage: "stops networking", ConfirmationAnnotation: model.AllowDisablingAnnotation}},
		Warnings: []model.Warning{{Kind: model.WarningDeprecated, Module: "legacy", Version: "1.0.0", Message: "legacy 1.0.0 is Deprecated"}},
	})
	require.Len(t, res.GetWarnings(), 1)
	assert.Equal(t, modsolverv1.WarningKind_WARNING_KIND_DEPRECATED, res.GetWarnings()[0].GetKind())
	assert.Equal(t, "legacy", res.GetWarnings()[0].GetModule())
	assert.Equal(t, "stops networking", res.GetPlan()[0].GetConfirmationMessage())
	assert.Equal(t, model.AllowDisablingAnnotation, res.GetPlan()[0].GetConfirmationAnnotation())

	m := moduleToProto(&model.Module{Name: "lab", Releases: []*model.Release{{Version: model.MustParseVersion("0.2.0"), Stage: model.StageExperimental, Disable: model.Disable{Confirmation: true, Message: "m"}}}})
	assert.Equal(t, modsolverv1.Stage_STAGE_EXPERIMENTAL, m.GetReleases()[0].GetStage())
	assert.True(t, m.GetReleases()[0].GetDisable().GetConfirmation())
}

// TestSettingsConvert covers R34 across the wire: a module's ModuleConfig
// settings and settings version reach the model with the digest the
// model gives the same settings, and come back from it.
func TestSettingsConvert(t *testing.T) {
	values := map[string]any{"a": map[string]any{"b": 1}}
	st, err := structpb.NewStruct(values)
	require.NoError(t, err)
	c, err := clusterFromProto(&modsolverv1.ClusterState{Modules: map[string]*modsolverv1.ModuleState{
		"x":    {Enabled: proto.Bool(true), Settings: st, SettingsVersion: 2},
		"none": {Enabled: proto.Bool(true)},
	}})
	require.NoError(t, err)
	want, err := model.NewSettings(2, values)
	require.NoError(t, err)
	got := c.Modules["x"].Settings
	require.NotNil(t, got)
	assert.Equal(t, 2, got.Version)
	assert.Equal(t, want.Digest(), got.Digest())
	assert.Nil(t, c.Modules["none"].Settings, "no settings: no schema is checked")

	back := ClusterProto(c).GetModules()
	assert.Equal(t, int32(2), back["x"].GetSettingsVersion())
	assert.Equal(t, map[string]any{"a": map[string]any{"b": 1.0}}, back["x"].GetSettings().AsMap())
	assert.Nil(t, back["none"].GetSettings())
	again, err := clusterFromProto(ClusterProto(c))
	require.NoError(t, err)
	assert.Equal(t, want.Digest(), again.Modules["x"].Settings.Digest())
}

func TestSettingsConvertErrors(t *testing.T) {
	_, err := clusterFromProto(&modsolverv1.ClusterState{Modules: map[string]*modsolverv1.ModuleState{
		"b": {Settings: &structpb.Struct{}, SettingsVersion: -1},
		"a": {Version: "bad", SettingsVersion: -2},
	}})
	assertFields(t, err, `cluster.modules["a"].version`, `cluster.modules["a"].settings_version`, `cluster.modules["b"].settings_version`)
	require.True(t, errors.Is(err, model.ErrInvalidInput))
}

func TestModuleToProtoChannelSets(t *testing.T) {
	v := model.MustParseVersion
	m := moduleToProto(&model.Module{Name: "etcd", Channels: map[string]model.Version{"stable": v("1.0.0"), "fast": v("1.1.0")},
		ChannelSets: map[string]*model.ChannelSet{"stable": {Entries: []model.Version{v("0.9.0"), v("1.0.0")}, Skipped: []model.Version{v("0.9.0")}}}})
	require.Contains(t, m.GetChannelSets(), "stable")
	assert.Equal(t, []string{"0.9.0", "1.0.0"}, m.GetChannelSets()["stable"].GetEntries())
	assert.Equal(t, []string{"0.9.0"}, m.GetChannelSets()["stable"].GetSkipped())
	assert.NotContains(t, m.GetChannelSets(), "fast", "a channel without a set is only its version (D182)")
}

func resolvedResult() *model.Result {
	return &model.Result{
		Status: model.StatusResolved,
		Modules: []model.ModuleResult{
			{
				Name:        "cert-manager",
				Action:      model.ActionUpdate,
				FromVersion: "1.10.0",
				ToVersion:   "1.12.0",
				ChannelHead: "1.13.0",
				HeldBack:    "kubernetes 1.29 required",
				Path:        []string{"1.11.0", "1.12.0"},
			},
			{
				Name:        "ingress-nginx",
				Action:      model.ActionKeep,
				FromVersion: "2.0.0",
				ToVersion:   "2.0.0",
			},
			{
				Name:     "monitoring",
				Action:   model.ActionInstall,
				HeldBack: "",
				Path:     nil,
			},
		},
		Plan: []model.PlanStep{
			{Module: "cert-manager", Action: model.ActionUpdate, FromVersion: "1.10.0", ToVersion: "1.11.0"},
			{Module: "cert-manager", Action: model.ActionUpdate, FromVersion: "1.11.0", ToVersion: "1.12.0"},
		},
		Stats: model.Stats{Variables: 42, Clauses: 99, Solves: 3, SolveMicros: 1234, MemoryBytes: 2049},
	}
}

func unsatResult() *model.Result {
	return &model.Result{
		Status: model.StatusUnsatisfiable,
		Explanation: &model.Explanation{
			Summary: "a requires b, b is disabled",
			Facts: []model.Fact{
				{Kind: model.FactModuleRequirement, Module: "a", Version: "1.0.0", Constraint: "b >= 1.0", Message: "a 1.0.0 requires b >= 1.0", Requires: "b", Subject: "b"},
				{Kind: model.FactRequestDisable, Module: "b", Message: "the request disables b"},
			},
			Suggestions: []model.Suggestion{
				{Kind: model.SuggestEnableModule, Module: "b", Version: "1.0.0", Message: "enable b"},
			},
		},
		Stats: model.Stats{Variables: 5, Clauses: 7, Solves: 2, SolveMicros: 10},
	}
}

func TestResultToProtoFields(t *testing.T) {
	got := Response(resolvedResult())
	want := &modsolverv1.ResolveResponse{
		Status: modsolverv1.Status_STATUS_RESOLVED,
		Modules: []*modsolverv1.ModuleResult{
			{
				Name:        "cert-manager",
				Action:      modsolverv1.Action_ACTION_UPDATE,
				FromVersion: "1.10.0",
				ToVersion:   "1.12.0",
				ChannelHead: "1.13.0",
				HeldBack:    "kubernetes 1.29 required",
				Path:        []string{"1.11.0", "1.12.0"},
			},
			{Name: "ingress-nginx", Action: modsolverv1.Action_ACTION_KEEP, FromVersion: "2.0.0", ToVersion: "2.0.0"},
			{Name: "monitoring", Action: modsolverv1.Action_ACTION_INSTALL},
		},
		Plan: []*modsolverv1.PlanStep{
			{Module: "cert-manager", Action: modsolverv1.Action_ACTION_UPDATE, FromVersion: "1.10.0", ToVersion: "1.11.0"},
			{Module: "cert-manager", Action: modsolverv1.Action_ACTION_UPDATE, FromVersion: "1.11.0", ToVersion: "1.12.0"},
		},
		Stats: &modsolverv1.Stats{Variables: 42, Clauses: 99, Solves: 3, SolveMicros: 1234, MemoryKib: 3},
	}
	assert.True(t, proto.Equal(want, got), "got %v", got)
	assert.Nil(t, got.GetExplanation(), "nil explanation must stay nil")

	got = Response(unsatResult())
	want = &modsolverv1.ResolveResponse{
		Status: modsolverv1.Status_STATUS_UNSATISFIABLE,
		Explanation: &modsolverv1.Explanation{
			Summary: "a requires b, b is disabled",
			Facts: []*modsolverv1.Fact{
				{Kind: modsolverv1.FactKind_FACT_KIND_MODULE_REQUIREMENT, Module: "a", Version: "1.0.0", Constraint: "b >= 1.0", Message: "a 1.0.0 requires b >= 1.0", Requires: "b", Subject: "b"},
				{Kind: modsolverv1.FactKind_FACT_KIND_REQUEST_DISABLE, Module: "b", Message: "the request disables b"},
			},
			Suggestions: []*modsolverv1.Suggestion{
				{Kind: modsolverv1.SuggestionKind_SUGGESTION_KIND_ENABLE_MODULE, Module: "b", Version: "1.0.0", Message: "enable b"},
			},
		},
		Stats: &modsolverv1.Stats{Variables: 5, Clauses: 7, Solves: 2, SolveMicros: 10},
	}
	assert.True(t, proto.Equal(want, got), "got %v", got)

	assert.Nil(t, Response(nil))
}

func TestResultToProtoDoesNotAlias(t *testing.T) {
	res := resolvedResult()
	got := Response(res)
	res.Modules[0].Path[0] = "changed"
	assert.Equal(t, "1.11.0", got.GetModules()[0].GetPath()[0])
}

func TestMarshalJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name    string
		res     *model.Result
		want    []string
		notWant []string
	}{
		{
			name: "resolved",
			res:  resolvedResult(),
			want: []string{
				`"status": "STATUS_RESOLVED"`,
				`"fromVersion": "1.10.0"`,
				`"toVersion": "1.12.0"`,
				`"channelHead": "1.13.0"`,
				`"heldBack": "kubernetes 1.29 required"`,
				"\"path\": [\n        \"1.11.0\",\n        \"1.12.0\"\n      ]",
				`"action": "ACTION_KEEP"`,
				`"solveMicros": 1234`,
				`"variables": 42`,
			},
			notWant: []string{`"explanation"`, `from_version`, `solve_micros`},
		},
		{
			name: "unsatisfiable",
			res:  unsatResult(),
			want: []string{
				`"status": "STATUS_UNSATISFIABLE"`,
				`"explanation": {`,
				`"summary": "a requires b, b is disabled"`,
				`"kind": "FACT_KIND_MODULE_REQUIREMENT"`,
				`"kind": "SUGGESTION_KIND_ENABLE_MODULE"`,
				`"constraint": "b >= 1.0"`,
			},
			notWant: []string{`"modules"`, `"plan"`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg := Response(tc.res)
			out, err := MarshalJSON(msg)
			require.NoError(t, err)
			s := string(out)
			require.True(t, strings.HasSuffix(s, "}\n"), "output must end in a newline: %q", s)
			require.True(t, json.Valid(out))
			for _, w := range tc.want {
				assert.Contains(t, s, w)
			}
			for _, nw := range tc.notWant {
				assert.NotContains(t, s, nw)
			}

			// Two-space indentation throughout.
			var reindented bytes.Buffer
			require.NoError(t, json.Indent(&reindented, bytes.TrimSpace(out), "", "  "))
			assert.Equal(t, s, reindented.String()+"\n")

			// The JSON parses back into an equal message.
			back := &modsolverv1.ResolveResponse{}
			require.NoError(t, protojson.Unmarshal(out, back))
			assert.True(t, proto.Equal(msg, back), "round trip changed the message:\n%s", s)
		})
	}
}

func TestMarshalJSONStable(t *testing.T) {
	for _, res := range []*model.Result{resolvedResult(), unsatResult()} {
		first, err := MarshalJSON(Response(res))
		require.NoError(t, err)
		for i := 0; i < 20; i++ {
			// A fresh message each time, so nothing is cached on it.
			out, err := MarshalJSON(Response(res))
			require.NoError(t, err)
			require.Equal(t, string(first), string(out), "call %d differs", i)
		}
	}
}

func TestKeepHasToVersion(t *testing.T) {
	tests := []struct {
		name string
		mod  model.ModuleResult
	}{
		{"to version set", model.ModuleResult{Name: "m", Action: model.ActionKeep, FromVersion: "1.2.3", ToVersion: "1.2.3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := &model.Result{Status: model.StatusResolved, Modules: []model.ModuleResult{tc.mod}}
			msg := Response(res)
			assert.Equal(t, "1.2.3", msg.GetModules()[0].GetToVersion())
			out, err := MarshalJSON(msg)
			require.NoError(t, err)
			assert.Contains(t, string(out), `"toVersion": "1.2.3"`)
			assert.Contains(t, string(out), `"fromVersion": "1.2.3"`)
		})
	}
}

func TestDisableHasNoToVersion(t *testing.T) {
	res := &model.Result{Status: model.StatusResolved, Modules: []model.ModuleResult{
		{Name: "m", Action: model.ActionDisable, FromVersion: "1.2.3"},
	}}
	out, err := MarshalJSON(Response(res))
	require.NoError(t, err)
	assert.NotContains(t, string(out), `"toVersion"`)
}

// A combined suggestion reaches the proto with its parts, each a single
// change of its own kind, module and version (R16, D175).
func TestCombinedSuggestionToProto(t *testing.T) {
	parts := []model.Suggestion{
		{Kind: model.SuggestUpdateModule, Module: "auth", Version: "1.2.0", Message: "update module auth to 1.2.0"},
		{Kind: model.SuggestUpgradeDeckhouse, Version: "1.74.0", Message: "upgrade DKP to at least 1.74.0"},
	}
	res := resultToProto(&model.Result{Status: model.StatusUnsatisfiable, Explanation: &model.Explanation{
		Summary: "s",
		Suggestions: []model.Suggestion{
			{Kind: model.SuggestCombined, Message: parts[0].Message + " and " + parts[1].Message, Changes: parts},
			{Kind: model.SuggestDisableModule, Module: "x", Message: "disable module x"},
		},
	}})
	sugs := res.GetExplanation().GetSuggestions()
	require.Len(t, sugs, 2)
	assert.Equal(t, modsolverv1.SuggestionKind_SUGGESTION_KIND_COMBINED, sugs[0].GetKind())
	require.Len(t, sugs[0].GetChanges(), 2)
	assert.Equal(t, modsolverv1.SuggestionKind_SUGGESTION_KIND_UPDATE_MODULE, sugs[0].GetChanges()[0].GetKind())
	assert.Equal(t, "auth", sugs[0].GetChanges()[0].GetModule())
	assert.Equal(t, "1.2.0", sugs[0].GetChanges()[0].GetVersion())
	assert.Equal(t, "1.74.0", sugs[0].GetChanges()[1].GetVersion())
	assert.Empty(t, sugs[1].GetChanges(), "a single change has no parts")
}

// R33: a route converts step by step, its changes as plan steps.
func TestRouteToProto(t *testing.T) {
	res := resolvedResult()
	res.Route = []model.RouteStep{
		{Deckhouse: "1.74", Kubernetes: "1.30.6", Requirements: []string{"k8s: 1.30 (the cluster runs Kubernetes 1.30)"}},
		{Deckhouse: "1.75.0", Kubernetes: "1.31.0", Modules: []model.PlanStep{{Module: "gateway", Action: model.ActionUpdate, FromVersion: "1.0.0", ToVersion: "1.1.0"}}},
	}
	got := Response(res).GetRoute()
	want := []*modsolverv1.RouteStep{
		{Deckhouse: "1.74", Kubernetes: "1.30.6", Requirements: []string{"k8s: 1.30 (the cluster runs Kubernetes 1.30)"}},
		{Deckhouse: "1.75.0", Kubernetes: "1.31.0", Modules: []*modsolverv1.PlanStep{{Module: "gateway", Action: modsolverv1.Action_ACTION_UPDATE, FromVersion: "1.0.0", ToVersion: "1.1.0"}}},
	}
	require.Len(t, got, len(want))
	for i := range want {
		assert.True(t, proto.Equal(want[i], got[i]), "step %d: got %v", i, got[i])
	}
	res.Route[0].Requirements[0] = "changed"
	assert.Equal(t, "k8s: 1.30 (the cluster runs Kubernetes 1.30)", got[0].GetRequirements()[0], "no aliasing")
}

// A what-if result says its index and each blocker's first scenario when
// they are 0, as it says a group of 0, in protojson's field order, and
// reads back into the same message; nothing else of it changes (D414).
func TestWhatIfJSONGivesPositionZero(t *testing.T) {
	msg := &modsolverv1.WhatIfResult{Name: "a <b>", Group: proto.Uint32(0),
		Response: &modsolverv1.ResolveResponse{Status: modsolverv1.Status_STATUS_UNSATISFIABLE},
		Blockers: []*modsolverv1.Blocker{
			{Module: "csi-ceph", Severity: modsolverv1.Severity_SEVERITY_ERROR, Accepted: true},
			{Module: "code", FirstScenario: 3},
		}}
	out, err := MarshalJSON(msg)
	require.NoError(t, err)
	var compact bytes.Buffer
	require.NoError(t, json.Compact(&compact, out))
	assert.Equal(t, `{"index":0,"name":"a <b>","response":{"status":"STATUS_UNSATISFIABLE"},"group":0,`+
		`"blockers":[{"module":"csi-ceph","severity":"SEVERITY_ERROR","firstScenario":0,"accepted":true},{"module":"code","firstScenario":3}]}`,
		compact.String())
	back := &modsolverv1.WhatIfResult{}
	require.NoError(t, protojson.Unmarshal(out, back))
	assert.True(t, proto.Equal(msg, back), "%s", out)

	msg.Index, msg.Group, msg.Blockers, msg.Response = 4, nil, nil, nil
	out, err = MarshalJSON(msg)
	require.NoError(t, err)
	compact.Reset()
	require.NoError(t, json.Compact(&compact, out))
	assert.Equal(t, `{"index":4,"name":"a <b>"}`, compact.String(), "a shard's result has no group, and an index other than 0 is as protojson writes it")
}
