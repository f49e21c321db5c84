package checker

import (
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// checkLoops checks R27 in the state after: every circle of enabled
// modules whose selected releases require one another in turn (any
// module requirement, required or optional) is allowed only when no
// module of it comes from a source that refuses loops, or when the
// cluster already runs it unchanged, every module of it kept; such a
// circle is named by a dependency-loop warning.
func (c *checker) checkLoops() {
	names := c.enabledNames()
	next := map[string][]string{}
	for _, name := range names {
		m := c.module(name)
		for _, d := range requirementsOf(m, c.selectedRelease(m)).Modules {
			if _, on := c.on[d.Module]; on && d.Module != name && !slices.Contains(next[name], d.Module) {
				next[name] = append(next[name], d.Module)
			}
		}
	}
	for _, start := range names {
		c.walkCircles(start, []string{start}, next)
	}
}

// walkCircles follows the simple paths from path's last module through
// modules named after start, and checks each that closes at start.
func (c *checker) walkCircles(start string, path []string, next map[string][]string) {
	for _, d := range next[path[len(path)-1]] {
		switch {
		case d == start:
			c.checkCircle(path)
		case d > start && !slices.Contains(path, d):
			c.walkCircles(start, append(slices.Clone(path), d), next)
		}
	}
}

func (c *checker) checkCircle(circle []string) {
	refused, kept := false, true
	for _, name := range circle {
		refused = refused || c.module(name).DependencyLoops != model.LoopsAllow
		kept = kept && c.keeps(name)
	}
	text := strings.Join(circle, ", ")
	switch {
	case !refused:
	case !kept:
		c.add("R27", circle[0], "the answer closes the dependency loop %s, which the catalog refuses", text)
	case !slices.ContainsFunc(c.res.Warnings, func(w model.Warning) bool {
		return w.Kind == model.WarningDependencyLoop && strings.Contains(w.Message, text)
	}):
		c.add("R27", circle[0], "the answer keeps the running dependency loop %s without a dependency-loop warning", text)
	}
}

// keeps reports whether the answer keeps module name, enabled after, as
// the cluster runs it: listed as kept, or, in an answer that lists
// changes only, left out while the cluster enables it (readAfter takes it
// at its deployed version then). A built-in module that ran before counts
// as kept: only the platform version moves it.
func (c *checker) keeps(name string) bool {
	if m := c.module(name); m.Embedded {
		_, ran := c.cluster.Deployed(m)
		return ran // only the platform version moves it (R27)
	}
	if r, listed := c.results[name]; listed {
		return r.Action == model.ActionKeep
	}
	return c.req.ChangesOnly() && c.cluster.Modules[name].On()
}
