package solver

import (
	"context"
	"testing"

	"github.com/Masterminds/semver/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
// on every unsatisfiable scenario, each single suggestion to upgrade DKP
// or Kubernetes works at its version and fails one step below it.
func TestSuggestedVersionsAreTheLowest(t *testing.T) {
	ctx := context.Background()
	checked := 0
	for _, sc := range scenariotest.All(t, "..") {
		res, err := Solve(ctx, sc.Catalog, sc.Cluster, sc.Request)
		require.NoError(t, err, sc.File)
		if res.Status != model.StatusUnsatisfiable {
			continue
		}
		for _, sug := range res.Explanation.Suggestions {
			if !isUpgrade(sug.Kind) || sug.Version == "" {
				continue
			}
			v := model.MustParseVersion(sug.Version)
			asked := orElse(sc.Request.Platform.Kubernetes, sc.Cluster.Kubernetes)
			if sug.Kind == model.SuggestUpgradeDeckhouse {
				asked = orElse(sc.Request.Platform.Deckhouse, sc.Cluster.Deckhouse)
			}
			lower, ok := oneStepBelow(v)
			if !ok || asked == nil || v.Compare(asked) <= 0 {
				continue // a step down to a pair DKP runs is the nearest by its own rule
			}
			with := func(v model.Version) model.Status {
				req := sc.Request.Clone()
				if sug.Kind == model.SuggestUpgradeKubernetes {
					req.Platform.Kubernetes = v
				} else {
					req.Platform.Deckhouse = v
				}
				got, err := Solve(ctx, sc.Catalog, sc.Cluster.Clone(), req, WithoutHeldBack(), WithoutSuggestions())
				if err != nil {
					return model.StatusUnsatisfiable // a version the inputs refuse works no better
				}
				return got.Status
			}
			checked++
			assert.Equal(t, model.StatusResolved, with(v), "%s: %q works", sc.File, sug.Message)
			assert.Equal(t, model.StatusUnsatisfiable, with(lower), "%s: %q, and one step below, %s, does not", sc.File, sug.Message, lower)
		}
	}
	assert.Positive(t, checked, "no suggested upgrade was checked")
	t.Logf("%d suggested upgrades checked", checked)
}
