package solver

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/randscen"
	"github.com/modsolver/modsolver/model"
)

// randomMinimalSeeds is how many generated scenarios
// TestRandomExplanationsAreMinimal solves; about half are unsatisfiable.
const randomMinimalSeeds = 300

// TestRandomExplanationsAreMinimal proves R16 and D19, as
// TestExplanationsAreMinimal does for the scenario files, for the
// unsatisfiable answers to random scenarios (internal/randscen): the
// answer's facts alone are unsatisfiable, and without any one of them the
// rest is satisfiable. Whether the status itself is right is the
// differential test's question (internal/oracle).
func TestRandomExplanationsAreMinimal(t *testing.T) {
	checked := 0
	for seed := range uint64(randomMinimalSeeds) {
		sc := randscen.Generate(seed)
		res, err := Solve(context.Background(), sc.Catalog, sc.Cluster, sc.Request, WithoutHeldBack(), WithoutSuggestions())
		if err != nil {
			continue // a known solver error; the differential test reports it
		}
		if res.Status != model.StatusUnsatisfiable {
			continue
		}
		checked++
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			require.NotEmpty(t, res.Explanation.Facts, "seed %d", seed)
			checkMinimal(t, &catalog.Scenario{Catalog: sc.Catalog, Cluster: sc.Cluster, Request: sc.Request}, res)
		})
	}
	assert.Greater(t, checked, randomMinimalSeeds/5, "too few unsatisfiable scenarios were checked")
}
