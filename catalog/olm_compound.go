package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// An olm.constraint is one of package, gvk, all, any, not or cel, with an
// optional failureMessage (OLM's compound constraints). One naming a
// package or a GVK alone is read as that dependency (olm.go); the others
// are compound requirements (R24):
//
//   - all: {constraints: [...]} and any: {constraints: [...]} are all and
//     any over the operands;
//   - not: {constraints: [...]} holds when none of its operands does, as
//     OLM reads it: not over one operand, or over an any of several; at
//     the top it is a conflict;
//   - package {packageName, versionRange} inside them is a module atom,
//     with no version for an empty range; gvk is a capability atom;
//   - the top-level failureMessage is the requirement's message; those of
//     operands are not kept;
//   - a cel constraint, anywhere in the tree, cannot be expressed: the
//     constraint is skipped, with a warning naming the bundle and the
//     rule, and counted.

// olmCelSkipped counts the olm.constraints skipped for a cel expression.
const olmCelSkipped = "olm.constraints skipped (cel)"

// errOLMCel marks a constraint that holds a cel expression.
var errOLMCel = errors.New("cel")

// olmConstraintNode is one node of an olm.constraint tree: an atom of
// olmConstraint, or all, any, not or cel.
type olmConstraintNode struct {
	olmConstraint
	All *olmConstraintList `json:"all"`
	Any *olmConstraintList `json:"any"`
	Not *olmConstraintList `json:"not"`
	Cel *struct {
		Rule string `json:"rule"`
	} `json:"cel"`
}

// olmConstraintList is the value of all, any and not.
type olmConstraintList struct {
	Constraints []olmConstraintNode `json:"constraints"`
}

// compound reads a compound olm.constraint onto b: a compound requirement,
// a skipped cel constraint, or a reason b cannot be loaded.
func (b *olmBundle) compound(raw json.RawMessage) {
	var n olmConstraintNode
	if err := json.Unmarshal(raw, &n); err != nil {
		b.fail("olm.constraint: %v", err)
		return
	}
	pred, err := n.predicate()
	switch {
	case errors.Is(err, errOLMCel):
		b.count(olmCelSkipped, 1)
		b.notes = append(b.notes, fmt.Sprintf("bundle %s: olm.constraint %s is skipped: a cel expression cannot be resolved offline", b.path(), olmConstraintText(n)))
		return
	case err != nil:
		b.fail("olm.constraint: %v", err)
		return
	}
	b.compounds = append(b.compounds, model.CompoundRequirement{Predicate: pred, Message: strings.TrimSpace(n.FailureMessage)})
}

// olmConstraintText names a skipped constraint by its message, else its
// JSON.
func olmConstraintText(n olmConstraintNode) string {
	if n.FailureMessage != "" {
		return fmt.Sprintf("%q", n.FailureMessage)
	}
	data, _ := json.Marshal(n)
	return string(data)
}

// predicate maps one node onto a predicate; errOLMCel when the node or an
// operand is a cel expression.
func (n olmConstraintNode) predicate() (*model.Predicate, error) {
	var kinds []string
	for kind, set := range map[string]bool{"package": n.Package != nil, "gvk": n.GVK != nil, "all": n.All != nil, "any": n.Any != nil, "not": n.Not != nil, "cel": n.Cel != nil} {
		if set {
			kinds = append(kinds, kind)
		}
	}
	slices.Sort(kinds)
	switch {
	case slices.Contains(kinds, "cel"):
		return nil, errOLMCel
	case len(kinds) == 0:
		return nil, fmt.Errorf("%w: a constraint names none of package, gvk, all, any, not and cel", model.ErrMissingField)
	case len(kinds) > 1:
		return nil, fmt.Errorf("%w: a constraint names %s at once", model.ErrInvalidValue, strings.Join(kinds, " and "))
	case n.Package != nil:
		return olmPackageAtom(n.Package.PackageName, n.Package.VersionRange)
	case n.GVK != nil:
		c, err := n.GVK.capability()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", model.ErrInvalidValue, err)
		}
		return &model.Predicate{Op: model.PredicateCapability, Capability: c}, nil
	case n.All != nil:
		return n.All.predicate(model.PredicateAll, "all")
	case n.Any != nil:
		return n.Any.predicate(model.PredicateAny, "any")
	}
	operand, err := n.Not.predicate(model.PredicateAny, "not")
	if err != nil {
		return nil, err
	}
	if len(operand.Operands) == 1 {
		operand = operand.Operands[0]
	}
	return &model.Predicate{Op: model.PredicateNot, Operands: []*model.Predicate{operand}}, nil
}

// predicate maps a list of constraints onto op over them.
func (l *olmConstraintList) predicate(op model.PredicateOp, key string) (*model.Predicate, error) {
	if len(l.Constraints) == 0 {
		return nil, fmt.Errorf("%w: an empty %s", model.ErrMissingField, key)
	}
	out := &model.Predicate{Op: op}
	var celErr error
	for _, c := range l.Constraints {
		operand, err := c.predicate()
		switch {
		case errors.Is(err, errOLMCel):
			celErr = err // a cel operand skips the whole constraint, unless something else is wrong
			continue
		case err != nil:
			return nil, err
		}
		out.Operands = append(out.Operands, operand)
	}
	if celErr != nil {
		return nil, celErr
	}
	return out, nil
}

// olmPackageAtom is a module atom from a package constraint; an empty
// range means any version.
func olmPackageAtom(pkg, versionRange string) (*model.Predicate, error) {
	if strings.TrimSpace(pkg) == "" {
		return nil, fmt.Errorf("%w: a package constraint has no packageName", model.ErrMissingField)
	}
	pred := &model.Predicate{Op: model.PredicateModule, Module: strings.TrimSpace(pkg)}
	if strings.TrimSpace(versionRange) == "" {
		return pred, nil
	}
	c, err := model.ParseConstraint(versionRange)
	if err != nil {
		return nil, fmt.Errorf("package %s: %w", pkg, err)
	}
	if c.Optional {
		return nil, fmt.Errorf("%w: package %s: %q: !optional has no meaning in a constraint", model.ErrInvalidConstraint, pkg, versionRange)
	}
	pred.Version = &c
	return pred, nil
}
