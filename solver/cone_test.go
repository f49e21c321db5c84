package solver

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
)

// An explanation's cone starts from the modules the request names and
// those that name them. When their facts have a model, the cone grows
// until the conflict is in it; either way the core is the one the whole
// closure gives.
func TestConeExplanations(t *testing.T) {
	c, cluster := coneInputs(t)
	for _, tc := range []struct {
		name      string
		req       *model.Request
		disable   string // a cluster module turned off, for a conflict outside the seed
		coversAll bool
	}{
		{name: "the seed and its namers hold the conflict", req: &model.Request{Disable: []string{"db"}}},
		{name: "grown to the conflict", req: &model.Request{Enable: []string{"app"}}, disable: "db", coversAll: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cl := cluster.Clone()
			if tc.disable != "" {
				no := false
				cl.Modules[tc.disable] = model.ModuleState{Enabled: &no}
			}
			cores := map[string][]string{}
			var cone *cone
			for name, sc := range map[string]scope{"cone": conflictCone, "whole": everything} {
				p := newProblem(c, cl, tc.req)
				x := newExplainer(context.Background(), p, sc, nil, nil)
				core, err := x.inputCore(nil)
				require.NoError(t, err)
				for _, f := range chainOrder(core) {
					cores[name] = append(cores[name], wording{p: p}.message(f))
				}
				if name == "cone" {
					cone = x.e.cone
				}
			}
			assert.Len(t, cores["cone"], 3, "%v", cores["cone"])
			assert.Equal(t, cores["whole"], cores["cone"])
			assert.True(t, cone.covered["web"], "the module that requires db is in the cone")
			assert.Equal(t, tc.coversAll, cone.covered["extra"], "extra shares nothing with the request")
		})
	}
}

// A session keeps one explain encoding per scope: the whole closure's,
// asked by held-back questions, is not the conflict's cone, whichever is
// asked for first, and the session's stats count both.
func TestExplainEncodingsKeepTheirScope(t *testing.T) {
	c, cluster := coneInputs(t)
	req := &model.Request{Disable: []string{"db"}}
	for _, coneFirst := range []bool{true, false} {
		s := newAnswering(newSession(context.Background(), newSettings(nil), c, cluster, req, memoUse{}), c)
		_, err := s.run()
		require.NoError(t, err)
		var whole, cone *explainer
		if coneFirst {
			cone, whole = s.conflictExplainer(), s.explainer()
		} else {
			whole, cone = s.explainer(), s.conflictExplainer()
		}
		assert.NotSame(t, whole, cone)
		assert.Nil(t, whole.e.cone, "the whole closure's encoding is no cone")
		require.NotNil(t, cone.e.cone)
		assert.False(t, cone.e.cone.covered["extra"], "the conflict's cone leaves out what the request does not reach")
		assert.Same(t, whole, s.explainer(), "each is built once")
		assert.Same(t, cone, s.conflictExplainer())
		st := s.stats()
		assert.Equal(t, int(s.fast.g.MaxVar())+int(whole.e.g.MaxVar())+int(cone.e.g.MaxVar()), st.Variables)
	}
}

// coneInputs are a catalog and cluster where disabling db, which web
// requires, is unsatisfiable within web and db, and extra shares nothing
// with it.
func coneInputs(t *testing.T) (*Compiled, *model.ClusterState) {
	return compileInputs(t, `
modules:
  - name: app
    releases: [{version: 1.0.0}]
  - name: web
    releases:
      - {version: 1.0.0, requirements: {modules: {db: ">= 1.0"}}}
  - name: db
    releases: [{version: 1.0.0}]
  - name: extra
    releases: [{version: 1.0.0}]
`, `
deckhouse: 1.74.0
kubernetes: 1.31.0
modules:
  web: {enabled: true, version: 1.0.0}
  db: {enabled: true, version: 1.0.0}
  extra: {enabled: true, version: 1.0.0}
`)
}

// A module that must be on while static facts forbid every release, one
// of them about the platform, is hopeless; one that keeps a release, or
// whose releases no platform fact forbids, is not.
func TestHopeless(t *testing.T) {
	c, cluster := compileInputs(t, `
modules:
  - name: old
    releases:
      - {version: 1.0.0, requirements: {deckhouse: "< 1.70"}}
  - name: fits
    releases:
      - {version: 1.0.0, requirements: {deckhouse: "< 1.70"}}
      - {version: 1.1.0}
  - name: off
    releases:
      - {version: 1.0.0, requirements: {deckhouse: "< 1.70"}}
`, `
deckhouse: 1.74.0
kubernetes: 1.31.0
modules:
  old: {enabled: true, version: 1.0.0}
  fits: {enabled: true, version: 1.0.0}
`)
	p := newProblem(c, cluster, &model.Request{UpdateAll: true, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.75.0")}})
	assert.True(t, hopeless(p.view("old")))
	assert.False(t, hopeless(p.view("fits")), "1.1.0 is left")
	assert.False(t, hopeless(p.view("off")), "it may stay off")
}

// compileInputs compiles a catalog and reads a cluster state, both YAML.
func compileInputs(t *testing.T, catalogYAML, clusterYAML string) (*Compiled, *model.ClusterState) {
	t.Helper()
	cat, _, err := catalog.Parse("catalog.yaml", []byte(catalogYAML))
	require.NoError(t, err)
	cluster, err := catalog.ParseCluster("cluster.yaml", []byte(clusterYAML))
	require.NoError(t, err)
	c, err := Compile(cat)
	require.NoError(t, err)
	return c, cluster
}
