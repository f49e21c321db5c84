//go:build libsolv && cgo

package bench

/*
#cgo LDFLAGS: -lsolv
#include <stdlib.h>
#include <string.h>
#include <solv/pool.h>
#include <solv/poolarch.h>
#include <solv/repo.h>
#include <solv/solver.h>
#include <solv/solverdebug.h>
#include <solv/transaction.h>
#include <solv/evr.h>
#include <solv/repo_solv.h>
#include <solv/repo_write.h>
#include <solv/bitmap.h>

// ms_pool is one loaded pool and what was computed on it.
typedef struct {
	Pool *pool;
	Solver *solv;
	Transaction *trans;
	Id *strs;  // string index -> pool id
	Id first;  // the first solvable loaded; the others follow it
	int n;     // the number of solvables loaded
} ms_pool;

// ms_dep reads one dependency at prog[*at]: a name, a count and that many
// (flags, evr) pairs, joined by REL_WITH.
static Id ms_dep(ms_pool *mp, const int *prog, int *at) {
	Id name = mp->strs[prog[(*at)++]];
	int n = prog[(*at)++];
	Id dep = 0;
	for (int k = 0; k < n; k++) {
		int flags = prog[(*at)++];
		Id rel = pool_rel2id(mp->pool, name, mp->strs[prog[(*at)++]], flags, 1);
		dep = dep ? pool_rel2id(mp->pool, dep, rel, REL_WITH, 1) : rel;
	}
	return dep ? dep : name;
}

// ms_deps reads a count and that many dependencies onto list.
static Offset ms_deps(ms_pool *mp, Repo *repo, Offset list, const int *prog, int *at) {
	int n = prog[(*at)++];
	for (int k = 0; k < n; k++)
		list = repo_addid_dep(repo, list, ms_dep(mp, prog, at), 0);
	return list;
}

// ms_add reads the solvables of one repo.
static void ms_add(ms_pool *mp, Repo *repo, const int *prog, int len) {
	int at = 0;
	while (at < len) {
		Id p = repo_add_solvable(repo);
		if (mp->n++ == 0)
			mp->first = p;
		Solvable *s = pool_id2solvable(mp->pool, p);
		s->name = mp->strs[prog[at++]];
		s->evr = mp->strs[prog[at++]];
		s->arch = ARCH_NOARCH;
		s->provides = repo_addid_dep(repo, 0, pool_rel2id(mp->pool, s->name, s->evr, REL_EQ, 1), 0);
		s->provides = ms_deps(mp, repo, s->provides, prog, &at);
		s->requires = ms_deps(mp, repo, 0, prog, &at);
		s->conflicts = ms_deps(mp, repo, 0, prog, &at);
	}
	repo_internalize(repo);
}

// ms_strings maps the NUL-terminated strings of strs to pool ids.
static Id *ms_strings(Pool *pool, const char *strs, int nstrs) {
	Id *ids = malloc(sizeof(Id) * (nstrs > 0 ? nstrs : 1));
	for (int i = 0; i < nstrs; i++) {
		size_t l = strlen(strs);
		ids[i] = pool_strn2id(pool, strs, l, 1);
		strs += l + 1;
	}
	return ids;
}

static ms_pool *ms_load(const char *strs, int nstrs, const int *inst, int ninst, const int *avail, int navail) {
	ms_pool *mp = calloc(1, sizeof *mp);
	mp->pool = pool_create();
	pool_setdisttype(mp->pool, DISTTYPE_RPM);
	mp->strs = ms_strings(mp->pool, strs, nstrs);
	Repo *installed = repo_create(mp->pool, "installed");
	pool_set_installed(mp->pool, installed);
	ms_add(mp, installed, inst, ninst);
	ms_add(mp, repo_create(mp->pool, "available"), avail, navail);
	pool_createwhatprovides(mp->pool);
	return mp;
}

// ms_jobs runs the jobs, (kind, string) pairs of bench's jobKind, on a
// new solver of pool, and returns the number of problems.
static int ms_jobs(Pool *pool, Id *strs, Solver **solv, const int *jobs, int njobs) {
	static const Id how[] = {0,
		SOLVER_INSTALL | SOLVER_SOLVABLE_NAME,
		SOLVER_LOCK | SOLVER_SOLVABLE_NAME,
		SOLVER_UPDATE | SOLVER_SOLVABLE_NAME,
		SOLVER_UPDATE | SOLVER_SOLVABLE_ALL,
		SOLVER_VERIFY | SOLVER_SOLVABLE_ALL,
	};
	Queue q;
	queue_init(&q);
	for (int k = 0; k + 1 < njobs; k += 2) {
		Id what = (how[jobs[k]] & SOLVER_SELECTMASK) == SOLVER_SOLVABLE_ALL ? 0 : strs[jobs[k + 1]];
		queue_push2(&q, how[jobs[k]], what);
	}
	*solv = solver_create(pool);
	int problems = solver_solve(*solv, &q);
	queue_free(&q);
	return problems;
}

static int ms_solve(ms_pool *mp, const int *jobs, int njobs) {
	return ms_jobs(mp->pool, mp->strs, &mp->solv, jobs, njobs);
}

// ms_held is a pool held across requests, as a service built on libsolv
// holds its repos: the catalog's solvables in one repo read from .solv.
typedef struct {
	Pool *pool;
	Id first;
	int n;
} ms_held;

// ms_held_build writes the solvables of avail as a .solv repo at path,
// then loads it into a new pool; NULL when the file cannot be written or
// read.
static ms_held *ms_held_build(const char *strs, int nstrs, const int *avail, int navail, const char *path) {
	ms_pool w = {0};
	w.pool = pool_create();
	pool_setdisttype(w.pool, DISTTYPE_RPM);
	w.strs = ms_strings(w.pool, strs, nstrs);
	Repo *repo = repo_create(w.pool, "catalog");
	ms_add(&w, repo, avail, navail);
	FILE *fp = fopen(path, "w");
	int bad = !fp || repo_write(repo, fp) != 0;
	if (fp && fclose(fp) != 0)
		bad = 1;
	pool_free(w.pool);
	free(w.strs);
	if (bad)
		return NULL;
	ms_held *h = calloc(1, sizeof *h);
	h->pool = pool_create();
	pool_setdisttype(h->pool, DISTTYPE_RPM);
	Repo *cat = repo_create(h->pool, "catalog");
	fp = fopen(path, "r");
	if (!fp || repo_add_solv(cat, fp, 0) != 0) {
		if (fp)
			fclose(fp);
		pool_free(h->pool);
		free(h);
		return NULL;
	}
	fclose(fp);
	h->first = cat->start;
	h->n = cat->end - cat->start;
	return h;
}

// ms_held_name is the "name evr" of held solvable k, to check the repo
// read back.
static const char *ms_held_name(ms_held *h, int k) {
	Solvable *s = pool_id2solvable(h->pool, h->first + k);
	return pool_tmpjoin(h->pool, pool_id2str(h->pool, s->name), " ", pool_id2str(h->pool, s->evr));
}

// ms_req is one request on a held pool: its installed repo, the repo of
// its own releases, the considered map, and what was computed on them.
typedef struct {
	ms_held *h;
	ms_pool own;     // the installed repo's solvables
	ms_pool extra;   // the request's own releases
	Repo *installed, *repo;
	Map considered;
	const int *cons;
	int ncons;
	Solver *solv;
	Transaction *trans;
} ms_req;

// ms_req_load adds the request's repos to the held pool, sets the
// considered map (the held solvables cons names, and the request's own)
// and makes the provides index.
static ms_req *ms_req_load(ms_held *h, const char *strs, int nstrs, const int *inst, int ninst,
		const int *avail, int navail, const int *cons, int ncons) {
	ms_req *q = calloc(1, sizeof *q);
	q->h = h;
	int *own = malloc(sizeof(int) * (ncons > 0 ? ncons : 1)); // Go's memory is C's for the call only
	if (ncons > 0)
		memcpy(own, cons, sizeof(int) * ncons);
	q->cons = own;
	q->ncons = ncons;
	Id *ids = ms_strings(h->pool, strs, nstrs);
	q->own.pool = q->extra.pool = h->pool;
	q->own.strs = q->extra.strs = ids;
	q->installed = repo_create(h->pool, "installed");
	ms_add(&q->own, q->installed, inst, ninst);
	q->repo = repo_create(h->pool, "request");
	ms_add(&q->extra, q->repo, avail, navail);
	pool_set_installed(h->pool, q->installed);
	map_init(&q->considered, h->pool->nsolvables);
	for (int k = 0; k < ncons; k++)
		MAPSET(&q->considered, h->first + cons[k]);
	for (int k = 0; k < q->own.n; k++)
		MAPSET(&q->considered, q->own.first + k);
	for (int k = 0; k < q->extra.n; k++)
		MAPSET(&q->considered, q->extra.first + k);
	h->pool->considered = &q->considered;
	pool_createwhatprovides(h->pool);
	return q;
}

static int ms_req_solve(ms_req *q, const int *jobs, int njobs) {
	return ms_jobs(q->h->pool, q->own.strs, &q->solv, jobs, njobs);
}

static int ms_req_transact(ms_req *q) {
	q->trans = solver_create_transaction(q->solv);
	transaction_order(q->trans, 0);
	return q->trans->steps.count;
}

static const char *ms_req_problem(ms_req *q, int id) {
	return solver_problem2str(q->solv, id);
}

// ms_req_decisions marks, in the order the request's solvables were
// given (installed, its own, then the held ones it considers), each one
// the answer installs.
static void ms_req_decisions(ms_req *q, signed char *out) {
	int at = 0;
	for (int k = 0; k < q->own.n; k++)
		out[at++] = solver_get_decisionlevel(q->solv, q->own.first + k) > 0;
	for (int k = 0; k < q->extra.n; k++)
		out[at++] = solver_get_decisionlevel(q->solv, q->extra.first + k) > 0;
	for (int k = 0; k < q->ncons; k++)
		out[at++] = solver_get_decisionlevel(q->solv, q->h->first + q->cons[k]) > 0;
}

// ms_req_free takes the request's repos and map away from the held pool,
// the newest repo first, so that their solvable ids are reused.
static void ms_req_free(ms_req *q) {
	Pool *pool = q->h->pool;
	if (q->trans)
		transaction_free(q->trans);
	if (q->solv)
		solver_free(q->solv);
	pool->considered = 0;
	map_free(&q->considered);
	pool_set_installed(pool, 0);
	repo_free(q->repo, 1);
	repo_free(q->installed, 1);
	free(q->own.strs);
	free((void *)q->cons);
	free(q);
}

static void ms_held_free(ms_held *h) {
	pool_free(h->pool);
	free(h);
}

// ms_transact makes the transaction and orders it; it returns its steps.
static int ms_transact(ms_pool *mp) {
	mp->trans = solver_create_transaction(mp->solv);
	transaction_order(mp->trans, 0);
	return mp->trans->steps.count;
}

// ms_decisions marks each solvable loaded that the answer installs.
static void ms_decisions(ms_pool *mp, signed char *out) {
	for (int k = 0; k < mp->n; k++)
		out[k] = solver_get_decisionlevel(mp->solv, mp->first + k) > 0;
}

static const char *ms_problem(ms_pool *mp, int id) {
	return solver_problem2str(mp->solv, id);
}

static void ms_free(ms_pool *mp) {
	if (mp->trans)
		transaction_free(mp->trans);
	if (mp->solv)
		solver_free(mp->solv);
	pool_free(mp->pool);
	free(mp->strs);
	free(mp);
}

// ms_evrcmp compares two evrs as the pool of ms_load does.
static int ms_evrcmp(const char *a, const char *b) {
	Pool *pool = pool_create();
	pool_setdisttype(pool, DISTTYPE_RPM);
	int c = pool_evrcmp_str(pool, a, b, EVRCMP_COMPARE);
	pool_free(pool);
	return c;
}
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"
)

const libsolvBuilt = true

// runPool loads in into a new libsolv pool, solves its jobs and, when
// there is an answer, makes the ordered transaction. written is the time
// spent writing in, which counts as loading.
func runPool(in *poolInput, written time.Duration) (*poolOutput, error) {
	start := time.Now()
	mp := C.ms_load(cBytes(in.strs), C.int(len(in.index)), cInts(in.installed), C.int(len(in.installed)),
		cInts(in.available), C.int(len(in.available)))
	defer C.ms_free(mp)
	return poolSteps{
		solve:    func() int { return int(C.ms_solve(mp, cInts(in.jobs), C.int(len(in.jobs)))) },
		problem:  func(id int) string { return C.GoString(C.ms_problem(mp, C.int(id))) },
		transact: func() int { return int(C.ms_transact(mp)) },
		decided:  func() []bool { return decided(int(mp.n), func(to *C.schar) { C.ms_decisions(mp, to) }) },
	}.run(written + time.Since(start)), nil
}

// poolSteps are what follows loading a pool, held or not: the solve, its
// problems when it has any, else the ordered transaction and which
// solvables it installs.
type poolSteps struct {
	solve    func() int // the number of problems
	problem  func(id int) string
	transact func() int // the number of steps
	decided  func() []bool
}

// run takes the steps in order and times them; loaded is the time spent
// loading.
func (st poolSteps) run(loaded time.Duration) *poolOutput {
	out := &poolOutput{}
	out.timing.Load = loaded
	solving := time.Now()
	problems := st.solve()
	solved := time.Now()
	out.timing.Solve = solved.Sub(solving)
	if problems > 0 {
		for id := 1; id <= problems; id++ {
			out.problems = append(out.problems, st.problem(id))
		}
		return out
	}
	out.steps = st.transact()
	out.timing.Transaction = time.Since(solved)
	out.chosen = st.decided()
	return out
}

// decided reads the n flags write sets, one a solvable in load order:
// whether the answer installs it.
func decided(n int, write func(*C.schar)) []bool {
	flags := make([]int8, n)
	if n > 0 {
		write((*C.schar)(unsafe.Pointer(&flags[0])))
	}
	out := make([]bool, n)
	for k, f := range flags {
		out[k] = f != 0
	}
	return out
}

// heldPool is a libsolv pool held across requests (libsolvService).
type heldPool struct {
	h *C.ms_held
}

// buildHeldPool writes the solvables of in.available as a .solv repo at
// path and loads it back into a held pool, checking that it holds
// names ("name evr") in order.
func buildHeldPool(in *poolInput, path string, names []string) (*heldPool, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	h := C.ms_held_build(cBytes(in.strs), C.int(len(in.index)), cInts(in.available), C.int(len(in.available)), cpath)
	if h == nil {
		return nil, fmt.Errorf("libsolv: cannot write and read back %s", path)
	}
	hp := &heldPool{h: h}
	if int(h.n) != len(names) {
		hp.free()
		return nil, fmt.Errorf("libsolv: the .solv repo read back holds %d solvables, not %d", int(h.n), len(names))
	}
	for k, want := range names {
		if got := C.GoString(C.ms_held_name(h, C.int(k))); got != want {
			hp.free()
			return nil, fmt.Errorf("libsolv: the .solv repo read back holds %q at %d, not %q", got, k, want)
		}
	}
	return hp, nil
}

// run answers one request on the held pool: in holds its installed repo,
// its own releases and its jobs, considered the held solvables it allows;
// written is the time spent writing them, which counts as loading.
func (hp *heldPool) run(in *poolInput, considered []int32, written time.Duration) (*poolOutput, error) {
	start := time.Now()
	q := C.ms_req_load(hp.h, cBytes(in.strs), C.int(len(in.index)), cInts(in.installed), C.int(len(in.installed)),
		cInts(in.available), C.int(len(in.available)), cInts(considered), C.int(len(considered)))
	defer C.ms_req_free(q)
	n := int(q.own.n) + int(q.extra.n) + len(considered)
	return poolSteps{
		solve:    func() int { return int(C.ms_req_solve(q, cInts(in.jobs), C.int(len(in.jobs)))) },
		problem:  func(id int) string { return C.GoString(C.ms_req_problem(q, C.int(id))) },
		transact: func() int { return int(C.ms_req_transact(q)) },
		decided:  func() []bool { return decided(n, func(to *C.schar) { C.ms_req_decisions(q, to) }) },
	}.run(written + time.Since(start)), nil
}

func (hp *heldPool) free() { C.ms_held_free(hp.h) }

// libsolvCompare compares two evrs as libsolv does in the pools runPool
// loads.
func libsolvCompare(a, b string) int {
	ca, cb := C.CString(a), C.CString(b)
	defer C.free(unsafe.Pointer(ca))
	defer C.free(unsafe.Pointer(cb))
	return int(C.ms_evrcmp(ca, cb))
}

// cInts passes s to C for the length of one call: it holds no Go
// pointers, so cgo lets C read it in place.
func cInts(s []int32) *C.int {
	if len(s) == 0 {
		return nil
	}
	return (*C.int)(unsafe.Pointer(&s[0]))
}

func cBytes(s []byte) *C.char {
	if len(s) == 0 {
		return nil
	}
	return (*C.char)(unsafe.Pointer(&s[0]))
}
