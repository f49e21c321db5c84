package solver

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/Masterminds/semver/v3"
	"github.com/stretchr/testify/assert"

	"github.com/modsolver/modsolver/internal/randscen"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
)

// oneStepBelow is the version one step below v: the patch before it, or,
// at a minor's first patch, a late patch of the minor before.
func oneStepBelow(v model.Version) (model.Version, bool) {
	switch {
	case v.Patch() > 0:
		return semver.New(v.Major(), v.Minor(), v.Patch()-1, "", ""), true
	case v.Minor() > 0:
		return semver.New(v.Major(), v.Minor()-1, 99, "", ""), true
	}
	return nil, false
}

// A suggested platform upgrade asks for no more than needed (issue 31):
// on every unsatisfiable scenario, each suggestion to upgrade DKP or
// Kubernetes, alone or as a part of a combined set, works at its version
// and fails one step below it (with the set's other parts made).
func TestSuggestedVersionsAreTheLowest(t *testing.T) {
	checked := 0
	for _, sc := range scenariotest.All(t, "..") {
		checked += checkLowest(t, sc.File, sc.Catalog, sc.Cluster, sc.Request)
	}
	assert.Positive(t, checked, "no suggested upgrade was checked")
	t.Logf("%d suggested upgrades checked", checked)
}

// The same over random scenarios, which reach combined sets and platform
// data the hand-written ones do not.
func TestSuggestedVersionsAreTheLowestRandom(t *testing.T) {
	seeds := uint64(600)
	if testing.Short() {
		seeds = 100
	}
	checked := 0
	for seed := range seeds {
		sc := randscen.Generate(seed)
		checked += checkLowest(t, fmt.Sprintf("seed %d", seed), sc.Catalog, sc.Cluster, sc.Request)
	}
	assert.Positive(t, checked, "no suggested upgrade was checked")
	t.Logf("%d suggested upgrades checked over %d seeds", checked, seeds)
}

// checkLowest checks each suggested platform upgrade of the answer to req,
// alone or in a set, and returns how many it checked.
func checkLowest(t *testing.T, where string, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) int {
	res, err := Solve(context.Background(), cat, cluster, req, WithoutHeldBack())
	if err != nil || res.Status != model.StatusUnsatisfiable {
		return 0
	}
	checked := 0
	for _, sug := range res.Explanation.Suggestions {
		parts := []model.Suggestion{sug}
		if sug.Kind == model.SuggestCombined {
			parts = sug.Changes
		}
		for i, part := range parts {
			if !isUpgrade(part.Kind) || part.Version == "" {
				continue
			}
			v := model.MustParseVersion(part.Version)
			asked := orElse(req.Platform.Kubernetes, cluster.Kubernetes)
			if part.Kind == model.SuggestUpgradeDeckhouse {
				asked = orElse(req.Platform.Deckhouse, cluster.Deckhouse)
			}
			lower, ok := oneStepBelow(v)
			if !ok || asked == nil || v.Compare(asked) <= 0 || lower.Compare(asked) < 0 {
				continue // a step down to a pair DKP runs, or below the cluster, is the nearest by its own rule
			}
			status, ok := statusWith(t, cat, cluster, req, parts)
			if !ok {
				continue // a part this test cannot make from its data alone
			}
			lowered := slices.Clone(parts)
			lowered[i].Version = lower.String()
			below, err, _ := solveWith(cat, cluster, req, lowered)
			checked++
			assert.Equal(t, model.StatusResolved, status, "%s: %q works", where, sug.Message)
			// A version the inputs refuse (err) works no better.
			assert.True(t, err != nil || below.Status != model.StatusResolved, "%s: %q, and one step below, %s, does not", where, sug.Message, lower)
		}
	}
	return checked
}
