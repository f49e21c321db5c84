// Package bench generates seeded catalogs and measures modsolver, side by
// side with deppy and libsolv.
//
// It is the only package that imports github.com/operator-framework/deppy
// and, built with the tag libsolv, links libsolv: the peers DESIGN.md §8
// compares modsolver with. A tour of the files:
//
//   - generate.go: Generate builds an Instance, a catalog and a consistent
//     cluster state, of a Size (S, M, L or NxR) from a seed, and the
//     requests of each case: UpdateAll, InstallOne, PlatformUpgrade,
//     Unsatisfiable and WhatIf.
//   - run.go: Run measures one case on an instance (RunDKP on the real DKP
//     tree, dkp.go): the median time of modsolver over several runs after
//     a warm-up, and deppy's if asked, the size of the encoding, the peak
//     memory (peak.go), and both answers checked. outcome.go holds the
//     Outcome.
//   - deppy.go: Deppy translates the same inputs into deppy variables and
//     constraints, solves them with deppy's solver in this process, and
//     says where the translation is weaker than modsolver. What each
//     module may be (the releases modsolver's static facts leave, and its
//     role under R8) comes from solver.NewDomains, not from a copy of the
//     solver's rules (D110).
//   - libsolv.go: Libsolv translates the same inputs, pruned by the same
//     domains, into a libsolv pool (D300–D309); libsolv_pool.go writes the
//     pool as plain data, libsolv_cgo.go (tag libsolv) loads it in one cgo
//     call, solves, and makes the ordered transaction; libsolv_none.go
//     stands in without the tag (ErrNoLibsolv). libsolv_run.go times it
//     beside modsolver with report: changes.
//   - peer.go: a peer's selection back as a model.Result, and CheckPeer,
//     the part of internal/checker's checks that applies to it.
//   - catalogfile.go: WriteCatalogFile writes a generated catalog in the
//     single-file format, so that loading one can be timed
//     (BenchmarkLoad in load_test.go, with the real catalogs of DESIGN.md
//     §8's loading targets).
//
// The Go benchmarks (bench_test.go) time encode+solve, explanations,
// what-if batches and the deppy peer at S and M; L runs only when asked
// for (MODSOLVER_BENCH_L=1 and a -bench pattern that names L). The
// command `modsolver bench` prints the same figures as a table.
package bench
