package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Origin says where an input a fact stands on was read from (DESIGN.md
// §3): the file and line of a catalog, a field path of the cluster state
// or the request, or a Kubernetes object of a kubectl dump. The zero
// value says nothing.
type Origin struct {
	// File is the catalog file the fact was read from, as the catalog's
	// path was given; "" for the cluster state and the request, whose
	// files only the caller knows.
	File string
	// Line is the line in File, from 1; 0 when not known.
	Line int
	// Field is the path of the field: in File for a catalog
	// (requirements.kubernetes), from the input's root otherwise
	// (request.enable[0], cluster.modules.csi-ceph.enabled).
	Field string
	// Object is the Kubernetes object of a kubectl dump the field was
	// read from, as Kind/name (ModuleConfig/csi-ceph).
	Object string
}

// IsZero reports whether o says nothing.
func (o Origin) IsZero() bool { return o == Origin{} }

// String is o as a person reads it: file:line (or the file, or, with no
// file nor object, the field), then the object: "dump.yaml:40,
// ModuleConfig/csi-ceph". "" when o says nothing.
func (o Origin) String() string {
	var parts []string
	switch {
	case o.File != "" && o.Line > 0:
		parts = append(parts, o.File+":"+strconv.Itoa(o.Line))
	case o.File != "":
		parts = append(parts, o.File)
	case o.Object == "" && o.Field != "":
		parts = append(parts, o.Field)
	}
	if o.Object != "" {
		parts = append(parts, o.Object)
	}
	return strings.Join(parts, ", ")
}

// Step is one step of an explanation's derivation (DESIGN.md §3): it
// adds the facts it names to what the step before it concluded, and
// says what follows. Steps chain a minimal core into its reason, as
// PubGrub reports one: "because the request enables A and A requires
// B >= 2, A needs B >= 2; B 2.0–2.3 requires deckhouse >= 1.74, so A
// needs deckhouse >= 1.74".
type Step struct {
	// Facts are the numbers of the facts the step adds, from 1, as the
	// explanation lists them.
	Facts []int
	// After is the number of the step this one goes on from, from 1; 0
	// for a step that starts a chain.
	After int
	// Module is the module the conclusion is about: the module the
	// chain starts from; "" for the request as a whole.
	Module string
	// Needs is what the conclusion says Module needs: a module, a
	// capability or a platform component; "" for a conclusion that the
	// request cannot be met.
	Needs string
	// Constraint is the constraint on Needs, as written.
	Constraint string
	// Conclusion is what follows, in words.
	Conclusion string
}

// chainLinks lists the kinds of fact that carry a chain from a module to
// what it needs; the other kinds end it.
var chainLinks = map[FactKind]bool{
	FactModuleRequirement:     true,
	FactCapabilityRequirement: true,
	FactCompoundRequirement:   true,
	FactMissingModule:         true,
	FactMissingCapability:     true,
	FactDeckhouseRequirement:  true,
	FactKubernetesRequirement: true,
	FactPlatformRequirement:   true,
}

// chainStarts lists the kinds of fact that make a module run, where a
// chain starts.
var chainStarts = map[FactKind]bool{
	FactRequestEnable:  true,
	FactRequestPin:     true,
	FactClusterEnabled: true,
	FactKeepVersion:    true,
	FactNoDowngrade:    true,
}

// Derive chains facts, a minimal core in the order the explanation lists
// them, into steps: from each fact that makes a module run, through the
// requirements that lead from it to what it needs, each requirement one
// step; the facts no chain reads close the derivation. The words of every
// step come from here, the one place they are made. A core with no two
// facts that chain is one step: its facts together.
func Derive(facts []Fact) []Step {
	used := make([]bool, len(facts))
	var steps []Step
	for i, start := range facts {
		if !chainStarts[start.Kind] || start.Module == "" || used[i] {
			continue
		}
		chain := follow(facts, used, i)
		if len(chain) == 0 {
			continue
		}
		used[i] = true
		after := 0
		for k, j := range chain {
			used[j] = true
			f := facts[j]
			s := Step{After: after, Module: start.Module, Facts: []int{j + 1}}
			if k == 0 {
				s.Facts = []int{min(i, j) + 1, max(i, j) + 1}
			}
			s.Needs, s.Constraint = needs(f)
			s.Conclusion = conclusion(s)
			steps = append(steps, s)
			after = len(steps)
		}
	}
	var rest []int
	for i, u := range used {
		if !u {
			rest = append(rest, i+1)
		}
	}
	if len(facts) == 0 {
		return nil
	}
	last := Step{After: len(steps), Facts: rest}
	last.Conclusion = conclusion(last)
	return append(steps, last)
}

// follow walks from facts[start]'s module along the requirement facts
// not used yet: from a module to the first fact that requires something
// of it, then on from what that fact requires, as long as it is a module
// of the core. It returns the indices of the facts walked.
func follow(facts []Fact, used []bool, start int) []int {
	var chain []int
	seen := map[string]bool{}
	module := facts[start].Module
	for module != "" && !seen[module] {
		seen[module] = true
		next := -1
		for j, f := range facts {
			if !used[j] && j != start && chainLinks[f.Kind] && f.Module == module && !slices.Contains(chain, j) {
				next = j
				break
			}
		}
		if next < 0 {
			break
		}
		chain = append(chain, next)
		module = facts[next].Requires
	}
	return chain
}

// needs is what a requirement fact makes its chain need.
func needs(f Fact) (what, constraint string) {
	switch f.Kind {
	case FactDeckhouseRequirement:
		return PlatformDeckhouse, f.Constraint
	case FactKubernetesRequirement:
		return PlatformKubernetes, f.Constraint
	case FactCompoundRequirement:
		// Subject is the predicate itself, which the constraint repeats.
		return "a release of another module that matches " + f.Subject, ""
	}
	return f.Requires, f.Constraint
}

// conclusion words a step: what its module needs, or, for the step that
// closes a derivation, that the request cannot be met.
func conclusion(s Step) string {
	by := "by " + factList(s.Facts)
	switch {
	case s.Needs == "" && len(s.Facts) == 0:
		return "the request cannot be met"
	case s.Needs == "" && s.After == 0:
		return "by " + factList(s.Facts) + ", the request cannot be met"
	case s.Needs == "":
		return "with " + factList(s.Facts) + ", the request cannot be met"
	case s.After > 0:
		by = "then by " + factList(s.Facts)
	}
	return strings.TrimSpace(fmt.Sprintf("%s, %s needs %s %s", by, s.Module, s.Needs, s.Constraint))
}

// factList names fact numbers as a person reads them: "1", "1 and 2",
// "1, 2 and 3".
func factList(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// Chains reports whether steps say more than their facts side by side:
// whether a chain has two links or more, or two chains meet.
func Chains(steps []Step) bool {
	return len(steps) > 2
}

// StepsText joins steps into one sentence, the derivation's prose: "by 1
// and 2, a needs b >= 2; then by 3, a needs deckhouse >= 1.74: the
// request cannot be met".
func StepsText(steps []Step) string {
	var b strings.Builder
	for i, s := range steps {
		switch {
		case i == 0:
		case s.Needs == "" && len(s.Facts) == 0:
			b.WriteString(": ")
		default:
			b.WriteString("; ")
		}
		b.WriteString(s.Conclusion)
	}
	return b.String()
}
