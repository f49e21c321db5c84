package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

func TestZZProbe(t *testing.T) {
	for _, sz := range []Size{SizeM, SizeL} {
		in := Generate(sz, 1)
		for _, req := range []*model.Request{in.PlatformUpgrade(), in.UpdateAll()} {
			res, err := solver.Solve(context.Background(), in.Catalog, in.Cluster, req)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Println("stats", res.Stats)
		}
	}
}
