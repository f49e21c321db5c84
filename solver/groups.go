package solver

import (
	"fmt"

	"github.com/modsolver/modsolver/model"
)

// DKP v2 groups (R28) are compound requirements (compound.go) that carry
// their group: an anyOf group is an any over its members' module atoms,
// a noneOf group a conflict over the same any. They are encoded, closed
// over, detached and suggested as any compound requirement is; only
// their sentences differ, which speak DKP's scheduler's words.

// compoundShort names an R24 or R28 fact in a few words: a group by its
// bucket, name and outcome, and the module that declares it when that is
// not the one asked about; any other requirement by its predicate after
// prefix.
func compoundShort(prefix string) func(string, model.Fact) string {
	return func(module string, f model.Fact) string {
		if f.Group == nil {
			return prefix + f.Subject
		}
		text := fmt.Sprintf("%s group '%s' %s", f.Group.Kind, f.Group.Name, f.Group.Kind.Outcome())
		if f.Module != module {
			text += " (of " + f.Module + ")"
		}
		return text
	}
}
