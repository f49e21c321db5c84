package checker

import (
	"testing"

	"github.com/modsolver/modsolver/model"
)

// TestCheckRules breaks one rule per case, starting from a valid answer.
func TestCheckRules(t *testing.T) {
	runCases(t, []checkCase{
		{
			name:    "R1 version that is no release",
			modules: promModules(), cluster: cluster(nil),
			req:  model.Request{Enable: []string{"test"}},
			res:  resolved(install("test", "0.9.5")),
			want: []string{"R1"},
		},
		{
			name:    "R5 built-in module not at the candidate DKP version",
			modules: []*model.Module{module("ingress-nginx", builtIn())},
			cluster: cluster(map[string]model.ModuleState{"ingress-nginx": enabled("")}),
			req:     model.Request{Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}},
			res:     resolved(keep("ingress-nginx", "1.73.0")),
			want:    []string{"R5"},
		},
		{
			name: "R5 requirement on a built-in module is on the DKP version",
			modules: []*model.Module{
				module("ingress-nginx", builtIn()),
				module("hello-world", releases(release("1.0.0", needs("ingress-nginx", "> 1.73.0")))),
			},
			cluster: cluster(map[string]model.ModuleState{"ingress-nginx": enabled("")}),
			req:     model.Request{Enable: []string{"hello-world"}},
			res:     resolved(keep("ingress-nginx", "1.73.0"), install("hello-world", "1.0.0")),
			want:    []string{"R2"},
		},
		{
			name:    "R2 required dependency disabled",
			modules: promModules(), cluster: cluster(nil),
			req:  model.Request{Enable: []string{"prometheus"}},
			res:  resolved(install("prometheus", "2.0.0")),
			want: []string{"R2"},
		},
		{
			name:    "R2 required dependency outside the range",
			modules: promModules(),
			cluster: cluster(map[string]model.ModuleState{"prometheus": enabled("2.0.0"), "operator-prometheus": enabled("0.4.0")}),
			req:     model.Request{Update: []string{"prometheus"}},
			res:     resolved(keep("operator-prometheus", "0.4.0"), update("prometheus", "2.0.0", "2.1.0")),
			want:    []string{"R2"},
		},
		{
			name:    "R2 required module missing from the catalog",
			modules: demoModule(releases(release("1.0.0", needs("ghost", ">= 1.0")))),
			cluster: cluster(nil),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.0.0")),
			want:    []string{"R2"},
		},
		{
			name:    "R3 optional dependency enabled outside the range",
			modules: promModules(),
			cluster: cluster(map[string]model.ModuleState{"prometheus": enabled("2.0.0"), "operator-prometheus": enabled("0.5.0"), "test": enabled("0.9.0")}),
			req:     model.Request{Update: []string{"prometheus"}},
			res:     resolved(keep("operator-prometheus", "0.5.0"), keep("test", "0.9.0"), update("prometheus", "2.0.0", "2.1.0")),
			want:    []string{"R3"},
		},
		{
			name:    "R4 DKP version too old",
			modules: demoModule(releases(release("1.0.0", needsDeckhouse(">= 1.74")))),
			cluster: cluster(nil),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.0.0")),
			want:    []string{"R4"},
		},
		{
			name:    "R4 R12 candidate Kubernetes version too new",
			modules: demoModule(releases(release("1.0.0", needsKubernetes("< 1.30")))),
			cluster: cluster(map[string]model.ModuleState{"demo": enabled("1.0.0")}),
			req:     model.Request{Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			res:     resolved(keep("demo", "1.0.0")),
			want:    []string{"R4"},
		},
		{
			name:    "R7 release not available in the edition",
			modules: demoModule(releases(release("1.0.0", onlyIn("ee")))),
			cluster: cluster(nil),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.0.0")),
			want:    []string{"R7"},
		},
		{
			name:    "R8 enabled module disabled without allowDisable",
			modules: promModules(),
			cluster: cluster(map[string]model.ModuleState{"test": enabled("1.0.0")}),
			res:     resolved(disable("test", "1.0.0")),
			want:    []string{"R8"},
		},
		{
			name:    "R8 module the cluster disables is enabled",
			modules: promModules(),
			cluster: cluster(map[string]model.ModuleState{"test": disabled()}),
			req:     model.Request{AutoEnable: true},
			res:     resolved(install("test", "1.0.0")),
			want:    []string{"R8"},
		},
		{
			name:    "R8 request to enable ignored",
			modules: promModules(), cluster: cluster(nil),
			req:  model.Request{Enable: []string{"test"}},
			res:  resolved(),
			want: []string{"R8"},
		},
		{
			name:    "R8 request to disable ignored",
			modules: promModules(),
			cluster: cluster(map[string]model.ModuleState{"test": enabled("1.0.0")}),
			req:     model.Request{Disable: []string{"test"}},
			res:     resolved(keep("test", "1.0.0")),
			want:    []string{"R8"},
		},
		{
			name:    "R8 pin ignored",
			modules: promModules(),
			cluster: cluster(map[string]model.ModuleState{"test": enabled("0.9.0")}),
			req:     model.Request{Pin: pins("test", "1.0.0")},
			res:     resolved(keep("test", "0.9.0")),
			want:    []string{"R8"},
		},
		{
			name:    "R8 dependency enabled without autoEnable",
			modules: promModules(), cluster: cluster(nil),
			req:  model.Request{Enable: []string{"prometheus"}},
			res:  resolved(install("operator-prometheus", "0.5.0"), install("prometheus", "2.0.0")),
			want: []string{"R8"},
		},
		{
			name:    "R8 autoEnable enables a module nothing requires",
			modules: promModules(), cluster: cluster(nil),
			req:  model.Request{Enable: []string{"operator-prometheus"}, AutoEnable: true},
			res:  resolved(install("operator-prometheus", "0.5.0"), install("test", "1.0.0")),
			want: []string{"R8"},
		},
		{
			name:    "R8 autoEnable does not follow an optional requirement",
			modules: promModules(), cluster: cluster(nil),
			req:  model.Request{Enable: []string{"prometheus"}, AutoEnable: true},
			res:  resolved(install("operator-prometheus", "0.5.0"), install("test", "1.0.0"), install("prometheus", "2.1.0")),
			want: []string{"R8"},
		},
		{
			name:    "R9 module outside the update set changes",
			modules: promModules(),
			cluster: cluster(map[string]model.ModuleState{"test": enabled("0.9.0")}),
			res:     resolved(update("test", "0.9.0", "1.0.0")),
			want:    []string{"R9"},
		},
		{
			name:    "R9 downgrade without a pin",
			modules: promModules(),
			cluster: cluster(map[string]model.ModuleState{"test": enabled("1.0.0")}),
			req:     model.Request{Update: []string{"test"}},
			res:     resolved(downgrade("test", "1.0.0", "0.9.0")),
			want:    []string{"R9"},
		},
		{
			name:    "R10 install above the channel head",
			modules: demoModule(versions("1.0.0", "1.1.0", "1.2.0"), channels("stable", "1.1.0")),
			cluster: cluster(nil, releaseChannel("stable")),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.2.0")),
			want:    []string{"R10"},
		},
		{
			name:    "R10 D10 no release on a channel this stable",
			modules: demoModule(versions("1.0.0"), channels("alpha", "1.0.0")),
			cluster: cluster(map[string]model.ModuleState{"demo": {Channel: "stable"}}, releaseChannel("alpha")),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.0.0")),
			want:    []string{"R10"},
		},
		{
			name:    "R10 R11 update above the channel head",
			modules: demoModule(versions("1.0.0", "1.1.0"), channels("stable", "1.0.0")),
			cluster: cluster(map[string]model.ModuleState{"demo": enabled("1.0.0")}, releaseChannel("stable")),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.0.0", "1.1.0")),
			want:    []string{"R10", "R11"},
		},
		{
			name:    "R11 skips a minor",
			modules: demoModule(versions("1.67.5", "1.68.4", "1.69.10", "1.70.1"), channels("stable", "1.70.1")),
			cluster: cluster(map[string]model.ModuleState{"demo": enabled("1.67.5")}, releaseChannel("stable")),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.67.5", "1.69.10")),
			want:    []string{"R11"},
		},
		{
			name:    "R11 not the highest patch of the next minor",
			modules: demoModule(versions("1.67.5", "1.68.1", "1.68.4")),
			cluster: cluster(map[string]model.ModuleState{"demo": enabled("1.67.5")}),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.67.5", "1.68.1")),
			want:    []string{"R11"},
		},
		{
			name: "R11 from-to rule needs the deployed version at or above from",
			modules: demoModule(releases(release("1.66.25"), release("1.67.0"), release("1.68.4"), release("1.75.2", jump("1.67", "1.75"))),
				channels("stable", "1.75.2")),
			cluster: cluster(map[string]model.ModuleState{"demo": enabled("1.66.25")}, releaseChannel("stable")),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.66.25", "1.75.2")),
			want:    []string{"R11"},
		},
		{
			name:    "R11 D13 major jump without a rule",
			modules: demoModule(versions("1.9.0", "2.0.0")),
			cluster: cluster(map[string]model.ModuleState{"demo": enabled("1.9.0")}),
			req:     model.Request{UpdateAll: true},
			res:     resolved(update("demo", "1.9.0", "2.0.0")),
			want:    []string{"R11"},
		},
		{
			name:    "D1 prerelease not named by the channel",
			modules: demoModule(versions("0.1.0-rc.1", "0.1.0-rc.2"), channels("alpha", "0.1.0-rc.2")),
			cluster: cluster(nil, releaseChannel("alpha")),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "0.1.0-rc.1")),
			want:    []string{"D1"},
		},
		{
			name:    "R13 two modules of one exclusive group",
			modules: cniModules(),
			cluster: cluster(map[string]model.ModuleState{"cni-flannel": enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"cni-cilium"}},
			res:     resolved(keep("cni-flannel", "1.0.0"), install("cni-cilium", "1.0.0")),
			want:    []string{"R13"},
		},
	})
}

func TestCheckPlan(t *testing.T) {
	running := cluster(map[string]model.ModuleState{"prometheus": enabled("2.0.0"), "operator-prometheus": enabled("0.4.0")})
	autoEnable := model.Request{Enable: []string{"prometheus"}, AutoEnable: true}
	swap := model.Request{Enable: []string{"cni-cilium"}, Disable: []string{"cni-flannel"}}
	cniRunning := cluster(map[string]model.ModuleState{"cni-flannel": enabled("1.0.0")})
	runCases(t, []checkCase{
		{
			name:    "R18 step missing",
			modules: promModules(), cluster: running,
			res: edited(resolved(keep("operator-prometheus", "0.4.0"), keep("prometheus", "2.0.0")),
				func(r *model.Result) { r.Plan = r.Plan[1:] }),
			want: []string{"R18"},
		},
		{
			name:    "R18 step listed twice",
			modules: promModules(), cluster: running,
			res: edited(resolved(keep("operator-prometheus", "0.4.0"), keep("prometheus", "2.0.0")),
				func(r *model.Result) { r.Plan = append(r.Plan, r.Plan[1]) }),
			want: []string{"R18"},
		},
		{
			name:    "R18 step disagrees with the result",
			modules: promModules(), cluster: running,
			res: edited(resolved(keep("operator-prometheus", "0.4.0"), keep("prometheus", "2.0.0")),
				func(r *model.Result) { r.Plan[1].ToVersion = "2.1.0" }),
			want: []string{"R18"},
		},
		{
			name:    "R18 step for an absent module",
			modules: []*model.Module{module("descheduler", bundles("Default"), versions("0.3.0"))},
			cluster: cluster(nil),
			res: edited(resolved(absent("descheduler")), func(r *model.Result) {
				r.Plan = []model.PlanStep{{Module: "descheduler", Action: model.ActionAbsent}}
			}),
			want: []string{"R18"},
		},
		{
			name:    "R18 dependent before its dependency",
			modules: promModules(), cluster: cluster(nil), req: autoEnable,
			res:  resolved(install("prometheus", "2.1.0"), install("operator-prometheus", "0.5.0")),
			want: []string{"R18"},
		},
		{
			name:    "R3 R18 enabled optional dependency comes first",
			modules: promModules(), cluster: cluster(nil),
			req:  model.Request{Enable: []string{"prometheus", "test"}, AutoEnable: true},
			res:  resolved(install("operator-prometheus", "0.5.0"), install("prometheus", "2.1.0"), install("test", "1.0.0")),
			want: []string{"R18"},
		},
		{
			name:    "R13 R18 install before the disable it needs",
			modules: cniModules(), cluster: cniRunning, req: swap,
			res:  resolved(install("cni-cilium", "1.0.0"), disable("cni-flannel", "1.0.0")),
			want: []string{"R18"},
		},
	})
}
