package bench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/operator-framework/deppy/pkg/deppy"

	"github.com/modsolver/modsolver/internal/checker"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// result turns deppy's selection into a Result (peerResult).
func (t *translation) result(sel []deppy.Variable) (res *model.Result, multiple []string) {
	after := map[string][]int{}
	for _, v := range sel {
		if p, ok := t.picks[v.Identifier()]; ok {
			after[p.d.Module.Name] = append(after[p.d.Module.Name], p.i)
		}
	}
	return peerResult(t.cat, t.cluster, t.ds, after)
}

// peerResult turns a peer's selection, the indexes of the releases it
// selected in each module's domain, into a Result: every module enabled
// before or after, sorted by name, with the action its versions before
// and after call for. A module with several selected releases is named in
// multiple and reported at the newest.
func peerResult(cat *model.Catalog, cluster *model.ClusterState, ds *solver.Domains, after map[string][]int) (res *model.Result, multiple []string) {
	res = &model.Result{Status: model.StatusResolved}
	for _, m := range cat.Modules() {
		picked := after[m.Name]
		if len(picked) > 1 {
			multiple = append(multiple, m.Name)
		}
		st := cluster.Modules[m.Name]
		from, running := cluster.Deployed(m)
		if len(picked) == 0 && !st.On() && !running {
			continue
		}
		r := model.ModuleResult{Name: m.Name}
		if running {
			r.FromVersion = model.VersionString(from)
		}
		var to model.Version
		if len(picked) > 0 {
			d, i := ds.Of(m.Name), slices.Max(picked)
			to = d.Releases[i].Version
			r.ToVersion = model.VersionString(to)
			r.ToSource = d.Sources[i]
		}
		if running && (len(cat.Sources()) > 0 || m.MultiSource()) {
			r.FromSource = cluster.DeployedSource(m)
		}
		r.Moved = r.FromSource != "" && r.ToSource != "" && r.FromSource != r.ToSource
		if r.Moved && r.FromSource == m.BuiltInSource() {
			from, running, r.FromVersion = nil, false, "" // R29: leaving the platform, it installs anew (D160)
		}
		r.Action = actionOf(from, running, to)
		res.Modules = append(res.Modules, r)
	}
	return res, multiple
}

// reportChanges keeps only the changing modules of a resolved peer
// answer and counts the kept ones, as report: changes asks.
func reportChanges(res *model.Result) {
	if res == nil || res.Status != model.StatusResolved {
		return
	}
	kept := 0
	res.Modules = slices.DeleteFunc(res.Modules, func(r model.ModuleResult) bool {
		if r.Action == model.ActionKeep {
			kept++
		}
		return !r.Action.Changes()
	})
	res.Stats.Unchanged = kept
}

// actionOf is the action that the versions before and after call for.
func actionOf(from model.Version, running bool, to model.Version) model.Action {
	switch {
	case to == nil && running:
		return model.ActionDisable
	case to == nil:
		return model.ActionAbsent
	case !running:
		return model.ActionInstall
	}
	switch d := model.CompareVersions(to, from); {
	case d > 0:
		return model.ActionUpdate
	case d < 0:
		return model.ActionDowngrade
	}
	return model.ActionKeep
}

// RuleStatus labels a peer answer whose status disagrees with modsolver's.
const RuleStatus = "status"

// CheckPeer checks a peer's answer with the rules a translation to a peer
// (deppy, libsolv) can honour: internal/checker's checks of R1–R13,
// R21–R26 and the output's shape, without R18 (a peer has no plan) and
// without what an answer reports beside its selection (warnings), plus R1
// for a module with several selected releases, and that its status agrees
// with modsolver's answer want (which checker.Check has verified on its
// own). No violations (nil) means the answer is consistent. Preferences
// (R14) are not checked: a peer's answer may be older than modsolver's
// and still be correct.
func CheckPeer(cat *model.Catalog, cluster *model.ClusterState, req *model.Request, peer *PeerAnswer, want model.Status) []checker.Violation {
	var out []checker.Violation
	name := peer.name()
	for _, m := range peer.Multiple {
		out = append(out, checker.Violation{Rule: "R1", Module: m, Message: name + " selected more than one release"})
	}
	got := peer.Result.Status
	if got != want {
		out = append(out, checker.Violation{Rule: RuleStatus, Message: fmt.Sprintf("%s's answer is %s, modsolver's is %s", name, got, want)})
	}
	if got != model.StatusResolved {
		return out
	}
	for _, v := range checker.Check(cat, cluster, req, peer.Result) {
		if v.Rule != "R18" && !v.Reported {
			out = append(out, v)
		}
	}
	return out
}

// name is the peer's name for messages.
func (p *PeerAnswer) name() string {
	if p.Peer == "" {
		return "deppy"
	}
	return p.Peer
}

// refusedLoops is ErrNotTranslated for a catalog that holds dependency
// loops it refuses (R27), which neither peer can say.
func refusedLoops(cat *model.Catalog) error {
	loops, err := solver.DependencyLoops(cat)
	if err != nil {
		return err
	}
	if len(loops) > 0 {
		return fmt.Errorf("%w: the catalog holds dependency loops it refuses, such as %s (R27)", ErrNotTranslated, strings.Join(loops[0], ", "))
	}
	return nil
}
