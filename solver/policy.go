package solver

import "github.com/modsolver/modsolver/model"

// stepped reports whether an update of v is bounded by steps: v's update
// policy is the sequential rule (R11) or an update graph (R21), and the
// request's strategy does not lift it. A module whose importer set the
// direct policy (a Helm chart, an OLM package in semver mode, D66) may go
// to any release up to its head, as `strategy: direct` allows every module.
func (p *problem) stepped(v *view) bool {
	return p.sequential && v.policy() != model.UpdateDirect
}

// policy is v's module's update policy, from the compiled table when there
// is one: the module's own reading scans every release.
func (v *view) policy() model.UpdatePolicy {
	if v.tab != nil {
		return v.tab.policy
	}
	return v.m.Policy()
}
