package catalog

import (
	"fmt"
	"reflect"

	"go.yaml.in/yaml/v3"
)

// decodeNode decodes node into v as yaml's own decoder does, in time
// linear in the node. yaml checks a mapping decoded into a Go map for
// repeated keys by comparing every key with every other, so that a map of
// 100,000 keys took 41 s and one client could keep a server busy with a
// small inline catalog (D200). Down to the large mappings, decodeNode
// walks mappings and sequences itself, checking repeated keys with a set;
// everything else it hands to yaml: subtrees without a large mapping,
// scalars, yaml.Node values, interfaces, and the kind mismatches whose
// type errors yaml words. A type that implements yaml.Unmarshaler decodes
// itself, and decodes its parts with decodeNode in turn.
func decodeNode(node *yaml.Node, v any) error {
	return walker{large: largeMapping}.decode(node, v)
}

// walker decodes the mappings of large keys or more itself, and leaves
// every subtree without one to yaml.
type walker struct{ large int }

func (w walker) decode(node *yaml.Node, v any) error {
	if !w.hasLargeMapping(node) {
		return node.Decode(v) // yaml's decoder is faster where it is not quadratic
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("internal error: decodeNode needs a non-nil pointer, not %T", v)
	}
	return w.value(node, rv.Elem())
}

// largeMapping is the number of keys from which a mapping is decoded by
// walker.value: below it, yaml's comparison of every key with every other
// costs less than walking the mapping by reflection.
const largeMapping = 256

// hasLargeMapping reports whether node or a node below it is a mapping of
// w.large keys or more.
func (w walker) hasLargeMapping(node *yaml.Node) bool {
	if node.Kind == yaml.MappingNode && len(node.Content) >= 2*w.large {
		return true
	}
	for _, c := range node.Content {
		if w.hasLargeMapping(c) {
			return true
		}
	}
	return false
}

var unmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()

func (w walker) value(node *yaml.Node, v reflect.Value) error {
	if node.Kind == yaml.AliasNode {
		return w.value(node.Alias, v)
	}
	if !w.hasLargeMapping(node) {
		return node.Decode(v.Addr().Interface())
	}
	if v.CanAddr() && v.Addr().Type().Implements(unmarshalerType) && v.Type() != nodeType {
		return v.Addr().Interface().(yaml.Unmarshaler).UnmarshalYAML(node)
	}
	switch {
	case v.Kind() == reflect.Pointer:
		if isNull(node) {
			v.SetZero()
			return nil
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return w.value(node, v.Elem())
	case v.Type() == nodeType || v.Kind() == reflect.Interface || hasMergeKey(node):
		return node.Decode(v.Addr().Interface())
	case v.Kind() == reflect.Struct && node.Kind == yaml.MappingNode:
		return w.structure(node, v)
	case v.Kind() == reflect.Map && node.Kind == yaml.MappingNode:
		return w.mapping(node, v)
	case v.Kind() == reflect.Slice && node.Kind == yaml.SequenceNode:
		s := reflect.MakeSlice(v.Type(), len(node.Content), len(node.Content))
		for i, item := range node.Content {
			if err := w.value(item, s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	}
	return node.Decode(v.Addr().Interface()) // scalars, nulls and type errors, in yaml's words
}

// structure decodes a mapping into a struct: each key into its field,
// the keys no field names into the inline map if there is one; other keys
// are left to checkKeys, as yaml leaves them.
func (w walker) structure(node *yaml.Node, v reflect.Value) error {
	t := v.Type()
	fields := yamlFields(t)
	inline, hasInline := inlineMap(t)
	seen := make(map[string]int, len(node.Content)/2)
	for i := 0; i+1 < len(node.Content); i += 2 {
		key, value := node.Content[i], node.Content[i+1]
		if err := once(seen, key); err != nil {
			return err
		}
		if f, ok := fields[key.Value]; ok {
			if err := w.value(value, v.FieldByIndex(f.Index)); err != nil {
				return err
			}
			continue
		}
		if !hasInline {
			continue
		}
		m := v.FieldByIndex(inline.Index)
		if m.IsNil() {
			m.Set(reflect.MakeMap(m.Type()))
		}
		if err := w.entry(m, key, value); err != nil {
			return err
		}
	}
	return nil
}

// mapping decodes a mapping into a map, entry by entry.
func (w walker) mapping(node *yaml.Node, v reflect.Value) error {
	if v.IsNil() {
		v.Set(reflect.MakeMapWithSize(v.Type(), len(node.Content)/2))
	}
	seen := make(map[string]int, len(node.Content)/2)
	for i := 0; i+1 < len(node.Content); i += 2 {
		if err := once(seen, node.Content[i]); err != nil {
			return err
		}
		if err := w.entry(v, node.Content[i], node.Content[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// entry decodes one key and value into map m.
func (w walker) entry(m reflect.Value, key, value *yaml.Node) error {
	k := reflect.New(m.Type().Key()).Elem()
	if err := w.value(key, k); err != nil {
		return err
	}
	e := reflect.New(m.Type().Elem()).Elem()
	if err := w.value(value, e); err != nil {
		return err
	}
	m.SetMapIndex(k, e)
	return nil
}

// once refuses a key that the mapping has already, in yaml's words.
func once(seen map[string]int, key *yaml.Node) error {
	if key.Kind != yaml.ScalarNode {
		return nil // yaml compares such keys by value too; catalogs have none
	}
	if line, dup := seen[key.Value]; dup {
		return fmt.Errorf("line %d: mapping key %q already defined at line %d", key.Line, key.Value, line)
	}
	seen[key.Value] = key.Line
	return nil
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// hasMergeKey reports whether a mapping uses yaml's merge key (<<), which
// yaml's decoder expands; such a node is left to it.
func hasMergeKey(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].ShortTag() == "!!merge" {
			return true
		}
	}
	return false
}
