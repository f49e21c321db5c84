package solver

import (
	"slices"
)

// Dependency loops (R27), as suggestions offer to leave them.

// leaveTheLoop proposes, for each module of a loop fact's circle, a pin
// to its newest release that does not require the next module: one that
// leaves the circle open. Each is verified like any suggestion.
func leaveTheLoop(_ *suggesting, f *fact) [][]change {
	var out []change
	for i, v := range f.members {
		if v.m.Embedded {
			continue // its one release is the platform's
		}
		for r := len(v.rels) - 1; r >= 0; r-- {
			if !slices.Contains(f.loop.rels[i], r) && v.rels[r].Version.Prerelease() == "" {
				out = append(out, pinChange(v.name, v.rels[r].Version))
				break
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return [][]change{out}
}
