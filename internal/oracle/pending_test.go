package oracle_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/oracle"
	"github.com/modsolver/modsolver/internal/randscen"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
)

// pendingDir holds the scenarios that show where the solver disagrees
// with the rules, kept out of testdata/scenarios until it is fixed.
var pendingDir = filepath.Join("..", "..", "testdata", "diff-pending")

// TestPendingScenarios checks each pending scenario two ways: the oracle
// gives the answer its expect section states (so the scenario says what
// the rules say), and the solver still disagrees. A scenario the solver
// answers right fails the test: move it to testdata/scenarios, and drop
// its seeds from knownDisagreements.
func TestPendingScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(pendingDir, "*.yaml"))
	require.NoError(t, err)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sc, err := catalog.LoadScenario(file)
			require.NoError(t, err)
			checkOracleMeets(t, sc)
			d := compare(&randscen.Scenario{Catalog: sc.Catalog, Cluster: sc.Cluster, Request: sc.Request})
			if d.problem == "" {
				t.Errorf("the solver answers %s right now: move it to testdata/scenarios", filepath.Base(file))
			}
			t.Logf("pending: %s", d.problem)
		})
	}
}

// TestDiffScenarios checks that the oracle agrees with every diff-*
// scenario of testdata/scenarios, which the scenario suite runs against
// the solver.
func TestDiffScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "scenarios", "diff-*.yaml"))
	require.NoError(t, err)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sc, err := catalog.LoadScenario(file)
			require.NoError(t, err)
			checkOracleMeets(t, sc)
		})
	}
}

// checkOracleMeets checks the oracle's answer against a scenario's
// status and module expectations.
func checkOracleMeets(t *testing.T, sc *catalog.Scenario) {
	t.Helper()
	ans, err := oracle.Solve(sc.Catalog, sc.Cluster, sc.Request, solverOrder)
	require.NoError(t, err)
	require.Equal(t, sc.Expect.Status, ans.Status.String(), "oracle status")
	for name, want := range sc.Expect.Modules {
		v, on := ans.Selected[name]
		switch want.Action {
		case "absent", "disable":
			assert.False(t, on, "%s: the oracle has it on at %s", name, model.VersionString(v))
		default:
			assert.True(t, on, "%s: the oracle has it off", name)
		}
		if want.Version != "" {
			assert.Equal(t, want.Version, model.VersionString(v), "%s version", name)
		}
		if want.Source != nil && *want.Source != "" && on {
			assert.Equal(t, *want.Source, ans.Sources[name], "%s source", name)
		}
	}
}

// TestOracleMeetsScenarios holds the oracle to the hand-written scenarios
// of testdata/scenarios and ../shared/scenarios: where a scenario states a
// status and module versions, the oracle must give them. Scenarios that
// are bad input, on the known-failing list, or too large to enumerate are
// skipped; so are those whose rules the oracle does not read (D44).
func TestOracleMeetsScenarios(t *testing.T) {
	checked := 0
	for _, sc := range scenariotest.All(t, filepath.Join("..", "..")) {
		if _, err := oracle.Solve(sc.Catalog, sc.Cluster, sc.Request, solverOrder); errors.Is(err, oracle.ErrTooLarge) {
			continue
		}
		checked++
		t.Run(sc.Name(), func(t *testing.T) { checkOracleMeets(t, sc.Scenario) })
	}
	assert.Positive(t, checked)
}
