// Package readiness reads a what-if batch's answers as a person reads an
// upgrade matrix (R30): it groups the answers that are equal apart from
// their own platform version texts (D190), classes each blocker of a
// platform-upgrade scenario as an error or a warning with the first
// scenario it blocks (D191), and says whether the first scenario is ready
// with every unaccepted risk counted (D192). It works on model values
// only, and imports neither the solver nor gini: the answers come from
// solver.WhatIf (`modsolver whatif`, the gRPC WhatIf stream) or from a
// sharded batch's JSON lines (`whatif merge`), and the caller hands each
// over as an Answer.
//
// A tour of the files:
//
//   - readiness.go: Readiness and its Cell, New and Add, which hands
//     answers out in request order, holding them back until every
//     scenario at the next minors is answered; the R30 classes and
//     accepted risks, and Ready, the exit status's verdict.
//   - same.go: the comparison that makes a group: two answers field by
//     field, stats aside, each text read with the scenario's own platform
//     versions as placeholders (ownVersions), and the hash that finds the
//     groups an answer may join.
package readiness
