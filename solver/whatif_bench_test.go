package solver

import (
	"context"
	"fmt"
	"testing"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
)

// matrix1000 is a 1,000-scenario readiness matrix on the demo catalog:
// 10 DKP versions × 100 Kubernetes versions, each with updateAll.
func matrix1000(b *testing.B) (*model.Catalog, *model.ClusterState, []*model.Request) {
	cat, err := catalog.Demo()
	if err != nil {
		b.Fatal(err)
	}
	cluster, _, err := catalog.DemoState()
	if err != nil {
		b.Fatal(err)
	}
	return cat, cluster, platformMatrix()
}

// BenchmarkWhatIf1000 answers the matrix with one and two workers.
func BenchmarkWhatIf1000(b *testing.B) {
	cat, cluster, reqs := matrix1000(b)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				err := WhatIf(context.Background(), cat, cluster, reqs, func(int, Answer) error { return nil }, WithWorkers(workers))
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSolve1000 resolves the same matrix one request at a time.
func BenchmarkSolve1000(b *testing.B) {
	cat, cluster, reqs := matrix1000(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range reqs {
			if _, err := Solve(context.Background(), cat, cluster, r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkWhatIf1000Bare and BenchmarkSolve1000Bare leave out held-back
// reasons and suggestions, to compare the engines alone.
func BenchmarkWhatIf1000Bare(b *testing.B) {
	cat, cluster, reqs := matrix1000(b)
	for b.Loop() {
		err := WhatIf(context.Background(), cat, cluster, reqs, func(int, Answer) error { return nil }, WithWorkers(1), WithoutHeldBack(), WithoutSuggestions())
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSolve1000Bare(b *testing.B) {
	cat, cluster, reqs := matrix1000(b)
	for b.Loop() {
		for _, r := range reqs {
			if _, err := Solve(context.Background(), cat, cluster, r, WithoutHeldBack(), WithoutSuggestions()); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// platformMatrix is update-all on 10 DKP versions × 100 Kubernetes
// versions.
func platformMatrix() []*model.Request {
	var reqs []*model.Request
	for d := 70; d < 80; d++ {
		for k := range 100 {
			reqs = append(reqs, &model.Request{UpdateAll: true, Platform: model.Platform{
				Deckhouse:  model.MustParseVersion(fmt.Sprintf("1.%d.0", d)),
				Kubernetes: model.MustParseVersion(fmt.Sprintf("1.%d.%d", 28+k/20, k%20)),
			}})
		}
	}
	return reqs
}
