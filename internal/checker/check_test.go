package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/model"
)

type checkCase struct {
	name    string
	modules []*model.Module
	cluster *model.ClusterState
	req     model.Request
	res     *model.Result
	// want lists the rules of the violations expected, in Check's order.
	want []string
}

func runCases(t *testing.T, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cat := newCatalog(t, tc.modules...)
			require.NoError(t, tc.cluster.Validate(cat), "the case's cluster state is bad input")
			require.NoError(t, tc.req.Validate(cat, tc.cluster), "the case's request is bad input")
			got := Check(cat, tc.cluster, &tc.req, tc.res)
			want := tc.want
			if want == nil {
				want = []string{}
			}
			assert.Equal(t, want, rulesOf(got), "violations: %v", got)
		})
	}
}

func TestCheckValid(t *testing.T) {
	runCases(t, []checkCase{
		{
			name:    "R8 nothing asked, everything kept",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"prometheus": fixture.Enabled("2.0.0"), "operator-prometheus": fixture.Enabled("0.4.0")}),
			res:     resolved(keep("operator-prometheus", "0.4.0"), keep("prometheus", "2.0.0")),
		},
		{
			name:    "R2 R11 R18 co-update, dependency first",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"prometheus": fixture.Enabled("2.0.0"), "operator-prometheus": fixture.Enabled("0.4.0")}),
			req:     model.Request{Update: []string{"prometheus", "operator-prometheus"}},
			res:     resolved(update("operator-prometheus", "0.4.0", "0.5.0"), update("prometheus", "2.0.0", "2.1.0")),
		},
		{
			name:    "R2 R8 autoEnable installs a required dependency",
			modules: promModules(),
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"prometheus"}, AutoEnable: true},
			res:     resolved(install("operator-prometheus", "0.5.0"), install("prometheus", "2.1.0")),
		},
		{
			name:    "R3 optional dependency enabled inside its range",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"prometheus": fixture.Enabled("2.0.0"), "operator-prometheus": fixture.Enabled("0.5.0"), "test": fixture.Enabled("1.0.0")}),
			req:     model.Request{Update: []string{"prometheus"}},
			res:     resolved(keep("operator-prometheus", "0.5.0"), keep("test", "1.0.0"), update("prometheus", "2.0.0", "2.1.0")),
		},
		{
			name:    "R8 allowDisable disables an optional dependency outside the range",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"prometheus": fixture.Enabled("2.0.0"), "operator-prometheus": fixture.Enabled("0.5.0"), "test": fixture.Enabled("0.9.0")}),
			req:     model.Request{Update: []string{"prometheus"}, AllowDisable: true},
			res:     resolved(disable("test", "0.9.0"), keep("operator-prometheus", "0.5.0"), update("prometheus", "2.0.0", "2.1.0")),
		},
		{
			name: "R5 R12 built-in module follows a platform upgrade",
			modules: []*model.Module{
				fixture.Module("ingress-nginx", fixture.BuiltIn()),
				fixture.Module("hello-world", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("ingress-nginx", "> 1.73.0")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"ingress-nginx": fixture.Enabled("")}),
			req:     model.Request{Enable: []string{"hello-world"}, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}},
			res:     resolved(update("ingress-nginx", "1.73.0", "1.74.0"), install("hello-world", "1.0.0")),
		},
		{
			name:    "R4 R6 a DKP prerelease is checked stripped",
			modules: demoModule(fixture.Releases(fixture.Release("1.0.0", fixture.NeedsDeckhouse(">= 1.74")))),
			cluster: fixture.Cluster(nil, fixture.Deckhouse("1.74.0-rc.1")),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.0.0")),
		},
		{
			name:    "R7 R8 a module on by bundle default is installed",
			modules: []*model.Module{fixture.Module("cert-manager", fixture.Bundles("Default"), fixture.Versions("1.14.0")), fixture.Module("descheduler", fixture.Bundles("Managed"), fixture.Versions("0.3.0"))},
			cluster: fixture.Cluster(nil),
			res:     resolved(install("cert-manager", "1.14.0"), absent("descheduler")),
		},
		{
			name:    "R7 R8 a module on by bundle default may stay off",
			modules: []*model.Module{fixture.Module("cert-manager", fixture.Bundles("Default"), fixture.Releases(fixture.Release("1.14.0", fixture.NeedsKubernetes(">= 1.31"))))},
			cluster: fixture.Cluster(nil),
			res:     resolved(absent("cert-manager")),
		},
		{
			name:    "R13 R18 exclusive group swap disables first",
			modules: cniModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"cni-flannel": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"cni-cilium"}, Disable: []string{"cni-flannel"}},
			res:     resolved(disable("cni-flannel", "1.0.0"), install("cni-cilium", "1.0.0")),
		},
		{
			name:    "D8 enabled without a version is installed",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"test": fixture.Enabled("")}),
			res:     resolved(install("test", "1.0.0")),
		},
		{
			name:    "R9 D12 a pin may downgrade",
			modules: demoModule(fixture.Versions("1.0.0", "1.1.0", "1.2.0"), fixture.Channels("stable", "1.1.0")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.1.0")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Pin: fixture.Pins("demo", "1.0.0")},
			res:     resolved(downgrade("demo", "1.1.0", "1.0.0")),
		},
		{
			name:    "R10 D12 a pin may go above the head and skip steps",
			modules: demoModule(fixture.Versions("1.0.0", "1.1.0", "1.2.0", "1.3.0"), fixture.Channels("stable", "1.1.0")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.0.0")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Pin: fixture.Pins("demo", "1.3.0")},
			res:     resolved(update("demo", "1.0.0", "1.3.0")),
		},
		{
			name:    "D11 a deployed version above the head is kept",
			modules: demoModule(fixture.Versions("1.0.0", "1.1.0", "1.2.0"), fixture.Channels("rock-solid", "1.0.0")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.2.0")}, fixture.ReleaseChannel("rock-solid")),
			req:     model.Request{UpdateAll: true},
			res:     resolved(keep("demo", "1.2.0")),
		},
		{
			name:    "D10 channel falls back to a more stable one",
			modules: demoModule(fixture.Versions("1.0.0", "1.1.0", "1.2.0"), fixture.Channels("stable", "1.1.0")),
			cluster: fixture.Cluster(nil, fixture.ReleaseChannel("alpha")),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "1.1.0")),
		},
		{
			name:    "D1 a prerelease named by the channel is installed",
			modules: demoModule(fixture.Versions("0.1.0-rc.1", "0.1.0-rc.2"), fixture.Channels("alpha", "0.1.0-rc.2")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": {Channel: "alpha"}}),
			req:     model.Request{Enable: []string{"demo"}},
			res:     resolved(install("demo", "0.1.0-rc.2")),
		},
		{
			name:    "R11 next minor, highest patch",
			modules: demoModule(fixture.Versions("1.67.5", "1.68.1", "1.68.4", "1.69.10", "1.70.1"), fixture.Channels("stable", "1.70.1")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.67.5")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.67.5", "1.68.4")),
		},
		{
			name:    "R11 own minor, highest patch",
			modules: demoModule(fixture.Versions("1.67.5", "1.67.9", "1.68.4")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.67.5")}),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.67.5", "1.67.9")),
		},
		{
			name: "R11 from-to jump",
			modules: demoModule(fixture.Releases(fixture.Release("1.67.5"), fixture.Release("1.68.4"), fixture.Release("1.75.2", fixture.Jump("1.67", "1.75"))),
				fixture.Channels("stable", "1.75.2")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.67.5")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "1.67.5", "1.75.2")),
		},
		{
			name:    "R11 D13 0.x to the lowest 1.x minor",
			modules: demoModule(fixture.Versions("0.9.0", "1.0.0", "1.0.3", "1.1.0")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("0.9.0")}),
			req:     model.Request{Update: []string{"demo"}},
			res:     resolved(update("demo", "0.9.0", "1.0.3")),
		},
		{
			name:    "R11 direct strategy goes straight to the head",
			modules: demoModule(fixture.Versions("1.67.5", "1.68.4", "1.69.10", "1.70.1", "1.71.0"), fixture.Channels("stable", "1.70.1")),
			cluster: fixture.Cluster(map[string]model.ModuleState{"demo": fixture.Enabled("1.67.5")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Update: []string{"demo"}, Strategy: model.StrategyDirect},
			res:     resolved(update("demo", "1.67.5", "1.70.1")),
		},
		{
			name: "R18 R27 modules that require each other where loops are allowed may come in either order",
			modules: []*model.Module{
				fixture.Module("a", fixture.AllowLoops(), fixture.Releases(fixture.Release("1.0.0", fixture.Needs("b", ">= 1.0")))),
				fixture.Module("b", fixture.AllowLoops(), fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.0")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"a", "b"}},
			res:     resolved(install("b", "1.0.0"), install("a", "1.0.0")),
		},
		{
			name: "R18 R27 a longer requirement cycle where loops are allowed may come in any order",
			modules: []*model.Module{
				fixture.Module("a", fixture.AllowLoops(), fixture.Releases(fixture.Release("1.0.0", fixture.Needs("b", ">= 1.0")))),
				fixture.Module("b", fixture.AllowLoops(), fixture.Releases(fixture.Release("1.0.0", fixture.Needs("c", ">= 1.0")))),
				fixture.Module("c", fixture.AllowLoops(), fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.0")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"a", "b", "c"}},
			res:     resolved(install("a", "1.0.0"), install("b", "1.0.0"), install("c", "1.0.0")),
		},
		{
			name:    "R16 unsatisfiable with an explanation",
			modules: promModules(),
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"prometheus"}},
			res:     unsatisfiable(explanation(kubeFact), absent("prometheus")),
		},
	})
}

func TestCheckShape(t *testing.T) {
	running := fixture.Cluster(map[string]model.ModuleState{"prometheus": fixture.Enabled("2.0.0"), "operator-prometheus": fixture.Enabled("0.4.0")})
	keepBoth := func() *model.Result {
		return resolved(keep("operator-prometheus", "0.4.0"), keep("prometheus", "2.0.0"))
	}
	runCases(t, []checkCase{
		{
			name:    "modules not sorted",
			modules: promModules(), cluster: running,
			res:  edited(keepBoth(), func(r *model.Result) { r.Modules[0], r.Modules[1] = r.Modules[1], r.Modules[0] }),
			want: []string{"shape"},
		},
		{
			name:    "module listed twice",
			modules: promModules(), cluster: running,
			res:  edited(keepBoth(), func(r *model.Result) { r.Modules = append(r.Modules, r.Modules[1]) }),
			want: []string{"shape"},
		},
		{
			name:    "enabled module missing from result",
			modules: promModules(), cluster: running,
			res:  resolved(keep("operator-prometheus", "0.4.0")),
			want: []string{"shape"},
		},
		{
			name:    "keep that changes the version",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"test": fixture.Enabled("0.9.0")}),
			req:     model.Request{Update: []string{"test"}},
			res:     resolved(model.ModuleResult{Name: "test", Action: model.ActionKeep, FromVersion: "0.9.0", ToVersion: "1.0.0"}),
			want:    []string{"shape"},
		},
		{
			name:    "install of a module that runs: wrong action and fromVersion",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"test": fixture.Enabled("0.9.0")}),
			res:     resolved(install("test", "0.9.0")),
			want:    []string{"shape", "shape"},
		},
		{
			name:    "toVersion not canonical",
			modules: promModules(), cluster: fixture.Cluster(nil),
			req:  model.Request{Enable: []string{"test"}},
			res:  resolved(install("test", "v1.0.0")),
			want: []string{"shape"},
		},
		{
			name:    "toVersion not a version",
			modules: promModules(), cluster: fixture.Cluster(nil),
			req:  model.Request{Enable: []string{"test"}},
			res:  resolved(install("test", "latest")),
			want: []string{"shape"},
		},
		{
			name:    "disable with a toVersion",
			modules: promModules(),
			cluster: fixture.Cluster(map[string]model.ModuleState{"test": fixture.Enabled("0.9.0")}),
			req:     model.Request{Disable: []string{"test"}},
			res:     resolved(model.ModuleResult{Name: "test", Action: model.ActionDisable, FromVersion: "0.9.0", ToVersion: "0.9.0"}),
			want:    []string{"shape"},
		},
		{
			name:    "module not in the catalog",
			modules: promModules(), cluster: fixture.Cluster(nil),
			res:  resolved(install("ghost", "1.0.0")),
			want: []string{"shape"},
		},
		{
			name:    "status unspecified",
			modules: promModules(), cluster: fixture.Cluster(nil),
			res:  &model.Result{},
			want: []string{"shape"},
		},
		{
			name:    "unsatisfiable answer that installs",
			modules: promModules(), cluster: fixture.Cluster(nil),
			req: model.Request{Enable: []string{"test"}},
			res: edited(unsatisfiable(explanation(kubeFact), install("test", "1.0.0")), func(r *model.Result) {
				r.Plan = []model.PlanStep{{Module: "test", Action: model.ActionInstall, ToVersion: "1.0.0"}}
			}),
			want: []string{"shape", "shape"},
		},
	})
}
