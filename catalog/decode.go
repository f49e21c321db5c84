package catalog

import (
	"encoding"
	"fmt"
	"reflect"

	"go.yaml.in/yaml/v3"
)

// decodeNode decodes node into v as yaml's own decoder does, in one walk
// of the node, in time linear in its size (D200, D322). yaml checks a
// mapping for repeated keys by comparing every key with every other, so
// that a map of 100,000 keys took 41 s; and a type that decoded itself
// through yaml had each of its parts walked again by every level above it.
// walker decodes mappings, sequences and string scalars itself, and checks
// repeated keys with a set from a size up; everything else it hands to
// yaml, so that results and errors stay yaml's: scalars of other types,
// nulls, aliases, merge keys, interfaces, and the kind mismatches whose
// type errors yaml words. A type that implements selfDecoder decodes
// itself with the same walker; one that implements yaml.Unmarshaler is
// called as yaml calls it.
func decodeNode(node *yaml.Node, v any) error {
	return walker{large: largeMapping}.decode(node, v)
}

// largeMapping is the number of keys from which walker finds a mapping's
// repeated keys with a set: below it, comparing every pair, as yaml does,
// costs less than building the set.
const largeMapping = 16

// selfDecoder is a file type that decodes itself from a node, with the
// walker it is given (and so the walker's tables); its UnmarshalYAML, for
// yaml's own decoder, calls decodeNode.
type selfDecoder interface {
	decodeYAML(w *walker, n *yaml.Node) error
}

// walker decodes nodes into Go values (decodeNode). large is the number
// of keys from which a mapping's repeated keys are found with a set; fields
// holds each struct type's keys, worked out once per walk.
type walker struct {
	large  int
	fields map[reflect.Type]*structKeys
}

// decode decodes node into v, which must be a non-nil pointer.
func (w walker) decode(node *yaml.Node, v any) error {
	w.fields = map[reflect.Type]*structKeys{}
	return w.into(node, v)
}

// into decodes node into v, which must be a non-nil pointer, with w's
// tables.
func (w *walker) into(node *yaml.Node, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("internal error: decodeNode needs a non-nil pointer, not %T", v)
	}
	return w.value(node, rv.Elem())
}

var (
	stringType          = reflect.TypeOf("")
	textUnmarshalerType = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
)

// value decodes n into v, which is addressable. Its cases follow yaml's
// decoder.unmarshal in order; the comment on decodeNode says which it
// leaves to yaml.
func (w *walker) value(n *yaml.Node, v reflect.Value) error {
	if v.Type() == nodeType {
		v.Set(reflect.ValueOf(n).Elem())
		return nil
	}
	if n.Kind == yaml.ScalarNode && v.Type() == stringType && plainString(n) {
		v.SetString(n.Value)
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode, yaml.MappingNode, yaml.SequenceNode:
	default:
		return w.yaml(n, v) // documents, aliases
	}
	if isNull(n) {
		return w.yaml(n, v)
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
	}
	switch u := v.Addr().Interface().(type) {
	case selfDecoder:
		return u.decodeYAML(w, n)
	case yaml.Unmarshaler:
		return u.UnmarshalYAML(n)
	}
	switch {
	case n.Kind == yaml.ScalarNode && v.Kind() == reflect.String && plainString(n) &&
		!reflect.PointerTo(v.Type()).Implements(textUnmarshalerType):
		v.SetString(n.Value)
		return nil
	case n.Kind == yaml.MappingNode && (v.Kind() == reflect.Struct || v.Kind() == reflect.Map) && !hasMergeKey(n):
		if err := w.unique(n); err != nil {
			return err
		}
		if v.Kind() == reflect.Struct {
			return w.structure(n, v)
		}
		return w.mapping(n, v)
	case n.Kind == yaml.SequenceNode && v.Kind() == reflect.Slice:
		return w.sequence(n, v)
	}
	return w.yaml(n, v) // other scalars, interfaces, and type errors in yaml's words
}

// yaml decodes n into v with yaml's own decoder.
func (w *walker) yaml(n *yaml.Node, v reflect.Value) error {
	return n.Decode(v.Addr().Interface())
}

// plainString reports whether yaml decodes scalar n into a string as its
// text: any scalar but a null (which leaves the string as it was) and
// !!binary (which yaml decodes from base64).
func plainString(n *yaml.Node) bool {
	switch n.ShortTag() {
	case "!!null", "!!binary":
		return false
	}
	return true
}

// unique refuses a mapping that repeats a key, with the error yaml gives:
// of the keys written again, the first one, at its first repetition.
func (w *walker) unique(n *yaml.Node) error {
	c := n.Content
	if len(c)/2 < max(w.large, 2) {
		for i := 0; i < len(c); i += 2 {
			for j := i + 2; j < len(c); j += 2 {
				if c[i].Kind == c[j].Kind && c[i].Value == c[j].Value {
					return repeatedKey(c[i], c[j])
				}
			}
		}
		return nil
	}
	type key struct {
		kind  yaml.Kind
		value string
	}
	first := make(map[key]int, len(c)/2)
	bi, bj := -1, -1
	for j := 0; j < len(c); j += 2 {
		k := key{c[j].Kind, c[j].Value}
		i, seen := first[k]
		if !seen {
			first[k] = j
		} else if bi < 0 || i < bi {
			bi, bj = i, j
		}
	}
	if bi >= 0 {
		return repeatedKey(c[bi], c[bj])
	}
	return nil
}

// repeatedKey is yaml's error for key again, written before at key.
func repeatedKey(key, again *yaml.Node) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: mapping key %#v already defined at line %d", again.Line, again.Value, key.Line)}}
}

// structKeys is what walker needs to know of a struct type: the field of
// each key, the inline map that collects other keys, if any, and whether
// the type is left to yaml (it has inline structs, which walker does not
// expand).
type structKeys struct {
	fields    map[string]reflect.StructField
	inline    reflect.StructField
	hasInline bool
	toYAML    bool
}

// keysOf returns the structKeys of struct type t, worked out once per
// walk.
func (w *walker) keysOf(t reflect.Type) *structKeys {
	if sk, ok := w.fields[t]; ok {
		return sk
	}
	sk := &structKeys{fields: yamlFields(t)}
	sk.inline, sk.hasInline = inlineMap(t)
	for i := range t.NumField() {
		if _, opts := cutTag(t.Field(i)); opts == "inline" && t.Field(i).Type.Kind() != reflect.Map {
			sk.toYAML = true
		}
	}
	if w.fields == nil {
		w.fields = map[reflect.Type]*structKeys{}
	}
	w.fields[t] = sk
	return sk
}

// structure decodes a mapping into a struct: each key into its field, the
// keys no field names into the inline map if there is one; other keys are
// left to checkKeys, as yaml leaves them.
func (w *walker) structure(n *yaml.Node, v reflect.Value) error {
	sk := w.keysOf(v.Type())
	if sk.toYAML {
		return w.yaml(n, v)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, value := n.Content[i], n.Content[i+1]
		if key.Kind != yaml.ScalarNode || key.ShortTag() == "!!binary" {
			return w.yaml(n, v) // yaml's type error for the key
		}
		if isNull(key) {
			continue // yaml decodes no name from it, and skips it
		}
		if f, ok := sk.fields[key.Value]; ok {
			if err := w.value(value, v.FieldByIndex(f.Index)); err != nil {
				return err
			}
			continue
		}
		if !sk.hasInline {
			continue
		}
		m := v.FieldByIndex(sk.inline.Index)
		isNew := m.IsNil()
		if isNew {
			m.Set(reflect.MakeMap(m.Type()))
		}
		if err := w.entry(m, isNew, key, value); err != nil {
			return err
		}
	}
	return nil
}

// mapping decodes a mapping into a map, entry by entry.
func (w *walker) mapping(n *yaml.Node, v reflect.Value) error {
	if v.Type().Key().Kind() == reflect.Interface {
		return w.yaml(n, v)
	}
	isNew := v.IsNil()
	if isNew {
		v.Set(reflect.MakeMapWithSize(v.Type(), len(n.Content)/2))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if err := w.entry(v, isNew, n.Content[i], n.Content[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// entry decodes one key and value into map m, as yaml does: a null key is
// skipped, and a null value does not replace a value the map had before
// decoding (isNew: the map was made for it).
func (w *walker) entry(m reflect.Value, isNew bool, key, value *yaml.Node) error {
	if isNull(key) {
		return nil
	}
	k := reflect.New(m.Type().Key()).Elem()
	if err := w.value(key, k); err != nil {
		return err
	}
	if isNull(value) && !isNew && m.MapIndex(k).IsValid() {
		return nil
	}
	e := reflect.New(m.Type().Elem()).Elem()
	if err := w.value(value, e); err != nil {
		return err
	}
	m.SetMapIndex(k, e)
	return nil
}

// sequence decodes a sequence into a slice. As yaml does, it drops a null
// item where the slice's items cannot be nil.
func (w *walker) sequence(n *yaml.Node, v reflect.Value) error {
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	nilable := canBeNil(v.Type().Elem().Kind())
	j := 0
	for _, item := range n.Content {
		if !nilable && isNull(resolveAlias(item)) {
			continue
		}
		if err := w.value(item, s.Index(j)); err != nil {
			return err
		}
		j++
	}
	v.Set(s.Slice(0, j))
	return nil
}

func canBeNil(k reflect.Kind) bool {
	switch k {
	case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
		return true
	}
	return false
}

// resolveAlias returns the node an alias stands for, or n.
func resolveAlias(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// hasMergeKey reports whether a mapping uses yaml's merge key (<<), which
// yaml's decoder expands; such a node is left to it. The key is yaml's
// isMerge: the text << resolving to !!merge.
func hasMergeKey(n *yaml.Node) bool {
	for i := 0; i < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Value == "<<" && k.ShortTag() == "!!merge" {
			return true
		}
	}
	return false
}
