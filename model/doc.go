// Package model owns modsolver's domain types: modules and releases, the
// constraint grammar (R6), the cluster state, the request, the result, and
// the errors that say an input is bad.
//
// It imports nothing else from modsolver. The solver, the loaders and the
// service all speak in these types; none of them carries a proto or YAML
// tag, so that the wire formats can change without touching the domain.
//
// Files:
//   - version.go: versions and the prerelease stripping of R6.
//   - reading.go: each ecosystem's version reading (R6: dkp, semver,
//     blang), one table row each.
//   - ecosystem.go: the ecosystem a module comes from, and its words.
//   - constraint.go: the constraint grammar, with "!optional" and exclusions.
//   - catalog.go: Catalog, Module, Release, Accessibility.
//   - channelset.go: a channel as the set of releases it holds (D182).
//   - cluster.go, request.go: the two other inputs and their validation;
//     editions.go checks a cluster's edition and bundle against the
//     catalog's platform data (D351).
//   - source.go: several sources merged into one catalog (R23), and a
//     module built in and listed in another source (R29, D350).
//   - result.go: Result, actions, facts and suggestions.
//   - errors.go: sentinels and typed errors for bad input.
package model
