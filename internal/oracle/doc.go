// Package oracle answers small resolution problems by brute force: it
// enumerates every assignment (each module off, or at one of its
// releases), keeps those that satisfy the hard rules of DESIGN.md §1 and
// docs/rules.md read literally (R1–R13, R19–R22), and picks the optimum
// by R14's levels, compared lexicographically.
//
// It shares no code with the solver: it reads only model's types, its
// accessibility lookup and its constraint matching, as internal/checker
// does, so that a bug in the solver's encoding or optimisation shows as a
// disagreement rather than being repeated here. It refuses problems with
// more than MaxAssignments assignments.
//
// Files:
//   - oracle.go: Solve, the enumeration and the answer.
//   - domain.go: what each module may be on its own: its intent (R8),
//     channel head (R10, D10), stability (R9), update steps (R11, D13,
//     R21), prereleases (D1, D140, D141), editions (R7) and platform (R4,
//     R22).
//   - rules.go: the rules across modules (R2, R3, R13, R19, R20), with
//     each range read by its writer's version reading (inRange, R6).
//   - prefer.go: the preference levels of R14 and their order.
package oracle
