// Package report renders modsolver's answers as text for people, and the
// JSON of `catalog check`. The JSON of answers, the messages of the gRPC
// service, is the server package's.
//
// A tour of the files:
//
//   - table.go: Result, one answer as tables (status, modules, plan,
//     warnings, explanation), and Columns, the aligned columns every
//     table of the CLI uses.
//   - whatif.go: what-if batches (D104). Matrix makes the readiness
//     matrix's scenarios, one per pair of candidate DKP and Kubernetes
//     versions; WhatIf prints the grid (or, when one reason that no
//     platform version changes blocks every cell, that reason once), each
//     cell marked with its group's letter, then each group of equal
//     answers once (D190): the versions it covers, then its updates, or
//     its blockers with their R30 severity and its explanation. A blocked
//     cell names the modules Explanation.Blockers reads from the facts; a
//     bad scenario prints the text the gRPC stream carries (D103).
//   - html.go, whatif.html.tmpl: the same batch as one self-contained
//     page (D194): the grid coloured by outcome and R30 severity, each
//     cell linked to its group, then each group with its updates,
//     blockers, explanation, verified suggestions and plan.
//   - stats.go: Stats, `catalog stats` as text: the size of a catalog,
//     what its load skipped and why, and its warnings.
//   - check.go: Check, the outcome of `catalog check` (a solver sweep and
//     its summary) as tables (counts, kinds of fact, top reasons,
//     details) or as its JSON document.
package report
