package bench

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/modsolver/modsolver/model"
)

// libsolvService is libsolv as a service built on it runs it (DESIGN.md
// §8): the catalog's releases written once as a .solv repo and loaded
// back into a pool that is held across requests, as such a service loads
// its repos once and modsolver compiles its catalog once. A request then
// costs its pruning (solver.NewDomains, the considered map), its
// installed repo and the releases the catalog does not hold (a built-in
// module's at the request's DKP version, R5), pool_createwhatprovides,
// the jobs, the solve, the transaction and its order; the per-request
// translation of the whole pool (solveLibsolv) is not paid.
type libsolvService struct {
	cat  *model.Catalog
	pool *heldPool
	// index maps each release the pool holds to its solvable, counted
	// from the repo's first.
	index map[*model.Release]int32
	// Build is the time to write the .solv repo and load it back, paid
	// once per catalog.
	Build time.Duration
	// Bytes is the size of the .solv file.
	Bytes int64
}

// newLibsolvService writes cat's releases as a .solv repo in a temporary
// folder, loads it into a held pool and removes the file.
func newLibsolvService(cat *model.Catalog) (*libsolvService, error) {
	if !libsolvBuilt {
		return nil, ErrNoLibsolv
	}
	if err := LibsolvTranslatable(cat); err != nil {
		return nil, err
	}
	start := time.Now()
	s := &libsolvService{cat: cat, index: map[*model.Release]int32{}}
	var in poolInput
	var names []string
	for _, m := range cat.Modules() {
		if m.Embedded {
			continue // its release follows the request's DKP version (R5)
		}
		for _, r := range m.Releases {
			if _, err := writeRelease(&in, &in.available, m, r, func(string) bool { return true }); err != nil {
				return nil, err
			}
			s.index[r] = int32(len(names))
			names = append(names, m.Name+" "+model.VersionString(r.Version))
		}
	}
	dir, err := os.MkdirTemp("", "modsolver-libsolv-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "catalog.solv")
	if s.pool, err = buildHeldPool(&in, path, names); err != nil {
		return nil, err
	}
	if st, err := os.Stat(path); err == nil {
		s.Bytes = st.Size()
	}
	s.Build = time.Since(start)
	return s, nil
}

// solvable is the held solvable of r, if the pool holds r.
func (s *libsolvService) solvable(r *model.Release) (int32, bool) {
	if s == nil {
		return 0, false
	}
	k, ok := s.index[r]
	return k, ok
}

// Solve answers one request on the held pool, timed as the pipeline of a
// service: Prune is NewDomains and the request's closure, Load writing
// the request's repos and considered map and pool_createwhatprovides.
func (s *libsolvService) Solve(ctx context.Context, cluster *model.ClusterState, req *model.Request) (*LibsolvAnswer, error) {
	return libsolvPipeline(ctx, s.cat, cluster, req, s)
}

// Close frees the held pool.
func (s *libsolvService) Close() {
	if s != nil && s.pool != nil {
		s.pool.free()
		s.pool = nil
	}
}
