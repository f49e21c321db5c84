package solver_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/checker"
	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// This file checks Solve rule by rule (DESIGN.md R1–R14, R17, R18) on
// small hand-built catalogs. Every case's name starts with the rule it
// checks, and every answer is also verified by the independent checker.

// ---- expectations ----

// exp is the expected outcome of one module. absent matches a module
// missing from the answer as well as ACTION_ABSENT.
type exp struct {
	action model.Action
	to     string
}

func install(to string) exp { return exp{model.ActionInstall, to} }
func update(to string) exp  { return exp{model.ActionUpdate, to} }
func keep(v string) exp     { return exp{model.ActionKeep, v} }
func downgrade(to string) exp {
	return exp{model.ActionDowngrade, to}
}
func disable() exp { return exp{action: model.ActionDisable} }
func absent() exp  { return exp{action: model.ActionAbsent} }

type ruleCase struct {
	name    string
	mods    []*model.Module
	cluster *model.ClusterState
	req     model.Request

	unsat bool
	want  map[string]exp
	// mentions are substrings of the explanation (unsatisfiable answers).
	mentions []string
	// kinds are fact kinds the explanation must contain.
	kinds []model.FactKind
	// heldBack maps a module to substrings of its heldBack; an empty list
	// means heldBack must be empty.
	heldBack map[string][]string
	// path maps a module to its exact update path.
	path map[string][]string
	// head maps a module to its expected channelHead.
	head map[string]string
	// plan is the exact order of the plan's modules.
	plan []string
	// skip marks a case that fails because of a solver bug; the case keeps
	// the expectation the rules call for. MODSOLVER_RUN_SKIPPED=1 runs it.
	skip string
}

func TestRules(t *testing.T) {
	tests := []ruleCase{
		// ---- R1 ----
		{
			name:    "R1 install selects exactly one release",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0", "1.2.0"))},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.2.0")},
		},
		{
			name: "R1 two releases of one module are never selected together",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.1.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", "< 1.1")))),
				fixture.Module("c", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.1")))),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"a", "b", "c"}},
			unsat:    true,
			mentions: []string{"b 1.0.0 requires a < 1.1", "c 1.0.0 requires a >= 1.1"},
			kinds:    []model.FactKind{model.FactModuleRequirement},
		},
		{
			name: "R1 one release satisfies two dependents at once",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.1.0", "1.2.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", "< 1.2")))),
				fixture.Module("c", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.1")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"a", "b", "c"}},
			want:    map[string]exp{"a": install("1.1.0"), "b": install("1.0.0"), "c": install("1.0.0")},
		},

		// ---- R2 ----
		{
			name: "R2 required dependency not enabled without autoEnable is unsatisfiable",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 0.0.0")))),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"b"}},
			unsat:    true,
			mentions: []string{"b 1.0.0 requires a", "a is not enabled", "autoEnable"},
			kinds:    []model.FactKind{model.FactModuleRequirement, model.FactNotEnabled},
		},
		{
			name: "R2 required dependency installed with autoEnable",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.1.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 0.0.0")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"b"}, AutoEnable: true},
			want:    map[string]exp{"a": install("1.1.0"), "b": install("1.0.0")},
			plan:    []string{"a", "b"},
		},
		{
			name: "R2 required dependency takes a version inside the constraint",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.5.0", "2.0.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.0, < 2.0")))),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"b"}, AutoEnable: true},
			want:     map[string]exp{"a": install("1.5.0"), "b": install("1.0.0")},
			heldBack: map[string][]string{"a": {"2.0.0", "b 1.0.0 requires a"}},
		},
		{
			name: "R2 required dependency already enabled at a satisfying version",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.1.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.0")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"b"}},
			want:    map[string]exp{"a": keep("1.0.0"), "b": install("1.0.0")},
			plan:    []string{"a", "b"},
		},
		{
			name: "R2 disabling a required dependency of an enabled module is unsatisfiable",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 0.0.0")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0"), "b": fixture.Enabled("1.0.0")}),
			req:      model.Request{Disable: []string{"a"}},
			unsat:    true,
			mentions: []string{"the request disables a", "b 1.0.0 requires a"},
			kinds:    []model.FactKind{model.FactRequestDisable, model.FactModuleRequirement},
		},
		{
			name: "R2 release requiring a module missing from the catalog is not selected",
			mods: []*model.Module{
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.Needs("ghost", ">= 1.0")))),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"b"}},
			want:     map[string]exp{"b": install("1.0.0")},
			heldBack: map[string][]string{"b": {"ghost"}},
		},

		// ---- R3 ----
		{
			name: "R3 optional dependency disabled allows update",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("1.0.0", "2.0.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.Needs("d", ">= 2.0 !optional")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"p": fixture.Enabled("1.0.0"), "d": fixture.Disabled()}),
			req:     model.Request{Update: []string{"p"}},
			want:    map[string]exp{"p": update("1.1.0"), "d": absent()},
		},
		{
			name: "R3 optional dependency disabled allows enabling the dependent",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("1.0.0", "2.0.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("d", ">= 2.0 !optional")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"p"}},
			want:    map[string]exp{"p": install("1.0.0"), "d": absent()},
			plan:    []string{"p"},
		},
		{
			name: "R3 optional dependency enabled outside the constraint blocks update",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("1.0.0", "2.0.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.Needs("d", ">= 2.0 !optional")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"p": fixture.Enabled("1.0.0"), "d": fixture.Enabled("1.0.0")}),
			req:      model.Request{Update: []string{"p"}},
			want:     map[string]exp{"p": keep("1.0.0"), "d": keep("1.0.0")},
			heldBack: map[string][]string{"p": {"1.1.0", "d"}},
		},
		{
			name: "R3 optional dependency enabled outside the constraint blocks enabling",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("1.0.0", "2.0.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("d", ">= 2.0 !optional")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"d": fixture.Enabled("1.0.0")}),
			req:      model.Request{Enable: []string{"p"}},
			unsat:    true,
			mentions: []string{"p 1.0.0 requires d >= 2.0 !optional", "dependency 'd' not meet version constraint"},
			kinds:    []model.FactKind{model.FactRequestEnable, model.FactModuleRequirement, model.FactKeepVersion},
		},
		{
			name: "R3 optional dependency outside the constraint updates with the dependent",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("1.0.0", "1.1.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.Needs("d", ">= 1.1 !optional")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"p": fixture.Enabled("1.0.0"), "d": fixture.Enabled("1.0.0")}),
			req:     model.Request{UpdateAll: true},
			want:    map[string]exp{"p": update("1.1.0"), "d": update("1.1.0")},
			plan:    []string{"d", "p"},
		},
		{
			name: "R3 disabling an optional dependency is always allowed",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("2.0.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.1.0", fixture.Needs("d", ">= 2.0 !optional")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"p": fixture.Enabled("1.1.0"), "d": fixture.Enabled("2.0.0")}),
			req:     model.Request{Disable: []string{"d"}},
			want:    map[string]exp{"p": keep("1.1.0"), "d": disable()},
		},
		{
			name: "R3 with the dependent enabled, the dependency is enabled only inside the constraint",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("1.0.0", "1.5.0", "2.0.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("d", ">= 1.0, < 2.0 !optional")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"p": fixture.Enabled("1.0.0")}),
			req:      model.Request{Enable: []string{"d"}},
			want:     map[string]exp{"p": keep("1.0.0"), "d": install("1.5.0")},
			heldBack: map[string][]string{"d": {"2.0.0", "p 1.0.0 requires d"}},
			plan:     []string{"d", "p"},
		},
		{
			name: "R3 with the dependent enabled, the dependency is updated only inside the constraint",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("1.0.0", "1.0.5", "1.1.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("d", "< 1.1 !optional")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"p": fixture.Enabled("1.0.0"), "d": fixture.Enabled("1.0.0")}),
			req:      model.Request{Update: []string{"d"}},
			want:     map[string]exp{"p": keep("1.0.0"), "d": update("1.0.5")},
			heldBack: map[string][]string{"d": {"1.1.0", "p"}},
		},
		{
			name: "R3 with the dependent enabled, pinning the dependency outside the constraint is unsatisfiable",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("1.0.0", "1.0.5", "1.1.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("d", "< 1.1 !optional")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"p": fixture.Enabled("1.0.0"), "d": fixture.Enabled("1.0.0")}),
			req:      model.Request{Pin: fixture.Pins("d", "1.1.0")},
			unsat:    true,
			mentions: []string{"the request pins d to 1.1.0", "p 1.0.0 requires d < 1.1 !optional"},
			kinds:    []model.FactKind{model.FactRequestPin, model.FactModuleRequirement},
		},
		{
			name: "R3 bare !optional allows any version of an enabled dependency",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("0.1.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("d", "!optional")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"d": fixture.Enabled("0.1.0")}),
			req:     model.Request{Enable: []string{"p"}},
			want:    map[string]exp{"p": install("1.0.0"), "d": keep("0.1.0")},
			plan:    []string{"d", "p"},
		},
		{
			name: "R3 optional dependency is not auto-enabled",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("1.0.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("d", ">= 1.0 !optional")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"p"}, AutoEnable: true},
			want:    map[string]exp{"p": install("1.0.0"), "d": absent()},
		},

		// ---- R4 ----
		{
			name: "R4 deckhouse requirement excludes newer releases",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsDeckhouse(">= 1.70")), fixture.Release("1.1.0", fixture.NeedsDeckhouse(">= 1.75")))),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"a"}},
			want:     map[string]exp{"a": install("1.0.0")},
			heldBack: map[string][]string{"a": {"deckhouse", "1.75"}},
		},
		{
			name: "R4 kubernetes requirement not met is unsatisfiable",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes(">= 1.30")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"a"}},
			unsat:   true,
			mentions: []string{
				"requirements are not satisfied: current kubernetes version is not suitable: 1.29.6 is less than 1.30",
			},
			kinds: []model.FactKind{model.FactRequestEnable, model.FactKubernetesRequirement},
		},
		{
			name: "R4 deckhouse requirement not met is unsatisfiable",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsDeckhouse(">= 1.75")))),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"a"}},
			unsat:    true,
			mentions: []string{"deckhouse", "1.73.0"},
			kinds:    []model.FactKind{model.FactDeckhouseRequirement},
		},
		{
			name: "R4 kubernetes candidate version is checked instead of the cluster's",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes(">= 1.30")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"a"}, Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			want:    map[string]exp{"a": install("1.0.0")},
		},
		{
			name: "R4 deckhouse candidate version is checked instead of the cluster's",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsDeckhouse("< 1.74")))),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"a"}, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}},
			unsat:    true,
			mentions: []string{"1.74.0 deckhouse version is not suitable"},
			kinds:    []model.FactKind{model.FactDeckhouseRequirement},
		},

		// ---- R5 ----
		{
			name:     "R5 built-in module runs at the DKP version",
			mods:     []*model.Module{fixture.Module("core", fixture.BuiltIn())},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"core": fixture.Enabled("")}),
			req:      model.Request{},
			want:     map[string]exp{"core": keep("1.73.0")},
			heldBack: map[string][]string{"core": {}},
		},
		{
			name: "R5 requirement on a built-in module is checked against the DKP version",
			mods: []*model.Module{
				fixture.Module("core", fixture.BuiltIn()),
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("core", ">= 1.74")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"core": fixture.Enabled("")}),
			req:      model.Request{Enable: []string{"a"}},
			unsat:    true,
			mentions: []string{"a 1.0.0 requires core >= 1.74", "core is built in"},
		},
		{
			name: "R5 built-in module moves with a candidate DKP version",
			mods: []*model.Module{
				fixture.Module("core", fixture.BuiltIn()),
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("core", ">= 1.74")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"core": fixture.Enabled("")}),
			req:     model.Request{Enable: []string{"a"}, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}},
			want:    map[string]exp{"core": update("1.74.0"), "a": install("1.0.0")},
			plan:    []string{"core", "a"},
		},
		{
			name: "R5 requirements of a built-in module travel with the platform",
			mods: []*model.Module{
				fixture.Module("core", fixture.BuiltIn(fixture.NeedsKubernetes(">= 1.30"))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"core": fixture.Enabled("")}),
			req:      model.Request{Enable: []string{"core"}},
			unsat:    true,
			mentions: []string{"core", "kubernetes", "1.29.6 is less than 1.30"},
			kinds:    []model.FactKind{model.FactKubernetesRequirement},
		},
		{
			name: "R5 requirements of a built-in module hold with a candidate Kubernetes",
			mods: []*model.Module{
				fixture.Module("core", fixture.BuiltIn(fixture.NeedsKubernetes(">= 1.30"))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"core": fixture.Enabled("")}),
			req:     model.Request{Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			want:    map[string]exp{"core": keep("1.73.0")},
		},
		{
			name: "R5 built-in module requires an external module",
			mods: []*model.Module{
				fixture.Module("core", fixture.BuiltIn(fixture.Needs("ext", ">= 1.1"))),
				fixture.Module("ext", fixture.Versions("1.0.0", "1.1.0")),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"core": fixture.Enabled(""), "ext": fixture.Enabled("1.0.0")}),
			req:     model.Request{Update: []string{"ext"}},
			want:    map[string]exp{"core": keep("1.73.0"), "ext": update("1.1.0")},
			plan:    []string{"ext", "core"},
		},

		// ---- R6 ----
		{
			name: "R6 OLM-style exclusion skips one version",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.2.0", "1.2.1")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", "> 1.0.0 !1.2.1")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"b"}, AutoEnable: true},
			want:    map[string]exp{"a": install("1.2.0"), "b": install("1.0.0")},
		},
		{
			name: "R6 || constraint picks the newest of two ranges",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("0.5.0", "1.5.0", "2.1.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", "< 1.0 || >= 3.0")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"b"}, AutoEnable: true},
			want:    map[string]exp{"a": install("0.5.0"), "b": install("1.0.0")},
		},
		{
			name: "R6 v prefix and tilde range",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("v1.2.0", "v1.2.7", "v1.3.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", "~v1.2.0")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"b"}, AutoEnable: true},
			want:    map[string]exp{"a": install("1.2.7"), "b": install("1.0.0")},
		},
		{
			name: "R6 prerelease is stripped from the DKP version",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsDeckhouse(">= 1.75")))),
			},
			cluster: fixture.Cluster(nil, fixture.Deckhouse("1.75.0-rc.1")),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.0.0")},
		},
		{
			name: "R6 prerelease is stripped from module versions",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.1.0", "1.2.0-rc.1")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.2")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.2.0-rc.1")}),
			req:     model.Request{Enable: []string{"b"}},
			want:    map[string]exp{"a": keep("1.2.0-rc.1"), "b": install("1.0.0")},
		},
		{
			name: "R6 prerelease is not stripped from the Kubernetes version",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes(">= 1.30")))),
			},
			cluster:  fixture.Cluster(nil, fixture.Kubernetes("1.30.0-rc.1")),
			req:      model.Request{Enable: []string{"a"}},
			unsat:    true,
			mentions: []string{"kubernetes"},
			kinds:    []model.FactKind{model.FactKubernetesRequirement},
		},

		// ---- R7 ----
		{
			name: "R7 release unavailable in the edition cannot be selected",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.OnlyIn("ee")))),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"a"}},
			want:     map[string]exp{"a": install("1.0.0")},
			heldBack: map[string][]string{"a": {"edition ce"}},
		},
		{
			name: "R7 module unavailable in the edition is unsatisfiable",
			mods: []*model.Module{
				fixture.Module("a", fixture.Access(fixture.Editions("ee")), fixture.Versions("1.0.0")),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"a"}},
			unsat:    true,
			mentions: []string{"not available in edition ce"},
			kinds:    []model.FactKind{model.FactEdition},
		},
		{
			name: "R7 release available in the cluster's edition by override",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.OnlyIn("ee")))),
			},
			cluster: fixture.Cluster(nil, fixture.Edition("ee")),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.1.0")},
		},
		{
			name:     "R7 bundle default on installs an unconfigured module",
			mods:     []*model.Module{fixture.Module("a", fixture.Bundles("Default"), fixture.Versions("1.0.0", "1.1.0"))},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{},
			want:     map[string]exp{"a": install("1.1.0")},
			heldBack: map[string][]string{"a": {}},
		},
		{
			name:    "R7 bundle default off in another bundle",
			mods:    []*model.Module{fixture.Module("a", fixture.Bundles("Managed"), fixture.Versions("1.0.0"))},
			cluster: fixture.Cluster(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},
		{
			name:    "R7 module without accessibility data is off by default",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0"))},
			cluster: fixture.Cluster(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},
		{
			name: "R7 edition override of bundles turns the default off",
			mods: []*model.Module{fixture.Module("a", fixture.Versions("1.0.0"), fixture.Access(&model.Accessibility{Editions: map[string]model.EditionAccess{
				model.DefaultEdition: {Available: ptr(true), EnabledInBundles: []string{"Default"}},
				"ce":                 {EnabledInBundles: []string{}},
			}}))},
			cluster: fixture.Cluster(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},
		{
			name: "R7 edition override of bundles turns the default on",
			mods: []*model.Module{fixture.Module("a", fixture.Versions("1.0.0"), fixture.Access(&model.Accessibility{Editions: map[string]model.EditionAccess{
				model.DefaultEdition: {Available: ptr(true), EnabledInBundles: []string{"Managed"}},
				"ce":                 {EnabledInBundles: []string{"Default"}},
			}}))},
			cluster: fixture.Cluster(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": install("1.0.0")},
		},
		{
			name: "R7 bundle default of a module unavailable in the edition is off",
			mods: []*model.Module{fixture.Module("a", fixture.Versions("1.0.0"), fixture.Access(&model.Accessibility{Editions: map[string]model.EditionAccess{
				model.DefaultEdition: {Available: ptr(true), EnabledInBundles: []string{"Default"}},
				"ce":                 {Available: ptr(false)},
			}}))},
			cluster: fixture.Cluster(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},
		{
			name: "R7 bundle default comes from the newest selectable release",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.ReleaseBundles("Default")), fixture.Release("1.1.0", fixture.ReleaseBundles()))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},

		// ---- R8 ----
		{
			name: "R8 required dependency disabled in the cluster is unsatisfiable",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 0.0.0")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Disabled()}),
			req:      model.Request{Enable: []string{"b"}, AutoEnable: true},
			unsat:    true,
			mentions: []string{"a is disabled in the cluster (enabled: false)", "b 1.0.0 requires a"},
			kinds:    []model.FactKind{model.FactClusterDisabled, model.FactModuleRequirement},
		},
		{
			name: "R8 enabled:false keeps a bundle-default module off",
			mods: []*model.Module{
				fixture.Module("a", fixture.Bundles("Default"), fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Disabled()}),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},
		{
			name:    "R8 request enable overrides enabled:false",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Disabled()}),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.0.0")},
		},
		{
			name:    "R8 enabled:true without a version installs the module",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("")}),
			req:     model.Request{},
			want:    map[string]exp{"a": install("1.1.0")},
		},
		{
			name: "R8 enabled:true is hard: a conflicting enable is unsatisfiable without allowDisable",
			mods: []*model.Module{
				fixture.Module("c", fixture.Versions("1.0.0")),
				fixture.Module("x", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("c", ">= 9.0 !optional")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"c": fixture.Enabled("1.0.0")}),
			req:      model.Request{Enable: []string{"x"}},
			unsat:    true,
			mentions: []string{"x 1.0.0 requires c >= 9.0 !optional", "c"},
		},
		{
			name: "R8 bundle-default module whose requirements fail stays off with the reason",
			mods: []*model.Module{
				fixture.Module("a", fixture.Bundles("Default"), fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes(">= 1.30")))),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{},
			want:     map[string]exp{"a": absent()},
			heldBack: map[string][]string{"a": {"on by default", "kubernetes", "(the cluster runs 1.29.6)"}},
		},

		// ---- R9 ----
		{
			name:     "R9 module outside the update set keeps its deployed version",
			mods:     []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0"))},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:      model.Request{},
			want:     map[string]exp{"a": keep("1.0.0")},
			heldBack: map[string][]string{"a": {"not in the request's update set"}},
		},
		{
			name: "R9 module outside the update set is not updated for a dependent",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.1.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.1")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:      model.Request{Enable: []string{"b"}},
			unsat:    true,
			mentions: []string{"a is not in the request's update set, so it stays at 1.0.0"},
			kinds:    []model.FactKind{model.FactKeepVersion},
		},
		{
			name: "R9 no downgrade even in the update set",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.1.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", "< 1.1")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.1.0")}),
			req:      model.Request{Enable: []string{"b"}, Update: []string{"a"}},
			unsat:    true,
			mentions: []string{"a may not go below its deployed version 1.1.0"},
			kinds:    []model.FactKind{model.FactNoDowngrade},
		},
		{
			name:     "R9 explicit pin downgrades",
			mods:     []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0"))},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.1.0")}),
			req:      model.Request{Pin: fixture.Pins("a", "1.0.0")},
			want:     map[string]exp{"a": downgrade("1.0.0")},
			heldBack: map[string][]string{"a": {"pinned to 1.0.0"}},
		},
		{
			name: "R9 dependency in the update set updates for a dependent",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.1.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.1")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"b"}, Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.1.0"), "b": install("1.0.0")},
			plan:    []string{"a", "b"},
		},

		// ---- R10 ----
		{
			name:    "R10 update never goes above the channel head",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.0.1", "1.0.2"), fixture.Channels("stable", "1.0.1", "alpha", "1.0.2"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.1")},
			head:    map[string]string{"a": "1.0.1"},
			path:    map[string][]string{"a": {"1.0.1"}},
		},
		{
			name:    "R10 install takes the channel head, not the newest release",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.0.1", "1.0.2"), fixture.Channels("stable", "1.0.1", "alpha", "1.0.2"))},
			cluster: fixture.Cluster(nil, fixture.ReleaseChannel("stable")),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.0.1")},
			head:    map[string]string{"a": "1.0.1"},
		},
		{
			name:    "R10 module channel overrides the cluster channel",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.0.1", "1.0.2"), fixture.Channels("stable", "1.0.1", "alpha", "1.0.2"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.EnabledOnChannel("1.0.0", "alpha")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.2")},
			head:    map[string]string{"a": "1.0.2"},
		},
		{
			name:    "R10 missing channel falls back to the nearest more stable one",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.0.1", "1.0.2"), fixture.Channels("stable", "1.0.1", "rock-solid", "1.0.0"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}, fixture.ReleaseChannel("alpha")),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.1")},
			head:    map[string]string{"a": "1.0.1"},
		},
		{
			name:     "R10 no channel as stable as the module's lists no release",
			mods:     []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.0.1"), fixture.Channels("alpha", "1.0.1"))},
			cluster:  fixture.Cluster(nil, fixture.ReleaseChannel("stable")),
			req:      model.Request{Enable: []string{"a"}},
			unsat:    true,
			mentions: []string{"channel stable"},
			kinds:    []model.FactKind{model.FactChannelHead},
		},
		{
			name:    "R10 module without channel data may take any release",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.0.1", "1.0.2"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.2")},
			head:    map[string]string{"a": "1.0.2"},
		},
		{
			name:     "R10 deployed version above the head is kept",
			mods:     []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.0.1", "1.0.2"), fixture.Channels("stable", "1.0.1", "alpha", "1.0.2"))},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.2")}, fixture.ReleaseChannel("stable")),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": keep("1.0.2")},
			heldBack: map[string][]string{"a": {}},
		},
		{
			name:    "R10 pin may go above the head",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.0.1", "1.0.2"), fixture.Channels("stable", "1.0.1", "alpha", "1.0.2"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Pin: fixture.Pins("a", "1.0.2")},
			want:    map[string]exp{"a": update("1.0.2")},
		},

		// ---- R11 ----
		{
			name:    "R11 highest patch of the own minor",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.0.1", "1.0.2"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.2")},
			path:    map[string][]string{"a": {"1.0.2"}},
		},
		{
			name:     "R11 highest patch of the next minor, one minor at a time",
			mods:     []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.0.2", "1.1.0", "1.1.3", "1.2.0"))},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": update("1.1.3")},
			path:     map[string][]string{"a": {"1.1.3", "1.2.0"}},
			heldBack: map[string][]string{"a": {"1.2.0", "sequential update rule"}},
		},
		{
			name:    "R11 next minor is the next one that has a release",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.2.0", "1.3.0"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.2.0")},
			path:    map[string][]string{"a": {"1.2.0", "1.3.0"}},
		},
		{
			name:    "R11 0.x to 1.x",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("0.5.0", "0.6.0", "1.0.0", "1.0.3", "1.1.0"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("0.5.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.3")},
			path:    map[string][]string{"a": {"1.0.3", "1.1.0"}},
		},
		{
			name:     "R11 major jump waits",
			mods:     []*model.Module{fixture.Module("a", fixture.Versions("1.2.0", "2.0.0"))},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.2.0")}),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": keep("1.2.0")},
			heldBack: map[string][]string{"a": {"2.0.0"}},
		},
		{
			name:    "R11 from-to jump",
			mods:    []*model.Module{fixture.Module("a", fixture.Releases(fixture.Release("1.67.0"), fixture.Release("1.68.0"), fixture.Release("1.75.0", fixture.Jump("1.67", "1.75"))))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.67.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.75.0")},
			path:    map[string][]string{"a": {"1.75.0"}},
		},
		{
			name:    "R11 from-to jump does not apply below from",
			mods:    []*model.Module{fixture.Module("a", fixture.Releases(fixture.Release("1.66.0"), fixture.Release("1.67.0"), fixture.Release("1.68.0"), fixture.Release("1.75.0", fixture.Jump("1.67", "1.75"))))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.66.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.67.0")},
			path:    map[string][]string{"a": {"1.67.0", "1.75.0"}},
		},
		{
			name:    "R11 from-to jump across a major",
			mods:    []*model.Module{fixture.Module("a", fixture.Releases(fixture.Release("1.4.0"), fixture.Release("1.5.0"), fixture.Release("2.0.0", fixture.Jump("1.4", "2.0"))))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.4.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("2.0.0")},
		},
		{
			name:    "R11 strategy direct allows any release up to the head",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0"), fixture.Channels("stable", "2.0.0"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}, fixture.ReleaseChannel("stable")),
			req:     model.Request{Update: []string{"a"}, Strategy: model.StrategyDirect},
			want:    map[string]exp{"a": update("2.0.0")},
			path:    map[string][]string{"a": {"2.0.0"}},
		},
		{
			name:     "R11 a step blocked by Kubernetes blocks the update rather than being skipped",
			mods:     []*model.Module{fixture.Module("a", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.NeedsKubernetes(">= 1.30")), fixture.Release("1.2.0")))},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": keep("1.0.0")},
			heldBack: map[string][]string{"a": {"kubernetes"}},
		},
		{
			name:     "R11 install is not limited by update steps",
			mods:     []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0", "2.0.0"))},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"a"}},
			want:     map[string]exp{"a": install("2.0.0")},
			path:     map[string][]string{"a": {"2.0.0"}},
			heldBack: map[string][]string{"a": {}},
		},

		// ---- R12 ----
		{
			name: "R12 module that cannot follow a Kubernetes upgrade blocks it",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes("< 1.30")), fixture.Release("1.1.0", fixture.NeedsKubernetes(">= 1.29")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:      model.Request{Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			unsat:    true,
			mentions: []string{"requirements of a are not satisfied: 1.30.2 kubernetes version is not suitable"},
			kinds:    []model.FactKind{model.FactKubernetesRequirement},
		},
		{
			name: "R12 module in the update set updates to follow a Kubernetes upgrade",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes("< 1.30")), fixture.Release("1.1.0", fixture.NeedsKubernetes(">= 1.29")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:     model.Request{UpdateAll: true, Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			want:    map[string]exp{"a": update("1.1.0")},
		},
		{
			name: "R12 module in the update set updates to follow a DKP upgrade",
			mods: []*model.Module{
				fixture.Module("core", fixture.BuiltIn()),
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsDeckhouse("< 1.74")), fixture.Release("1.1.0", fixture.NeedsDeckhouse(">= 1.74")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0"), "core": fixture.Enabled("")}),
			req:     model.Request{Update: []string{"a"}, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}},
			want:    map[string]exp{"a": update("1.1.0"), "core": update("1.74.0")},
		},
		{
			name: "R12 DKP upgrade blocked by a module outside the update set",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsDeckhouse("< 1.74")), fixture.Release("1.1.0", fixture.NeedsDeckhouse(">= 1.74")))),
				fixture.Module("b", fixture.Versions("1.0.0")),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0"), "b": fixture.Enabled("1.0.0")}),
			req:      model.Request{Update: []string{"b"}, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}},
			unsat:    true,
			mentions: []string{"a 1.0.0 requires deckhouse < 1.74", "not in the request's update set"},
			kinds:    []model.FactKind{model.FactDeckhouseRequirement, model.FactKeepVersion},
		},

		// ---- R13 ----
		{
			name: "R13 enabling a second module of an exclusive group is unsatisfiable",
			mods: []*model.Module{
				fixture.Module("cni-cilium", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("cni-flannel", fixture.Group("cni"), fixture.Versions("1.0.0")),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"cni-cilium": fixture.Enabled("1.0.0")}),
			req:      model.Request{Enable: []string{"cni-flannel"}},
			unsat:    true,
			mentions: []string{"exclusive group cni"},
			kinds:    []model.FactKind{model.FactExclusiveGroup, model.FactRequestEnable, model.FactClusterEnabled},
		},
		{
			name: "R13 allowDisable switches the module of an exclusive group",
			mods: []*model.Module{
				fixture.Module("cni-cilium", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("cni-flannel", fixture.Group("cni"), fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"cni-cilium": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"cni-flannel"}, AllowDisable: true},
			want:    map[string]exp{"cni-cilium": disable(), "cni-flannel": install("1.0.0")},
			plan:    []string{"cni-cilium", "cni-flannel"},
		},
		{
			name: "R13 two bundle-default modules of a group: one stays off",
			mods: []*model.Module{
				fixture.Module("cni-cilium", fixture.Group("cni"), fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("cni-flannel", fixture.Group("cni"), fixture.Bundles("Default"), fixture.Versions("1.0.0")),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{},
			want:     map[string]exp{"cni-cilium": install("1.0.0"), "cni-flannel": absent()},
			heldBack: map[string][]string{"cni-flannel": {"exclusive group cni"}},
		},
		{
			name: "R13 modules of different groups coexist",
			mods: []*model.Module{
				fixture.Module("cni-cilium", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("ingress", fixture.Group("ingress"), fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"cni-cilium": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"ingress"}},
			want:    map[string]exp{"cni-cilium": keep("1.0.0"), "ingress": install("1.0.0")},
		},

		// ---- R14 ----
		{
			name:    "R14 newest release preferred",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("0.9.0", "1.0.0", "1.0.1"))},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.0.1")},
		},
		{
			name: "R14 fewest modules disabled with allowDisable, before newest",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0")),
				fixture.Module("b", fixture.Versions("1.0.0")),
				fixture.Module("c", fixture.Versions("1.0.0")),
				fixture.Module("x", fixture.Releases(
					fixture.Release("1.0.0", fixture.Needs("c", ">= 9.0 !optional")),
					fixture.Release("2.0.0", fixture.Needs("a", ">= 9.0 !optional"), fixture.Needs("b", ">= 9.0 !optional")),
				)),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0"), "b": fixture.Enabled("1.0.0"), "c": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"x"}, AllowDisable: true},
			want: map[string]exp{
				"a": keep("1.0.0"), "b": keep("1.0.0"), "c": disable(), "x": install("1.0.0"),
			},
			// c's disable must precede x's install; a and b keep, by name.
			plan: []string{"a", "b", "c", "x"},
		},
		{
			name: "R14 allowDisable disables nothing when nothing needs it",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0")),
				fixture.Module("x", fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"x"}, AllowDisable: true},
			want:    map[string]exp{"a": keep("1.0.0"), "x": install("1.0.0")},
		},
		{
			name: "R14 named module newest, then fewest modules auto-enabled",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0")),
				fixture.Module("b", fixture.Versions("1.0.0")),
				fixture.Module("c", fixture.Versions("1.0.0")),
				fixture.Module("x", fixture.Releases(
					fixture.Release("1.0.0", fixture.Needs("c", ">= 0.0.0")),
					fixture.Release("2.0.0", fixture.Needs("a", ">= 0.0.0"), fixture.Needs("b", ">= 0.0.0")),
				)),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"x"}, AutoEnable: true},
			want:    map[string]exp{"a": install("1.0.0"), "b": install("1.0.0"), "c": absent(), "x": install("2.0.0")},
		},
		{
			name: "R14 fewest modules auto-enabled, before newest of the modules nobody named",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("2.0.0", fixture.Needs("b", ">= 0.0.0")))),
				fixture.Module("b", fixture.Versions("1.0.0")),
				fixture.Module("x", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 0.0.0")))),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"x"}, AutoEnable: true},
			want:     map[string]exp{"a": install("1.0.0"), "b": absent(), "x": install("1.0.0")},
			heldBack: map[string][]string{"a": {"2.0.0"}},
		},
		{
			name: "R14 bundle-default modules stay on, before newest",
			mods: []*model.Module{
				fixture.Module("d", fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("x", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("2.0.0", fixture.Needs("d", ">= 2.0 !optional")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"x"}},
			want:    map[string]exp{"d": install("1.0.0"), "x": install("1.0.0")},
		},
		{
			name: "R14 named modules are served in name order",
			mods: []*model.Module{
				fixture.Module("alpha", fixture.Versions("1.0.0", "1.1.0")),
				fixture.Module("beta", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.Needs("alpha", "< 1.1")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"alpha": fixture.Enabled("1.0.0"), "beta": fixture.Enabled("1.0.0")}),
			req:      model.Request{UpdateAll: true},
			want:     map[string]exp{"alpha": update("1.1.0"), "beta": keep("1.0.0")},
			heldBack: map[string][]string{"beta": {"1.1.0", "alpha"}, "alpha": {}},
		},
		{
			name: "R14 named modules are served in name order, either way round",
			mods: []*model.Module{
				fixture.Module("alpha", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.Needs("beta", "< 1.1")))),
				fixture.Module("beta", fixture.Versions("1.0.0", "1.1.0")),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"alpha": fixture.Enabled("1.0.0"), "beta": fixture.Enabled("1.0.0")}),
			req:      model.Request{UpdateAll: true},
			want:     map[string]exp{"alpha": update("1.1.0"), "beta": keep("1.0.0")},
			heldBack: map[string][]string{"beta": {"1.1.0", "alpha"}},
		},
		{
			name: "R14 named modules are served before others",
			mods: []*model.Module{
				fixture.Module("a", fixture.Bundles("Default"), fixture.Versions("1.0.0", "2.0.0")),
				fixture.Module("z", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("2.0.0", fixture.Needs("a", "< 2.0 !optional")))),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"z"}},
			want:     map[string]exp{"a": install("1.0.0"), "z": install("2.0.0")},
			heldBack: map[string][]string{"a": {"2.0.0", "z"}},
		},
		{
			name: "R14 fewest changes to modules nobody asked about",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.1.0")),
				fixture.Module("b", fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"b"}},
			want:    map[string]exp{"a": keep("1.0.0"), "b": install("1.0.0")},
		},

		// ---- R17 ----
		{
			name: "R17 module held back by a dependency outside the update set",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.1.0")),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.Needs("a", ">= 1.1")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0"), "b": fixture.Enabled("1.0.0")}),
			req:      model.Request{Update: []string{"b"}},
			want:     map[string]exp{"a": keep("1.0.0"), "b": keep("1.0.0")},
			heldBack: map[string][]string{"b": {"1.1.0 is not possible", "a"}, "a": {"not in the request's update set"}},
			head:     map[string]string{"b": "1.1.0"},
		},
		{
			name:     "R17 module at its head is not held back",
			mods:     []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0"))},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": update("1.1.0")},
			heldBack: map[string][]string{"a": {}},
		},
		{
			name:     "R17 module held back by the channel is at its head",
			mods:     []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0"), fixture.Channels("stable", "1.0.0"))},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}, fixture.ReleaseChannel("stable")),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": keep("1.0.0")},
			heldBack: map[string][]string{"a": {}},
			head:     map[string]string{"a": "1.0.0"},
		},

		// ---- R18 ----
		{
			name: "R18 dependencies come before dependents",
			mods: []*model.Module{
				fixture.Module("a-app", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("m-mid", ">= 0.0.0")))),
				fixture.Module("m-mid", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("z-lib", ">= 0.0.0")))),
				fixture.Module("z-lib", fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"a-app", "m-mid", "z-lib"}},
			want:    map[string]exp{"a-app": install("1.0.0"), "m-mid": install("1.0.0"), "z-lib": install("1.0.0")},
			plan:    []string{"z-lib", "m-mid", "a-app"},
		},
		{
			name: "R18 optional dependency counts when both are enabled",
			mods: []*model.Module{
				fixture.Module("a-app", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("z-lib", "!optional")))),
				fixture.Module("z-lib", fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"a-app", "z-lib"}},
			want:    map[string]exp{"a-app": install("1.0.0"), "z-lib": install("1.0.0")},
			plan:    []string{"z-lib", "a-app"},
		},
		{
			name: "R18 disable comes before an enable in the same exclusive group",
			mods: []*model.Module{
				fixture.Module("cni-a", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("cni-z", fixture.Group("cni"), fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"cni-z": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"cni-a"}, Disable: []string{"cni-z"}},
			want:    map[string]exp{"cni-a": install("1.0.0"), "cni-z": disable()},
			plan:    []string{"cni-z", "cni-a"},
		},
		{
			name: "R18 disable comes before an enable that needs it",
			mods: []*model.Module{
				fixture.Module("a-x", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("z-y", ">= 9.0 !optional")))),
				fixture.Module("z-y", fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"z-y": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"a-x"}, Disable: []string{"z-y"}},
			want:    map[string]exp{"a-x": install("1.0.0"), "z-y": disable()},
			plan:    []string{"z-y", "a-x"},
		},
		{
			name: "R18 a dependent is disabled before what it depends on",
			mods: []*model.Module{
				fixture.Module("a-lib", fixture.Versions("1.0.0")),
				fixture.Module("z-app", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a-lib", ">= 0.0.0")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a-lib": fixture.Enabled("1.0.0"), "z-app": fixture.Enabled("1.0.0")}),
			req:     model.Request{Disable: []string{"a-lib", "z-app"}},
			want:    map[string]exp{"a-lib": disable(), "z-app": disable()},
			plan:    []string{"z-app", "a-lib"},
		},
		{
			name: "R18 ties break by weight, then by name",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0")),
				fixture.Module("b", fixture.Versions("1.0.0")),
				fixture.Module("c", fixture.Weight(100), fixture.Versions("1.0.0")),
				fixture.Module("d", fixture.Weight(950), fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"d", "b", "c", "a"}},
			want:    map[string]exp{"a": install("1.0.0"), "b": install("1.0.0"), "c": install("1.0.0"), "d": install("1.0.0")},
			plan:    []string{"c", "a", "b", "d"},
		},
		{
			name: "R18 a dependency comes first even when it is heavier",
			mods: []*model.Module{
				fixture.Module("app", fixture.Weight(100), fixture.Releases(fixture.Release("1.0.0", fixture.Needs("lib", ">= 0.0.0")))),
				fixture.Module("lib", fixture.Weight(999), fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"app"}, AutoEnable: true},
			want:    map[string]exp{"app": install("1.0.0"), "lib": install("1.0.0")},
			plan:    []string{"lib", "app"},
		},

		// ---- more combinations ----
		{
			name: "R2 autoEnable follows a chain of required dependencies",
			mods: []*model.Module{
				fixture.Module("x", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("y", ">= 1.0")))),
				fixture.Module("y", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("z", ">= 2.0")))),
				fixture.Module("z", fixture.Versions("1.0.0", "2.0.0", "2.1.0")),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"x"}, AutoEnable: true},
			want:    map[string]exp{"x": install("1.0.0"), "y": install("1.0.0"), "z": install("2.1.0")},
			plan:    []string{"z", "y", "x"},
		},
		{
			name: "R8 bundle-default module whose required dependency is disabled stays off",
			mods: []*model.Module{
				fixture.Module("a", fixture.Bundles("Default"), fixture.Releases(fixture.Release("1.0.0", fixture.Needs("b", ">= 1.0")))),
				fixture.Module("b", fixture.Versions("1.0.0")),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"b": fixture.Disabled()}),
			req:      model.Request{},
			want:     map[string]exp{"a": absent(), "b": absent()},
			heldBack: map[string][]string{"a": {"on by default", "b"}},
		},
		{
			name: "R12 modules in the update set update together for a Kubernetes upgrade",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes("< 1.30"), fixture.Needs("b", ">= 1.0")), fixture.Release("1.1.0", fixture.Needs("b", ">= 1.1")))),
				fixture.Module("b", fixture.Versions("1.0.0", "1.1.0")),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0"), "b": fixture.Enabled("1.0.0")}),
			req:     model.Request{UpdateAll: true, Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			want:    map[string]exp{"a": update("1.1.0"), "b": update("1.1.0")},
			plan:    []string{"b", "a"},
		},
		{
			name: "R14 allowDisable disables a dependent together with its dependency",
			mods: []*model.Module{
				fixture.Module("c", fixture.Versions("1.0.0")),
				fixture.Module("d", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("c", ">= 1.0")))),
				fixture.Module("x", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("c", ">= 9.0 !optional")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"c": fixture.Enabled("1.0.0"), "d": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"x"}, AllowDisable: true},
			want:    map[string]exp{"c": disable(), "d": disable(), "x": install("1.0.0")},
			plan:    []string{"d", "c", "x"},
		},
		{
			name:    "R10 channel pointing at a prerelease installs it",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0-rc.1"), fixture.Channels("alpha", "1.1.0-rc.1", "stable", "1.0.0"))},
			cluster: fixture.Cluster(nil, fixture.ReleaseChannel("alpha")),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.1.0-rc.1")},
			head:    map[string]string{"a": "1.1.0-rc.1"},
		},
		{
			name:    "R14 newest preferred skips a prerelease no channel names",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0-rc.1"))},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.0.0")},
			head:    map[string]string{"a": "1.0.0"},
		},
		{
			name:    "R11 update from a deployed prerelease",
			mods:    []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0-rc.1", "1.1.0", "1.2.0", "1.3.0"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.1.0-rc.1")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.2.0")},
			path:    map[string][]string{"a": {"1.2.0", "1.3.0"}},
		},
		{
			name: "R7 bundle default read from the newest release available in the edition",
			mods: []*model.Module{
				fixture.Module("a", fixture.Bundles("Default"), fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.OnlyIn("ee")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": install("1.0.0")},
		},
		{
			name: "R3 optional dependency in the update set can only take one step",
			mods: []*model.Module{
				fixture.Module("d", fixture.Versions("1.0.0", "1.1.0", "1.2.0")),
				fixture.Module("p", fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", fixture.Needs("d", ">= 1.1 !optional")), fixture.Release("1.2.0", fixture.Needs("d", ">= 1.2 !optional")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"p": fixture.Enabled("1.0.0"), "d": fixture.Enabled("1.0.0")}),
			req:      model.Request{UpdateAll: true, Strategy: model.StrategySequential},
			want:     map[string]exp{"p": update("1.1.0"), "d": update("1.1.0")},
			path:     map[string][]string{"p": {"1.1.0", "1.2.0"}, "d": {"1.1.0", "1.2.0"}},
			heldBack: map[string][]string{"p": {"1.2.0"}, "d": {"1.2.0"}},
		},
		{
			name: "R13 bundle-default module of a group whose member is enabled stays off",
			mods: []*model.Module{
				fixture.Module("cni-cilium", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("cni-flannel", fixture.Group("cni"), fixture.Bundles("Default"), fixture.Versions("1.0.0")),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"cni-cilium": fixture.Enabled("1.0.0")}),
			req:      model.Request{},
			want:     map[string]exp{"cni-cilium": keep("1.0.0"), "cni-flannel": absent()},
			heldBack: map[string][]string{"cni-flannel": {"on by default", "exclusive group cni"}},
		},
		{
			name: "R14 fewest enabled modules disabled comes before most bundle defaults on",
			mods: []*model.Module{
				fixture.Module("c", fixture.Versions("1.0.0")),
				fixture.Module("d1", fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("d2", fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("x", fixture.Releases(
					fixture.Release("1.0.0", fixture.Needs("d1", ">= 9.0 !optional"), fixture.Needs("d2", ">= 9.0 !optional")),
					fixture.Release("2.0.0", fixture.Needs("c", ">= 9.0 !optional")),
				)),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"c": fixture.Enabled("1.0.0")}),
			req:     model.Request{Enable: []string{"x"}, AllowDisable: true},
			want:    map[string]exp{"c": keep("1.0.0"), "d1": absent(), "d2": absent(), "x": install("1.0.0")},
		},
		{
			name: "R14 most bundle defaults on comes before newest",
			mods: []*model.Module{
				fixture.Module("d1", fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("d2", fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("x", fixture.Releases(
					fixture.Release("1.0.0", fixture.Needs("d1", ">= 9.0 !optional")),
					fixture.Release("2.0.0", fixture.Needs("d1", ">= 9.0 !optional"), fixture.Needs("d2", ">= 9.0 !optional")),
				)),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"x"}},
			want:    map[string]exp{"d1": absent(), "d2": install("1.0.0"), "x": install("1.0.0")},
		},
		{
			name:    "R5 R8 built-in module on by default runs at the DKP version: kept, not installed (D128)",
			mods:    []*model.Module{fixture.Module("core", fixture.BuiltIn(), fixture.Bundles("Default"))},
			cluster: fixture.Cluster(nil),
			req:     model.Request{},
			want:    map[string]exp{"core": keep("1.73.0")},
		},
		{
			name:    "R5 R8 R12 built-in module on by default moves with a platform upgrade (D128)",
			mods:    []*model.Module{fixture.Module("core", fixture.BuiltIn(), fixture.Bundles("Default"))},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.1")}},
			want:    map[string]exp{"core": update("1.74.1")},
		},
		{
			name:    "R5 R8 built-in module off by default that a request enables is installed",
			mods:    []*model.Module{fixture.Module("core", fixture.BuiltIn(), fixture.Bundles("Minimal"))},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"core"}},
			want:    map[string]exp{"core": install("1.73.0")},
		},
		{
			name: "R18 R27 a dependency cycle a catalog allows breaks by weight, then name",
			mods: []*model.Module{
				fixture.Module("a", fixture.AllowLoops(), fixture.Releases(fixture.Release("1.0.0", fixture.Needs("b", ">= 0.0.0")))),
				fixture.Module("b", fixture.AllowLoops(), fixture.Weight(100), fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 0.0.0")))),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"a", "b"}},
			want:    map[string]exp{"a": install("1.0.0"), "b": install("1.0.0")},
			plan:    []string{"b", "a"},
		},
		{
			name: "R8 disabling a module turns off the bundle-default modules that need it",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0")),
				fixture.Module("d", fixture.Bundles("Default"), fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.0")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:      model.Request{Disable: []string{"a"}},
			want:     map[string]exp{"a": disable(), "d": absent()},
			heldBack: map[string][]string{"d": {"on by default", "the request disables a"}},
		},
		{
			name: "R14 allowDisable cannot disable a dependency that the request needs",
			mods: []*model.Module{
				fixture.Module("a", fixture.Versions("1.0.0", "1.1.0")),
				fixture.Module("x", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.1")))),
			},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:      model.Request{Enable: []string{"x"}, AllowDisable: true},
			unsat:    true,
			mentions: []string{"x 1.0.0 requires a >= 1.1", "a is not in the request's update set"},
		},
		{
			name: "R12 allowDisable disables a module that blocks a Kubernetes upgrade",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes("< 1.30")))),
				fixture.Module("b", fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0"), "b": fixture.Enabled("1.0.0")}),
			req:     model.Request{AllowDisable: true, Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			want:    map[string]exp{"a": disable(), "b": keep("1.0.0")},
		},
		{
			name:     "R10 deployed module with no release on its channel keeps its version",
			mods:     []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.0.1"), fixture.Channels("alpha", "1.0.1"))},
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}, fixture.ReleaseChannel("stable")),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": keep("1.0.0")},
			head:     map[string]string{"a": ""},
			heldBack: map[string][]string{"a": {"channel stable"}},
		},
		{
			name: "R13 at most one module of a large exclusive group",
			mods: []*model.Module{
				fixture.Module("cni-1", fixture.Group("cni"), fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("cni-2", fixture.Group("cni"), fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("cni-3", fixture.Group("cni"), fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("cni-4", fixture.Group("cni"), fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("cni-5", fixture.Group("cni"), fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("cni-6", fixture.Group("cni"), fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("cni-7", fixture.Group("cni"), fixture.Bundles("Default"), fixture.Versions("1.0.0")),
				fixture.Module("cni-8", fixture.Group("cni"), fixture.Versions("1.0.0")),
			},
			cluster: fixture.Cluster(nil),
			req:     model.Request{Enable: []string{"cni-8"}},
			want: map[string]exp{
				"cni-1": absent(), "cni-2": absent(), "cni-3": absent(), "cni-4": absent(),
				"cni-5": absent(), "cni-6": absent(), "cni-7": absent(), "cni-8": install("1.0.0"),
			},
		},
		{
			name: "R13 two modules of a large exclusive group cannot both be enabled",
			mods: []*model.Module{
				fixture.Module("cni-1", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("cni-2", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("cni-3", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("cni-4", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("cni-5", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("cni-6", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("cni-7", fixture.Group("cni"), fixture.Versions("1.0.0")),
				fixture.Module("cni-8", fixture.Group("cni"), fixture.Versions("1.0.0")),
			},
			cluster:  fixture.Cluster(nil),
			req:      model.Request{Enable: []string{"cni-3", "cni-7"}},
			unsat:    true,
			mentions: []string{"exclusive group cni", "the request enables cni-3", "the request enables cni-7"},
			kinds:    []model.FactKind{model.FactExclusiveGroup},
		},

		{
			name:    "R8 bundle default applies to a module whose cluster entry sets only a channel",
			mods:    []*model.Module{fixture.Module("a", fixture.Bundles("Default"), fixture.Versions("1.0.0", "1.1.0"), fixture.Channels("alpha", "1.1.0", "stable", "1.0.0"))},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": {Channel: "alpha"}}, fixture.ReleaseChannel("stable")),
			req:     model.Request{},
			want:    map[string]exp{"a": install("1.1.0")},
			head:    map[string]string{"a": "1.1.0"},
		},
		{
			name:    "R5 built-in module is enabled at a prerelease DKP version",
			mods:    []*model.Module{fixture.Module("core", fixture.BuiltIn())},
			cluster: fixture.Cluster(nil, fixture.Deckhouse("1.75.0-rc.1")),
			req:     model.Request{Enable: []string{"core"}},
			want:    map[string]exp{"core": install("1.75.0-rc.1")},
		},
		{
			name:    "R5 built-in module on by default at a prerelease DKP version runs at it",
			mods:    []*model.Module{fixture.Module("core", fixture.BuiltIn(), fixture.Bundles("Default"))},
			cluster: fixture.Cluster(nil, fixture.Deckhouse("1.75.0-rc.1")),
			req:     model.Request{},
			want:    map[string]exp{"core": keep("1.75.0-rc.1")},
		},
		{
			name: "R12 every blocker of a platform upgrade is reported with its reason",
			mods: []*model.Module{
				fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes("< 1.30")))),
				fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes("< 1.30")))),
			},
			cluster: fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0"), "b": fixture.Enabled("1.0.0")}),
			req:     model.Request{UpdateAll: true, Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			unsat:   true,
			mentions: []string{
				"requirements of a are not satisfied: 1.30.2 kubernetes version is not suitable",
				"b 1.0.0 requires kubernetes < 1.30 (asked about 1.30.2)",
			},
		},
	}

	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.skip != "" && os.Getenv("MODSOLVER_RUN_SKIPPED") == "" {
				t.Skip(tc.skip)
			}
			cat, err := model.NewCatalog(tc.mods)
			require.NoError(t, err)
			req := tc.req
			res, err := solver.Solve(context.Background(), cat, tc.cluster, &req)
			require.NoError(t, err)
			require.NotNil(t, res)

			assert.Empty(t, checker.Check(cat, tc.cluster, &req, res), "independent checker")

			if tc.unsat {
				requireUnsat(t, res, tc.mentions, tc.kinds)
				return
			}
			require.Equal(t, model.StatusResolved, res.Status, "explanation: %+v", res.Explanation)
			assert.Nil(t, res.Explanation)
			for name, w := range tc.want {
				mr, found := moduleResult(res, name)
				if w.action == model.ActionAbsent {
					if found {
						assert.Equal(t, model.ActionAbsent, mr.Action, "%s action", name)
					}
					continue
				}
				if !assert.True(t, found, "module %s missing from the result", name) {
					continue
				}
				assert.Equal(t, w.action, mr.Action, "%s action", name)
				assert.Equal(t, w.to, mr.ToVersion, "%s toVersion", name)
			}
			for name, subs := range tc.heldBack {
				mr, found := moduleResult(res, name)
				require.True(t, found, "module %s missing from the result", name)
				if len(subs) == 0 {
					assert.Empty(t, mr.HeldBack, "%s heldBack", name)
				}
				for _, s := range subs {
					assert.Contains(t, mr.HeldBack, s, "%s heldBack", name)
				}
			}
			for name, p := range tc.path {
				mr, _ := moduleResult(res, name)
				assert.Equal(t, p, mr.Path, "%s path", name)
			}
			for name, h := range tc.head {
				mr, _ := moduleResult(res, name)
				assert.Equal(t, h, mr.ChannelHead, "%s channelHead", name)
			}
			if tc.plan != nil {
				assert.Equal(t, tc.plan, planModules(res), "plan order")
			}
		})
	}
}

// requireUnsat checks an unsatisfiable answer: at least one fact, the
// mentions somewhere in the explanation, and the fact kinds among its facts.
func requireUnsat(t *testing.T, res *model.Result, mentions []string, kinds []model.FactKind) {
	t.Helper()
	require.Equal(t, model.StatusUnsatisfiable, res.Status, "modules: %+v", res.Modules)
	require.NotNil(t, res.Explanation)
	require.NotEmpty(t, res.Explanation.Facts)
	text := explanationText(res.Explanation)
	for _, m := range mentions {
		assert.Contains(t, text, m)
	}
	var got []model.FactKind
	for _, f := range res.Explanation.Facts {
		got = append(got, f.Kind)
		assert.NotEmpty(t, f.Message, "fact %v has no message", f.Kind)
	}
	for _, k := range kinds {
		assert.Contains(t, got, k, "fact kinds")
	}
	for _, mr := range res.Modules {
		assert.NotContains(t, []model.Action{model.ActionInstall, model.ActionUpdate, model.ActionDowngrade}, mr.Action, "%s in an unsatisfiable answer", mr.Name)
	}
}

func explanationText(e *model.Explanation) string {
	parts := []string{e.Summary}
	for _, f := range e.Facts {
		parts = append(parts, f.Message, f.EcosystemMessage)
	}
	for _, s := range e.Suggestions {
		parts = append(parts, s.Message)
	}
	return strings.Join(parts, "\n")
}

func moduleResult(res *model.Result, name string) (model.ModuleResult, bool) {
	for _, mr := range res.Modules {
		if mr.Name == name {
			return mr, true
		}
	}
	return model.ModuleResult{}, false
}

func planModules(res *model.Result) []string {
	out := []string{}
	for _, s := range res.Plan {
		out = append(out, s.Module)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// R16 as far as R4 goes: suggestions of an unsatisfiable Kubernetes
// requirement name the version to upgrade to.
func TestR4UnsatisfiableSuggestsKubernetesUpgrade(t *testing.T) {
	cat, err := model.NewCatalog([]*model.Module{fixture.Module("a", fixture.Releases(fixture.Release("1.0.0", fixture.NeedsKubernetes(">= 1.30"))))})
	require.NoError(t, err)
	cluster := fixture.Cluster(nil)
	req := &model.Request{Enable: []string{"a"}}
	res, err := solver.Solve(context.Background(), cat, cluster, req)
	require.NoError(t, err)
	requireUnsat(t, res, []string{"1.29.6 is less than 1.30"}, []model.FactKind{model.FactKubernetesRequirement})
	assert.Empty(t, checker.Check(cat, cluster, req, res))
	var kinds []model.SuggestionKind
	for _, s := range res.Explanation.Suggestions {
		kinds = append(kinds, s.Kind)
	}
	assert.Contains(t, kinds, model.SuggestUpgradeKubernetes)
}

// R1: the plan and the module list hold each module once.
func TestR1EachModuleOnce(t *testing.T) {
	cat, err := model.NewCatalog([]*model.Module{
		fixture.Module("a", fixture.Versions("1.0.0", "1.1.0")),
		fixture.Module("b", fixture.Releases(fixture.Release("1.0.0", fixture.Needs("a", ">= 1.0")))),
	})
	require.NoError(t, err)
	cluster := fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")})
	req := &model.Request{Enable: []string{"b"}, UpdateAll: true}
	res, err := solver.Solve(context.Background(), cat, cluster, req)
	require.NoError(t, err)
	assert.Empty(t, checker.Check(cat, cluster, req, res))
	seen := map[string]int{}
	for _, mr := range res.Modules {
		seen[mr.Name]++
	}
	for _, s := range res.Plan {
		seen[s.Module+"#plan"]++
	}
	for k, n := range seen {
		assert.Equal(t, 1, n, k)
	}
}

// Bad input is an error wrapping model.ErrInvalidInput, never an
// unsatisfiable answer.
func TestBadInput(t *testing.T) {
	mods := func() []*model.Module {
		return []*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0"))}
	}
	tests := []struct {
		name     string
		cluster  *model.ClusterState
		req      *model.Request
		nilCat   bool
		sentinel error
	}{
		{
			name:     "unknown module in request enable",
			cluster:  fixture.Cluster(nil),
			req:      &model.Request{Enable: []string{"ghost"}},
			sentinel: model.ErrUnknownModule,
		},
		{
			name:     "unknown module in request update",
			cluster:  fixture.Cluster(nil),
			req:      &model.Request{Update: []string{"ghost"}},
			sentinel: model.ErrUnknownModule,
		},
		{
			name:     "unknown module in request pin",
			cluster:  fixture.Cluster(nil),
			req:      &model.Request{Pin: fixture.Pins("ghost", "1.0.0")},
			sentinel: model.ErrUnknownModule,
		},
		{
			name:     "pinned version not in the catalog",
			cluster:  fixture.Cluster(map[string]model.ModuleState{"a": fixture.Enabled("1.0.0")}),
			req:      &model.Request{Pin: fixture.Pins("a", "9.9.9")},
			sentinel: model.ErrUnknownVersion,
		},
		{
			name:     "enabled module unknown to the catalog",
			cluster:  fixture.Cluster(map[string]model.ModuleState{"ghost": fixture.Enabled("1.0.0")}),
			req:      &model.Request{},
			sentinel: model.ErrUnknownModule,
		},
		{
			name:     "module both enabled and disabled",
			cluster:  fixture.Cluster(nil),
			req:      &model.Request{Enable: []string{"a"}, Disable: []string{"a"}},
			sentinel: model.ErrConflict,
		},
		{
			name:     "missing cluster",
			req:      &model.Request{},
			sentinel: model.ErrMissingField,
		},
		{
			name:     "missing request",
			cluster:  fixture.Cluster(nil),
			sentinel: model.ErrMissingField,
		},
		{
			name:     "missing catalog",
			cluster:  fixture.Cluster(nil),
			req:      &model.Request{},
			nilCat:   true,
			sentinel: model.ErrMissingField,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var cat *model.Catalog
			if !tc.nilCat {
				var err error
				cat, err = model.NewCatalog(mods())
				require.NoError(t, err)
			}
			res, err := solver.Solve(context.Background(), cat, tc.cluster, tc.req)
			require.Error(t, err)
			assert.Nil(t, res)
			assert.True(t, errors.Is(err, model.ErrInvalidInput), "want ErrInvalidInput, got %v", err)
			assert.True(t, errors.Is(err, tc.sentinel), "want %v, got %v", tc.sentinel, err)
			var fe *model.FieldError
			assert.True(t, errors.As(err, &fe), "want a *model.FieldError, got %T", err)
		})
	}
}
