package solver_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// exampleCatalog is the catalog of the examples: cert-manager 1.1.0 and
// 1.2.0, and prometheus, whose 2.0.0 requires cert-manager >= 1.1 and
// whose 2.1.0 requires cert-manager >= 1.2. ExampleCompile builds the
// same catalog step by step.
func exampleCatalog() *model.Catalog {
	release := func(version, requires string) *model.Release {
		r := &model.Release{Version: model.MustParseVersion(version)}
		if requires != "" {
			c, err := model.ParseConstraint(requires)
			if err != nil {
				log.Fatal(err)
			}
			r.Requirements.Modules = []model.Dependency{{Module: "cert-manager", Constraint: c}}
		}
		return r
	}
	cat, err := model.NewCatalog([]*model.Module{
		{Name: "cert-manager", Releases: []*model.Release{release("1.1.0", ""), release("1.2.0", "")}},
		{Name: "prometheus", Releases: []*model.Release{release("2.0.0", ">= 1.1"), release("2.1.0", ">= 1.2")}},
	})
	if err != nil {
		log.Fatal(err)
	}
	return cat
}

// exampleCluster runs Kubernetes 1.30.2 and cert-manager 1.1.0.
func exampleCluster() *model.ClusterState {
	enabled := true
	return &model.ClusterState{
		Kubernetes: model.MustParseVersion("1.30.2"),
		Modules: map[string]model.ModuleState{
			"cert-manager": {Enabled: &enabled, Version: model.MustParseVersion("1.1.0")},
		},
	}
}

// printModules prints what the answer does to each module, in the
// answer's order (by name).
func printModules(res *model.Result) {
	fmt.Println(res.Status)
	for _, m := range res.Modules {
		fmt.Printf("%s: %s %s -> %s\n", m.Name, m.Action, or(m.FromVersion, "-"), or(m.ToVersion, "-"))
	}
}

func or(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// Compile a catalog once, when it is loaded, and answer every request on
// the compiled catalog. A request enables prometheus, whose newest
// release requires a newer cert-manager than the cluster runs: with
// cert-manager in the update set, the answer installs one and updates
// the other.
func ExampleCompile() {
	// Two modules: prometheus requires cert-manager.
	certManager := &model.Module{Name: "cert-manager", Releases: []*model.Release{
		{Version: model.MustParseVersion("1.1.0")},
		{Version: model.MustParseVersion("1.2.0")},
	}}
	prometheus := &model.Module{Name: "prometheus"}
	for _, r := range []struct{ version, requires string }{{"2.0.0", ">= 1.1"}, {"2.1.0", ">= 1.2"}} {
		c, err := model.ParseConstraint(r.requires)
		if err != nil {
			log.Fatal(err)
		}
		rel := &model.Release{Version: model.MustParseVersion(r.version)}
		rel.Requirements.Modules = []model.Dependency{{Module: "cert-manager", Constraint: c}}
		prometheus.Releases = append(prometheus.Releases, rel)
	}
	cat, err := model.NewCatalog([]*model.Module{certManager, prometheus})
	if err != nil {
		log.Fatal(err)
	}

	// Compile once; the compiled catalog serves any number of requests,
	// on any number of goroutines.
	compiled, err := solver.Compile(cat)
	if err != nil {
		log.Fatal(err)
	}

	// The cluster runs cert-manager 1.1.0.
	enabled := true
	cluster := &model.ClusterState{
		Kubernetes: model.MustParseVersion("1.30.2"),
		Modules: map[string]model.ModuleState{
			"cert-manager": {Enabled: &enabled, Version: model.MustParseVersion("1.1.0")},
		},
	}
	req := &model.Request{Enable: []string{"prometheus"}, Update: []string{"cert-manager"}}

	res, err := compiled.Solve(context.Background(), cluster, req)
	if err != nil {
		log.Fatal(err) // bad input: an error that wraps model.ErrInvalidInput
	}
	printModules(res)
	// Output:
	// resolved
	// cert-manager: update 1.1.0 -> 1.2.0
	// prometheus: install - -> 2.1.0
}

// Solve answers a request on a compiled catalog. Without cert-manager in
// the update set, the cluster keeps cert-manager 1.1.0, so prometheus
// is installed at 2.0.0, the newest release that 1.1.0 satisfies. The
// plan orders the steps: a module after the modules it requires (R18).
func ExampleCompiled_Solve() {
	compiled, err := solver.Compile(exampleCatalog())
	if err != nil {
		log.Fatal(err)
	}
	res, err := compiled.Solve(context.Background(), exampleCluster(), &model.Request{Enable: []string{"prometheus"}})
	if err != nil {
		log.Fatal(err)
	}
	printModules(res)
	for i, step := range res.Plan {
		fmt.Printf("step %d: %s %s %s\n", i+1, step.Action, step.Module, step.ToVersion)
	}
	// Output:
	// resolved
	// cert-manager: keep 1.1.0 -> 1.1.0
	// prometheus: install - -> 2.0.0
	// step 1: keep cert-manager 1.1.0
	// step 2: install prometheus 2.0.0
}

// A request that cannot be met is no error: the result is unsatisfiable
// and its explanation lists the facts that together leave no answer.
func ExampleCompiled_Solve_unsatisfiable() {
	compiled, err := solver.Compile(exampleCatalog())
	if err != nil {
		log.Fatal(err)
	}
	req := &model.Request{Enable: []string{"prometheus"}, Disable: []string{"cert-manager"}}
	res, err := compiled.Solve(context.Background(), exampleCluster(), req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status)
	for _, f := range res.Explanation.Facts {
		fmt.Println("-", f.Message)
	}
	// Output:
	// unsatisfiable
	// - the request disables cert-manager
	// - the request enables prometheus
	// - prometheus 2.0.0 requires cert-manager >= 1.1
	// - prometheus 2.1.0 requires cert-manager >= 1.2 (cert-manager runs 1.1.0)
}

// The package-level Solve compiles the catalog on first use and keeps
// the compiled tables with it, so later calls on the same catalog reuse
// them. Here it updates every enabled module.
func ExampleSolve() {
	res, err := solver.Solve(context.Background(), exampleCatalog(), exampleCluster(), &model.Request{UpdateAll: true})
	if err != nil {
		log.Fatal(err)
	}
	printModules(res)
	// Output:
	// resolved
	// cert-manager: update 1.1.0 -> 1.2.0
}
