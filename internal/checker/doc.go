// Package checker verifies a resolver's answer against the rules of
// DESIGN.md, independently of the solver that produced it.
//
// It reads only the inputs (catalog, cluster state, request) and the
// answer, and recomputes every rule from its text, so that a bug in the
// solver's encoding cannot hide behind the same bug here. It imports no
// solver code by design (DESIGN.md §6).
//
// Files:
//   - violation.go: Violation and its order.
//   - check.go: Check, and the "after" state read from the answer.
//   - shape.go: the output's shape: order, actions, versions (§3).
//   - release.go: the selected releases and what they require (R1–R5, R7).
//   - intent.go: the cluster's and the request's intents (R8).
//   - channel.go: stability, channel heads and prereleases (R9, R10, D1,
//     and which prereleases R6 lets a module take, D140).
//   - steps.go: the sequential update steps (R11, D13).
//   - plan.go: exclusive groups (R13) and the plan order (R18).
//   - extended.go: capabilities (R19, R20), update graphs (R21) and other
//     platform components (R22).
//   - compound.go: compound requirements and conflicts (R24).
//   - loops.go: dependency loops (R27).
//   - stages.go: module stages (R25) and disable confirmation (R26).
//   - explanation.go: the shape of an unsatisfiable answer (R16).
package checker
