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
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// This file checks Solve rule by rule (DESIGN.md R1–R14, R17, R18) on
// small hand-built catalogs. Every case's name starts with the rule it
// checks, and every answer is also verified by the independent checker.

// ---- catalog helpers ----

type relOpt func(*model.Release)

func rel(version string, opts ...relOpt) *model.Release {
	r := &model.Release{Version: model.MustParseVersion(version)}
	for _, o := range opts {
		o(r)
	}
	return r
}

// dep adds a module requirement (R2, or R3 with "!optional").
func dep(module, constraint string) relOpt {
	return func(r *model.Release) {
		r.Requirements.Modules = append(r.Requirements.Modules,
			model.Dependency{Module: module, Constraint: model.MustParseConstraint(constraint)})
	}
}

func needDKP(constraint string) relOpt {
	return func(r *model.Release) {
		c := model.MustParseConstraint(constraint)
		r.Requirements.Deckhouse = &c
	}
}

func needKube(constraint string) relOpt {
	return func(r *model.Release) {
		c := model.MustParseConstraint(constraint)
		r.Requirements.Kubernetes = &c
	}
}

// jump declares a from-to update rule on the release (R11).
func jump(from, to string) relOpt {
	return func(r *model.Release) {
		f, err := model.ParseMajorMinor(from)
		if err != nil {
			panic(err)
		}
		tt, err := model.ParseMajorMinor(to)
		if err != nil {
			panic(err)
		}
		r.UpdateRules = append(r.UpdateRules, model.UpdateRule{From: f, To: tt})
	}
}

// onlyIn makes the release available in the listed editions only (R7).
func onlyIn(editions ...string) relOpt {
	return func(r *model.Release) {
		r.Accessibility = onlyInEditions(editions...)
	}
}

// relBundles gives the release its own accessibility: available, and on
// by default in the listed bundles.
func relBundles(names ...string) relOpt {
	return func(r *model.Release) {
		yes := true
		r.Accessibility = &model.Accessibility{Editions: map[string]model.EditionAccess{
			model.DefaultEdition: {Available: &yes, EnabledInBundles: names},
		}}
	}
}

func onlyInEditions(editions ...string) *model.Accessibility {
	no, yes := false, true
	acc := &model.Accessibility{Editions: map[string]model.EditionAccess{model.DefaultEdition: {Available: &no}}}
	for _, e := range editions {
		acc.Editions[e] = model.EditionAccess{Available: &yes}
	}
	return acc
}

type modOpt func(*model.Module)

func mod(name string, opts ...modOpt) *model.Module {
	m := &model.Module{Name: name}
	for _, o := range opts {
		o(m)
	}
	return m
}

// vers adds plain releases.
func vers(vs ...string) modOpt {
	return func(m *model.Module) {
		for _, v := range vs {
			m.Releases = append(m.Releases, rel(v))
		}
	}
}

func rels(rs ...*model.Release) modOpt {
	return func(m *model.Module) { m.Releases = append(m.Releases, rs...) }
}

// builtIn makes a built-in module (R5) whose module-level requirements
// are set by opts.
func builtIn(opts ...relOpt) modOpt {
	return func(m *model.Module) {
		m.Embedded = true
		r := &model.Release{}
		for _, o := range opts {
			o(r)
		}
		m.Requirements = r.Requirements
	}
}

func group(g string) modOpt { return func(m *model.Module) { m.ExclusiveGroup = g } }
func weight(w int) modOpt   { return func(m *model.Module) { m.Weight = w } }
func access(a *model.Accessibility) modOpt {
	return func(m *model.Module) { m.Accessibility = a }
}

// chans takes pairs: channel, version.
func chans(pairs ...string) modOpt {
	return func(m *model.Module) {
		m.Channels = map[string]model.Version{}
		for i := 0; i < len(pairs); i += 2 {
			m.Channels[pairs[i]] = model.MustParseVersion(pairs[i+1])
		}
	}
}

// bundles makes the module available everywhere and on by default in the
// listed bundles.
func bundles(names ...string) modOpt {
	return func(m *model.Module) {
		yes := true
		m.Accessibility = &model.Accessibility{Editions: map[string]model.EditionAccess{
			model.DefaultEdition: {Available: &yes, EnabledInBundles: names},
		}}
	}
}

// ---- cluster and request helpers ----

type clusterOpt func(*model.ClusterState)

// clusterWith is DKP 1.73.0 on Kubernetes 1.29.6, edition ce, bundle
// Default, no release channel.
func clusterWith(mods map[string]model.ModuleState, opts ...clusterOpt) *model.ClusterState {
	c := &model.ClusterState{
		Deckhouse:  model.MustParseVersion("1.73.0"),
		Kubernetes: model.MustParseVersion("1.29.6"),
		Edition:    "ce",
		Bundle:     "Default",
		Modules:    mods,
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

func channel(ch string) clusterOpt { return func(c *model.ClusterState) { c.ReleaseChannel = ch } }
func dkpAt(v string) clusterOpt {
	return func(c *model.ClusterState) { c.Deckhouse = model.MustParseVersion(v) }
}
func kubeAt(v string) clusterOpt {
	return func(c *model.ClusterState) { c.Kubernetes = model.MustParseVersion(v) }
}
func edition(e string) clusterOpt { return func(c *model.ClusterState) { c.Edition = e } }

// on is enabled: true at version; "" means not deployed yet (D8).
func on(version string) model.ModuleState {
	yes := true
	s := model.ModuleState{Enabled: &yes}
	if version != "" {
		s.Version = model.MustParseVersion(version)
	}
	return s
}

func onChannel(version, ch string) model.ModuleState {
	s := on(version)
	s.Channel = ch
	return s
}

func off() model.ModuleState {
	no := false
	return model.ModuleState{Enabled: &no}
}

func pins(pairs ...string) map[string]model.Version {
	out := map[string]model.Version{}
	for i := 0; i < len(pairs); i += 2 {
		out[pairs[i]] = model.MustParseVersion(pairs[i+1])
	}
	return out
}

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
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.1.0", "1.2.0"))},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.2.0")},
		},
		{
			name: "R1 two releases of one module are never selected together",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.1.0")),
				mod("b", rels(rel("1.0.0", dep("a", "< 1.1")))),
				mod("c", rels(rel("1.0.0", dep("a", ">= 1.1")))),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"a", "b", "c"}},
			unsat:    true,
			mentions: []string{"b 1.0.0 requires a < 1.1", "c 1.0.0 requires a >= 1.1"},
			kinds:    []model.FactKind{model.FactModuleRequirement},
		},
		{
			name: "R1 one release satisfies two dependents at once",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.1.0", "1.2.0")),
				mod("b", rels(rel("1.0.0", dep("a", "< 1.2")))),
				mod("c", rels(rel("1.0.0", dep("a", ">= 1.1")))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"a", "b", "c"}},
			want:    map[string]exp{"a": install("1.1.0"), "b": install("1.0.0"), "c": install("1.0.0")},
		},

		// ---- R2 ----
		{
			name: "R2 required dependency not enabled without autoEnable is unsatisfiable",
			mods: []*model.Module{
				mod("a", vers("1.0.0")),
				mod("b", rels(rel("1.0.0", dep("a", ">= 0.0.0")))),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"b"}},
			unsat:    true,
			mentions: []string{"b 1.0.0 requires a", "a is not enabled", "autoEnable"},
			kinds:    []model.FactKind{model.FactModuleRequirement, model.FactNotEnabled},
		},
		{
			name: "R2 required dependency installed with autoEnable",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.1.0")),
				mod("b", rels(rel("1.0.0", dep("a", ">= 0.0.0")))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"b"}, AutoEnable: true},
			want:    map[string]exp{"a": install("1.1.0"), "b": install("1.0.0")},
			plan:    []string{"a", "b"},
		},
		{
			name: "R2 required dependency takes a version inside the constraint",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.5.0", "2.0.0")),
				mod("b", rels(rel("1.0.0", dep("a", ">= 1.0, < 2.0")))),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"b"}, AutoEnable: true},
			want:     map[string]exp{"a": install("1.5.0"), "b": install("1.0.0")},
			heldBack: map[string][]string{"a": {"2.0.0", "b 1.0.0 requires a"}},
		},
		{
			name: "R2 required dependency already enabled at a satisfying version",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.1.0")),
				mod("b", rels(rel("1.0.0", dep("a", ">= 1.0")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:     model.Request{Enable: []string{"b"}},
			want:    map[string]exp{"a": keep("1.0.0"), "b": install("1.0.0")},
			plan:    []string{"a", "b"},
		},
		{
			name: "R2 disabling a required dependency of an enabled module is unsatisfiable",
			mods: []*model.Module{
				mod("a", vers("1.0.0")),
				mod("b", rels(rel("1.0.0", dep("a", ">= 0.0.0")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0"), "b": on("1.0.0")}),
			req:      model.Request{Disable: []string{"a"}},
			unsat:    true,
			mentions: []string{"the request disables a", "b 1.0.0 requires a"},
			kinds:    []model.FactKind{model.FactRequestDisable, model.FactModuleRequirement},
		},
		{
			name: "R2 release requiring a module missing from the catalog is not selected",
			mods: []*model.Module{
				mod("b", rels(rel("1.0.0"), rel("1.1.0", dep("ghost", ">= 1.0")))),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"b"}},
			want:     map[string]exp{"b": install("1.0.0")},
			heldBack: map[string][]string{"b": {"ghost"}},
		},

		// ---- R3 ----
		{
			name: "R3 optional dependency disabled allows update",
			mods: []*model.Module{
				mod("d", vers("1.0.0", "2.0.0")),
				mod("p", rels(rel("1.0.0"), rel("1.1.0", dep("d", ">= 2.0 !optional")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"p": on("1.0.0"), "d": off()}),
			req:     model.Request{Update: []string{"p"}},
			want:    map[string]exp{"p": update("1.1.0"), "d": absent()},
		},
		{
			name: "R3 optional dependency disabled allows enabling the dependent",
			mods: []*model.Module{
				mod("d", vers("1.0.0", "2.0.0")),
				mod("p", rels(rel("1.0.0", dep("d", ">= 2.0 !optional")))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"p"}},
			want:    map[string]exp{"p": install("1.0.0"), "d": absent()},
			plan:    []string{"p"},
		},
		{
			name: "R3 optional dependency enabled outside the constraint blocks update",
			mods: []*model.Module{
				mod("d", vers("1.0.0", "2.0.0")),
				mod("p", rels(rel("1.0.0"), rel("1.1.0", dep("d", ">= 2.0 !optional")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"p": on("1.0.0"), "d": on("1.0.0")}),
			req:      model.Request{Update: []string{"p"}},
			want:     map[string]exp{"p": keep("1.0.0"), "d": keep("1.0.0")},
			heldBack: map[string][]string{"p": {"1.1.0", "d"}},
		},
		{
			name: "R3 optional dependency enabled outside the constraint blocks enabling",
			mods: []*model.Module{
				mod("d", vers("1.0.0", "2.0.0")),
				mod("p", rels(rel("1.0.0", dep("d", ">= 2.0 !optional")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"d": on("1.0.0")}),
			req:      model.Request{Enable: []string{"p"}},
			unsat:    true,
			mentions: []string{"p 1.0.0 requires d >= 2.0 !optional", "dependency 'd' not meet version constraint"},
			kinds:    []model.FactKind{model.FactRequestEnable, model.FactModuleRequirement, model.FactKeepVersion},
		},
		{
			name: "R3 optional dependency outside the constraint updates with the dependent",
			mods: []*model.Module{
				mod("d", vers("1.0.0", "1.1.0")),
				mod("p", rels(rel("1.0.0"), rel("1.1.0", dep("d", ">= 1.1 !optional")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"p": on("1.0.0"), "d": on("1.0.0")}),
			req:     model.Request{UpdateAll: true},
			want:    map[string]exp{"p": update("1.1.0"), "d": update("1.1.0")},
			plan:    []string{"d", "p"},
		},
		{
			name: "R3 disabling an optional dependency is always allowed",
			mods: []*model.Module{
				mod("d", vers("2.0.0")),
				mod("p", rels(rel("1.1.0", dep("d", ">= 2.0 !optional")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"p": on("1.1.0"), "d": on("2.0.0")}),
			req:     model.Request{Disable: []string{"d"}},
			want:    map[string]exp{"p": keep("1.1.0"), "d": disable()},
		},
		{
			name: "R3 with the dependent enabled, the dependency is enabled only inside the constraint",
			mods: []*model.Module{
				mod("d", vers("1.0.0", "1.5.0", "2.0.0")),
				mod("p", rels(rel("1.0.0", dep("d", ">= 1.0, < 2.0 !optional")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"p": on("1.0.0")}),
			req:      model.Request{Enable: []string{"d"}},
			want:     map[string]exp{"p": keep("1.0.0"), "d": install("1.5.0")},
			heldBack: map[string][]string{"d": {"2.0.0", "p 1.0.0 requires d"}},
			plan:     []string{"d", "p"},
		},
		{
			name: "R3 with the dependent enabled, the dependency is updated only inside the constraint",
			mods: []*model.Module{
				mod("d", vers("1.0.0", "1.0.5", "1.1.0")),
				mod("p", rels(rel("1.0.0", dep("d", "< 1.1 !optional")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"p": on("1.0.0"), "d": on("1.0.0")}),
			req:      model.Request{Update: []string{"d"}},
			want:     map[string]exp{"p": keep("1.0.0"), "d": update("1.0.5")},
			heldBack: map[string][]string{"d": {"1.1.0", "p"}},
		},
		{
			name: "R3 with the dependent enabled, pinning the dependency outside the constraint is unsatisfiable",
			mods: []*model.Module{
				mod("d", vers("1.0.0", "1.0.5", "1.1.0")),
				mod("p", rels(rel("1.0.0", dep("d", "< 1.1 !optional")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"p": on("1.0.0"), "d": on("1.0.0")}),
			req:      model.Request{Pin: pins("d", "1.1.0")},
			unsat:    true,
			mentions: []string{"the request pins d to 1.1.0", "p 1.0.0 requires d < 1.1 !optional"},
			kinds:    []model.FactKind{model.FactRequestPin, model.FactModuleRequirement},
		},
		{
			name: "R3 bare !optional allows any version of an enabled dependency",
			mods: []*model.Module{
				mod("d", vers("0.1.0")),
				mod("p", rels(rel("1.0.0", dep("d", "!optional")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"d": on("0.1.0")}),
			req:     model.Request{Enable: []string{"p"}},
			want:    map[string]exp{"p": install("1.0.0"), "d": keep("0.1.0")},
			plan:    []string{"d", "p"},
		},
		{
			name: "R3 optional dependency is not auto-enabled",
			mods: []*model.Module{
				mod("d", vers("1.0.0")),
				mod("p", rels(rel("1.0.0", dep("d", ">= 1.0 !optional")))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"p"}, AutoEnable: true},
			want:    map[string]exp{"p": install("1.0.0"), "d": absent()},
		},

		// ---- R4 ----
		{
			name: "R4 deckhouse requirement excludes newer releases",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needDKP(">= 1.70")), rel("1.1.0", needDKP(">= 1.75")))),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"a"}},
			want:     map[string]exp{"a": install("1.0.0")},
			heldBack: map[string][]string{"a": {"deckhouse", "1.75"}},
		},
		{
			name: "R4 kubernetes requirement not met is unsatisfiable",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needKube(">= 1.30")))),
			},
			cluster: clusterWith(nil),
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
				mod("a", rels(rel("1.0.0", needDKP(">= 1.75")))),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"a"}},
			unsat:    true,
			mentions: []string{"deckhouse", "1.73.0"},
			kinds:    []model.FactKind{model.FactDeckhouseRequirement},
		},
		{
			name: "R4 kubernetes candidate version is checked instead of the cluster's",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needKube(">= 1.30")))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"a"}, Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			want:    map[string]exp{"a": install("1.0.0")},
		},
		{
			name: "R4 deckhouse candidate version is checked instead of the cluster's",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needDKP("< 1.74")))),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"a"}, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}},
			unsat:    true,
			mentions: []string{"1.74.0 deckhouse version is not suitable"},
			kinds:    []model.FactKind{model.FactDeckhouseRequirement},
		},

		// ---- R5 ----
		{
			name:     "R5 built-in module runs at the DKP version",
			mods:     []*model.Module{mod("core", builtIn())},
			cluster:  clusterWith(map[string]model.ModuleState{"core": on("")}),
			req:      model.Request{},
			want:     map[string]exp{"core": keep("1.73.0")},
			heldBack: map[string][]string{"core": {}},
		},
		{
			name: "R5 requirement on a built-in module is checked against the DKP version",
			mods: []*model.Module{
				mod("core", builtIn()),
				mod("a", rels(rel("1.0.0", dep("core", ">= 1.74")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"core": on("")}),
			req:      model.Request{Enable: []string{"a"}},
			unsat:    true,
			mentions: []string{"a 1.0.0 requires core >= 1.74", "core is built in"},
		},
		{
			name: "R5 built-in module moves with a candidate DKP version",
			mods: []*model.Module{
				mod("core", builtIn()),
				mod("a", rels(rel("1.0.0", dep("core", ">= 1.74")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"core": on("")}),
			req:     model.Request{Enable: []string{"a"}, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}},
			want:    map[string]exp{"core": update("1.74.0"), "a": install("1.0.0")},
			plan:    []string{"core", "a"},
		},
		{
			name: "R5 requirements of a built-in module travel with the platform",
			mods: []*model.Module{
				mod("core", builtIn(needKube(">= 1.30"))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"core": on("")}),
			req:      model.Request{Enable: []string{"core"}},
			unsat:    true,
			mentions: []string{"core", "kubernetes", "1.29.6 is less than 1.30"},
			kinds:    []model.FactKind{model.FactKubernetesRequirement},
		},
		{
			name: "R5 requirements of a built-in module hold with a candidate Kubernetes",
			mods: []*model.Module{
				mod("core", builtIn(needKube(">= 1.30"))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"core": on("")}),
			req:     model.Request{Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			want:    map[string]exp{"core": keep("1.73.0")},
		},
		{
			name: "R5 built-in module requires an external module",
			mods: []*model.Module{
				mod("core", builtIn(dep("ext", ">= 1.1"))),
				mod("ext", vers("1.0.0", "1.1.0")),
			},
			cluster: clusterWith(map[string]model.ModuleState{"core": on(""), "ext": on("1.0.0")}),
			req:     model.Request{Update: []string{"ext"}},
			want:    map[string]exp{"core": keep("1.73.0"), "ext": update("1.1.0")},
			plan:    []string{"ext", "core"},
		},

		// ---- R6 ----
		{
			name: "R6 OLM-style exclusion skips one version",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.2.0", "1.2.1")),
				mod("b", rels(rel("1.0.0", dep("a", "> 1.0.0 !1.2.1")))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"b"}, AutoEnable: true},
			want:    map[string]exp{"a": install("1.2.0"), "b": install("1.0.0")},
		},
		{
			name: "R6 || constraint picks the newest of two ranges",
			mods: []*model.Module{
				mod("a", vers("0.5.0", "1.5.0", "2.1.0")),
				mod("b", rels(rel("1.0.0", dep("a", "< 1.0 || >= 3.0")))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"b"}, AutoEnable: true},
			want:    map[string]exp{"a": install("0.5.0"), "b": install("1.0.0")},
		},
		{
			name: "R6 v prefix and tilde range",
			mods: []*model.Module{
				mod("a", vers("v1.2.0", "v1.2.7", "v1.3.0")),
				mod("b", rels(rel("1.0.0", dep("a", "~v1.2.0")))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"b"}, AutoEnable: true},
			want:    map[string]exp{"a": install("1.2.7"), "b": install("1.0.0")},
		},
		{
			name: "R6 prerelease is stripped from the DKP version",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needDKP(">= 1.75")))),
			},
			cluster: clusterWith(nil, dkpAt("1.75.0-rc.1")),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.0.0")},
		},
		{
			name: "R6 prerelease is stripped from module versions",
			mods: []*model.Module{
				mod("a", vers("1.1.0", "1.2.0-rc.1")),
				mod("b", rels(rel("1.0.0", dep("a", ">= 1.2")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.2.0-rc.1")}),
			req:     model.Request{Enable: []string{"b"}},
			want:    map[string]exp{"a": keep("1.2.0-rc.1"), "b": install("1.0.0")},
		},
		{
			name: "R6 prerelease is not stripped from the Kubernetes version",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needKube(">= 1.30")))),
			},
			cluster:  clusterWith(nil, kubeAt("1.30.0-rc.1")),
			req:      model.Request{Enable: []string{"a"}},
			unsat:    true,
			mentions: []string{"kubernetes"},
			kinds:    []model.FactKind{model.FactKubernetesRequirement},
		},

		// ---- R7 ----
		{
			name: "R7 release unavailable in the edition cannot be selected",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0"), rel("1.1.0", onlyIn("ee")))),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"a"}},
			want:     map[string]exp{"a": install("1.0.0")},
			heldBack: map[string][]string{"a": {"edition ce"}},
		},
		{
			name: "R7 module unavailable in the edition is unsatisfiable",
			mods: []*model.Module{
				mod("a", access(onlyInEditions("ee")), vers("1.0.0")),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"a"}},
			unsat:    true,
			mentions: []string{"not available in edition ce"},
			kinds:    []model.FactKind{model.FactEdition},
		},
		{
			name: "R7 release available in the cluster's edition by override",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0"), rel("1.1.0", onlyIn("ee")))),
			},
			cluster: clusterWith(nil, edition("ee")),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.1.0")},
		},
		{
			name:     "R7 bundle default on installs an unconfigured module",
			mods:     []*model.Module{mod("a", bundles("Default"), vers("1.0.0", "1.1.0"))},
			cluster:  clusterWith(nil),
			req:      model.Request{},
			want:     map[string]exp{"a": install("1.1.0")},
			heldBack: map[string][]string{"a": {}},
		},
		{
			name:    "R7 bundle default off in another bundle",
			mods:    []*model.Module{mod("a", bundles("Managed"), vers("1.0.0"))},
			cluster: clusterWith(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},
		{
			name:    "R7 module without accessibility data is off by default",
			mods:    []*model.Module{mod("a", vers("1.0.0"))},
			cluster: clusterWith(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},
		{
			name: "R7 edition override of bundles turns the default off",
			mods: []*model.Module{mod("a", vers("1.0.0"), access(&model.Accessibility{Editions: map[string]model.EditionAccess{
				model.DefaultEdition: {Available: ptr(true), EnabledInBundles: []string{"Default"}},
				"ce":                 {EnabledInBundles: []string{}},
			}}))},
			cluster: clusterWith(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},
		{
			name: "R7 edition override of bundles turns the default on",
			mods: []*model.Module{mod("a", vers("1.0.0"), access(&model.Accessibility{Editions: map[string]model.EditionAccess{
				model.DefaultEdition: {Available: ptr(true), EnabledInBundles: []string{"Managed"}},
				"ce":                 {EnabledInBundles: []string{"Default"}},
			}}))},
			cluster: clusterWith(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": install("1.0.0")},
		},
		{
			name: "R7 bundle default of a module unavailable in the edition is off",
			mods: []*model.Module{mod("a", vers("1.0.0"), access(&model.Accessibility{Editions: map[string]model.EditionAccess{
				model.DefaultEdition: {Available: ptr(true), EnabledInBundles: []string{"Default"}},
				"ce":                 {Available: ptr(false)},
			}}))},
			cluster: clusterWith(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},
		{
			name: "R7 bundle default comes from the newest selectable release",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", relBundles("Default")), rel("1.1.0", relBundles()))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},

		// ---- R8 ----
		{
			name: "R8 required dependency disabled in the cluster is unsatisfiable",
			mods: []*model.Module{
				mod("a", vers("1.0.0")),
				mod("b", rels(rel("1.0.0", dep("a", ">= 0.0.0")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"a": off()}),
			req:      model.Request{Enable: []string{"b"}, AutoEnable: true},
			unsat:    true,
			mentions: []string{"a is disabled in the cluster (enabled: false)", "b 1.0.0 requires a"},
			kinds:    []model.FactKind{model.FactClusterDisabled, model.FactModuleRequirement},
		},
		{
			name: "R8 enabled:false keeps a bundle-default module off",
			mods: []*model.Module{
				mod("a", bundles("Default"), vers("1.0.0")),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": off()}),
			req:     model.Request{},
			want:    map[string]exp{"a": absent()},
		},
		{
			name:    "R8 request enable overrides enabled:false",
			mods:    []*model.Module{mod("a", vers("1.0.0"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": off()}),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.0.0")},
		},
		{
			name:    "R8 enabled:true without a version installs the module",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.1.0"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("")}),
			req:     model.Request{},
			want:    map[string]exp{"a": install("1.1.0")},
		},
		{
			name: "R8 enabled:true is hard: a conflicting enable is unsatisfiable without allowDisable",
			mods: []*model.Module{
				mod("c", vers("1.0.0")),
				mod("x", rels(rel("1.0.0", dep("c", ">= 9.0 !optional")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"c": on("1.0.0")}),
			req:      model.Request{Enable: []string{"x"}},
			unsat:    true,
			mentions: []string{"x 1.0.0 requires c >= 9.0 !optional", "c"},
		},
		{
			name: "R8 bundle-default module whose requirements fail stays off with the reason",
			mods: []*model.Module{
				mod("a", bundles("Default"), rels(rel("1.0.0", needKube(">= 1.30")))),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{},
			want:     map[string]exp{"a": absent()},
			heldBack: map[string][]string{"a": {"on by default", "kubernetes", "1.29.6 is less than 1.30"}},
		},

		// ---- R9 ----
		{
			name:     "R9 module outside the update set keeps its deployed version",
			mods:     []*model.Module{mod("a", vers("1.0.0", "1.1.0"))},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:      model.Request{},
			want:     map[string]exp{"a": keep("1.0.0")},
			heldBack: map[string][]string{"a": {"not in the request's update set"}},
		},
		{
			name: "R9 module outside the update set is not updated for a dependent",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.1.0")),
				mod("b", rels(rel("1.0.0", dep("a", ">= 1.1")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:      model.Request{Enable: []string{"b"}},
			unsat:    true,
			mentions: []string{"a is not in the request's update set, so it stays at 1.0.0"},
			kinds:    []model.FactKind{model.FactKeepVersion},
		},
		{
			name: "R9 no downgrade even in the update set",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.1.0")),
				mod("b", rels(rel("1.0.0", dep("a", "< 1.1")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.1.0")}),
			req:      model.Request{Enable: []string{"b"}, Update: []string{"a"}},
			unsat:    true,
			mentions: []string{"a may not go below its deployed version 1.1.0"},
			kinds:    []model.FactKind{model.FactNoDowngrade},
		},
		{
			name:     "R9 explicit pin downgrades",
			mods:     []*model.Module{mod("a", vers("1.0.0", "1.1.0"))},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.1.0")}),
			req:      model.Request{Pin: pins("a", "1.0.0")},
			want:     map[string]exp{"a": downgrade("1.0.0")},
			heldBack: map[string][]string{"a": {"pinned to 1.0.0"}},
		},
		{
			name: "R9 dependency in the update set updates for a dependent",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.1.0")),
				mod("b", rels(rel("1.0.0", dep("a", ">= 1.1")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:     model.Request{Enable: []string{"b"}, Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.1.0"), "b": install("1.0.0")},
			plan:    []string{"a", "b"},
		},

		// ---- R10 ----
		{
			name:    "R10 update never goes above the channel head",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.0.1", "1.0.2"), chans("stable", "1.0.1", "alpha", "1.0.2"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}, channel("stable")),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.1")},
			head:    map[string]string{"a": "1.0.1"},
			path:    map[string][]string{"a": {"1.0.1"}},
		},
		{
			name:    "R10 install takes the channel head, not the newest release",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.0.1", "1.0.2"), chans("stable", "1.0.1", "alpha", "1.0.2"))},
			cluster: clusterWith(nil, channel("stable")),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.0.1")},
			head:    map[string]string{"a": "1.0.1"},
		},
		{
			name:    "R10 module channel overrides the cluster channel",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.0.1", "1.0.2"), chans("stable", "1.0.1", "alpha", "1.0.2"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": onChannel("1.0.0", "alpha")}, channel("stable")),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.2")},
			head:    map[string]string{"a": "1.0.2"},
		},
		{
			name:    "R10 missing channel falls back to the nearest more stable one",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.0.1", "1.0.2"), chans("stable", "1.0.1", "rock-solid", "1.0.0"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}, channel("alpha")),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.1")},
			head:    map[string]string{"a": "1.0.1"},
		},
		{
			name:     "R10 no channel as stable as the module's lists no release",
			mods:     []*model.Module{mod("a", vers("1.0.0", "1.0.1"), chans("alpha", "1.0.1"))},
			cluster:  clusterWith(nil, channel("stable")),
			req:      model.Request{Enable: []string{"a"}},
			unsat:    true,
			mentions: []string{"channel stable"},
			kinds:    []model.FactKind{model.FactChannelHead},
		},
		{
			name:    "R10 module without channel data may take any release",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.0.1", "1.0.2"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}, channel("stable")),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.2")},
			head:    map[string]string{"a": "1.0.2"},
		},
		{
			name:     "R10 deployed version above the head is kept",
			mods:     []*model.Module{mod("a", vers("1.0.0", "1.0.1", "1.0.2"), chans("stable", "1.0.1", "alpha", "1.0.2"))},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.2")}, channel("stable")),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": keep("1.0.2")},
			heldBack: map[string][]string{"a": {}},
		},
		{
			name:    "R10 pin may go above the head",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.0.1", "1.0.2"), chans("stable", "1.0.1", "alpha", "1.0.2"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}, channel("stable")),
			req:     model.Request{Pin: pins("a", "1.0.2")},
			want:    map[string]exp{"a": update("1.0.2")},
		},

		// ---- R11 ----
		{
			name:    "R11 highest patch of the own minor",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.0.1", "1.0.2"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.2")},
			path:    map[string][]string{"a": {"1.0.2"}},
		},
		{
			name:     "R11 highest patch of the next minor, one minor at a time",
			mods:     []*model.Module{mod("a", vers("1.0.0", "1.0.2", "1.1.0", "1.1.3", "1.2.0"))},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": update("1.1.3")},
			path:     map[string][]string{"a": {"1.1.3", "1.2.0"}},
			heldBack: map[string][]string{"a": {"1.2.0", "sequential update rule"}},
		},
		{
			name:    "R11 next minor is the next one that has a release",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.2.0", "1.3.0"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.2.0")},
			path:    map[string][]string{"a": {"1.2.0", "1.3.0"}},
		},
		{
			name:    "R11 0.x to 1.x",
			mods:    []*model.Module{mod("a", vers("0.5.0", "0.6.0", "1.0.0", "1.0.3", "1.1.0"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("0.5.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.0.3")},
			path:    map[string][]string{"a": {"1.0.3", "1.1.0"}},
		},
		{
			name:     "R11 major jump waits",
			mods:     []*model.Module{mod("a", vers("1.2.0", "2.0.0"))},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.2.0")}),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": keep("1.2.0")},
			heldBack: map[string][]string{"a": {"2.0.0"}},
		},
		{
			name:    "R11 from-to jump",
			mods:    []*model.Module{mod("a", rels(rel("1.67.0"), rel("1.68.0"), rel("1.75.0", jump("1.67", "1.75"))))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.67.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.75.0")},
			path:    map[string][]string{"a": {"1.75.0"}},
		},
		{
			name:    "R11 from-to jump does not apply below from",
			mods:    []*model.Module{mod("a", rels(rel("1.66.0"), rel("1.67.0"), rel("1.68.0"), rel("1.75.0", jump("1.67", "1.75"))))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.66.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.67.0")},
			path:    map[string][]string{"a": {"1.67.0", "1.75.0"}},
		},
		{
			name:    "R11 from-to jump across a major",
			mods:    []*model.Module{mod("a", rels(rel("1.4.0"), rel("1.5.0"), rel("2.0.0", jump("1.4", "2.0"))))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.4.0")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("2.0.0")},
		},
		{
			name:    "R11 strategy direct allows any release up to the head",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0"), chans("stable", "2.0.0"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}, channel("stable")),
			req:     model.Request{Update: []string{"a"}, Strategy: model.StrategyDirect},
			want:    map[string]exp{"a": update("2.0.0")},
			path:    map[string][]string{"a": {"2.0.0"}},
		},
		{
			name:     "R11 a step blocked by Kubernetes blocks the update rather than being skipped",
			mods:     []*model.Module{mod("a", rels(rel("1.0.0"), rel("1.1.0", needKube(">= 1.30")), rel("1.2.0")))},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": keep("1.0.0")},
			heldBack: map[string][]string{"a": {"kubernetes"}},
		},
		{
			name:     "R11 install is not limited by update steps",
			mods:     []*model.Module{mod("a", vers("1.0.0", "1.1.0", "2.0.0"))},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"a"}},
			want:     map[string]exp{"a": install("2.0.0")},
			path:     map[string][]string{"a": {"2.0.0"}},
			heldBack: map[string][]string{"a": {}},
		},

		// ---- R12 ----
		{
			name: "R12 module that cannot follow a Kubernetes upgrade blocks it",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needKube("< 1.30")), rel("1.1.0", needKube(">= 1.29")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:      model.Request{Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			unsat:    true,
			mentions: []string{"requirements of a are not satisfied: 1.30.2 kubernetes version is not suitable"},
			kinds:    []model.FactKind{model.FactKubernetesRequirement},
		},
		{
			name: "R12 module in the update set updates to follow a Kubernetes upgrade",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needKube("< 1.30")), rel("1.1.0", needKube(">= 1.29")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:     model.Request{UpdateAll: true, Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			want:    map[string]exp{"a": update("1.1.0")},
		},
		{
			name: "R12 module in the update set updates to follow a DKP upgrade",
			mods: []*model.Module{
				mod("core", builtIn()),
				mod("a", rels(rel("1.0.0", needDKP("< 1.74")), rel("1.1.0", needDKP(">= 1.74")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0"), "core": on("")}),
			req:     model.Request{Update: []string{"a"}, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}},
			want:    map[string]exp{"a": update("1.1.0"), "core": update("1.74.0")},
		},
		{
			name: "R12 DKP upgrade blocked by a module outside the update set",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needDKP("< 1.74")), rel("1.1.0", needDKP(">= 1.74")))),
				mod("b", vers("1.0.0")),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0"), "b": on("1.0.0")}),
			req:      model.Request{Update: []string{"b"}, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.74.0")}},
			unsat:    true,
			mentions: []string{"a 1.0.0 requires deckhouse < 1.74", "not in the request's update set"},
			kinds:    []model.FactKind{model.FactDeckhouseRequirement, model.FactKeepVersion},
		},

		// ---- R13 ----
		{
			name: "R13 enabling a second module of an exclusive group is unsatisfiable",
			mods: []*model.Module{
				mod("cni-cilium", group("cni"), vers("1.0.0")),
				mod("cni-flannel", group("cni"), vers("1.0.0")),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"cni-cilium": on("1.0.0")}),
			req:      model.Request{Enable: []string{"cni-flannel"}},
			unsat:    true,
			mentions: []string{"exclusive group cni"},
			kinds:    []model.FactKind{model.FactExclusiveGroup, model.FactRequestEnable, model.FactClusterEnabled},
		},
		{
			name: "R13 allowDisable switches the module of an exclusive group",
			mods: []*model.Module{
				mod("cni-cilium", group("cni"), vers("1.0.0")),
				mod("cni-flannel", group("cni"), vers("1.0.0")),
			},
			cluster: clusterWith(map[string]model.ModuleState{"cni-cilium": on("1.0.0")}),
			req:     model.Request{Enable: []string{"cni-flannel"}, AllowDisable: true},
			want:    map[string]exp{"cni-cilium": disable(), "cni-flannel": install("1.0.0")},
			plan:    []string{"cni-cilium", "cni-flannel"},
		},
		{
			name: "R13 two bundle-default modules of a group: one stays off",
			mods: []*model.Module{
				mod("cni-cilium", group("cni"), bundles("Default"), vers("1.0.0")),
				mod("cni-flannel", group("cni"), bundles("Default"), vers("1.0.0")),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{},
			want:     map[string]exp{"cni-cilium": install("1.0.0"), "cni-flannel": absent()},
			heldBack: map[string][]string{"cni-flannel": {"exclusive group cni"}},
		},
		{
			name: "R13 modules of different groups coexist",
			mods: []*model.Module{
				mod("cni-cilium", group("cni"), vers("1.0.0")),
				mod("ingress", group("ingress"), vers("1.0.0")),
			},
			cluster: clusterWith(map[string]model.ModuleState{"cni-cilium": on("1.0.0")}),
			req:     model.Request{Enable: []string{"ingress"}},
			want:    map[string]exp{"cni-cilium": keep("1.0.0"), "ingress": install("1.0.0")},
		},

		// ---- R14 ----
		{
			name:    "R14 newest release preferred",
			mods:    []*model.Module{mod("a", vers("0.9.0", "1.0.0", "1.0.1"))},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.0.1")},
		},
		{
			name: "R14 fewest modules disabled with allowDisable, before newest",
			mods: []*model.Module{
				mod("a", vers("1.0.0")),
				mod("b", vers("1.0.0")),
				mod("c", vers("1.0.0")),
				mod("x", rels(
					rel("1.0.0", dep("c", ">= 9.0 !optional")),
					rel("2.0.0", dep("a", ">= 9.0 !optional"), dep("b", ">= 9.0 !optional")),
				)),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0"), "b": on("1.0.0"), "c": on("1.0.0")}),
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
				mod("a", vers("1.0.0")),
				mod("x", vers("1.0.0")),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:     model.Request{Enable: []string{"x"}, AllowDisable: true},
			want:    map[string]exp{"a": keep("1.0.0"), "x": install("1.0.0")},
		},
		{
			name: "R14 fewest modules auto-enabled with autoEnable, before newest",
			mods: []*model.Module{
				mod("a", vers("1.0.0")),
				mod("b", vers("1.0.0")),
				mod("c", vers("1.0.0")),
				mod("x", rels(
					rel("1.0.0", dep("c", ">= 0.0.0")),
					rel("2.0.0", dep("a", ">= 0.0.0"), dep("b", ">= 0.0.0")),
				)),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"x"}, AutoEnable: true},
			want:     map[string]exp{"a": absent(), "b": absent(), "c": install("1.0.0"), "x": install("1.0.0")},
			heldBack: map[string][]string{"x": {"2.0.0"}},
		},
		{
			name: "R14 bundle-default modules stay on, before newest",
			mods: []*model.Module{
				mod("d", bundles("Default"), vers("1.0.0")),
				mod("x", rels(rel("1.0.0"), rel("2.0.0", dep("d", ">= 2.0 !optional")))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"x"}},
			want:    map[string]exp{"d": install("1.0.0"), "x": install("1.0.0")},
		},
		{
			name: "R14 named modules are served in name order",
			mods: []*model.Module{
				mod("alpha", vers("1.0.0", "1.1.0")),
				mod("beta", rels(rel("1.0.0"), rel("1.1.0", dep("alpha", "< 1.1")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"alpha": on("1.0.0"), "beta": on("1.0.0")}),
			req:      model.Request{UpdateAll: true},
			want:     map[string]exp{"alpha": update("1.1.0"), "beta": keep("1.0.0")},
			heldBack: map[string][]string{"beta": {"1.1.0", "alpha"}, "alpha": {}},
		},
		{
			name: "R14 named modules are served in name order, either way round",
			mods: []*model.Module{
				mod("alpha", rels(rel("1.0.0"), rel("1.1.0", dep("beta", "< 1.1")))),
				mod("beta", vers("1.0.0", "1.1.0")),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"alpha": on("1.0.0"), "beta": on("1.0.0")}),
			req:      model.Request{UpdateAll: true},
			want:     map[string]exp{"alpha": update("1.1.0"), "beta": keep("1.0.0")},
			heldBack: map[string][]string{"beta": {"1.1.0", "alpha"}},
		},
		{
			name: "R14 named modules are served before others",
			mods: []*model.Module{
				mod("a", bundles("Default"), vers("1.0.0", "2.0.0")),
				mod("z", rels(rel("1.0.0"), rel("2.0.0", dep("a", "< 2.0 !optional")))),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"z"}},
			want:     map[string]exp{"a": install("1.0.0"), "z": install("2.0.0")},
			heldBack: map[string][]string{"a": {"2.0.0", "z"}},
		},
		{
			name: "R14 fewest changes to modules nobody asked about",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.1.0")),
				mod("b", vers("1.0.0")),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:     model.Request{Enable: []string{"b"}},
			want:    map[string]exp{"a": keep("1.0.0"), "b": install("1.0.0")},
		},

		// ---- R17 ----
		{
			name: "R17 module held back by a dependency outside the update set",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.1.0")),
				mod("b", rels(rel("1.0.0"), rel("1.1.0", dep("a", ">= 1.1")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0"), "b": on("1.0.0")}),
			req:      model.Request{Update: []string{"b"}},
			want:     map[string]exp{"a": keep("1.0.0"), "b": keep("1.0.0")},
			heldBack: map[string][]string{"b": {"1.1.0 is not possible", "a"}, "a": {"not in the request's update set"}},
			head:     map[string]string{"b": "1.1.0"},
		},
		{
			name:     "R17 module at its head is not held back",
			mods:     []*model.Module{mod("a", vers("1.0.0", "1.1.0"))},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": update("1.1.0")},
			heldBack: map[string][]string{"a": {}},
		},
		{
			name:     "R17 module held back by the channel is at its head",
			mods:     []*model.Module{mod("a", vers("1.0.0", "1.1.0"), chans("stable", "1.0.0"))},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}, channel("stable")),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": keep("1.0.0")},
			heldBack: map[string][]string{"a": {}},
			head:     map[string]string{"a": "1.0.0"},
		},

		// ---- R18 ----
		{
			name: "R18 dependencies come before dependents",
			mods: []*model.Module{
				mod("a-app", rels(rel("1.0.0", dep("m-mid", ">= 0.0.0")))),
				mod("m-mid", rels(rel("1.0.0", dep("z-lib", ">= 0.0.0")))),
				mod("z-lib", vers("1.0.0")),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"a-app", "m-mid", "z-lib"}},
			want:    map[string]exp{"a-app": install("1.0.0"), "m-mid": install("1.0.0"), "z-lib": install("1.0.0")},
			plan:    []string{"z-lib", "m-mid", "a-app"},
		},
		{
			name: "R18 optional dependency counts when both are enabled",
			mods: []*model.Module{
				mod("a-app", rels(rel("1.0.0", dep("z-lib", "!optional")))),
				mod("z-lib", vers("1.0.0")),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"a-app", "z-lib"}},
			want:    map[string]exp{"a-app": install("1.0.0"), "z-lib": install("1.0.0")},
			plan:    []string{"z-lib", "a-app"},
		},
		{
			name: "R18 disable comes before an enable in the same exclusive group",
			mods: []*model.Module{
				mod("cni-a", group("cni"), vers("1.0.0")),
				mod("cni-z", group("cni"), vers("1.0.0")),
			},
			cluster: clusterWith(map[string]model.ModuleState{"cni-z": on("1.0.0")}),
			req:     model.Request{Enable: []string{"cni-a"}, Disable: []string{"cni-z"}},
			want:    map[string]exp{"cni-a": install("1.0.0"), "cni-z": disable()},
			plan:    []string{"cni-z", "cni-a"},
		},
		{
			name: "R18 disable comes before an enable that needs it",
			mods: []*model.Module{
				mod("a-x", rels(rel("1.0.0", dep("z-y", ">= 9.0 !optional")))),
				mod("z-y", vers("1.0.0")),
			},
			cluster: clusterWith(map[string]model.ModuleState{"z-y": on("1.0.0")}),
			req:     model.Request{Enable: []string{"a-x"}, Disable: []string{"z-y"}},
			want:    map[string]exp{"a-x": install("1.0.0"), "z-y": disable()},
			plan:    []string{"z-y", "a-x"},
		},
		{
			name: "R18 a dependent is disabled before what it depends on",
			mods: []*model.Module{
				mod("a-lib", vers("1.0.0")),
				mod("z-app", rels(rel("1.0.0", dep("a-lib", ">= 0.0.0")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a-lib": on("1.0.0"), "z-app": on("1.0.0")}),
			req:     model.Request{Disable: []string{"a-lib", "z-app"}},
			want:    map[string]exp{"a-lib": disable(), "z-app": disable()},
			plan:    []string{"z-app", "a-lib"},
		},
		{
			name: "R18 ties break by weight, then by name",
			mods: []*model.Module{
				mod("a", vers("1.0.0")),
				mod("b", vers("1.0.0")),
				mod("c", weight(100), vers("1.0.0")),
				mod("d", weight(950), vers("1.0.0")),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"d", "b", "c", "a"}},
			want:    map[string]exp{"a": install("1.0.0"), "b": install("1.0.0"), "c": install("1.0.0"), "d": install("1.0.0")},
			plan:    []string{"c", "a", "b", "d"},
		},
		{
			name: "R18 a dependency comes first even when it is heavier",
			mods: []*model.Module{
				mod("app", weight(100), rels(rel("1.0.0", dep("lib", ">= 0.0.0")))),
				mod("lib", weight(999), vers("1.0.0")),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"app"}, AutoEnable: true},
			want:    map[string]exp{"app": install("1.0.0"), "lib": install("1.0.0")},
			plan:    []string{"lib", "app"},
		},

		// ---- more combinations ----
		{
			name: "R2 autoEnable follows a chain of required dependencies",
			mods: []*model.Module{
				mod("x", rels(rel("1.0.0", dep("y", ">= 1.0")))),
				mod("y", rels(rel("1.0.0", dep("z", ">= 2.0")))),
				mod("z", vers("1.0.0", "2.0.0", "2.1.0")),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"x"}, AutoEnable: true},
			want:    map[string]exp{"x": install("1.0.0"), "y": install("1.0.0"), "z": install("2.1.0")},
			plan:    []string{"z", "y", "x"},
		},
		{
			name: "R8 bundle-default module whose required dependency is disabled stays off",
			mods: []*model.Module{
				mod("a", bundles("Default"), rels(rel("1.0.0", dep("b", ">= 1.0")))),
				mod("b", vers("1.0.0")),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"b": off()}),
			req:      model.Request{},
			want:     map[string]exp{"a": absent(), "b": absent()},
			heldBack: map[string][]string{"a": {"on by default", "b"}},
		},
		{
			name: "R12 modules in the update set update together for a Kubernetes upgrade",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needKube("< 1.30"), dep("b", ">= 1.0")), rel("1.1.0", dep("b", ">= 1.1")))),
				mod("b", vers("1.0.0", "1.1.0")),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0"), "b": on("1.0.0")}),
			req:     model.Request{UpdateAll: true, Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			want:    map[string]exp{"a": update("1.1.0"), "b": update("1.1.0")},
			plan:    []string{"b", "a"},
		},
		{
			name: "R14 allowDisable disables a dependent together with its dependency",
			mods: []*model.Module{
				mod("c", vers("1.0.0")),
				mod("d", rels(rel("1.0.0", dep("c", ">= 1.0")))),
				mod("x", rels(rel("1.0.0", dep("c", ">= 9.0 !optional")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"c": on("1.0.0"), "d": on("1.0.0")}),
			req:     model.Request{Enable: []string{"x"}, AllowDisable: true},
			want:    map[string]exp{"c": disable(), "d": disable(), "x": install("1.0.0")},
			plan:    []string{"d", "c", "x"},
		},
		{
			name:    "R10 channel pointing at a prerelease installs it",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.1.0-rc.1"), chans("alpha", "1.1.0-rc.1", "stable", "1.0.0"))},
			cluster: clusterWith(nil, channel("alpha")),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.1.0-rc.1")},
			head:    map[string]string{"a": "1.1.0-rc.1"},
		},
		{
			name:    "R14 newest preferred skips a prerelease no channel names",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.1.0-rc.1"))},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"a"}},
			want:    map[string]exp{"a": install("1.0.0")},
			head:    map[string]string{"a": "1.0.0"},
		},
		{
			name:    "R11 update from a deployed prerelease",
			mods:    []*model.Module{mod("a", vers("1.0.0", "1.1.0-rc.1", "1.1.0", "1.2.0", "1.3.0"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.1.0-rc.1")}),
			req:     model.Request{Update: []string{"a"}},
			want:    map[string]exp{"a": update("1.2.0")},
			path:    map[string][]string{"a": {"1.2.0", "1.3.0"}},
		},
		{
			name: "R7 bundle default read from the newest release available in the edition",
			mods: []*model.Module{
				mod("a", bundles("Default"), rels(rel("1.0.0"), rel("1.1.0", onlyIn("ee")))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{},
			want:    map[string]exp{"a": install("1.0.0")},
		},
		{
			name: "R3 optional dependency in the update set can only take one step",
			mods: []*model.Module{
				mod("d", vers("1.0.0", "1.1.0", "1.2.0")),
				mod("p", rels(rel("1.0.0"), rel("1.1.0", dep("d", ">= 1.1 !optional")), rel("1.2.0", dep("d", ">= 1.2 !optional")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"p": on("1.0.0"), "d": on("1.0.0")}),
			req:      model.Request{UpdateAll: true, Strategy: model.StrategySequential},
			want:     map[string]exp{"p": update("1.1.0"), "d": update("1.1.0")},
			path:     map[string][]string{"p": {"1.1.0", "1.2.0"}, "d": {"1.1.0", "1.2.0"}},
			heldBack: map[string][]string{"p": {"1.2.0"}, "d": {"1.2.0"}},
		},
		{
			name: "R13 bundle-default module of a group whose member is enabled stays off",
			mods: []*model.Module{
				mod("cni-cilium", group("cni"), vers("1.0.0")),
				mod("cni-flannel", group("cni"), bundles("Default"), vers("1.0.0")),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"cni-cilium": on("1.0.0")}),
			req:      model.Request{},
			want:     map[string]exp{"cni-cilium": keep("1.0.0"), "cni-flannel": absent()},
			heldBack: map[string][]string{"cni-flannel": {"on by default", "exclusive group cni"}},
		},
		{
			name: "R14 fewest enabled modules disabled comes before most bundle defaults on",
			mods: []*model.Module{
				mod("c", vers("1.0.0")),
				mod("d1", bundles("Default"), vers("1.0.0")),
				mod("d2", bundles("Default"), vers("1.0.0")),
				mod("x", rels(
					rel("1.0.0", dep("d1", ">= 9.0 !optional"), dep("d2", ">= 9.0 !optional")),
					rel("2.0.0", dep("c", ">= 9.0 !optional")),
				)),
			},
			cluster: clusterWith(map[string]model.ModuleState{"c": on("1.0.0")}),
			req:     model.Request{Enable: []string{"x"}, AllowDisable: true},
			want:    map[string]exp{"c": keep("1.0.0"), "d1": absent(), "d2": absent(), "x": install("1.0.0")},
		},
		{
			name: "R14 most bundle defaults on comes before newest",
			mods: []*model.Module{
				mod("d1", bundles("Default"), vers("1.0.0")),
				mod("d2", bundles("Default"), vers("1.0.0")),
				mod("x", rels(
					rel("1.0.0", dep("d1", ">= 9.0 !optional")),
					rel("2.0.0", dep("d1", ">= 9.0 !optional"), dep("d2", ">= 9.0 !optional")),
				)),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"x"}},
			want:    map[string]exp{"d1": absent(), "d2": install("1.0.0"), "x": install("1.0.0")},
		},
		{
			name:    "R5 built-in module on by default is installed at the DKP version",
			mods:    []*model.Module{mod("core", builtIn(), bundles("Default"))},
			cluster: clusterWith(nil),
			req:     model.Request{},
			want:    map[string]exp{"core": install("1.73.0")},
		},
		{
			name: "R18 a dependency cycle breaks by weight, then name",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", dep("b", ">= 0.0.0")))),
				mod("b", weight(100), rels(rel("1.0.0", dep("a", ">= 0.0.0")))),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"a", "b"}},
			want:    map[string]exp{"a": install("1.0.0"), "b": install("1.0.0")},
			plan:    []string{"b", "a"},
		},
		{
			name: "R8 disabling a module turns off the bundle-default modules that need it",
			mods: []*model.Module{
				mod("a", vers("1.0.0")),
				mod("d", bundles("Default"), rels(rel("1.0.0", dep("a", ">= 1.0")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:      model.Request{Disable: []string{"a"}},
			want:     map[string]exp{"a": disable(), "d": absent()},
			heldBack: map[string][]string{"d": {"on by default", "the request disables a"}},
		},
		{
			name: "R14 allowDisable cannot disable a dependency that the request needs",
			mods: []*model.Module{
				mod("a", vers("1.0.0", "1.1.0")),
				mod("x", rels(rel("1.0.0", dep("a", ">= 1.1")))),
			},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:      model.Request{Enable: []string{"x"}, AllowDisable: true},
			unsat:    true,
			mentions: []string{"x 1.0.0 requires a >= 1.1", "a is not in the request's update set"},
		},
		{
			name: "R12 allowDisable disables a module that blocks a Kubernetes upgrade",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needKube("< 1.30")))),
				mod("b", vers("1.0.0")),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0"), "b": on("1.0.0")}),
			req:     model.Request{AllowDisable: true, Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			want:    map[string]exp{"a": disable(), "b": keep("1.0.0")},
		},
		{
			name:     "R10 deployed module with no release on its channel keeps its version",
			mods:     []*model.Module{mod("a", vers("1.0.0", "1.0.1"), chans("alpha", "1.0.1"))},
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}, channel("stable")),
			req:      model.Request{Update: []string{"a"}},
			want:     map[string]exp{"a": keep("1.0.0")},
			head:     map[string]string{"a": ""},
			heldBack: map[string][]string{"a": {"channel stable"}},
		},
		{
			name: "R13 at most one module of a large exclusive group",
			mods: []*model.Module{
				mod("cni-1", group("cni"), bundles("Default"), vers("1.0.0")),
				mod("cni-2", group("cni"), bundles("Default"), vers("1.0.0")),
				mod("cni-3", group("cni"), bundles("Default"), vers("1.0.0")),
				mod("cni-4", group("cni"), bundles("Default"), vers("1.0.0")),
				mod("cni-5", group("cni"), bundles("Default"), vers("1.0.0")),
				mod("cni-6", group("cni"), bundles("Default"), vers("1.0.0")),
				mod("cni-7", group("cni"), bundles("Default"), vers("1.0.0")),
				mod("cni-8", group("cni"), vers("1.0.0")),
			},
			cluster: clusterWith(nil),
			req:     model.Request{Enable: []string{"cni-8"}},
			want: map[string]exp{
				"cni-1": absent(), "cni-2": absent(), "cni-3": absent(), "cni-4": absent(),
				"cni-5": absent(), "cni-6": absent(), "cni-7": absent(), "cni-8": install("1.0.0"),
			},
		},
		{
			name: "R13 two modules of a large exclusive group cannot both be enabled",
			mods: []*model.Module{
				mod("cni-1", group("cni"), vers("1.0.0")),
				mod("cni-2", group("cni"), vers("1.0.0")),
				mod("cni-3", group("cni"), vers("1.0.0")),
				mod("cni-4", group("cni"), vers("1.0.0")),
				mod("cni-5", group("cni"), vers("1.0.0")),
				mod("cni-6", group("cni"), vers("1.0.0")),
				mod("cni-7", group("cni"), vers("1.0.0")),
				mod("cni-8", group("cni"), vers("1.0.0")),
			},
			cluster:  clusterWith(nil),
			req:      model.Request{Enable: []string{"cni-3", "cni-7"}},
			unsat:    true,
			mentions: []string{"exclusive group cni", "the request enables cni-3", "the request enables cni-7"},
			kinds:    []model.FactKind{model.FactExclusiveGroup},
		},

		{
			name:    "R8 bundle default applies to a module whose cluster entry sets only a channel",
			mods:    []*model.Module{mod("a", bundles("Default"), vers("1.0.0", "1.1.0"), chans("alpha", "1.1.0", "stable", "1.0.0"))},
			cluster: clusterWith(map[string]model.ModuleState{"a": {Channel: "alpha"}}, channel("stable")),
			req:     model.Request{},
			want:    map[string]exp{"a": install("1.1.0")},
			head:    map[string]string{"a": "1.1.0"},
		},
		{
			name:    "R5 built-in module is enabled at a prerelease DKP version",
			mods:    []*model.Module{mod("core", builtIn())},
			cluster: clusterWith(nil, dkpAt("1.75.0-rc.1")),
			req:     model.Request{Enable: []string{"core"}},
			want:    map[string]exp{"core": install("1.75.0-rc.1")},
		},
		{
			name:    "R5 built-in module on by default at a prerelease DKP version is installed",
			mods:    []*model.Module{mod("core", builtIn(), bundles("Default"))},
			cluster: clusterWith(nil, dkpAt("1.75.0-rc.1")),
			req:     model.Request{},
			want:    map[string]exp{"core": install("1.75.0-rc.1")},
		},
		{
			name: "R12 every blocker of a platform upgrade is reported with its reason",
			mods: []*model.Module{
				mod("a", rels(rel("1.0.0", needKube("< 1.30")))),
				mod("b", rels(rel("1.0.0", needKube("< 1.30")))),
			},
			cluster: clusterWith(map[string]model.ModuleState{"a": on("1.0.0"), "b": on("1.0.0")}),
			req:     model.Request{UpdateAll: true, Platform: model.Platform{Kubernetes: model.MustParseVersion("1.30.2")}},
			unsat:   true,
			mentions: []string{
				"requirements of a are not satisfied: 1.30.2 kubernetes version is not suitable",
				"requirements of b are not satisfied: 1.30.2 kubernetes version is not suitable",
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
		parts = append(parts, f.Message)
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
	cat, err := model.NewCatalog([]*model.Module{mod("a", rels(rel("1.0.0", needKube(">= 1.30"))))})
	require.NoError(t, err)
	cluster := clusterWith(nil)
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
		mod("a", vers("1.0.0", "1.1.0")),
		mod("b", rels(rel("1.0.0", dep("a", ">= 1.0")))),
	})
	require.NoError(t, err)
	cluster := clusterWith(map[string]model.ModuleState{"a": on("1.0.0")})
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
		return []*model.Module{mod("a", vers("1.0.0", "1.1.0"))}
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
			cluster:  clusterWith(nil),
			req:      &model.Request{Enable: []string{"ghost"}},
			sentinel: model.ErrUnknownModule,
		},
		{
			name:     "unknown module in request update",
			cluster:  clusterWith(nil),
			req:      &model.Request{Update: []string{"ghost"}},
			sentinel: model.ErrUnknownModule,
		},
		{
			name:     "unknown module in request pin",
			cluster:  clusterWith(nil),
			req:      &model.Request{Pin: pins("ghost", "1.0.0")},
			sentinel: model.ErrUnknownModule,
		},
		{
			name:     "deployed version not in the catalog",
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.5")}),
			req:      &model.Request{},
			sentinel: model.ErrUnknownVersion,
		},
		{
			name:     "pinned version not in the catalog",
			cluster:  clusterWith(map[string]model.ModuleState{"a": on("1.0.0")}),
			req:      &model.Request{Pin: pins("a", "9.9.9")},
			sentinel: model.ErrUnknownVersion,
		},
		{
			name:     "enabled module unknown to the catalog",
			cluster:  clusterWith(map[string]model.ModuleState{"ghost": on("1.0.0")}),
			req:      &model.Request{},
			sentinel: model.ErrUnknownModule,
		},
		{
			name:     "module both enabled and disabled",
			cluster:  clusterWith(nil),
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
			cluster:  clusterWith(nil),
			sentinel: model.ErrMissingField,
		},
		{
			name:     "missing catalog",
			cluster:  clusterWith(nil),
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
