package model

import (
	"fmt"
	"strings"
)

// unknownModule is the message for a module name the catalog does not
// hold, with the catalog's nearest names when there are some: `module
// "promethus" is not in the catalog; did you mean "prometheus"?`.
func (c *Catalog) unknownModule(name string) string {
	return fmt.Sprintf("module %q is not in the catalog%s", name, c.didYouMean(name))
}

// didYouMean is "; did you mean "a" or "b"?" for the catalog's module
// names nearest to name, or "" when none is near.
func (c *Catalog) didYouMean(name string) string {
	near := c.NearestModules(name)
	if len(near) == 0 {
		return ""
	}
	quoted := make([]string, len(near))
	for i, n := range near {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	return "; did you mean " + strings.Join(quoted, " or ") + "?"
}

// maxNearest bounds how many names NearestModules gives.
const maxNearest = 3

// NearestModules lists the catalog's module names nearest to name by
// edit distance (Levenshtein, ignoring case), up to three of them, those
// at the smallest distance only, in the catalog's order. A name is near
// when at most a third of its letters (and at least two) differ: a
// misspelling, not another module.
func (c *Catalog) NearestModules(name string) []string {
	names := make([]string, len(c.Modules()))
	for i, m := range c.Modules() {
		names[i] = m.Name
	}
	return Nearest(name, names)
}

// Nearest lists the names nearest to name, as NearestModules reads them:
// up to three, at the smallest edit distance that is a misspelling (at
// most a third of the letters, and at least two), in the order given.
func Nearest(name string, names []string) []string {
	best := max(2, len([]rune(name))/3) // the farthest a near name may be
	var out []string
	for _, n := range names {
		if n == name {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(n))
		switch {
		case d > best:
			continue
		case d < best:
			best, out = d, out[:0]
		}
		if len(out) < maxNearest {
			out = append(out, n)
		}
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
