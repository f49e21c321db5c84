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

static ms_pool *ms_load(const char *strs, int nstrs, const int *inst, int ninst, const int *avail, int navail) {
	ms_pool *mp = calloc(1, sizeof *mp);
	mp->pool = pool_create();
	pool_setdisttype(mp->pool, DISTTYPE_RPM);
	mp->strs = malloc(sizeof(Id) * (nstrs > 0 ? nstrs : 1));
	for (int i = 0; i < nstrs; i++) {
		size_t l = strlen(strs);
		mp->strs[i] = pool_strn2id(mp->pool, strs, l, 1);
		strs += l + 1;
	}
	Repo *installed = repo_create(mp->pool, "installed");
	pool_set_installed(mp->pool, installed);
	ms_add(mp, installed, inst, ninst);
	ms_add(mp, repo_create(mp->pool, "available"), avail, navail);
	pool_createwhatprovides(mp->pool);
	return mp;
}

// ms_solve runs the jobs, (kind, string) pairs of bench's jobKind, and
// returns the number of problems.
static int ms_solve(ms_pool *mp, const int *jobs, int njobs) {
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
		Id what = (how[jobs[k]] & SOLVER_SELECTMASK) == SOLVER_SOLVABLE_ALL ? 0 : mp->strs[jobs[k + 1]];
		queue_push2(&q, how[jobs[k]], what);
	}
	mp->solv = solver_create(mp->pool);
	int problems = solver_solve(mp->solv, &q);
	queue_free(&q);
	return problems;
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
	"time"
	"unsafe"
)

const libsolvBuilt = true

// runPool loads in into a new libsolv pool, solves its jobs and, when
// there is an answer, makes the ordered transaction. written is the time
// spent writing in, which counts as loading.
func runPool(in *poolInput, written time.Duration) (*poolOutput, error) {
	out := &poolOutput{}
	start := time.Now()
	mp := C.ms_load(cBytes(in.strs), C.int(len(in.index)), cInts(in.installed), C.int(len(in.installed)),
		cInts(in.available), C.int(len(in.available)))
	defer C.ms_free(mp)
	solving := time.Now()
	problems := int(C.ms_solve(mp, cInts(in.jobs), C.int(len(in.jobs))))
	solved := time.Now()
	out.timing.Load = written + solving.Sub(start)
	out.timing.Solve = solved.Sub(solving)
	if problems > 0 {
		for id := 1; id <= problems; id++ {
			out.problems = append(out.problems, C.GoString(C.ms_problem(mp, C.int(id))))
		}
		return out, nil
	}
	out.steps = int(C.ms_transact(mp))
	out.timing.Transaction = time.Since(solved)
	chosen := make([]int8, int(mp.n))
	if len(chosen) > 0 {
		C.ms_decisions(mp, (*C.schar)(unsafe.Pointer(&chosen[0])))
	}
	out.chosen = make([]bool, len(chosen))
	for k, c := range chosen {
		out.chosen[k] = c != 0
	}
	return out, nil
}

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
