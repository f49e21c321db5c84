package solver

import (
	"math/bits"
)

// A set of release indices, one bit each: what a module admits of a
// requirement (requirements.go) and a local question's domains
// (localcore_sets.go).

// words is the number of uint64 words a set of n releases takes.
func words(n int) int { return (n + 63) / 64 }

// relSet is a set of release indices, one bit each.
type relSet []uint64

func (s relSet) add(i int) { s[i/64] |= 1 << (i % 64) }

func (s relSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }

// with returns s with rels added, made for n releases when s is nil.
func (s relSet) with(rels []int, n int) relSet {
	if s == nil {
		s = make(relSet, words(n))
	}
	for _, i := range rels {
		s.add(i)
	}
	return s
}

// or adds the members of o (nil: none).
func (s relSet) or(o relSet) {
	for i, w := range o {
		s[i] |= w
	}
}

// andNot takes out the members of o.
func (s relSet) andNot(o relSet) {
	for i := range s {
		s[i] &^= o[i]
	}
}

// andChanged keeps the members of o and reports whether any went.
func (s relSet) andChanged(o relSet) bool {
	changed := false
	for i := range s {
		if s[i]&^o[i] != 0 {
			s[i] &= o[i]
			changed = true
		}
	}
	return changed
}

// andNotWhere takes out the members of at that are not in ok.
func (s relSet) andNotWhere(at, ok relSet) {
	for i := range s {
		s[i] &^= at[i] &^ ok[i]
	}
}

// fill makes the first n indices members.
func (s relSet) fill(n int) {
	for i := range s {
		s[i] = ^uint64(0)
	}
	if r := n % 64; r != 0 {
		s[len(s)-1] = 1<<r - 1
	}
}

// clearBelow takes out the indices below n.
func (s relSet) clearBelow(n int) {
	for i := range s {
		switch {
		case (i+1)*64 <= n:
			s[i] = 0
		case i*64 < n:
			s[i] &^= 1<<(n%64) - 1
		}
	}
}

func (s relSet) any() bool {
	for _, w := range s {
		if w != 0 {
			return true
		}
	}
	return false
}

func (s relSet) count() int {
	c := 0
	for _, w := range s {
		c += bits.OnesCount64(w)
	}
	return c
}

// meets reports whether s and o share a member.
func (s relSet) meets(o relSet) bool {
	for i, w := range s {
		if w&o[i] != 0 {
			return true
		}
	}
	return false
}

// and keeps the members of o.
func (s relSet) and(o relSet) {
	for i := range s {
		s[i] &= o[i]
	}
}
