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
	levels := []int{
		t.disabled - s.disabled,
		t.defaultOff - s.defaultOff,
	}
	named, auto := comparePositions(s.named, t.named), t.auto-s.auto
	if order == NamedFirst {
		levels = append(levels, named, auto)
	} else {
		levels = append(levels, auto, named)
	}
	levels = append(levels, comparePositions(s.others, t.others))
	for _, d := range levels {
		if d != 0 {
			return d > 0
		}
	}
	return false
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
