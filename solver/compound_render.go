package solver

import (
	"fmt"
	"strconv"
	"strings"
)

// Compound requirements (R24), as facts word them.

// compoundMessage renders R24 facts, quoting the requirement's message.
func (p *problem) compoundMessage(f *fact) string {
	c := f.compound
	if c.Group != nil {
		return p.groupMessage(f)
	}
	var b strings.Builder
	if c.Conflict() {
		fmt.Fprintf(&b, "%s %s conflicts with every enabled module whose release matches %s", f.v.name, releasesText(f.v, f.rels), c.Target())
	} else {
		fmt.Fprintf(&b, "%s %s requires another enabled module whose release matches %s", f.v.name, releasesText(f.v, f.rels), c.Target())
	}
	if c.Message != "" {
		b.WriteString(": " + strconv.Quote(c.Message))
	}
	switch {
	case len(f.members) > 0:
		fmt.Fprintf(&b, " (releases of %s do)", strings.Join(viewNames(f.members), ", "))
	case !c.Conflict():
		b.WriteString(" (no release of another module in the catalog satisfies it)")
	}
	return b.String()
}
