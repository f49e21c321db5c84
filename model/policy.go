package model

import (
	"fmt"
	"slices"
)

// UpdatePolicy is how one update of a module may move it (R11, R21). The
// importer that reads a module sets it, so that each ecosystem's modules
// update by that ecosystem's rule (D66).
type UpdatePolicy string

const (
	// UpdateSequential is DKP's sequential rule (R11): one step at a time,
	// or a from-to jump.
	UpdateSequential UpdatePolicy = "sequential"
	// UpdateGraph follows the update edges the releases declare
	// (replaces, skips, skipRange; R21), over several edges.
	UpdateGraph UpdatePolicy = "graph"
	// UpdateDirect allows any release between the deployed one and the
	// head, as `helm upgrade` does.
	UpdateDirect UpdatePolicy = "direct"
)

// UpdatePolicies lists the policies, in the order the documentation
// names them.
var UpdatePolicies = []UpdatePolicy{UpdateSequential, UpdateGraph, UpdateDirect}

// Policy is m's update policy: its own, or, when unset, the graph for a
// module whose releases declare update edges and the sequential rule for
// any other.
func (m *Module) Policy() UpdatePolicy {
	switch {
	case m.UpdatePolicy != "":
		return m.UpdatePolicy
	case m.HasUpdateGraph():
		return UpdateGraph
	}
	return UpdateSequential
}

// ParseUpdatePolicy reads a policy name; "" means unset.
func ParseUpdatePolicy(text string) (UpdatePolicy, error) {
	if p := UpdatePolicy(text); text == "" || slices.Contains(UpdatePolicies, p) {
		return p, nil
	}
	return "", fmt.Errorf("%w: unknown update policy %q (want sequential, graph or direct)", ErrInvalidValue, text)
}
