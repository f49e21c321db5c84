package readiness

import "github.com/modsolver/modsolver/model"

// SameAnswers says whether a, the answer to ra, and b, the answer to rb,
// belong in one group (same.go): the tests outside the package hold the
// comparison to the fingerprint it replaced, pair by pair.
func SameAnswers(ra *model.Request, a Answer, rb *model.Request, b Answer) bool {
	x := view{own: ownVersionsOf(platformVersions(ra)), answer: a}
	return x.same(view{own: ownVersionsOf(platformVersions(rb)), answer: b})
}

// PlatformVersions is platformVersions, for the fingerprint the tests
// outside the package keep as the reference.
var PlatformVersions = platformVersions
