package solver

import (
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// pathWithNote is the outcome's update path as versions, and a note on
// what the path meets (D70): a path that stops below the head says what
// stops it, and releases on the path that the platform forbids (R4, R22)
// are named with the requirement they fail, so that a path is never read
// as a way that is open when it is not.
func (s *answering) pathWithNote(o *outcome, mode readMode) ([]string, string) {
	idx := s.path(o)
	if len(idx) == 0 {
		return nil, ""
	}
	out := make([]string, len(idx))
	for i, r := range idx {
		out[i] = o.v.versionText(r)
	}
	return out, s.pathNote(o, idx, s.scratch(), mode).text(s.p) // the note is rendered here and its facts dropped
}

// pathNote is a path note in parts. Only the version the cluster runs of
// a platform requirement that a fact fails is the request's own
// (platformShort), so a what-if class makes the parts once and each
// request renders the text with its own versions (rerender.go).
type pathNote struct {
	stop    string
	forbids []forbiddenOnPath
}

// forbiddenOnPath is one platform fact that forbids releases on a path:
// lead names the releases and the requirement, up to the version the
// cluster runs.
type forbiddenOnPath struct {
	lead string
	f    *fact
}

// pathNote makes the parts of the note on the path idx of o; with a
// scratch, its copies of platform facts last until its next use
// (collect).
func (s *answering) pathNote(o *outcome, idx []int, sc *copyScratch, mode readMode) pathNote {
	return pathNote{stop: s.pathStop(o.v, idx[len(idx)-1]), forbids: s.pathForbidden(o, idx, sc, mode)}
}

// text is the note with p's platform versions, or "" when there is
// nothing to say.
func (n pathNote) text(p *problem) string {
	var b strings.Builder
	b.WriteString(n.stop)
	for _, fo := range n.forbids {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(fo.lead)
		writeClusterRuns(&b, kindOf(fo.f).platform(p, fo.f))
	}
	return b.String()
}

// pathStop says why a path that ends at release last stops below the
// head, or "" when it reaches the head.
func (s *answering) pathStop(v *view, last int) string {
	if last >= v.head || v.src.free {
		return ""
	}
	at, head := v.versionText(last), fmtVersion(v.headVersion)
	if v.policy() == model.UpdateGraph {
		return "the path stops at " + at + ", below the head " + head + ": no update edge leads on from " + at
	}
	return "the path stops at " + at + ", below the head " + head + ": no sequential step leads on from " + at + ", and a major jump waits for a from-to rule or strategy: direct"
}

// pathForbidden names the releases on the path, besides the one the
// outcome selects, that the platform forbids, with the fact each group
// fails.
//
// The static facts of a module that keeps its deployed release read that
// release only (readsFirst), which is the one the outcome selects, so for
// such a module there is nothing to name and nothing is checked.
func (s *answering) pathForbidden(o *outcome, idx []int, sc *copyScratch, mode readMode) []forbiddenOnPath {
	if o.v.readsFirst() >= 0 {
		return nil
	}
	if !slices.ContainsFunc(idx, func(r int) bool { return r != o.sel && s.p.platformForbids(o.v, r, mode) }) {
		return nil // no platform fact to name
	}
	want := slices.DeleteFunc(slices.Clone(idx), func(r int) bool { return r == o.sel })
	var out []forbiddenOnPath
	for _, f := range s.p.platformFacts(o.v, want, sc, mode) {
		var on []int
		for _, r := range idx {
			if r != o.sel && slices.Contains(f.rels, r) {
				on = append(on, r)
			}
		}
		if len(on) == 0 {
			continue
		}
		lead := "the platform forbids " + releasesText(o.v, on) + " on this path: " + platformNeeds(kindOf(f).platform(s.p, f), f)
		out = append(out, forbiddenOnPath{lead: lead, f: f})
	}
	return out
}

// platformNeeds and writeClusterRuns say in a few words which platform
// requirement a fact fails: "needs kubernetes >= 1.25, and the cluster
// has 1.24.0". Only writeClusterRuns reads the version the cluster runs;
// it writes it with no string of its own, since every path note of a
// platform upgrade quotes it.
func platformNeeds(pv platformVersion, f *fact) string {
	return "needs " + pv.name + " " + f.cons.Text + ", and the cluster "
}

func writeClusterRuns(b *strings.Builder, pv platformVersion) {
	if pv.version == nil {
		b.WriteString("does not run ")
		b.WriteString(pv.name)
		return
	}
	var buf [32]byte
	b.WriteString("has ")
	b.Write(model.AppendVersion(buf[:0], pv.version))
}

// pathPhrase names a deployed module's path in a held-back reason: "the
// path to the head is a → b", or, when it stops below the head, where it
// stops (D70).
func pathPhrase(v *view, path []int) string {
	if len(path) == 0 || path[len(path)-1] >= v.head {
		return "the path to the head is " + pathText(v, path)
	}
	return "the path toward the head " + fmtVersion(v.headVersion) + " is " + pathText(v, path) + ", and it stops there"
}
