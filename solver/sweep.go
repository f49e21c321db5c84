package solver

import (
	"cmp"
	"context"
	"slices"

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
	return factWords[f.Kind].short(module, f)
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
