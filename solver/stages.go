package solver

import (
	"fmt"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// Module stages (R25) and disable confirmation (R26).
//
// An Experimental release, on a cluster that does not allow experimental
// modules, is forbidden by a static fact of its own, as an edition forbids
// a release (R7): it holds updates back, makes an install unsatisfiable
// when no other release serves, and makes a cluster that runs it
// inconsistent. A Deprecated release is selectable, and the answer warns
// about it. A module whose deployed release asks for confirmation before
// it is disabled keeps a hard intent under allowDisable (setIntent), and
// the plan step that disables it by name carries its message and the
// annotation DKP needs (planStep).

// experimentalText is DKP's wording for an Experimental module on a
// cluster that does not allow them (its Experimental extender).
const experimentalText = "installation forbidden: experimental modules are disabled (allowExperimentalModules=false)"

// addStageFacts forbids the Experimental releases of v unless the cluster
// allows experimental modules (R25).
func (rf ruleFacts) addStageFacts(v *view) {
	p := rf.p
	if p.in.cluster.ExperimentalAllowed(v.name) {
		return
	}
	p.forbid(v, model.FactExperimental, v.where(func(_ int, r *model.Release) bool {
		return r.Stage == model.StageExperimental
	}), factShape{})
}

// experimentalMessage renders a FactExperimental fact.
func experimentalMessage(f *fact) string {
	verb := "is"
	if len(f.rels) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("%s %s %s Experimental: %s", f.v.name, releasesText(f.v, f.rels), verb, experimentalText)
}

// confirmationText says why allowDisable leaves v enabled (R26).
func confirmationText(v *view) string {
	text := fmt.Sprintf("%s %s asks for confirmation before it is disabled (disable.confirmation: true), so allowDisable does not disable it; only a request that disables it by name does",
		v.name, v.deployedVersion())
	if msg := v.runningRelease().Disable.Message; msg != "" {
		text += fmt.Sprintf(" (%q)", msg)
	}
	return text
}

// skippedExperimental renders the Experimental facts that forbid releases
// of v between sel and next, which an answer below its head passes over
// (R17): the stage is what holds those releases back.
func skippedExperimental(v *view, sel, next int) string {
	f := v.static(model.FactExperimental)
	if f == nil {
		return ""
	}
	var rels []int
	for _, r := range f.rels {
		if r > sel && (next < 0 || r < next) {
			rels = append(rels, r)
		}
	}
	if len(rels) == 0 {
		return ""
	}
	return experimentalMessage(&fact{kind: f.kind, v: v, rels: rels})
}

// ExperimentalOnly names, sorted, the modules of cat that only their
// stage keeps off cluster: every release some other fact admits is
// Experimental, and the cluster does not allow experimental modules (R25).
// Other facts are the static ones: editions, prereleases, platform
// requirements and channels. `modsolver catalog check` lists them, so
// they are drawn from the modules Sweep checks: built-in modules and
// modules the cluster configures are not among them.
func ExperimentalOnly(cat *model.Catalog, cluster *model.ClusterState) []string {
	if cluster.AllowExperimentalModules {
		return nil
	}
	p := newProblem(compiledFor(cat), cluster, &model.Request{})
	var out []string
	for _, m := range cat.Modules() {
		if !swept(m, cluster) {
			continue
		}
		if v := p.view(m.Name); v != nil && onlyStageForbids(v) {
			out = append(out, m.Name)
		}
	}
	return out
}

// onlyStageForbids reports whether v has no allowed release, but some
// release that only the Experimental fact forbids.
func onlyStageForbids(v *view) bool {
	f := v.static(model.FactExperimental)
	if f == nil || slices.Contains(v.allowed, true) {
		return false
	}
	for _, r := range f.rels {
		if !slices.ContainsFunc(v.staticFacts(), func(g *fact) bool { return g != f && slices.Contains(g.rels, r) }) {
			return true
		}
	}
	return false
}

// swept reports whether Sweep asks about m: a module with releases of
// its own that the cluster does not configure. Built-in modules follow
// the platform and are not asked about; nor are modules the operator
// already enabled or disabled.
func swept(m *model.Module, cluster *model.ClusterState) bool {
	// A module the platform also carries built in (R29, D350) runs built
	// in unless a request moves it: it is checked as built-in modules are,
	// with the platform, not pinned to a release of its source.
	return !m.Embedded && m.BuiltInSource() == "" && len(m.Releases) > 0 && !cluster.Modules[m.Name].Configured()
}
