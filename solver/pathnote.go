package solver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// pathWithNote is the outcome's update path as versions, and a note on
// what the path meets (D70): a path that stops below the head says what
// stops it, and releases on the path that the platform forbids (R4, R22)
// are named with the requirement they fail, so that a path is never read
// as a way that is open when it is not.
func (s *session) pathWithNote(o *outcome) ([]string, string) {
	idx := s.path(o)
	if len(idx) == 0 {
		return nil, ""
	}
	out := make([]string, len(idx))
	for i, r := range idx {
		out[i] = model.VersionString(o.v.rels[r].Version)
	}
	var notes []string
	if stop := s.pathStop(o.v, idx[len(idx)-1]); stop != "" {
		notes = append(notes, stop)
	}
	notes = append(notes, s.pathForbidden(o, idx)...)
	return out, strings.Join(notes, "; ")
}

// pathStop says why a path that ends at release last stops below the
// head, or "" when it reaches the head.
func (s *session) pathStop(v *view, last int) string {
	if last >= v.head || v.src.free {
		return ""
	}
	at := v.rels[last].Version
	if v.policy() == model.UpdateGraph {
		return fmt.Sprintf("the path stops at %s, below the head %s: no update edge leads on from %s", at, v.headVersion, at)
	}
	return fmt.Sprintf("the path stops at %s, below the head %s: no sequential step leads on from %s, and a major jump waits for a from-to rule or strategy: direct", at, v.headVersion, at)
}

// pathForbidden names the releases on the path, besides the one the
// outcome selects, that the platform forbids, with the requirement each
// group fails.
//
// The static facts of a module that keeps its deployed release read that
// release only (readsFirst), which is the one the outcome selects, so for
// such a module there is nothing to name and nothing is checked.
func (s *session) pathForbidden(o *outcome, idx []int) []string {
	if o.v.readsFirst() >= 0 {
		return nil
	}
	if !slices.ContainsFunc(idx, func(r int) bool { return r != o.sel && s.p.platformForbids(o.v, r) }) {
		return nil // no platform fact to name
	}
	want := slices.DeleteFunc(slices.Clone(idx), func(r int) bool { return r == o.sel })
	var notes []string
	for _, f := range s.p.platformFacts(o.v, want) {
		var on []int
		for _, r := range idx {
			if r != o.sel && slices.Contains(f.rels, r) {
				on = append(on, r)
			}
		}
		if len(on) == 0 {
			continue
		}
		notes = append(notes, fmt.Sprintf("the platform forbids %s on this path: %s", releasesText(o.v, on), s.p.platformShort(f)))
	}
	return notes
}

// platformShort says in a few words which platform requirement a fact
// fails: "needs kubernetes >= 1.25, the cluster has 1.24.0".
func (p *problem) platformShort(f *fact) string {
	pv := kindOf(f).platform(p, f)
	if pv.version == nil {
		return fmt.Sprintf("needs %s %s, and the cluster does not run %s", pv.name, f.cons.Text, pv.name)
	}
	return fmt.Sprintf("needs %s %s, and the cluster has %s", pv.name, f.cons.Text, model.VersionString(pv.version))
}

// newerOnly returns facts with each fact about v narrowed to v's releases
// from index from up (D70): a held-back reason is about the releases an
// update could reach, not the ones below the deployed or chosen one. A
// fact with none of its releases there is kept as it is.
func newerOnly(facts []*fact, v *view, from int) []*fact {
	out := make([]*fact, len(facts))
	for i, f := range facts {
		out[i] = f
		if f.v != v || len(f.rels) == 0 || kindOf(f).belowDeployed {
			continue
		}
		rels := slices.DeleteFunc(slices.Clone(f.rels), func(r int) bool { return r < from })
		if len(rels) > 0 && len(rels) < len(f.rels) {
			g := *f
			g.rels = rels
			out[i] = &g
		}
	}
	return out
}

// pathPhrase names a deployed module's path in a held-back reason: "the
// path to the head is a → b", or, when it stops below the head, where it
// stops (D70).
func pathPhrase(v *view, path []int) string {
	if len(path) == 0 || path[len(path)-1] >= v.head {
		return "the path to the head is " + pathText(v, path)
	}
	return fmt.Sprintf("the path toward the head %s is %s, and it stops there", v.headVersion, pathText(v, path))
}
