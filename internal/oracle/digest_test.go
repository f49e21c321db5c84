package oracle_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/randscen"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// TestAnswersDigest writes, for a change that must not change any answer
// (a refactoring, an optimisation), a digest of every answer: one line a
// random seed and one a scenario, "name sha256", of the answer's JSON
// without its stats (the work behind it, which an optimisation changes),
// or of its error. Run it on the build before
// and on the build after and compare the files:
//
//	MODSOLVER_DIGEST_OUT=/tmp/before.txt go test -count=1 -run TestAnswersDigest ./internal/oracle/   # on the base
//	MODSOLVER_DIGEST_OUT=/tmp/after.txt  go test -count=1 -run TestAnswersDigest ./internal/oracle/   # on the change
//	cmp /tmp/before.txt /tmp/after.txt
//
// MODSOLVER_DIGEST_SEEDS sets how many seeds (default 30,000). Without
// MODSOLVER_DIGEST_OUT the test is skipped: it compares builds, which one
// run cannot do.
func TestAnswersDigest(t *testing.T) {
	out := os.Getenv("MODSOLVER_DIGEST_OUT")
	if out == "" {
		t.Skip("MODSOLVER_DIGEST_OUT is not set: the digest compares two builds (see the comment)")
	}
	seeds := uint64(30000)
	if s := os.Getenv("MODSOLVER_DIGEST_SEEDS"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err, "MODSOLVER_DIGEST_SEEDS")
		seeds = n
	}
	f, err := os.Create(out)
	require.NoError(t, err)
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	ctx := context.Background()
	// dir, where set, is the folder of a scenario, which its answer's
	// origins name: a digest names it "." so that two checkouts compare.
	digest := func(name, dir string, res any, err error) {
		var data []byte
		if err != nil {
			data = []byte("error: " + err.Error())
		} else {
			data, err = json.Marshal(res)
			require.NoError(t, err, name)
		}
		if dir != "" {
			data = bytes.ReplaceAll(data, []byte(dir), []byte("."))
		}
		fmt.Fprintf(w, "%s %x\n", name, sha256.Sum256(data))
	}
	for _, sc := range scenariotest.All(t, "../..") {
		res, err := solver.Solve(ctx, sc.Catalog, sc.Cluster, sc.Request)
		if res != nil {
			res.Stats = model.Stats{} // the work behind an answer may change; the answer may not
		}
		dir := filepath.Dir(sc.File)
		digest(filepath.Join(filepath.Base(dir), filepath.Base(sc.File)), dir, res, err)
	}
	for seed := range seeds {
		sc := randscen.Generate(seed)
		res, err := solver.Solve(ctx, sc.Catalog, sc.Cluster, sc.Request)
		if res != nil {
			res.Stats = model.Stats{} // the work behind an answer may change; the answer may not
		}
		digest("seed "+strconv.FormatUint(seed, 10), "", res, err)
		if seed%5000 == 4999 {
			t.Logf("%d seeds", seed+1)
		}
	}
	t.Logf("digest of %d seeds and every scenario written to %s", seeds, out)
}
