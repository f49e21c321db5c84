package catalog

import (
	"fmt"
	"reflect"

	"go.yaml.in/yaml/v3"
)

// A value of the wrong kind: well-formed YAML or JSON with a list where
// the format has a mapping, a single value where it has a list, and so on.
// yaml words it with Go's names for the types it decodes into ("cannot
// unmarshal !!seq into catalog.fileCatalog"); modsolver says it in the
// format's words, naming the key, or for a whole document what the
// document is (ErrWrongKind).

// documents says, for each type a whole document is decoded into, what the
// document is, for a document of another kind.
var documents = map[reflect.Type]string{
	reflect.TypeFor[fileCatalog]():      "a catalog is a mapping with `modules:`",
	reflect.TypeFor[fileCluster]():      "a cluster state is a mapping with `deckhouse:`, `kubernetes:` and `modules:`",
	reflect.TypeFor[fileRequest]():      "a request is a mapping with `enable:`, `update:`, `pin:` or the other fields of a request",
	reflect.TypeFor[fileWhatIf]():       "a what-if file is a mapping with `scenarios:`",
	reflect.TypeFor[fileNamedRequest](): "a scenario is a mapping with `name:` and `request:`",
	reflect.TypeFor[fileScenario]():     "a scenario file is a mapping with `catalog:`, `cluster:` and `request:`",
	reflect.TypeFor[helmIndex]():        "a Helm repository index is a mapping with `apiVersion:` and `entries:`",
	reflect.TypeFor[kudoIndexFile]():    "a KUDO repository index is a mapping with `apiVersion:` and `entries:`",
}

// wrongDocument refuses a document node of another kind than the mapping
// t, a document type, is; it takes any node for any other type.
func wrongDocument(file string, node *yaml.Node, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	what, ok := documents[t]
	if got := nodeKind(node); !ok || got == "" || got == "a mapping" {
		return nil
	}
	return &ParseError{File: file, Line: node.Line, Err: fmt.Errorf("%w: %s, not %s", ErrWrongKind, what, nodeKind(node))}
}

// wrongKind refuses node, the value of key (or an item of the list under
// key), where t has room for another kind of value. A null is no value
// and fits anything. The walk leaves out a type that decodes itself, and
// all below it, unless it reads a mapping only (mappingDecoder): what
// fits it is its decoder's to say.
func (c keyCheck) wrongKind(node *yaml.Node, t reflect.Type, key string, item bool) error {
	want, got := wantedKind(t), nodeKind(node)
	if want == "" || got == "" || want == got {
		return nil
	}
	where := key
	if item {
		where = "an item of " + key
	}
	if key == "" {
		return wrongDocument(c.file, node, t)
	}
	return &ParseError{File: c.file, Line: node.Line, Err: fmt.Errorf("%w: %s: want %s, not %s", ErrWrongKind, where, want, got)}
}

// mappingDecoder is a type that decodes itself from a mapping only, so
// that a node of another kind is the wrong kind for it, as for a struct
// that does not decode itself.
type mappingDecoder interface {
	mappingOnly()
}

var (
	unmarshalerType    = reflect.TypeFor[yaml.Unmarshaler]()
	selfDecoderType    = reflect.TypeFor[selfDecoder]()
	mappingDecoderType = reflect.TypeFor[mappingDecoder]()
)

// decodesItself reports whether t decodes itself from more than one kind
// of node, as far as can be told: it decodes itself and is not a
// mappingDecoder.
func decodesItself(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	if pt.Implements(mappingDecoderType) {
		return false
	}
	return pt.Implements(unmarshalerType) || pt.Implements(selfDecoderType) || pt.Implements(textUnmarshalerType)
}

// decodesItself is the package's decodesItself, cached by type.
func (c keyCheck) decodesItself(t reflect.Type) bool {
	self, ok := c.selfDecoding[t]
	if !ok {
		self = decodesItself(t)
		c.selfDecoding[t] = self
	}
	return self
}

// wantedKind names the kind of node t has room for: a mapping, a list or
// a single value; "" when t takes more than one (an interface; a type
// that decodes itself never comes here).
func wantedKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Slice:
		return "a list"
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a single value"
	}
	return ""
}

// nodeKind names the kind of node: a mapping, a list or a single value;
// "" for a null, which is no value, and for anything else.
func nodeKind(node *yaml.Node) string {
	node = resolveAlias(node)
	switch {
	case node.Kind == yaml.MappingNode:
		return "a mapping"
	case node.Kind == yaml.SequenceNode:
		return "a list"
	case node.Kind == yaml.ScalarNode && !isNull(node):
		return "a single value"
	}
	return ""
}
