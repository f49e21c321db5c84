package metrics_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/metrics"
)

func TestDomainMetrics(t *testing.T) {
	sizes := map[string]int{"demo": 42}
	m := metrics.New("v1.2.3", func() map[string]int { return sizes })
	m.SolveStarted("Resolve")
	m.SolveFinished("Resolve", "resolved", 3*time.Millisecond, 120, 300)
	m.SolveStarted("WhatIf")
	m.WhatIfScenario("unsatisfiable")
	m.Reloaded(errors.New("bad catalog"))

	problems, err := testutil.GatherAndLint(m.Registry())
	require.NoError(t, err)
	assert.Empty(t, problems)
	require.NoError(t, testutil.GatherAndCompare(m.Registry(), strings.NewReader(`
# HELP modsolver_catalog_releases Releases in each served catalog.
# TYPE modsolver_catalog_releases gauge
modsolver_catalog_releases{catalog="demo"} 42
# HELP modsolver_catalog_reloads_total Reloads of the served catalogs (SIGHUP), by result: success or failure.
# TYPE modsolver_catalog_reloads_total counter
modsolver_catalog_reloads_total{result="failure"} 1
modsolver_catalog_reloads_total{result="success"} 0
# HELP modsolver_solves_in_flight Resolve, Explain and WhatIf calls being handled now, those queued for a slot included.
# TYPE modsolver_solves_in_flight gauge
modsolver_solves_in_flight{method="Resolve"} 0
modsolver_solves_in_flight{method="WhatIf"} 1
# HELP modsolver_whatif_scenarios_total What-if scenarios answered, by outcome: resolved, unsatisfiable or invalid.
# TYPE modsolver_whatif_scenarios_total counter
modsolver_whatif_scenarios_total{outcome="unsatisfiable"} 1
`), "modsolver_catalog_releases", "modsolver_catalog_reloads_total", "modsolver_solves_in_flight", "modsolver_whatif_scenarios_total"))
	assert.Equal(t, 1, testutil.CollectAndCount(m.Registry(), "modsolver_build_info"))

	sizes = map[string]int{"other": 7}
	require.NoError(t, testutil.GatherAndCompare(m.Registry(), strings.NewReader(`
# HELP modsolver_catalog_releases Releases in each served catalog.
# TYPE modsolver_catalog_releases gauge
modsolver_catalog_releases{catalog="other"} 7
`), "modsolver_catalog_releases"), "a catalog that is gone leaves no series")
}

func TestEndpoints(t *testing.T) {
	ready := true
	h := metrics.New("dev", nil).Handler(func(context.Context) bool { return ready })
	code := func(path string) int {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec.Code
	}
	assert.Equal(t, http.StatusOK, code("/healthz"))
	assert.Equal(t, http.StatusOK, code("/readyz"))
	assert.Equal(t, http.StatusOK, code("/metrics"))
	ready = false
	assert.Equal(t, http.StatusServiceUnavailable, code("/readyz"))
	assert.Equal(t, http.StatusOK, code("/healthz"), "alive while not ready")
	assert.Equal(t, http.StatusNotFound, code("/other"))
}
