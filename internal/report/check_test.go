package report

import (
	"bytes"
	"encoding/json"
	"errors"
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
	assert.Equal(t, `modules checked  5
install          1
cannot install   3
bad input        1

Experimental only, so refused while allowExperimentalModules=false (1): lab

By kind of fact:
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
		"experimentalOnly": [], "kinds": [], "reasons": [], "groups": [], "results": []}`, out.String(), "empty lists, not null")
}
