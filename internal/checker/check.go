package checker

import (
	"fmt"
	"maps"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// Check verifies a resolved answer against R1–R13, R18 and R19–R26, and
// the shape of DESIGN.md §3, and returns every violation found, sorted. No
// violations (a nil slice) means the answer is consistent. For an unsatisfiable
// answer it checks only the shape: an explanation with at least one fact
// (CheckExplanation), and no module claimed to be enabled afterwards.
//
// The inputs are assumed valid (model's Validate methods pass); a nil
// request is an empty one.
func Check(cat *model.Catalog, cluster *model.ClusterState, req *model.Request, res *model.Result) []Violation {
	if req == nil {
		req = &model.Request{}
	}
	c := newChecker(cat, cluster, req, res)
	switch res.Status {
	case model.StatusResolved:
		c.checkResolved()
	case model.StatusUnsatisfiable:
		c.checkUnsatisfiable()
	default:
		c.add(RuleShape, "", "status is %s: want resolved or unsatisfiable", res.Status)
	}
	sortViolations(c.out)
	return c.out
}

// checker holds one answer under check and the violations found so far.
type checker struct {
	cat     *model.Catalog
	cluster *model.ClusterState
	req     *model.Request
	res     *model.Result
	// dkp and kube are the effective platform versions: the request's
	// candidates if set (R12), else the cluster's.
	dkp, kube model.Version
	// results holds the answer's modules by name (the first of duplicates).
	results map[string]model.ModuleResult
	// on holds every catalog module enabled after, at its version; the
	// version is nil when the answer's text is not a version.
	on map[string]model.Version
	// provided indexes capabilities by the enabled modules that provide
	// them (extended.go), built on first use.
	provided map[string][]string
	names    []string // enabledNames, once built
	out      []Violation
}

func newChecker(cat *model.Catalog, cluster *model.ClusterState, req *model.Request, res *model.Result) *checker {
	c := &checker{
		cat: cat, cluster: cluster, req: req, res: res,
		dkp:     orElse(req.Platform.Deckhouse, cluster.Deckhouse),
		kube:    orElse(req.Platform.Kubernetes, cluster.Kubernetes),
		results: make(map[string]model.ModuleResult, len(res.Modules)),
		on:      make(map[string]model.Version, len(res.Modules)),
	}
	c.readAfter()
	return c
}

func orElse(v, fallback model.Version) model.Version {
	if v != nil {
		return v
	}
	return fallback
}

func (c *checker) add(rule, module, format string, args ...any) {
	c.out = append(c.out, Violation{Rule: rule, Module: module, Message: fmt.Sprintf(format, args...)})
}

// readAfter derives the state after the answer from its modules. A module
// the cluster enables but the answer leaves out is a shape violation; it
// is taken to stay at its deployed version, so that the omission is not
// reported again by every rule.
func (c *checker) readAfter() {
	for _, r := range c.res.Modules {
		if _, dup := c.results[r.Name]; dup {
			continue
		}
		c.results[r.Name] = r
		if enables(r.Action) && c.module(r.Name) != nil {
			c.on[r.Name] = parseVersion(r.ToVersion)
		}
	}
	if c.res.Status != model.StatusResolved {
		return
	}
	kept := 0
	for _, name := range c.runningNames() {
		m := c.module(name)
		if _, listed := c.results[name]; listed || m == nil {
			continue
		}
		v, ok := c.cluster.Deployed(m)
		if !c.req.ChangesOnly() {
			c.add(RuleShape, name, "running module missing from result: the cluster runs it")
		}
		if ok {
			c.on[name] = v
			kept++
		}
	}
	c.checkUnchanged(kept)
}

// runningNames lists, sorted, the modules that run before the request:
// those the cluster enables, and the built-in modules it does not
// configure that run by their bundle default (D128).
func (c *checker) runningNames() []string {
	var out []string
	for _, name := range c.cluster.ModuleNames() {
		if c.cluster.Modules[name].On() {
			out = append(out, name)
		}
	}
	for _, m := range c.cat.Modules() {
		if _, runs := c.cluster.Deployed(m); runs && !c.cluster.Modules[m.Name].Configured() {
			out = append(out, m.Name) // built in, on by its bundle default (D128, R29)
		}
	}
	slices.Sort(out)
	return out
}

// checkUnchanged checks an answer that lists the changes only (report:
// changes): every module it lists changes, and stats.unchanged counts the
// kept modules it leaves out. A module the cluster enables and the answer
// leaves out is taken to stay at its deployed version.
func (c *checker) checkUnchanged(kept int) {
	if !c.req.ChangesOnly() {
		if c.res.Stats.Unchanged != 0 {
			c.add(RuleShape, "", "stats.unchanged is %d: want 0 when every module is listed", c.res.Stats.Unchanged)
		}
		return
	}
	for _, r := range c.res.Modules {
		if !r.Action.Changes() {
			c.add(RuleShape, r.Name, "action %s listed with report changes: want changes only", r.Action)
		}
	}
	if c.res.Stats.Unchanged != kept {
		c.add(RuleShape, "", "stats.unchanged is %d: %d enabled modules are left out as kept", c.res.Stats.Unchanged, kept)
	}
}

// enables reports whether a module with action a is enabled afterwards.
func enables(a model.Action) bool {
	switch a {
	case model.ActionInstall, model.ActionUpdate, model.ActionKeep, model.ActionDowngrade:
		return true
	}
	return false
}

// parseVersion reads a version of the answer, or returns nil.
func parseVersion(text string) model.Version {
	if text == "" {
		return nil
	}
	v, err := model.ParseVersion(text)
	if err != nil {
		return nil
	}
	return v
}

// enabledNames lists the modules enabled after, sorted. The answer does
// not change during a check, so the list is built once.
func (c *checker) enabledNames() []string {
	if c.names == nil {
		c.names = slices.Sorted(maps.Keys(c.on))
	}
	return c.names
}

// pinned returns the request's pin of name, or nil.
func (c *checker) pinned(name string) model.Version { return c.req.Pin[name] }

func (c *checker) checkResolved() {
	c.checkShape()
	c.checkReleases()
	c.checkIntents()
	c.checkVersions()
	c.checkGroups()
	c.checkExtended()
	c.checkCompound()
	c.checkLoops()
	c.checkStages()
	c.checkSettings()
	c.checkReleases31()
	c.checkRoute33()
	c.checkPlan()
	c.checkUnlistedWarnings()
	c.checkSources()
}

// checkUnsatisfiable checks that an unsatisfiable answer explains itself
// and claims no module to be enabled afterwards.
func (c *checker) checkUnsatisfiable() {
	c.out = append(c.out, CheckExplanation(c.res)...)
	for _, r := range c.res.Modules {
		if enables(r.Action) {
			c.add(RuleShape, r.Name, "action %s in an unsatisfiable answer: nothing is enabled after it", r.Action)
		}
	}
	for _, s := range c.res.Plan {
		if enables(s.Action) {
			c.add(RuleShape, s.Module, "plan step %s in an unsatisfiable answer: nothing is enabled after it", s.Action)
		}
	}
}
