// Module modsolver resolves dependencies of Deckhouse Kubernetes Platform
// (DKP) modules on a SAT solver: from a catalog of module releases, the
// cluster's state and a request, it finds a consistent install and update
// set, or explains in DKP's words why none exists.
//
// The packages, from the inside out (docs/decisions.md records the choices
// the design left open; imports_test.go enforces the import rules):
//
//   - model: domain types, validation and errors; imports nothing internal.
//   - catalog: reading catalogs, cluster states, requests and scenarios.
//   - solver: the encoding onto gini, preferences and explanations.
//   - readiness: a what-if batch's answers read as an upgrade matrix.
//   - proto/modsolver/v1: the generated wire types.
//   - server: the gRPC service and the proto↔model conversion.
//   - cmd/modsolver: the command line, which only wires the others.
package modsolver
