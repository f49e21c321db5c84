package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// CompoundRequirement is a requirement on one other release, written as a
// predicate over it (R24), as OLM's olm.constraint with all, any and not.
// It holds when the selected release of some enabled module other than
// the requiring one satisfies the predicate. A predicate whose root is not
// is a conflict instead: it holds when no enabled module's selected
// release satisfies the operand of the not.
type CompoundRequirement struct {
	Predicate *Predicate
	// Message is quoted by explanations (OLM's failureMessage); "" for none.
	Message string
	// Group is the DKP v2 group the requirement was written as (R28); nil
	// for any other. Explanations then speak of the group in DKP's words.
	Group *Group
}

// Predicate is one node of a compound requirement's predicate tree.
type Predicate struct {
	Op PredicateOp
	// Module and Version are a module atom's: a release of Module whose
	// version, read by the writer's version reading (R6), satisfies
	// Version; nil Version means any version.
	Module  string
	Version *Constraint
	// Capability is a capability atom's: a release that provides it.
	Capability string
	// Operands are all's and any's operands, or not's single one.
	Operands []*Predicate
}

// PredicateOp is the kind of a predicate node.
type PredicateOp int

const (
	PredicateUnspecified PredicateOp = iota
	// PredicateModule holds for a release of a module, at a version.
	PredicateModule
	// PredicateCapability holds for a release that provides a capability.
	PredicateCapability
	// PredicateAll holds when every operand holds.
	PredicateAll
	// PredicateAny holds when some operand holds.
	PredicateAny
	// PredicateNot holds when its operand does not.
	PredicateNot
)

// predicateOps is the table of predicate kinds: the key that writes each
// in the catalog formats, and how many operands it takes (-1: one or
// more).
var predicateOps = map[PredicateOp]struct {
	key      string
	operands int
}{
	PredicateModule:     {"module", 0},
	PredicateCapability: {"capability", 0},
	PredicateAll:        {"all", -1},
	PredicateAny:        {"any", -1},
	PredicateNot:        {"not", 1},
}

// PredicateOps lists the predicate kinds in a fixed order.
var PredicateOps = []PredicateOp{PredicateModule, PredicateCapability, PredicateAll, PredicateAny, PredicateNot}

func (op PredicateOp) String() string {
	if d, ok := predicateOps[op]; ok {
		return d.key
	}
	return "unspecified"
}

// Conflict reports whether the requirement is a conflict: a top-level not.
func (c CompoundRequirement) Conflict() bool {
	return c.Predicate != nil && c.Predicate.Op == PredicateNot && len(c.Predicate.Operands) == 1
}

// Target is the predicate that some enabled module must satisfy, or, for
// a conflict, that none may.
func (c CompoundRequirement) Target() *Predicate {
	if c.Conflict() {
		return c.Predicate.Operands[0]
	}
	return c.Predicate
}

// String renders the requirement as one line, message included.
func (c CompoundRequirement) String() string {
	text := c.Predicate.String()
	if c.Group != nil {
		text = c.Group.text() + text
	}
	if c.Message == "" {
		return text
	}
	return text + " (" + strconv.Quote(c.Message) + ")"
}

// Holds reports whether a release at version v that provides provides
// (sorted) satisfies p, its ranges read by rd, the reading of the module
// that wrote p, and the request's devel (R6); the module is the release's
// module.
func (p *Predicate) Holds(module string, v Version, provides []string, rd VersionReading, devel bool) bool {
	switch p.Op {
	case PredicateModule:
		return p.Module == module && (p.Version == nil || rd.Admits(p.Version, v, devel))
	case PredicateCapability:
		_, ok := slices.BinarySearch(provides, p.Capability)
		return ok
	case PredicateAll:
		for _, o := range p.Operands {
			if !o.Holds(module, v, provides, rd, devel) {
				return false
			}
		}
		return true
	case PredicateAny:
		for _, o := range p.Operands {
			if o.Holds(module, v, provides, rd, devel) {
				return true
			}
		}
		return false
	case PredicateNot:
		return !p.Operands[0].Holds(module, v, provides, rd, devel)
	}
	panic(fmt.Sprintf("internal error: predicate kind %d", p.Op))
}

// Names returns the modules and capabilities p's atoms name, in the
// order they are written, and whether they bound p: bounded is false when
// a release of a module that no atom names, and that provides none of the
// capabilities named, may satisfy p (a not that no bounded operand of an
// all confines).
func (p *Predicate) Names() (modules, capabilities []string, bounded bool) {
	switch p.Op {
	case PredicateModule:
		return []string{p.Module}, nil, true
	case PredicateCapability:
		return nil, []string{p.Capability}, true
	case PredicateNot:
		return nil, nil, false
	}
	bounded = p.Op == PredicateAny
	for _, o := range p.Operands {
		ms, cs, b := o.Names()
		modules, capabilities = append(modules, ms...), append(capabilities, cs...)
		if p.Op == PredicateAll {
			bounded = bounded || b
		} else {
			bounded = bounded && b
		}
	}
	return modules, capabilities, bounded
}

// String renders p in a compact form: "etcd > 3.1.0", "postgres-operator",
// "capability x/v1/K", "all(a, b)", "any(a, b)", "not(a)".
func (p *Predicate) String() string {
	var b strings.Builder
	p.write(&b)
	return b.String()
}

func (p *Predicate) write(b *strings.Builder) {
	switch p.Op {
	case PredicateModule:
		b.WriteString(p.Module)
		if p.Version != nil {
			b.WriteString(" " + p.Version.Text)
		}
		return
	case PredicateCapability:
		b.WriteString("capability " + p.Capability)
		return
	}
	b.WriteString(p.Op.String() + "(")
	for i, o := range p.Operands {
		if i > 0 {
			b.WriteString(", ")
		}
		o.write(b)
	}
	b.WriteString(")")
}

// validate checks one predicate node and its operands; field names it.
func (p *Predicate) validate(field Path) InputErrors {
	if p == nil {
		return InputErrors{fieldErr(field, ErrMissingField, "a compound requirement has no predicate: want one of module, capability, all, any or not")}
	}
	d, ok := predicateOps[p.Op]
	if !ok {
		return InputErrors{fieldErr(field, ErrInvalidValue, "predicate kind %d is none of module, capability, all, any or not", p.Op)}
	}
	var errs InputErrors
	switch {
	case p.Op == PredicateModule && p.Module == "":
		errs = append(errs, fieldErr(field, ErrMissingField, "a module atom has no module name"))
	case p.Op == PredicateModule && p.Version != nil && p.Version.Optional:
		errs = append(errs, fieldErr(field.Field("version"), ErrInvalidValue, "%q: !optional has no meaning in a compound requirement", p.Version.Text))
	case p.Op == PredicateCapability && p.Capability == "":
		errs = append(errs, fieldErr(field, ErrMissingField, "a capability atom has no capability"))
	case d.operands == -1 && len(p.Operands) == 0:
		errs = append(errs, fieldErr(field.Field(d.key), ErrMissingField, "an empty %s: it needs at least one operand", d.key))
	case d.operands >= 0 && len(p.Operands) != d.operands:
		errs = append(errs, fieldErr(field, ErrInvalidValue, "%s takes %d operand(s), not %d", d.key, d.operands, len(p.Operands)))
	}
	for i, o := range p.Operands {
		sub := field.Field(d.key)
		if d.operands == -1 {
			sub = sub.Index(i)
		}
		errs = append(errs, o.validate(sub)...)
	}
	return errs
}

// checkCompound validates the compound requirements of one release, or of
// a built-in module, at field, and puts valid ones in a canonical order:
// the operands of all and any, then the requirements, by their text, so
// that the input order never matters (R15).
func checkCompound(field Path, req Requirements) InputErrors {
	var errs InputErrors
	for i, c := range req.Compound {
		at := field.Field("requirements", "compound").Index(i)
		errs = append(errs, c.Predicate.validate(at)...)
		if c.Group != nil && len(errs) == 0 {
			errs = append(errs, c.validateGroup(at)...)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	for _, c := range req.Compound {
		c.Predicate.canonicalize()
	}
	slices.SortStableFunc(req.Compound, func(a, b CompoundRequirement) int { return strings.Compare(a.String(), b.String()) })
	return nil
}

// canonicalize sorts the operands of every all and any under p by text.
func (p *Predicate) canonicalize() {
	for _, o := range p.Operands {
		o.canonicalize()
	}
	if p.Op == PredicateAll || p.Op == PredicateAny {
		slices.SortStableFunc(p.Operands, func(a, b *Predicate) int { return strings.Compare(a.String(), b.String()) })
	}
}

// HasCompoundRequirements reports whether m, or any release of it, has a
// compound requirement (R24).
func (m *Module) HasCompoundRequirements() bool {
	return len(m.Requirements.Compound) > 0 ||
		slices.ContainsFunc(m.Releases, func(r *Release) bool { return len(r.Requirements.Compound) > 0 })
}
