package solver

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Installability is the answer to "can module m be installed at its head
// on this cluster?", one question of a catalog sweep.
type Installability struct {
	Module  string
	Version string // the release the sweep tried: the head of m's channel, or its newest
	Result  *model.Result
	Err     error
	// Reasons name, for an unsatisfiable answer, what stands in the way:
	// one short phrase per fact of the explanation that is not the
	// request itself, such as "missing module devworkspace-operator".
	Reasons []string
	// Kinds are the fact kinds behind Reasons, deduplicated, in order.
	Kinds []model.FactKind
	// Groups name the DKP v2 groups among Reasons (R28): an anyOf group
	// left unmet or a noneOf group that would be violated.
	Groups []string
}

// Sweep asks, for every module of the catalog that has releases, whether
// its head (the channel's version, or the newest release the prerelease
// rule lets it take, R6) can be
// installed on the cluster, with autoEnable so that its requirements may
// come along. It calls emit once per module, in name order, and answers
// on the what-if engine, so the questions share encodings and cores.
func Sweep(ctx context.Context, cat *model.Catalog, cluster *model.ClusterState, emit func(Installability) error, opts ...Option) error {
	c, err := compiledOrNew(cat)
	if err != nil {
		return err
	}
	return c.Sweep(ctx, cluster, emit, opts...)
}

// Sweep is the package-level Sweep on c's catalog.
func (c *Compiled) Sweep(ctx context.Context, cluster *model.ClusterState, emit func(Installability) error, opts ...Option) error {
	cat := c.cat
	var names []string
	var reqs []*model.Request
	heads := map[string]model.Version{}
	probe := newProblem(c, cluster, &model.Request{})
	for _, m := range cat.Modules() {
		if !swept(m, cluster) {
			continue
		}
		head := probe.view(m.Name).headVersion
		names = append(names, m.Name)
		heads[m.Name] = head
		reqs = append(reqs, &model.Request{Enable: []string{m.Name}, Pin: map[string]model.Version{m.Name: head}, AutoEnable: true})
	}
	opts = append([]Option{WithoutHeldBack(), WithoutSuggestions()}, opts...)
	return c.WhatIf(ctx, cluster, reqs, func(i int, a Answer) error {
		in := Installability{Module: names[i], Version: model.VersionString(heads[names[i]]), Result: a.Result, Err: a.Err}
		if a.Result != nil && a.Result.Explanation != nil {
			in.Reasons, in.Kinds, in.Groups = reasons(in.Module, a.Result.Explanation.Facts)
		}
		return emit(in)
	}, opts...)
}

// swept reports whether Sweep asks about m: a module with releases of
// its own that the cluster does not configure. Built-in modules follow
// the platform and are not asked about; nor are modules the operator
// already enabled or disabled.
func swept(m *model.Module, cluster *model.ClusterState) bool {
	// A module the platform also carries built in (R29, D350) runs built
	// in unless a request moves it: it is checked as built-in modules are,
	// with the platform, not pinned to a release of its source.
	return !m.Embedded && m.BuiltInSource() == "" && len(m.Releases) > 0 && !cluster.Modules[m.Name].Configured()
}

// reasons names the facts of an explanation that stand in the way of
// installing module, without the request's own facts, deduplicated, and
// among them the DKP v2 groups.
func reasons(module string, facts []model.Fact) (out []string, kinds []model.FactKind, groups []string) {
	for _, f := range facts {
		r := reason(module, f)
		if r == "" {
			continue
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
			if f.Group != nil {
				groups = append(groups, r)
			}
		}
		if !slices.Contains(kinds, f.Kind) {
			kinds = append(kinds, f.Kind)
		}
	}
	return out, kinds, groups
}

// reason names one fact in a few words, or "" for the request's own.
func reason(module string, f model.Fact) string {
	return factKinds[f.Kind].short(module, f)
}

// The short forms of each kind of fact (factKinds).

func noShort(string, model.Fact) string { return "" }

// stateShort names a fact about a module's own state by its kind, and the
// module when it is not the one the sweep installs.
func stateShort(module string, f model.Fact) string {
	if f.Module == module {
		return f.Kind.String()
	}
	return f.Kind.String() + " of " + f.Module
}

func requiresShort(_ string, f model.Fact) string {
	return "requires " + f.Subject + " " + f.Constraint
}

// componentShort names a platform requirement (R4, R22) by its component,
// an optional one (OLM's, which holds only where the component runs) in
// words rather than modsolver's "!optional" (D404).
func componentShort(_ string, f model.Fact) string {
	if r, optional := strings.CutSuffix(f.Constraint, "!optional"); optional {
		return f.Subject + " " + strings.TrimSpace(r) + " (where " + f.Subject + " runs)"
	}
	return f.Subject + " " + f.Constraint
}

func groupShort(_ string, f model.Fact) string { return f.Kind.String() + " " + f.Subject }

func unprovidedShort(_ string, f model.Fact) string {
	return "capability " + f.Subject + " not provided"
}

// prefixedShort names a fact by its subject after prefix.
func prefixedShort(prefix string) func(string, model.Fact) string {
	return func(_ string, f model.Fact) string { return prefix + f.Subject }
}

// SweepSummary counts the answers of a sweep and ranks what stood in the
// way most often.
type SweepSummary struct {
	Modules, Resolved, Unsatisfiable, Errors int
	Reasons                                  []ReasonCount
	// Kinds count the modules each kind of fact keeps from installing,
	// such as "platform-requirement" for all OpenShift ranges together.
	Kinds []ReasonCount
	// ExperimentalOnly names the modules that only their stage keeps off
	// the cluster (ExperimentalOnly); Summarize leaves it for the caller.
	ExperimentalOnly []string
	// Groups count the modules each DKP v2 group keeps from installing
	// (R28): unmet anyOf groups and violated noneOf groups, by declaring
	// module.
	Groups []ReasonCount
}

// ReasonCount is one reason and the modules it kept from installing.
type ReasonCount struct {
	Reason  string
	Modules []string // sorted
}

// Summarize folds the answers of a sweep into counts and reasons, the most
// frequent first, ties by reason text.
func Summarize(answers []Installability) SweepSummary {
	s := SweepSummary{Modules: len(answers)}
	byReason, byKind, byGroup := map[string][]string{}, map[string][]string{}, map[string][]string{}
	for _, a := range answers {
		switch {
		case a.Err != nil:
			s.Errors++
		case a.Result.Status == model.StatusResolved:
			s.Resolved++
		default:
			s.Unsatisfiable++
		}
		for _, r := range a.Reasons {
			byReason[r] = append(byReason[r], a.Module)
		}
		for _, k := range a.Kinds {
			byKind[k.String()] = append(byKind[k.String()], a.Module)
		}
		for _, g := range a.Groups {
			byGroup[g] = append(byGroup[g], a.Module)
		}
	}
	s.Reasons, s.Kinds, s.Groups = ranked(byReason), ranked(byKind), ranked(byGroup)
	return s
}

// ranked lists reasons with their modules, the most frequent first, ties
// by reason text.
func ranked(by map[string][]string) []ReasonCount {
	out := make([]ReasonCount, 0, len(by))
	for r, mods := range by {
		slices.Sort(mods)
		out = append(out, ReasonCount{Reason: r, Modules: mods})
	}
	slices.SortFunc(out, func(a, b ReasonCount) int {
		return cmp.Or(cmp.Compare(len(b.Modules), len(a.Modules)), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}
