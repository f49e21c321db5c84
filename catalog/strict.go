package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// parseNode reads the single YAML or JSON document in data. JSON is read
// by the same parser, since it is a subset of YAML. A large file is parsed
// in parts on several cores where it can be (split.go, D324).
func parseNode(file string, data []byte) (*yaml.Node, error) {
	if len(data) >= splitMin {
		if node, ok := parseSplit(data, splitParts(), splitPart); ok {
			return node, nil
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &ParseError{File: file, Err: fmt.Errorf("%w: the file is empty", ErrSyntax)}
		}
		return nil, syntaxError(file, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, &ParseError{File: file, Line: extra.Line, Err: fmt.Errorf("%w: more than one YAML document", ErrSyntax)}
	}
	if len(doc.Content) == 0 {
		return nil, &ParseError{File: file, Err: fmt.Errorf("%w: the file is empty", ErrSyntax)}
	}
	return doc.Content[0], nil
}

// decodeStrict decodes node into v and refuses keys that v's type does
// not define, naming the line of the first one.
func decodeStrict(file string, node *yaml.Node, v any) error {
	if err := checkKeys(file, node, reflect.TypeOf(v)); err != nil {
		return err
	}
	return decode(file, node, v)
}

// decode decodes node into v, turning yaml's type errors into *ParseError.
func decode(file string, node *yaml.Node, v any) error {
	if err := decodeNode(node, v); err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return err
		}
		return syntaxError(file, err)
	}
	return nil
}

// syntaxError turns a yaml error, whose text starts with "yaml: line N:",
// into a *ParseError with that line.
func syntaxError(file string, err error) error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 0
	if n, _ := fmt.Sscanf(msg, "line %d:", &line); n == 1 {
		_, msg, _ = strings.Cut(msg, ": ")
	}
	return &ParseError{File: file, Line: line, Err: fmt.Errorf("%w: %s", ErrSyntax, msg)}
}

var nodeType = reflect.TypeOf(yaml.Node{})

// checkKeys walks node along type t and reports the first mapping key
// that t has no field for. Fields of type yaml.Node are checked by whoever
// decodes them.
func checkKeys(file string, node *yaml.Node, t reflect.Type) error {
	return keyCheck{file: file, keys: &walker{}}.node(node, t)
}

// keyCheck is one checkKeys walk; keys works out each struct type's keys
// once.
type keyCheck struct {
	file string
	keys *walker
}

func (c keyCheck) node(node *yaml.Node, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nodeType {
		return nil
	}
	if node.Kind == yaml.AliasNode {
		return c.node(node.Alias, t)
	}
	switch {
	case t.Kind() == reflect.Struct && node.Kind == yaml.MappingNode:
		return c.structure(node, t)
	case t.Kind() == reflect.Map && node.Kind == yaml.MappingNode:
		for i := 1; i < len(node.Content); i += 2 {
			if err := c.node(node.Content[i], t.Elem()); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Slice && node.Kind == yaml.SequenceNode:
		for _, item := range node.Content {
			if err := c.node(item, t.Elem()); err != nil {
				return err
			}
		}
	}
	// Any other mismatch of kinds is a type error, which decoding reports.
	return nil
}

func (c keyCheck) structure(node *yaml.Node, t reflect.Type) error {
	sk := c.keys.keysOf(t)
	for i := 0; i+1 < len(node.Content); i += 2 {
		key := node.Content[i]
		field, ok := sk.fields[key.Value]
		if !ok && sk.hasInline {
			field, ok = reflect.StructField{Type: sk.inline.Type.Elem()}, true
		}
		if !ok {
			return &ParseError{File: c.file, Line: key.Line, Err: fmt.Errorf("%w %q (known keys: %s)", ErrUnknownKey, key.Value, knownKeys(t))}
		}
		if err := c.node(node.Content[i+1], field.Type); err != nil {
			return err
		}
	}
	return nil
}

// cutTag returns the name and options of a field's yaml tag.
func cutTag(f reflect.StructField) (name, opts string) {
	name, opts, _ = strings.Cut(f.Tag.Get("yaml"), ",")
	return name, opts
}

// yamlFields maps each yaml key of struct type t to its field.
func yamlFields(t reflect.Type) map[string]reflect.StructField {
	fields := make(map[string]reflect.StructField, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts := cutTag(f)
		if name == "-" || opts == "inline" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		fields[name] = f
	}
	return fields
}

// inlineMap returns the field of struct type t that collects the keys no
// other field names (`yaml:",inline"` on a map), if there is one.
func inlineMap(t reflect.Type) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if _, opts := cutTag(f); opts == "inline" && f.Type.Kind() == reflect.Map {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// knownKeys lists the keys of struct type t in declaration order, for
// error messages.
func knownKeys(t reflect.Type) string {
	var keys []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return strings.Join(keys, ", ")
}
