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
			return nil, &ParseError{File: file, Err: ErrEmptyFile}
		}
		return nil, yamlSyntaxError(file, data, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, &ParseError{File: file, Line: extra.Line, Err: fmt.Errorf("%w: more than one YAML document", ErrSyntax)}
	}
	if len(doc.Content) == 0 {
		return nil, &ParseError{File: file, Err: ErrEmptyFile}
	}
	return doc.Content[0], nil
}

// decodeStrict decodes node into v and refuses keys that v's type does
// not define, naming the line of the first one, and values of the wrong
// kind (a list where v's type has a mapping, say), naming the key.
func decodeStrict(file string, node *yaml.Node, v any) error {
	if err := checkKeys(file, node, reflect.TypeOf(v)); err != nil {
		return err
	}
	return decode(file, node, v)
}

// decode decodes node into v, turning yaml's type errors into *ParseError.
// A document of the wrong kind, such as a list where a catalog is a
// mapping, is said in the format's words (documents).
func decode(file string, node *yaml.Node, v any) error {
	if err := wrongDocument(file, node, reflect.TypeOf(v)); err != nil {
		return err
	}
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
// into a *ParseError with that line. A type error's line, a node's, is
// the line the value is on; an error of yaml's parser goes through
// yamlSyntaxError, which corrects its line.
func syntaxError(file string, err error) error {
	line, msg := yamlLine(err)
	return &ParseError{File: file, Line: line, Err: fmt.Errorf("%w: %s", ErrSyntax, msg)}
}

// yamlLine splits a yaml error into the line its text names (0 for none)
// and the rest of its text.
func yamlLine(err error) (int, string) {
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
	return line, msg
}

// yamlSyntaxError is syntaxError for an error of yaml's parser reading
// data, at the line, counted from 1, that the problem is on. yaml's parser
// words its line from a mark that counts from 0 and adds one only for an
// error of its scanner, so the line of a parser error (parserProblems) is
// one more than the text says (the first when the text names none); a
// problem found at the end of the data, as an unclosed bracket is, is on
// the last line that holds anything, not on the empty end. For
// a tab in an indentation the scanner names the line where the scalar it
// was reading starts (or, for a scalar on the first line, the tab's own);
// the tab is on the first line from there that is indented with one.
func yamlSyntaxError(file string, data []byte, err error) error {
	line, msg := yamlLine(err)
	switch {
	case parserProblems[msg]:
		line = min(line+1, lastLine(data))
	case strings.HasPrefix(msg, "found a tab character"):
		line = tabLine(data, line)
	}
	return &ParseError{File: file, Line: line, Err: fmt.Errorf("%w: %s", ErrSyntax, msg)}
}

// parserProblems are the problems yaml's parser (not its scanner) words,
// as its parserc.go does.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

// lastLine returns the last line of data, counted from 1, that holds
// more than white space; 1 when none does.
func lastLine(data []byte) int {
	trimmed := bytes.TrimRight(data, " \t\r\n")
	return bytes.Count(trimmed, []byte("\n")) + 1
}

// tabLine returns the first line of data from line on (both counted from
// 1) whose indentation holds a tab, or line when none does.
func tabLine(data []byte, line int) int {
	for i, text := range bytes.Split(data, []byte("\n")) {
		if i+1 < line {
			continue
		}
		indent := text[:len(text)-len(bytes.TrimLeft(text, " \t"))]
		if bytes.IndexByte(indent, '\t') >= 0 {
			return i + 1
		}
	}
	return line
}

var nodeType = reflect.TypeOf(yaml.Node{})

// checkKeys walks node along type t and reports the first mapping key
// that t has no field for, or the first value of a kind that t has no
// room for (wrongKind). Fields of type yaml.Node are checked by whoever
// decodes them.
func checkKeys(file string, node *yaml.Node, t reflect.Type) error {
	if err := wrongDocument(file, node, t); err != nil {
		return err
	}
	return keyCheck{file: file, keys: &walker{}, selfDecoding: map[reflect.Type]bool{}}.node(node, t, "", false)
}

// keyCheck is one checkKeys walk; keys works out each struct type's keys
// once. lenient is set below a type that decodes itself from more than
// one kind of node: what fits there is its decoder's to say.
type keyCheck struct {
	file    string
	keys    *walker
	lenient bool
	// selfDecoding caches decodesItself by type, as keys does the keys.
	selfDecoding map[reflect.Type]bool
}

// node checks node along t. key is the mapping key node is the value of,
// and item whether node is an item of the list under key: what an error
// names.
func (c keyCheck) node(node *yaml.Node, t reflect.Type, key string, item bool) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nodeType {
		return nil
	}
	if node.Kind == yaml.AliasNode {
		return c.node(node.Alias, t, key, item)
	}
	switch {
	case t.Kind() == reflect.Struct && node.Kind == yaml.MappingNode:
		c.lenient = c.lenient || c.decodesItself(t)
		return c.structure(node, t)
	case t.Kind() == reflect.Map && node.Kind == yaml.MappingNode:
		c.lenient = c.lenient || c.decodesItself(t)
		for i := 1; i < len(node.Content); i += 2 {
			if err := c.node(node.Content[i], t.Elem(), node.Content[i-1].Value, false); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Slice && node.Kind == yaml.SequenceNode:
		c.lenient = c.lenient || c.decodesItself(t)
		for _, it := range node.Content {
			if err := c.node(it, t.Elem(), key, true); err != nil {
				return err
			}
		}
	case c.lenient || c.decodesItself(t):
		// What fits a type that decodes itself is its decoder's to say.
	default:
		// Any other mismatch of kinds within one kind (text where a
		// number belongs) is a type error, which decoding reports.
		return c.wrongKind(node, t, key, item)
	}
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
		if err := c.node(node.Content[i+1], field.Type, key.Value, false); err != nil {
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
