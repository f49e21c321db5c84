package solver

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
)

func TestCompileNil(t *testing.T) {
	_, err := Compile(nil)
	require.ErrorIs(t, err, model.ErrInvalidInput)
	_, err = Solve(context.Background(), nil, &model.ClusterState{}, &model.Request{})
	require.ErrorIs(t, err, model.ErrInvalidInput)
}

// A view built lazily computes the same allowed filter as one whose
// static facts are made at once, and the facts it makes later are the
// same, in the same order: the fast encoding reads only the filter, and
// explanations read the facts.
func TestLazyStaticsMatchEager(t *testing.T) {
	for _, sc := range scenariotest.All(t, "..") {
		if validate(sc.Catalog, sc.Cluster, sc.Request) != nil {
			continue
		}
		c := compiledFor(sc.Catalog)
		lazy, eager := newProblem(c, sc.Cluster, sc.Request), newProblem(c, sc.Cluster, sc.Request)
		lazy.lazyStatics = true
		lazyViews, eagerViews := lazy.closure(true), eager.closure(true)
		require.Len(t, lazyViews, len(eagerViews), sc.File)
		for i, lv := range lazyViews {
			ev := eagerViews[i]
			assert.Equal(t, ev.allowed, lv.allowed, "%s: %s", sc.File, lv.name)
			assert.False(t, lv.factsMade, "%s: %s: made before anything read them", sc.File, lv.name)
			lf, ef := lv.staticFacts(), ev.staticFacts()
			require.Len(t, lf, len(ef), "%s: %s", sc.File, lv.name)
			for k := range lf {
				assert.Equal(t, ef[k].kind, lf[k].kind, "%s: %s", sc.File, lv.name)
				assert.Equal(t, ef[k].rels, lf[k].rels, "%s: %s", sc.File, lv.name)
				assert.Equal(t, ef[k].dep, lf[k].dep, "%s: %s", sc.File, lv.name)
			}
			assert.Equal(t, ev.allowed, lv.allowed, "%s: %s: making the facts changes no filter", sc.File, lv.name)
		}
		for _, v := range lazy.views { // views read outside the closure too
			v.staticFacts()
		}
		assert.Equal(t, kindsOf(ordered(eager.store.facts)), kindsOf(ordered(lazy.store.facts)), "%s: facts made late take their place", sc.File)
	}
}

// ordered returns facts in factOrder, the order explanations try them in.
func ordered(facts []*fact) []*fact { return slices.SortedStableFunc(slices.Values(facts), factOrder) }

func kindsOf(facts []*fact) []string {
	out := make([]string, len(facts))
	for i, f := range facts {
		out[i] = fmt.Sprint(f.kind, " ", f.v.name)
	}
	return out
}

// One compiled catalog answers from many goroutines at once, as serve
// uses it (run with -race), each answer the one Solve gives.
func TestCompiledSharedByGoroutines(t *testing.T) {
	ctx := context.Background()
	var scs []scenariotest.Scenario
	for _, sc := range scenariotest.All(t, "..") {
		if validate(sc.Catalog, sc.Cluster, sc.Request) == nil {
			scs = append(scs, sc)
		}
	}
	require.NotEmpty(t, scs)
	want := make([]*model.Result, len(scs))
	compiled := make([]*Compiled, len(scs))
	for i, sc := range scs {
		var err error
		compiled[i], err = Compile(sc.Catalog)
		require.NoError(t, err)
		want[i], err = Solve(ctx, sc.Catalog, sc.Cluster, sc.Request)
		require.NoError(t, err)
		want[i].Stats = model.Stats{}
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, sc := range scs {
				got, err := compiled[i].Solve(ctx, sc.Cluster, sc.Request)
				if !assert.NoError(t, err, sc.File) {
					return
				}
				got.Stats = model.Stats{}
				assert.Equal(t, want[i], got, sc.File)
			}
		}()
	}
	wg.Wait()
}

// D221: the tables are kept with their catalog, not in a cache of the
// package: requests on one catalog share them, another catalog has its
// own, and a catalog nobody holds any more is collected with its tables.
func TestCompiledTablesGoWithTheCatalog(t *testing.T) {
	newCatalog := func() *model.Catalog {
		cat, err := model.NewCatalog([]*model.Module{fixture.Module("a", fixture.Versions("1.0.0", "1.1.0"))})
		require.NoError(t, err)
		_, err = Solve(context.Background(), cat, fixture.Cluster(nil), &model.Request{Enable: []string{"a"}})
		require.NoError(t, err)
		return cat
	}
	a, b := newCatalog(), newCatalog()
	assert.Same(t, compiledFor(a).t, compiledFor(a).t, "one catalog, one compilation")
	assert.NotSame(t, compiledFor(a).t, compiledFor(b).t)
	c, err := Compile(a)
	require.NoError(t, err)
	assert.Same(t, compiledFor(a).t, c.t, "Compile keeps the tables held already")

	var gone []weak.Pointer[model.Catalog]
	for range 5 {
		gone = append(gone, weak.Make(newCatalog()))
	}
	collected := func() int {
		n := 0
		for _, w := range gone {
			if w.Value() == nil {
				n++
			}
		}
		return n
	}
	for range 10 {
		if collected() == len(gone) {
			break
		}
		runtime.GC()
	}
	assert.Equal(t, len(gone), collected(), "nothing outside a catalog holds it")
}

// The compiled per-module readings are the model's own, for every module
// and source of every catalog, built-in modules included: requests read
// them instead of scanning the releases.
func TestCompiledModuleReadings(t *testing.T) {
	checked := 0
	eachProblem(t, func(name string, cat *model.Catalog, _ *model.ClusterState, _ *model.Request) {
		for m, mt := range compiledFor(cat).t.mods {
			assert.Equal(t, m.HasCapabilityRequirements(), mt.capabilities, "%s: %s", name, m.Name)
			assert.Equal(t, m.Policy(), mt.policy, "%s: %s", name, m.Name)
			checked++
		}
	})
	assert.Greater(t, checked, 1000)
}

// D222: what a module's releases name, as compiled, is what the closure
// pushes when it walks every release, for every module of every catalog.
func TestCompiledNamesAreTheReleasesNames(t *testing.T) {
	checked, named := 0, 0
	eachProblem(t, func(name string, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) {
		p := newProblem(compiledFor(cat), cluster, req)
		for m, mt := range p.in.compiled.t.mods {
			if m.Embedded {
				continue // its one release is made per request (R5)
			}
			walked := map[string]bool{}
			boundless := false
			push := func(n string) { walked[n] = true }
			for _, r := range m.Releases {
				for _, d := range r.Requirements.Modules {
					push(d.Module)
				}
				for _, c := range r.Requirements.Capabilities {
					for _, n := range cat.Providers(c) {
						push(n)
					}
				}
				for _, c := range r.Requirements.Compound {
					if _, bounded := p.compoundModules(c.Target()); !bounded {
						boundless = true
						continue
					}
					for _, n := range p.mayMeet(c.Target()) {
						push(n)
					}
				}
			}
			assert.Equal(t, slices.Sorted(maps.Keys(walked)), slices.Clip(append([]string(nil), mt.named...)), "%s: %s", name, m.Name)
			assert.Equal(t, boundless, mt.boundless, "%s: %s", name, m.Name)
			checked++
			named += len(mt.named)
		}
	})
	assert.Greater(t, checked, 1000)
	assert.Greater(t, named, 1000)
}
