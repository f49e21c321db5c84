package solver

import (
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// changeSet is a set of changes made together, in the order the search
// added them.
type changeSet []change

// key names the set whatever its order.
func (cs changeSet) key() string { return cs.sorted(change.key) }

// sorted joins name of each change, sorted, so that order never matters.
func (cs changeSet) sorted(name func(change) string) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = name(c)
	}
	slices.Sort(names)
	return strings.Join(names, "\x00")
}

// key names one change: its kind, module, version and wording.
func (c change) key() string {
	return strings.Join([]string{c.sug.Kind.String(), c.sug.Module, c.sug.Version, c.sug.Message}, "\x01")
}

// target is what a change sets: two changes of one target in a set would
// have the later undo the earlier.
func (c change) target() string { return c.sug.Kind.String() + "\x01" + c.sug.Module }

// targets names what the set sets, whatever its order and alternatives.
func (cs changeSet) targets() string { return cs.sorted(change.target) }

func (cs changeSet) has(target string) bool {
	return slices.ContainsFunc(cs, func(c change) bool { return c.target() == target })
}

// without is cs less its i-th change.
func (cs changeSet) without(i int) changeSet { return slices.Delete(slices.Clone(cs), i, i+1) }

// readsOptimum reports whether a part reads the answer's versions, as an
// update reads the version its module reaches.
func (cs changeSet) readsOptimum() bool {
	return slices.ContainsFunc(cs, func(c change) bool { return c.sug.Kind == model.SuggestUpdateModule })
}
