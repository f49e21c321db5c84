package oracle

import "slices"

// Order is the order of R14's levels 3 and 4.
type Order int

const (
	// NamedFirst is DESIGN.md's R14 as now written: the modules the
	// request names as new as possible (level 3) before the fewest
	// modules enabled that nobody asked for (level 4).
	NamedFirst Order = iota
	// AutoFirst is R14's earlier order, with the two levels swapped.
	AutoFirst
)

// level is one preference level of R14: it keeps, of the assignments the
// levels before it left, those it prefers. Level 1 (what the request asks
// for) is hard and lies in the options.
type level struct {
	name string
	keep func(set [][]int) [][]int
}

// A position is a release index, or -1 for off: the newer the release,
// the better, and off is worse than any release. Comparing positions in
// name order is "as new as possible, one after another in name order,
// each as new as the modules before it allow". Level 5 covers every
// module the request does not name, so that every tie is broken by name
// (D41); level 6 (fewest changes) then has no tie left to break. A module
// of several sources has its source chosen first (levels 3a and 5a,
// sources.go), so that its positions then order one source's releases.

// levels lists R14's levels in order.
func (p *problem) levels(order Order) []level {
	var named, others []int
	for i, x := range p.mods {
		if x.named {
			named = append(named, i)
		} else {
			others = append(others, i)
		}
	}
	count := func(f func(x *mod, on bool) bool) func([]int) int {
		return func(sel []int) int {
			n := 0
			for i, x := range p.mods {
				if f(x, sel[i] >= 0) {
					n++
				}
			}
			return n
		}
	}
	out := []level{
		{"R14 level 2 (fewest disabled)", fewest(count(func(x *mod, on bool) bool { return x.intent == keepSoft && !on }))},
		{"R14 level 2 (most on by default)", fewest(count(func(x *mod, on bool) bool { return x.intent == defaultSoft && !on }))},
	}
	sources3 := level{"R14 level 3a (named modules' sources)", func(set [][]int) [][]int { return p.preferSources(named, set) }}
	named3 := level{"R14 level 3 (named modules newest)", newest(named)}
	auto := level{"R14 level 4 (fewest auto-enabled)", fewest(count(func(x *mod, on bool) bool { return x.intent == autoSoft && on }))}
	if order == NamedFirst {
		out = append(out, sources3, named3, auto)
	} else {
		out = append(out, auto, sources3, named3)
	}
	return append(out,
		level{"R14 level 5a (other modules' sources)", func(set [][]int) [][]int { return p.preferSources(others, set) }},
		level{"R14 level 5 (others newest, ties by name)", newest(others)})
}

// fewest keeps the assignments with the least cost.
func fewest(cost func([]int) int) func([][]int) [][]int {
	return func(set [][]int) [][]int {
		best := -1
		for _, sel := range set {
			if c := cost(sel); best < 0 || c < best {
				best = c
			}
		}
		return slices.DeleteFunc(set, func(sel []int) bool { return cost(sel) > best })
	}
}

// newest keeps the assignments whose positions of mods, in that order,
// are lexicographically greatest.
func newest(mods []int) func([][]int) [][]int {
	cmp := func(a, b []int) int {
		for _, i := range mods {
			if a[i] != b[i] {
				return a[i] - b[i]
			}
		}
		return 0
	}
	return func(set [][]int) [][]int {
		var best []int
		for _, sel := range set {
			if best == nil || cmp(sel, best) > 0 {
				best = sel
			}
		}
		return slices.DeleteFunc(set, func(sel []int) bool { return cmp(sel, best) < 0 })
	}
}

// rank applies every level to set and returns the survivors, and for
// each level the number of assignments it kept.
func (p *problem) rank(set [][]int, order Order) [][]int {
	for _, l := range p.levels(order) {
		set = l.keep(set)
	}
	return set
}
