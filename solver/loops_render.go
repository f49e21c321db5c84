package solver

import (
	"fmt"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Dependency loops (R27), as facts and reasons word them.

// loopMessage renders a loop fact in DKP's words, then says which
// releases close the circle.
func loopMessage(_ wording, f *fact) string {
	parts := make([]string, len(f.members))
	for i, v := range f.members {
		next := f.members[(i+1)%len(f.members)]
		parts[i] = fmt.Sprintf("%s %s requires %s", v.name, releaseLabel(v, f.loop.rels[i]), next.name)
	}
	msg := fmt.Sprintf("dependency cycle through: %s: %s; a release that closes a dependency loop is refused", f.group, strings.Join(parts, ", and "))
	if f.loop.running {
		msg += " (the cluster runs this loop already: it may stay as it is, but none of its modules may move to another release that keeps it)"
	}
	return msg
}

// loopShort names a loop fact in a sweep.
func loopShort(_ string, f model.Fact) string { return "dependency loop through " + f.Subject }
