package catalog

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// fileCompound is one node of a compound requirement in the single-file
// format (R24): exactly one of module (with an optional version),
// capability, all, any and not; message only on a requirement itself.
type fileCompound struct {
	Module     *string         `yaml:"module"`
	Version    *string         `yaml:"version"`
	Capability *string         `yaml:"capability"`
	All        []*fileCompound `yaml:"all"`
	Any        []*fileCompound `yaml:"any"`
	Not        *fileCompound   `yaml:"not"`
	Message    *string         `yaml:"message"`

	line int
	keys []string // the keys written, so that "all: []" counts as written
}

// decodeYAML records the node's line and keys, for error messages.
func (fc *fileCompound) decodeYAML(w *walker, n *yaml.Node) error {
	type plain fileCompound
	fc.line = n.Line
	if n.Kind == yaml.MappingNode {
		for i := 0; i < len(n.Content); i += 2 {
			fc.keys = append(fc.keys, n.Content[i].Value)
		}
	}
	return w.into(n, (*plain)(fc))
}

// UnmarshalYAML decodes fc as decodeNode does.
func (fc *fileCompound) UnmarshalYAML(n *yaml.Node) error { return decodeNode(n, fc) }

// compoundKinds are the keys that say what a node is, in the order the
// format documents them.
var compoundKinds = []string{"module", "capability", "all", "any", "not"}

// compounds reads the compound requirements of one release or built-in
// module.
func (p place) compounds(list []*fileCompound) ([]model.CompoundRequirement, error) {
	var out []model.CompoundRequirement
	for i, fc := range list {
		field := fmt.Sprintf("compound[%d]", i)
		if fc == nil {
			return nil, p.compoundErr(0, field, model.ErrMissingField, "an empty compound requirement")
		}
		pred, err := p.predicate(fc, field)
		if err != nil {
			return nil, err
		}
		c := model.CompoundRequirement{Predicate: pred}
		if fc.Message != nil {
			c.Message = strings.TrimSpace(*fc.Message)
		}
		out = append(out, c)
	}
	return out, nil
}

// predicate reads one node and its operands.
func (p place) predicate(fc *fileCompound, field string) (*model.Predicate, error) {
	var kinds []string
	for _, k := range fc.keys {
		for _, kind := range compoundKinds {
			if k == kind {
				kinds = append(kinds, k)
			}
		}
	}
	switch {
	case len(kinds) == 0:
		return nil, p.compoundErr(fc.line, field, model.ErrMissingField, "a compound requirement names none of %s", strings.Join(compoundKinds, ", "))
	case len(kinds) > 1:
		return nil, p.compoundErr(fc.line, field, model.ErrInvalidValue, "a compound requirement names both %s and %s: write an all to combine them", kinds[0], kinds[1])
	case fc.Version != nil && kinds[0] != "module":
		return nil, p.compoundErr(fc.line, field, model.ErrInvalidValue, "version belongs to a module atom, not to %s", kinds[0])
	case fc.Message != nil && strings.Contains(field, "."):
		return nil, p.compoundErr(fc.line, field, model.ErrInvalidValue, "message belongs to a compound requirement, not to one of its operands")
	}
	switch kinds[0] {
	case "module":
		return p.moduleAtom(fc, field)
	case "capability":
		if fc.Capability == nil || strings.TrimSpace(*fc.Capability) == "" {
			return nil, p.compoundErr(fc.line, field, model.ErrMissingField, "a capability atom has no capability")
		}
		return &model.Predicate{Op: model.PredicateCapability, Capability: strings.TrimSpace(*fc.Capability)}, nil
	case "not":
		if fc.Not == nil {
			return nil, p.compoundErr(fc.line, field, model.ErrMissingField, "an empty not")
		}
		operand, err := p.predicate(fc.Not, field+".not")
		if err != nil {
			return nil, err
		}
		return &model.Predicate{Op: model.PredicateNot, Operands: []*model.Predicate{operand}}, nil
	}
	op, list := model.PredicateAll, fc.All
	if kinds[0] == "any" {
		op, list = model.PredicateAny, fc.Any
	}
	if len(list) == 0 {
		return nil, p.compoundErr(fc.line, field, model.ErrMissingField, "an empty %s: it needs at least one operand", kinds[0])
	}
	pred := &model.Predicate{Op: op}
	for i, sub := range list {
		subField := field + "." + kinds[0] + "[" + strconv.Itoa(i) + "]"
		if sub == nil {
			return nil, p.compoundErr(fc.line, subField, model.ErrMissingField, "an empty operand")
		}
		operand, err := p.predicate(sub, subField)
		if err != nil {
			return nil, err
		}
		pred.Operands = append(pred.Operands, operand)
	}
	return pred, nil
}

// moduleAtom reads {module: m, version: C}; no version means any.
func (p place) moduleAtom(fc *fileCompound, field string) (*model.Predicate, error) {
	if fc.Module == nil || strings.TrimSpace(*fc.Module) == "" {
		return nil, p.compoundErr(fc.line, field, model.ErrMissingField, "a module atom has no module name")
	}
	pred := &model.Predicate{Op: model.PredicateModule, Module: strings.TrimSpace(*fc.Module)}
	if fc.Version == nil {
		return pred, nil
	}
	c, err := p.constraint(field+".version", *fc.Version)
	if err != nil {
		return nil, err
	}
	if c.Optional {
		return nil, p.compoundErr(fc.line, field+".version", model.ErrInvalidValue, "%q: !optional has no meaning in a compound requirement", c.Text)
	}
	pred.Version = &c
	return pred, nil
}

// compoundErr is a bad compound requirement at line, naming the file,
// module and release.
func (p place) compoundErr(line int, field string, sentinel error, format string, args ...any) error {
	where := "module " + p.module
	if p.release != "" {
		where += ": release " + p.release
	}
	return &ParseError{File: p.file, Line: line, Err: fmt.Errorf("%s: requirements.%s: %w: "+format, append([]any{where, field, sentinel}, args...)...)}
}
