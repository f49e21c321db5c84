package solver

import (
	"fmt"

	"github.com/modsolver/modsolver/model"
)

// Settings the target release accepts (R34), as suggestions offer to
// change them.

// changeTheSettings proposes settings that the refusing releases accept:
// verified by solving with the module's settings left unchecked, which is
// what any settings the schema accepts amount to.
// A built-in module's is named without its version, which is the DKP
// version the question asks about.
func changeTheSettings(_ *suggesting, f *fact) [][]change {
	name, problem := f.v.name, f.settings
	rel, which := "", "the DKP version it moves to"
	if !f.v.m.Embedded {
		rel = model.VersionString(f.v.rels[f.rels[len(f.rels)-1]].Version)
		which = rel
	}
	return [][]change{{{
		sug: model.Suggestion{Kind: model.SuggestChangeSettings, Module: name, Version: rel,
			Message: fmt.Sprintf("change the settings of %s so that %s accepts them (%s)", name, which, problem)},
		apply: func(c *model.ClusterState, _ *model.Request) {
			st := c.Modules[name]
			st.Settings = nil
			c.Modules[name] = st
		},
	}}}
}
