package report

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// An explanation is no longer than twice its core (issue 31): over every
// unsatisfiable scenario, the table's reason, from "why:" to the
// suggestions, takes at most two lines a fact, and one for its head
// (D406).
func TestExplanationsAreShort(t *testing.T) {
	checked := 0
	for _, sc := range scenariotest.All(t, "../..") {
		res, err := solver.Solve(context.Background(), sc.Catalog, sc.Cluster, sc.Request)
		require.NoError(t, err, sc.File)
		if res.Status != model.StatusUnsatisfiable {
			continue
		}
		checked++
		var out bytes.Buffer
		require.NoError(t, Result(&out, res))
		text := out.String()
		why := text[strings.Index(text, "why:"):]
		if i := strings.Index(why, "\nsuggestions"); i >= 0 {
			why = why[:i]
		}
		lines := len(strings.Split(strings.TrimSpace(why), "\n"))
		facts := len(res.Explanation.Facts)
		assert.LessOrEqual(t, lines, 2*facts+1, "%s: %d lines for %d facts:\n%s", sc.File, lines, facts, why)
	}
	assert.Positive(t, checked)
	t.Logf("%d unsatisfiable scenarios", checked)
}
