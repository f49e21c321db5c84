package solver

import (
	"slices"

	"github.com/go-air/gini/z"
)

// Several sources (R23), as levels 3a and 5a of R14 choose them: the
// preferred source of each module, by priority, then the fewest
// requirements met across sources, then the source's name.

// preferSources commits, for each module of order with candidates in
// several sources, the source R23 prefers: the highest-priority source
// that can serve it under the commits; among sources of equal priority,
// the fewest requirements met across sources; then the source name. The
// commit is "off, or on from that source": the preference chooses where
// a module comes from, not whether it is on, which levels 2, 4 and 5
// decide (D123). A module no source can serve is left to the version
// level, which turns it off.
func (o *optimizer) preferSources(order []*modVars) error {
	for _, mv := range order {
		if !mv.v.src.free {
			continue
		}
		if err := o.preferSource(mv); err != nil {
			return err
		}
	}
	return nil
}

func (o *optimizer) preferSource(mv *modVars) error {
	srcs := sourcing{o.e}.sources(mv)
	if len(srcs) < 2 {
		return nil
	}
	tier, err := o.bestTier(mv, srcs)
	if err != nil || len(tier) == 0 {
		return err
	}
	best, bestCost, bestBound := tier[0], -1, []z.Lit(nil)
	if len(tier) > 1 {
		for _, s := range tier {
			cost, bound, err := o.leastCross(mv, s)
			if err != nil {
				return err
			}
			if bestCost < 0 || cost < bestCost {
				best, bestCost, bestBound = s, cost, bound
			}
		}
	}
	o.commits = append(o.commits, sourcing{o.e}.otherSources(mv, srcs, best)...)
	o.commits = append(o.commits, bestBound...)
	prio, _ := o.e.p.in.cat.Source(best)
	o.choices = append(o.choices, &sourceChoice{v: mv.v, src: best, priority: prio.Priority, tied: len(tier) > 1, cross: max(bestCost, 0), bound: bestBound})
	return nil
}

// choicesBefore lists the source choices made before the version level
// that chose v's release: every named module's (level 3a), and for a
// module the request does not name, every other's too (level 5a).
func (o *optimizer) choicesBefore(v *view) []*sourceChoice {
	if !v.named {
		return o.choices
	}
	return slices.DeleteFunc(slices.Clone(o.choices), func(c *sourceChoice) bool { return !c.v.named })
}

// bestTier returns the sources of the highest priority that can serve mv
// under the commits, in name order.
func (o *optimizer) bestTier(mv *modVars, srcs []string) ([]string, error) {
	cat := o.e.p.in.cat
	var tier []string
	prio := 0
	for _, s := range srcs {
		info, _ := cat.Source(s)
		if len(tier) > 0 && info.Priority != prio {
			break
		}
		ok, err := o.e.solve(o.ctx, o.with(sourcing{o.e}.sourceLit(mv, s)))
		if err != nil {
			return nil, err
		}
		if ok {
			tier, prio = append(tier, s), info.Priority
		}
	}
	return tier, nil
}

// leastCross returns the fewest requirements met across sources with mv
// from s under the commits, and the assumptions that bound them to it.
func (o *optimizer) leastCross(mv *modVars, s string) (int, []z.Lit, error) {
	at := sourcing{o.e}.sourceLit(mv, s)
	bads := o.e.live(sourcing{o.e}.crossLits(mv, s, nil))
	if len(bads) == 0 {
		return 0, nil, nil
	}
	ok, err := o.e.solve(o.ctx, o.with(append([]z.Lit{at}, negated(bads)...)...))
	if err != nil || ok {
		return 0, negated(bads), err
	}
	if _, err := o.e.solve(o.ctx, o.with(at)); err != nil {
		return 0, nil, err
	}
	cost := 0
	for _, b := range bads {
		if o.e.value(b) {
			cost++
		}
	}
	outs := totalizer{o.e}.atLeast(bads, cost+1)
	for k := 1; k < cost; k++ {
		ok, err := o.e.solve(o.ctx, o.with(at, outs[k].Not()))
		if err != nil {
			return 0, nil, err
		}
		if ok {
			return k, []z.Lit{outs[k].Not()}, nil
		}
	}
	if cost < len(outs) {
		return cost, []z.Lit{outs[cost].Not()}, nil
	}
	return cost, nil, nil
}
