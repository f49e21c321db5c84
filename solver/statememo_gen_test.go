package solver_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/bench"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// D225, D428: on the generated S and M catalogs, enabling or disabling
// one module at a time, asked one question after another of one cluster
// state, gives the answers it gives without the state memo, with the
// changes only or every module listed; and the answers that list every
// module are made on the memo, with fewer views (their estimate is
// smaller).
func TestStateMemoOnGeneratedCatalogs(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the M catalog")
	}
	ctx := context.Background()
	for _, size := range []bench.Size{bench.SizeS, bench.SizeM} {
		in := bench.Generate(size, 1)
		c, err := solver.Compile(in.Catalog)
		require.NoError(t, err)
		mods := in.Catalog.Modules()
		asked, spared := 0, 0
		for i := 0; i < len(mods); i += len(mods) / 25 {
			name := mods[i].Name
			req := &model.Request{Report: model.ReportChanges}
			if in.Cluster.Modules[name].On() {
				req.Disable = []string{name}
			} else {
				req.Enable = []string{name}
			}
			all := *req
			all.Report = model.ReportAll
			for _, r := range []*model.Request{req, &all, in.InstallOneChanges(), in.InstallOne(), in.Unsatisfiable()} {
				want, wantErr := c.Solve(ctx, in.Cluster, r, solver.WithoutStateMemo())
				got, gotErr := c.Solve(ctx, in.Cluster, r)
				require.Equal(t, wantErr, gotErr)
				if wantErr != nil {
					continue
				}
				if r.Report != model.ReportChanges && want.Status == model.StatusResolved && got.Stats.MemoryBytes < want.Stats.MemoryBytes {
					spared++ // D428: a whole answer on the memo makes fewer views
				}
				want.Stats.MemoryBytes, got.Stats.MemoryBytes = 0, 0
				want.Stats.SolveMicros, got.Stats.SolveMicros = 0, 0
				assert.Equal(t, want, got, "%s: %+v", size.Name, r)
				asked++
			}
		}
		assert.Greater(t, asked, 40, size.Name)
		assert.Greater(t, spared, 20, "%s: answers that list every module are served on the memo's frozen modules without views", size.Name)
	}
}

// The memos of one compiled catalog serve any number of goroutines: they
// make one memo per state and agree with each other.
func TestStateMemoSharedByGoroutines(t *testing.T) {
	in := bench.Generate(bench.SizeS, 1)
	c, err := solver.Compile(in.Catalog)
	require.NoError(t, err)
	want, err := c.Solve(context.Background(), in.Cluster, in.InstallOneChanges(), solver.WithoutStateMemo())
	require.NoError(t, err)
	want.Stats.MemoryBytes, want.Stats.SolveMicros = 0, 0
	results := make(chan *model.Result, 16)
	for range cap(results) {
		go func() {
			res, err := c.Solve(context.Background(), in.Cluster, in.InstallOneChanges())
			if err != nil {
				res = nil
			}
			results <- res
		}()
	}
	for range cap(results) {
		got := <-results
		require.NotNil(t, got)
		got.Stats.MemoryBytes, got.Stats.SolveMicros = 0, 0
		assert.Equal(t, want, got)
	}
}
