package checker

import (
	"testing"

	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/model"
)

// TestCheckRules breaks one rule per case, starting from a valid answer.
func TestCheckRules(t *testing.T) {
	runCases(t, []checkCase{
		{
			name: "R19 required capability that no enabled module provides",
			modules: []*model.Module{
				fixture.Module("topology", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsCapability("rabbitmq.com/v1/Cluster")))),
				fixture.Module("rabbitmq", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("2.0.0", fixture.Provides("rabbitmq.com/v1/Cluster")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"rabbitmq": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"topology"}},
			res:     resolved(keep("rabbitmq", "1.0.0"), install("topology", "1.0.0")),
			want:    []string{"R19"},
		},
		{
			name: "R20 two enabled modules provide one capability",
			modules: []*model.Module{
				fixture.Module("prometheus-operator", fixture.Releases(fixture.Release("1.0.0", fixture.Provides("monitoring.coreos.com/v1/ServiceMonitor")))),
				fixture.Module("agent", fixture.Releases(fixture.Release("1.0.0", fixture.Provides("monitoring.coreos.com/v1/ServiceMonitor")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"prometheus-operator": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"agent"}},
			res:     resolved(install("agent", "1.0.0"), keep("prometheus-operator", "1.0.0")),
			want:    []string{"R20"},
		},
		{
			name: "R21 update that follows no edge of the update graph",
			modules: demoModule(fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.Replaces("1.0.0")),
				fixture.Release("1.2.0", fixture.Replaces("1.0.5")), fixture.Release("1.0.5"))),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.0.0")}),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.0.0", "1.2.0")),
			want:    []string{"R21"},
		},
		{
			name:    "R22 platform component outside the requirement",
			modules: demoModule(fixture.Releases(fixture.Release("1.0.0", fixture.NeedsComponent("openshift", "< 4.21")))),
			cluster: fixture.Cluster(nil, fixture.Component("openshift", "4.21.0")),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.0.0")),
			want:    []string{"R22"},
		},
		{
			name:    "R22 platform component the cluster does not declare (D33)",
			modules: demoModule(fixture.Releases(fixture.Release("1.0.0", fixture.NeedsComponent("openshift", ">= 4.12")))),
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.0.0")),
			want:    []string{"R22"},
		},
		{
			name:    "R1 version that is no release",
			modules: promModules(), cluster: fixture.Cluster(nil),
			req:  model.Request{Enable: []string{"test"}},
			res:  resolved(install("test", "0.9.5")),
			want: []string{"R1"},
		},
		{
			name:    "R5 built-in module not at the candidate DKP version",
			modules: []*model.Module{fixture.Module("ingress-nginx", fixture.BuiltIn())},
			cluster: fixture.Cluster(map[string]model.ModuleState{"ingress-nginx": fixture.Enabled("")}),
			req:     model.Request{Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}},
			res:     resolved(keep("ingress-nginx", "1.73.0")),
			want:    []string{"R5"},
		},
		{
			name: "R5 requirement on a built-in module is on the DKP version",
			modules: []*model.Module{
				fixture.Module("ingress-nginx", fixture.BuiltIn()),
				fixture.Module("hello-world", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("ingress-nginx", "> 1.73.0")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"ingress-nginx": fixture.Enabled("")}),
			req:     model.Request{Enable: []string{"hello-world"}},
			res:     resolved(keep("ingress-nginx", "1.73.0"), install("hello-world", "1.0.0")),
			want:    []string{"R2"},
		},
		{
			name:    "R2 required dependency disabled",
			modules: promModules(), cluster: fixture.Cluster(nil),
			req:  model.Request{Enable: []string{"prometheus"}},
			res:  resolved(install("prometheus", "2.0.0")),
			want: []string{"R2"},
		},
		{
			name:    "R2 required dependency outside the range",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"prometheus": fixture.Enabled("2.0.0"), "operator-prometheus": fixture.Enabled("0.4.0")}),
			req:     model.Request{Update: []string{"prometheus"}},
			res:     resolved(keep("operator-prometheus", "0.4.0"), update("prometheus", "2.0.0", "2.1.0")),
			want:    []string{"R2"},
		},
		{
			name:    "R2 required module missing from the catalog",
			modules: demoModule(fixture.Releases(fixture.Release("1.0.0", fixture.Needs("ghost", ">= 1.0")))),
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.0.0")),
			want:    []string{"R2"},
		},
		{
			name:    "R3 optional dependency enabled outside the range",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"prometheus": fixture.Enabled("2.0.0"), "operator-prometheus": fixture.Enabled("0.5.0"), "test": fixture.Enabled("0.9.0")}),
			req:     model.Request{Update: []string{"prometheus"}},
			res:     resolved(keep("operator-prometheus", "0.5.0"), keep("test", "0.9.0"), update("prometheus", "2.0.0", "2.1.0")),
			want:    []string{"R3"},
		},
		{
			name:    "R4 DKP version too old",
			modules: demoModule(fixture.Releases(fixture.Release("1.0.0", fixture.NeedsDeckhouse(">= 1.74")))),
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.0.0")),
			want:    []string{"R4"},
		},
		{
			name:    "R4 R12 candidate Kubernetes version too new",
			modules: demoModule(fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes("< 1.30")))),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.0.0")}),
			req:     model.Request{Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			res:     resolved(keep("demo", "1.0.0")),
			want:    []string{"R4"},
		},
		{
			name:    "R7 release not available in the edition",
			modules: demoModule(fixture.Releases(fixture.Release("1.0.0", fixture.OnlyIn("ee")))),
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.0.0")),
			want:    []string{"R7"},
		},
		{
			name:    "R8 enabled module disabled without allowDisable",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"test": fixture.Enabled("1.0.0")}),
			res:     resolved(disable("test", "1.0.0")),
			want:    []string{"R8"},
		},
		{
			name:    "R8 module the cluster disables is enabled",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"test": fixture.Disabled()}),
			req:     model.Request{AutoEnable: true},
			res:     resolved(install("test", "1.0.0")),
			want:    []string{"R8"},
		},
		{
			name:    "R8 request to enable ignored",
			modules: promModules(), cluster: fixture.Cluster(nil),
			req:  model.Request{Enable: []string{"test"}},
			res:  resolved(),
			want: []string{"R8"},
		},
		{
			name:    "R8 request to disable ignored",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"test": fixture.Enabled("1.0.0")}),
			req:     model.Request{Disable: []string{"test"}},
			res:     resolved(keep("test", "1.0.0")),
			want:    []string{"R8"},
		},
		{
			name:    "R8 pin ignored",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"test": fixture.Enabled("0.9.0")}),
			req:     model.Request{Pin: fixture.Pins("test", "1.0.0")},
			res:     resolved(keep("test", "0.9.0")),
			want:    []string{"R8"},
		},
		{
			name:    "R8 dependency enabled without autoEnable",
			modules: promModules(), cluster: fixture.Cluster(nil),
			req:  model.Request{Enable: []string{"prometheus"}},
			res:  resolved(install("operator-prometheus", "0.5.0"), install("prometheus", "2.0.0")),
			want: []string{"R8"},
		},
		{
			name:    "R8 autoEnable enables a module nothing requires",
			modules: promModules(), cluster: fixture.Cluster(nil),
			req:  model.Request{Enable: []string{"operator-prometheus"}, AutoEnable: true},
			res:  resolved(install("operator-prometheus", "0.5.0"), install("test", "1.0.0")),
			want: []string{"R8"},
		},
		{
			name:    "R8 autoEnable does not follow an optional requirement",
			modules: promModules(), cluster: fixture.Cluster(nil),
			req:  model.Request{Enable: []string{"prometheus"}, AutoEnable: true},
			res:  resolved(install("operator-prometheus", "0.5.0"), install("test", "1.0.0"), install("prometheus", "2.1.0")),
			want: []string{"R8"},
		},
		{
			name:    "R9 module outside the update set changes",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"test": fixture.Enabled("0.9.0")}),
			res:     resolved(update("test", "0.9.0", "1.0.0")),
			want:    []string{"R9"},
		},
		{
			name:    "R9 downgrade without a pin",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"test": fixture.Enabled("1.0.0")}),
			req:     model.Request{Update: []string{"test"}},
			res:     resolved(downgrade("test", "1.0.0", "0.9.0")),
			want:    []string{"R9"},
		},
		{
			name:    "R10 install above the channel head",
			modules: demoModule(fixture.Versions("1.0.0", "1.1.0", "1.2.0"), fixture.Channels("stable", "1.1.0")),
			cluster: fixture.Cluster(nil, fixture.ReleaseChannel("stable")),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.2.0")),
			want:    []string{"R10"},
		},
		{
			name:    "R10 D10 no release on a channel this stable",
			modules: demoModule(fixture.Versions("1.0.0"), fixture.Channels("alpha", "1.0.0")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": {Channel: "stable"}}, fixture.ReleaseChannel("alpha")),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.0.0")),
			want:    []string{"R10"},
		},
		{
			name:    "R10 R11 update above the channel head",
			modules: demoModule(fixture.Versions("1.0.0", "1.1.0"), fixture.Channels("stable", "1.0.0")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.0.0")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.0.0", "1.1.0")),
			want:    []string{"R10", "R11"},
		},
		{
			name:    "R11 skips a minor",
			modules: demoModule(fixture.Versions("1.67.5", "1.68.4", "1.69.10", "1.70.1"), fixture.Channels("stable", "1.70.1")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.67.5")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.67.5", "1.69.10")),
			want:    []string{"R11"},
		},
		{
			name:    "R11 not the highest patch of the next minor",
			modules: demoModule(fixture.Versions("1.67.5", "1.68.1", "1.68.4")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.67.5")}),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.67.5", "1.68.1")),
			want:    []string{"R11"},
		},
		{
			name: "R11 from-to rule needs the deployed version at or above from",
			modules: demoModule(fixture.Releases(fixture.Release("1.66.25"), fixture.Release("1.67.0"), fixture.Release("1.68.4"), fixture.Release("1.75.2", fixture.Jump("1.67", "1.75"))),
				fixture.Channels("stable", "1.75.2")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.66.25")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.66.25", "1.75.2")),
			want:    []string{"R11"},
		},
		{
			name:    "R11 D13 major jump without a rule",
			modules: demoModule(fixture.Versions("1.9.0", "2.0.0")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.9.0")}),
			req:     model.Request{UpdateAll: true},
			res:     resolved(update("demo", "1.9.0", "2.0.0")),
			want:    []string{"R11"},
		},
		{
			name:    "D1 prerelease not named by the channel",
			modules: demoModule(fixture.Versions("0.1.0-rc.1", "0.1.0-rc.2"), fixture.Channels("alpha", "0.1.0-rc.2")),
			cluster: fixture.Cluster(nil, fixture.ReleaseChannel("alpha")),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "0.1.0-rc.1")),
			want:    []string{"D1"},
		},
		{
			name:    "R13 two modules of one exclusive group",
			modules: cniModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"cni-flannel": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"cni-cilium"}},
			res:     resolved(keep("cni-flannel", "1.0.0"), install("cni-cilium", "1.0.0")),
			want:    []string{"R13"},
		},
	})
}

func TestCheckPlan(t *testing.T) {
	running := fixture.Cluster(map[string]model.ModuleState{"prometheus": fixture.Enabled("2.0.0"), "operator-prometheus": fixture.Enabled("0.4.0")})
	autoEnable := model.Request{Enable: []string{"prometheus"}, AutoEnable: true}
	swap := model.Request{Enable: []string{"cni-cilium"}, Disable: []string{"cni-flannel"}}
	cniRunning := fixture.Cluster(map[string]model.ModuleState{"cni-flannel": fixture.Enabled("1.0.0")})
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
			modules: []*model.Module{fixture.Module("descheduler", fixture.Bundles("Default"), fixture.Versions("0.3.0"))},
			cluster: fixture.Cluster(nil),
			res: edited(resolved(absent("descheduler")), func(r *model.Result) {
				r.Plan = []model.PlanStep{{Module: "descheduler", Action: model.ActionAbsent}}
			}),
			want: []string{"R18"},
		},
		{
			name:    "R18 dependent before its dependency",
			modules: promModules(), cluster: fixture.Cluster(nil), req: autoEnable,
			res:  resolved(install("prometheus", "2.1.0"), install("operator-prometheus", "0.5.0")),
			want: []string{"R18"},
		},
		{
			name:    "R3 R18 enabled optional dependency comes first",
			modules: promModules(), cluster: fixture.Cluster(nil),
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
