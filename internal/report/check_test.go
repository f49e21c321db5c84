package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

func sampleCheck() *Check {
	blockedBy := func(summary string) *model.Result {
		return &model.Result{Status: model.StatusUnsatisfiable, Explanation: &model.Explanation{Summary: summary}}
	}
	return &Check{
		Catalog: "c.yaml",
		Summary: solver.SweepSummary{
			Modules: 5, Resolved: 1, Unsatisfiable: 3, Errors: 1,
			Reasons: []solver.ReasonCount{
				{Reason: "openshift < 4.20", Modules: []string{"a", "b", "c", "d", "e"}},
				{Reason: "missing module x", Modules: []string{"f"}},
			},
			Kinds:            []solver.ReasonCount{{Reason: "platform-requirement", Modules: []string{"a", "b"}}},
			ExperimentalOnly: []string{"lab"},
		},
		Answers: []solver.Installability{
			{Module: "api", Version: "1.0.0", Result: blockedBy("api cannot")},
			{Module: "bad", Version: "0.1.0", Err: errors.New("invalid input")},
			{Module: "ok", Version: "2.0.0", Result: &model.Result{Status: model.StatusResolved}},
			{Module: "orphan", Version: "1.0.0", Result: blockedBy("orphan cannot"), Reasons: []string{"missing module x", "kubernetes >= 1.32"}},
		},
		Top:     1,
		Details: true,
	}
}

func TestCheckTable(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, sampleCheck().Table(&out))
	assert.Equal(t, `modules checked  5, each at its head (the newest release its channel offers), installed alone
install          1
cannot install   3 (listed at the end, with their reasons)
bad input        1 (listed at the end, with their reasons)

Experimental: the cluster does not allow experimental modules.
  DKP installs an Experimental release once the deckhouse ModuleConfig sets allowExperimentalModules: true,
  or names the module in allowedExperimentalModules.
  Experimental only (1), with no release that is not Experimental, so no older release would do: lab

By kind of fact (a module counts once under each kind among its reasons):
MODULES  KIND                  FOR EXAMPLE
2        platform-requirement  a, b

Top reasons:
MODULES  REASON            FOR EXAMPLE
5        openshift < 4.20  a, b, c, … (2 more)

Modules that cannot be installed:
  api 1.0.0: 
  bad 0.1.0: bad input: invalid input
  orphan 1.0.0: missing module x; kubernetes >= 1.32
`, out.String())
}

// With --top 0 the table shows no reasons, and no heading for none; a
// negative Top, which the command line refuses, is none as well, not a
// panic.
func TestCheckTableNoTopReasons(t *testing.T) {
	for _, top := range []int{0, -3} {
		c := sampleCheck()
		c.Top, c.Details = top, false
		var out bytes.Buffer
		require.NoError(t, c.Table(&out), "top %d", top)
		assert.NotContains(t, out.String(), "Top reasons", "top %d", top)
		assert.Contains(t, out.String(), "By kind of fact (", "top %d", top)
	}
}

func TestCheckJSON(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, sampleCheck().JSON(&out))
	var doc CheckJSON
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc))
	assert.Equal(t, "c.yaml", doc.Catalog)
	assert.Equal(t, []ReasonJSON{{Reason: "platform-requirement", Modules: []string{"a", "b"}}}, doc.Kinds)
	assert.Len(t, doc.Reasons, 2, "JSON carries every reason, not only the top ones")
	assert.Equal(t, []CheckModuleJSON{
		{Module: "api", Version: "1.0.0", Status: "unsatisfiable", Summary: "api cannot"},
		{Module: "bad", Version: "0.1.0", Status: "error", Error: "invalid input"},
		{Module: "ok", Version: "2.0.0", Status: "resolved"},
		{Module: "orphan", Version: "1.0.0", Status: "unsatisfiable", Summary: "orphan cannot", Reasons: []string{"missing module x", "kubernetes >= 1.32"}},
	}, doc.Results)

	out.Reset()
	require.NoError(t, (&Check{Catalog: "empty.yaml"}).JSON(&out))
	assert.JSONEq(t, `{"catalog": "empty.yaml", "modules": 0, "resolved": 0, "unsatisfiable": 0, "errors": 0,
		"builtIn": 0, "alsoBuiltIn": [], "withoutReleases": 0,
		"experimentalOnly": [], "kinds": [], "reasons": [], "groups": [], "results": []}`, out.String(), "empty lists, not null")
}

// The table and the document say what cluster the check installed into,
// so that a reason such as "edition" reads against the edition it ran on.
func TestCheckNamesTheCluster(t *testing.T) {
	c := sampleCheck()
	c.Details = false
	c.Cluster = &model.ClusterState{Kubernetes: model.MustParseVersion("1.33.0"), Platform: map[string]model.Version{"openshift": model.MustParseVersion("4.20.0")}}
	var olm bytes.Buffer
	require.NoError(t, c.Table(&olm))
	assert.True(t, strings.HasPrefix(olm.String(), "checked on       kubernetes 1.33.0, openshift 4.20.0\n"), "no edition on a cluster without DKP: %s", olm.String())
	c.Cluster.Deckhouse = model.MustParseVersion("1.77.0")
	var out bytes.Buffer
	require.NoError(t, c.Table(&out))
	assert.True(t, strings.HasPrefix(out.String(), "checked on       kubernetes 1.33.0, deckhouse 1.77.0, openshift 4.20.0, no edition\nmodules checked  5, "), out.String())

	c.Cluster.Edition, c.Cluster.Bundle = "ee", "Default"
	out.Reset()
	require.NoError(t, c.Table(&out))
	assert.Contains(t, out.String(), "deckhouse 1.77.0, openshift 4.20.0, edition ee, bundle Default\n")
	assert.Equal(t, &CheckClusterJSON{Kubernetes: "1.33.0", Deckhouse: "1.77.0", Platform: map[string]string{"openshift": "4.20.0"}, Edition: "ee", Bundle: "Default"}, c.Doc().Cluster)
}

// The table says what it does not check and why, names the modules that
// cannot install without --details, and says what each count of
// Experimental modules counts and how DKP allows them (D415).
func TestCheckTableForANewUser(t *testing.T) {
	c := sampleCheck()
	c.Details = false
	c.BuiltIn, c.AlsoBuiltIn, c.NoReleases = 73, []string{"snapshot-controller"}, 2
	c.Summary.Kinds = append(c.Summary.Kinds, solver.ReasonCount{Reason: "experimental", Modules: []string{"lab", "new"}})
	var out bytes.Buffer
	require.NoError(t, c.Table(&out))
	text := out.String()
	for _, want := range []string{
		"\nnot checked      76: 73 built-in modules and snapshot-controller (also carried built in), which run with the platform; 2 without releases of their own\n",
		"\ncannot install   3: api, orphan; --details lists each with its reasons\n",
		"\nbad input        1: bad; --details lists each with its reasons\n",
		"\nExperimental: the head of 2 modules is Experimental (kind experimental below), and the cluster does not allow\n" +
			"  experimental modules. DKP installs an Experimental release once the deckhouse ModuleConfig sets allowExperimentalModules: true,\n" +
			"  or names the module in allowedExperimentalModules.\n" +
			"  Experimental only (1), with no release that is not Experimental, so no older release would do: lab\n",
	} {
		assert.Contains(t, text, want)
	}
	c.BuiltIn, c.AlsoBuiltIn, c.NoReleases = 0, nil, 0
	c.Summary.Kinds = c.Summary.Kinds[:1]
	out.Reset()
	require.NoError(t, c.Table(&out))
	for _, line := range strings.Split(text+out.String(), "\n") {
		assert.LessOrEqual(t, len([]rune(line)), 160, line)
	}
	assert.NotContains(t, out.String(), "not checked", "a catalog without built-in modules checks every module")
	assert.Equal(t, []string{"snapshot-controller"}, (&Check{AlsoBuiltIn: []string{"snapshot-controller"}}).Doc().AlsoBuiltIn)
}
