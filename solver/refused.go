package solver

import (
	"fmt"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Releases an ecosystem refuses (R27's loop of one, D347, D348): the
// importer set them aside, so no answer selects one, and an answer that
// would have taken one says so, in the ecosystem's words, with a
// dependency-loop warning; the facts of a module left without a release,
// and of a pin on a refused release, name the refusal too.

// refusedWarning says that release r of module name is refused, and why.
func refusedWarning(name string, r model.RefusedRelease) model.Warning {
	text := model.VersionString(r.Version)
	return model.Warning{Kind: model.WarningDependencyLoop, Module: name, Version: text,
		Message: refusedText(name, []model.RefusedRelease{r})}
}

// refusedText names refusals of module name, each with its reason.
func refusedText(name string, rs []model.RefusedRelease) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s %s is refused: %s", name, model.VersionString(r.Version), r.Reason)
	}
	return strings.Join(parts, "; ")
}
