package bench

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// The benchmarks of DESIGN.md §8, at sizes S and M, and at L when both
// MODSOLVER_BENCH_L=1 is set and the -bench pattern names L, as in
//
//	MODSOLVER_BENCH_L=1 go test -run '^$' -bench 'Solve/L/' ./bench/
//
// since generating L alone takes a while.

// benchSeed is the seed of every benchmark instance.
const benchSeed = 1

var (
	instancesMu sync.Mutex
	instances   = map[string]*Instance{}
)

// instance generates size once per test binary.
func instance(b *testing.B, size Size) *Instance {
	b.Helper()
	instancesMu.Lock()
	defer instancesMu.Unlock()
	in, ok := instances[size.Name]
	if !ok {
		in = Generate(size, benchSeed)
		instances[size.Name] = in
	}
	return in
}

// forSizes runs bench at S, M and (when asked for) L, as sub-benchmarks
// named after the size.
func forSizes(b *testing.B, sizes []Size, bench func(b *testing.B, in *Instance)) {
	for _, size := range sizes {
		b.Run(size.Name, func(b *testing.B) {
			if size.Name == SizeL.Name && !largeWanted() {
				b.Skip("L runs only with MODSOLVER_BENCH_L=1 and a -bench pattern that names L")
			}
			bench(b, instance(b, size))
		})
	}
}

// largeWanted reports whether MODSOLVER_BENCH_L=1 is set and the -bench
// pattern names the sub-benchmark L explicitly.
func largeWanted() bool {
	if os.Getenv("MODSOLVER_BENCH_L") != "1" {
		return false
	}
	f := flag.Lookup("test.bench")
	if f == nil {
		return false
	}
	for _, part := range strings.Split(f.Value.String(), "/") {
		if strings.Trim(part, "^$") == SizeL.Name {
			return true
		}
	}
	return false
}

func allSizes() []Size { return []Size{SizeS, SizeM, SizeL} }

// BenchmarkEncode builds the encoding of one request, without solving it.
func BenchmarkEncode(b *testing.B) {
	forRequests(b, func(in *Instance) []namedRequest {
		return []namedRequest{{CaseUpdateAll, in.UpdateAll()}, {CaseInstallOne, in.InstallOne()}}
	}, func(in *Instance, req *model.Request) error {
		_, err := solver.Encode(in.Catalog, in.Cluster, req)
		return err
	})
}

// BenchmarkSolve is encode + solve of one request, with the full answer
// (held-back reasons and plan included).
func BenchmarkSolve(b *testing.B) {
	forRequests(b, func(in *Instance) []namedRequest {
		return []namedRequest{{CaseUpdateAll, in.UpdateAll()}, {CaseInstallOne, in.InstallOne()}, {CaseInstallOneChanges, in.InstallOneChanges()}, {CasePlatformUpgrade, in.PlatformUpgrade()}}
	}, func(in *Instance, req *model.Request) error {
		_, err := solver.Solve(context.Background(), in.Catalog, in.Cluster, req)
		return err
	})
}

type namedRequest struct {
	name string
	req  *model.Request
}

// forRequests runs one sub-benchmark per size and request, each calling
// run on the request in a loop.
func forRequests(b *testing.B, requests func(*Instance) []namedRequest, run func(*Instance, *model.Request) error) {
	forSizes(b, allSizes(), func(b *testing.B, in *Instance) {
		for _, c := range requests(in) {
			b.Run(c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := run(in, c.req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}

// BenchmarkExplain answers an unsatisfiable request with its minimal
// core, without verifying suggestions.
func BenchmarkExplain(b *testing.B) {
	forSizes(b, allSizes(), func(b *testing.B, in *Instance) {
		req := in.Unsatisfiable()
		b.ReportAllocs()
		for b.Loop() {
			res, err := solver.Solve(context.Background(), in.Catalog, in.Cluster, req, solver.WithoutSuggestions())
			if err != nil {
				b.Fatal(err)
			}
			if res.Status != model.StatusUnsatisfiable {
				b.Fatalf("status %s: want unsatisfiable", res.Status)
			}
		}
	})
}

// BenchmarkWhatIf1000 answers 1,000 platform scenarios in one batch.
func BenchmarkWhatIf1000(b *testing.B) {
	forSizes(b, allSizes(), func(b *testing.B, in *Instance) {
		reqs := in.WhatIf(1000)
		b.ReportAllocs()
		for b.Loop() {
			err := solver.WhatIf(context.Background(), in.Catalog, in.Cluster, reqs, func(_ int, a solver.Answer) error { return a.Err })
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWhatIf1000DKP answers 1,000 platform scenarios on the real
// DKP tree, read in place, against DKPCluster: one batch with one and two
// workers, and the same requests resolved one by one.
func BenchmarkWhatIf1000DKP(b *testing.B) {
	cat, _, err := catalog.Load(shared.Path(b, "data", "dkp"))
	if err != nil {
		b.Fatal(err)
	}
	cluster, err := DKPCluster(cat)
	if err != nil {
		b.Fatal(err)
	}
	reqs := PlatformScenarios(1000)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				err := solver.WhatIf(context.Background(), cat, cluster, reqs, func(_ int, a solver.Answer) error { return a.Err }, solver.WithWorkers(workers))
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("one-by-one", func(b *testing.B) {
		for b.Loop() {
			for _, r := range reqs {
				if _, err := solver.Solve(context.Background(), cat, cluster, r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkDeppy is the peer: the same update-all request, translated to
// deppy and solved by it, in both translations (see Deppy).
func BenchmarkDeppy(b *testing.B) {
	forSizes(b, []Size{SizeS, SizeM}, func(b *testing.B, in *Instance) {
		req := in.UpdateAll()
		for _, c := range []struct {
			name string
			opts []DeppyOption
		}{
			{CaseUpdateAll, nil},
			{CaseUpdateAll + "-pruned", []DeppyOption{WithPruning()}},
		} {
			b.Run(c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Deppy(context.Background(), in.Catalog, in.Cluster, req, c.opts...); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}
