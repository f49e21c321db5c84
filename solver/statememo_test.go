package solver

import (
	"context"
	"hash/maphash"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// D225: on every scenario and 1,000 random ones, questions that enable or
// disable a module of the catalog, asked one after another of the same
// cluster state, with the changes only or every module, get the answers
// they get without the state memo, but for the memory estimate, which
// counts the views the memo spares.
func TestStateMemoChangesNoAnswer(t *testing.T) {
	ctx := context.Background()
	served, asked := 0, 0
	eachProblem(t, func(name string, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) {
		c := compiledFor(cat)
		var reqs []*model.Request
		base := *req
		base.Report = model.ReportChanges
		reqs = append(reqs, &base, neutral(&base))
		for _, m := range cat.Modules() {
			r := *neutral(&base)
			if cluster.Modules[m.Name].On() {
				r.Disable = []string{m.Name}
			} else {
				r.Enable = []string{m.Name}
			}
			reqs = append(reqs, &r)
		}
		for _, r := range slices.Clone(reqs) {
			all := *r
			all.Report = model.ReportAll // every view made, the memo only detaching
			reqs = append(reqs, &all)
		}
		for _, r := range reqs {
			if validate(cat, cluster, r) != nil {
				continue
			}
			want, wantErr := c.Solve(ctx, cluster, r, withoutStateMemo())
			got, gotErr := c.Solve(ctx, cluster, r)
			require.Equal(t, wantErr, gotErr, name)
			if wantErr != nil {
				continue
			}
			asked++
			if m := c.t.states.memoFor(c, cluster, r); m != nil && m.lazy {
				served++
			}
			want.Stats.MemoryBytes, got.Stats.MemoryBytes = 0, 0
			want.Stats.SolveMicros, got.Stats.SolveMicros = 0, 0
			assert.Equal(t, want, got, "%s: %+v", name, r)
		}
	})
	t.Logf("%d of %d questions on a state memo", served, asked)
	assert.Greater(t, served, 300, "the scenarios have frozen modules to spare")
}

// A memo is found by every field of the cluster state and of the
// request's shape: changing any of them finds another memo.
func TestMemoStateCoversEveryField(t *testing.T) {
	on, off := true, false
	base := func() (*model.ClusterState, *model.Request) {
		on := true // each state its own, as a caller's would be
		return &model.ClusterState{
			Deckhouse: model.MustParseVersion("1.70.0"), Kubernetes: model.MustParseVersion("1.30.0"),
			Edition: "ce", Bundle: "Default", ReleaseChannel: "stable",
			Modules:  map[string]model.ModuleState{"a": {Enabled: &on, Version: model.MustParseVersion("1.0.0"), Channel: "alpha", Source: "s"}},
			Platform: map[string]model.Version{"os": model.MustParseVersion("4.0.0")},
		}, &model.Request{Report: model.ReportChanges}
	}
	seed := maphash.MakeSeed()
	c0, r0 := base()
	same := func(c *model.ClusterState, r *model.Request) bool {
		return shapeOf(r) == shapeOf(r0) && sameState(c0, c) && stateHash(seed, c, shapeOf(r)) == stateHash(seed, c0, shapeOf(r0))
	}
	changes := map[string]func(c *model.ClusterState, r *model.Request){
		"deckhouse":      func(c *model.ClusterState, _ *model.Request) { c.Deckhouse = model.MustParseVersion("1.71.0") },
		"deckhouse text": func(c *model.ClusterState, _ *model.Request) { c.Deckhouse = model.MustParseVersion("v1.70.0") },
		"kubernetes":     func(c *model.ClusterState, _ *model.Request) { c.Kubernetes = nil },
		"edition":        func(c *model.ClusterState, _ *model.Request) { c.Edition = "ee" },
		"bundle":         func(c *model.ClusterState, _ *model.Request) { c.Bundle = "Minimal" },
		"channel":        func(c *model.ClusterState, _ *model.Request) { c.ReleaseChannel = "" },
		"experimental":   func(c *model.ClusterState, _ *model.Request) { c.AllowExperimentalModules = true },
		"allowlist":      func(c *model.ClusterState, _ *model.Request) { c.AllowedExperimentalModules = []string{"a"} },
		"automatic":      func(c *model.ClusterState, _ *model.Request) { c.KubernetesAutomatic = true },
		"facts":          func(c *model.ClusterState, _ *model.Request) { c.Facts = map[string]string{"firingAlerts": "0"} },
		"platform":       func(c *model.ClusterState, _ *model.Request) { c.Platform["os"] = model.MustParseVersion("4.1.0") },
		"no platform":    func(c *model.ClusterState, _ *model.Request) { c.Platform = nil },
		"enabled":        func(c *model.ClusterState, _ *model.Request) { c.Modules["a"] = model.ModuleState{Enabled: &off} },
		"unconfigured": func(c *model.ClusterState, _ *model.Request) {
			c.Modules["a"] = model.ModuleState{Version: c.Modules["a"].Version, Channel: "alpha", Source: "s"}
		},
		"version": func(c *model.ClusterState, _ *model.Request) {
			c.Modules["a"] = model.ModuleState{Enabled: &on, Version: model.MustParseVersion("1.0.1"), Channel: "alpha", Source: "s"}
		},
		"module channel": func(c *model.ClusterState, _ *model.Request) {
			c.Modules["a"] = model.ModuleState{Enabled: &on, Version: c.Modules["a"].Version, Source: "s"}
		},
		"source": func(c *model.ClusterState, _ *model.Request) {
			c.Modules["a"] = model.ModuleState{Enabled: &on, Version: c.Modules["a"].Version, Channel: "alpha"}
		},
		"settings": func(c *model.ClusterState, _ *model.Request) {
			st := c.Modules["a"]
			st.Settings, _ = model.NewSettings(1, map[string]any{"replicas": 2})
			c.Modules["a"] = st
		},
		"another module": func(c *model.ClusterState, _ *model.Request) { c.Modules["b"] = model.ModuleState{} },
		"strategy":       func(_ *model.ClusterState, r *model.Request) { r.Strategy = model.StrategyDirect },
		"allow disable":  func(_ *model.ClusterState, r *model.Request) { r.AllowDisable = true },
		"auto enable":    func(_ *model.ClusterState, r *model.Request) { r.AutoEnable = true },
		"report":         func(_ *model.ClusterState, r *model.Request) { r.Report = model.ReportAll },
		"origins": func(c *model.ClusterState, _ *model.Request) {
			c.Origins = map[string]model.Origin{"cluster.modules.a.enabled": {Object: "ModuleConfig/a", Line: 3}}
		},
	}
	for what, change := range changes {
		c, r := base()
		change(c, r)
		assert.False(t, same(c, r), what)
	}
	c1, r1 := base()
	r1.Enable, r1.Disable = []string{"x"}, []string{"y"}
	assert.True(t, same(c1, r1), "the modules a question names are not the state's")
	kept := copyState(c1)
	*c1.Modules["a"].Enabled = false
	assert.True(t, sameState(c0, kept), "the memo's copy does not change with the caller's state")
	// Every field of the two structs is one that a change above covers:
	// a new field fails here until sameState and stateHash read it.
	assert.Len(t, fieldNames(model.ClusterState{}), 12)
	assert.Len(t, fieldNames(model.ModuleState{}), 5)
	assert.Len(t, fieldNames(model.Request{}), 12, "memoShape and shapeOf read every field of a request")
}

// fieldNames lists the fields of a struct value.
func fieldNames(v any) []string {
	t := reflect.TypeOf(v)
	out := make([]string, t.NumField())
	for i := range out {
		out[i] = t.Field(i).Name
	}
	return out
}
