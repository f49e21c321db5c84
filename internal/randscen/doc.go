// Package randscen generates small random scenarios from a seed: a
// catalog, a cluster state and a request, drawn over every rule the
// solver implements, for differential testing against internal/oracle.
//
// The same seed always gives the same scenario. Every scenario it returns
// passes the validation the loaders apply (model.NewCatalog and the
// Validate methods), and it can be written out as a scenario file
// (DESIGN.md §7) so that any disagreement it finds becomes a test.
//
// Files:
//   - gen.go: Generate, and the draws for modules, releases and requirements.
//   - state.go: random cluster states, consistent or not, and requests.
//   - write.go: Write, the scenario file format.
//   - versions.go: the version reading, its prereleases and ranges, and
//     devel (R6), on a stream of their own.
//   - channels.go: channel sets and the entries they skip (D182), on a
//     stream of their own.
package randscen
