package oracle

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

// score is one assignment's standing at every level of R14. Level 1 (what
// the request asks for) is hard and lies in the options.
type score struct {
	disabled   int   // level 2: enabled modules disabled (allowDisable)
	defaultOff int   // level 2, then: modules on by default that stay off
	auto       int   // level 4: modules on that nobody asked for (autoEnable)
	named      []int // level 3: the named modules' positions, in name order
	others     []int // level 5: every other module's positions, in name order
}

// A position is a release index, or -1 for off: the newer the release,
// the better, and off is worse than any release. Comparing positions in
// name order is "as new as possible, one after another in name order,
// each as new as the modules before it allow". Level 5 covers every
// module the request does not name, so that every tie is broken by name
// (D41); level 6 (fewest changes) then has no tie left to break.

func (p *problem) score(sel []int) score {
	var s score
	for i, x := range p.mods {
		on := sel[i] >= 0
		switch {
		case x.intent == keepSoft && !on:
			s.disabled++
		case x.intent == defaultSoft && !on:
			s.defaultOff++
		case x.intent == autoSoft && on:
			s.auto++
		}
		if x.named {
			s.named = append(s.named, sel[i])
		} else {
			s.others = append(s.others, sel[i])
		}
	}
	return s
}

// better reports whether s is strictly preferred to t under order.
func (s score) better(t score, order Order) bool {
	for _, l := range s.levels(t, order) {
		if l.diff != 0 {
			return l.diff > 0
		}
	}
	return false
}

// firstBetter names the first level at which s is preferred to t, or ""
// when it is preferred at none before t is.
func (s score) firstBetter(t score, order Order) string {
	for _, l := range s.levels(t, order) {
		switch {
		case l.diff > 0:
			return l.name
		case l.diff < 0:
			return ""
		}
	}
	return ""
}

// level is one R14 level's comparison: > 0 when the first score is better.
type level struct {
	name string
	diff int
}

// levels compares s with t at every R14 level, in order.
func (s score) levels(t score, order Order) []level {
	out := []level{
		{"R14 level 2 (fewest disabled)", t.disabled - s.disabled},
		{"R14 level 2 (most on by default)", t.defaultOff - s.defaultOff},
	}
	named := level{"R14 level 3 (named modules newest)", comparePositions(s.named, t.named)}
	auto := level{"R14 level 4 (fewest auto-enabled)", t.auto - s.auto}
	if order == NamedFirst {
		out = append(out, named, auto)
	} else {
		out = append(out, auto, named)
	}
	return append(out, level{"R14 level 5 (others newest, ties by name)", comparePositions(s.others, t.others)})
}

// comparePositions compares two position lists lexicographically: > 0
// when a is newer at the first module where they differ.
func comparePositions(a, b []int) int {
	for i := range a {
		if a[i] != b[i] {
			return a[i] - b[i]
		}
	}
	return 0
}
