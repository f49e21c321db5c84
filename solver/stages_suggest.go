package solver

import (
	"github.com/modsolver/modsolver/model"
)

// Module stages (R25), as suggestions offer to allow them.

// allowExperimentalChange sets allowExperimentalModules (R25).
func allowExperimentalChange() change {
	return change{
		sug: model.Suggestion{Kind: model.SuggestAllowExperimental,
			Message: "allow experimental modules (set allowExperimentalModules: true in the cluster state)"},
		apply: func(c *model.ClusterState, _ *model.Request) { c.AllowExperimentalModules = true },
	}
}
