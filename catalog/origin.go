package catalog

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// Origin is where a cluster state or a request was read from. Bad input
// found once it meets the catalog (an unknown module, a version the
// catalog lacks) is a *model.FieldError with the input's path, such as
// request.enable[0]; Place names the file, and the line of the field, as
// the errors found while reading the file do.
type Origin struct {
	// File is the file the input was read from; "" for an input that no
	// file holds, which Note then describes.
	File string
	// Note says where an input that no file holds came from, such as "the
	// embedded demo cluster, since --cluster was not given".
	Note string
	// Root is the first step of the paths of the input's fields: cluster
	// or request.
	Root string
	// At is where the input is in File: the path of keys and list items
	// from the document's root to it; empty when it is the whole file.
	At model.Path
	// Given are fields of the input that were given beside the file (by
	// flags such as --edition) and so are not the file's: an error about
	// one of them is not placed in it.
	Given []string
	// doc is File's document, when the reader had it at hand; Place
	// reads File when it needs a line and doc is nil.
	doc *yaml.Node
}

// RequestOrigin is the origin of a request read from file.
func RequestOrigin(file string) Origin { return Origin{File: file, Root: "request"} }

// ClusterOrigin is the origin of a cluster state read from file, in
// modsolver's form or as a kubectl dump (whose fields have no lines of
// their own), with the fields given beside it.
func ClusterOrigin(file string, given ...string) Origin {
	return Origin{File: file, Root: "cluster", Given: given}
}

// Origin is the origin of the scenario's cluster state or request (root
// is "cluster" or "request"), which are its keys of the same names.
func (s *Scenario) Origin(root string) Origin {
	return Origin{File: s.File, Root: root, At: model.Field(root)}
}

// Place returns err with each *model.FieldError about o's input placed:
// in o's file, as a *ParseError at the line of the field where the file
// has it, or said to come from o's Note. Errors that name a file already
// (a *ParseError), and errors about other inputs, are kept as they are;
// several errors are placed one by one.
func (o Origin) Place(err error) error {
	switch e := err.(type) {
	case nil, *ParseError:
		return err
	case interface{ Unwrap() []error }:
		errs := e.Unwrap()
		out := make(model.InputErrors, len(errs))
		for i, x := range errs {
			out[i] = o.Place(x)
		}
		return out.Err()
	case *model.FieldError:
		if !o.owns(e.Path) {
			return err
		}
		if o.File == "" {
			return &notedError{err: e, note: o.Note}
		}
		return &ParseError{File: o.File, Line: o.line(e.Path), Err: e}
	}
	return err
}

// owns reports whether path is a field of o's input that its file (or
// note) gives.
func (o Origin) owns(path model.Path) bool {
	if len(path) == 0 || path[0].Kind != model.StepField || path[0].Name != o.Root || (o.File == "" && o.Note == "") {
		return false
	}
	return len(path) < 2 || !slices.Contains(o.Given, path[1].Name)
}

// line is the line of the field at path (from o's Root) in o's file: of
// the deepest step of it that the file holds, 0 when it holds none or
// cannot be read.
func (o Origin) line(path model.Path) int {
	doc := o.doc
	if doc == nil {
		data, err := os.ReadFile(o.File)
		if err != nil {
			return 0
		}
		if doc, err = parseNode(o.File, data); err != nil {
			return 0
		}
	}
	at := lineOf(doc, o.At)
	if len(o.At) > 0 && at.node == nil {
		return 0
	}
	return lineOf(at.nodeOr(doc), path[1:]).line
}

// located is how far lineOf got: the node of the last step it found and
// that step's line.
type located struct {
	node *yaml.Node
	line int
}

func (l located) nodeOr(n *yaml.Node) *yaml.Node {
	if l.node != nil {
		return l.node
	}
	return n
}

// lineOf follows path from n, by mapping keys (a field or a key step) and
// list positions (an index step), as far as the document has it; an item
// step names a list item by what it holds, which is not looked for.
func lineOf(n *yaml.Node, path model.Path) located {
	var at located
	for _, s := range path {
		n = resolveAlias(n)
		var next *yaml.Node
		line := 0
		switch {
		case (s.Kind == model.StepField || s.Kind == model.StepKey) && n.Kind == yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == s.Name {
					next, line = n.Content[i+1], n.Content[i].Line
				}
			}
		case s.Kind == model.StepIndex && n.Kind == yaml.SequenceNode && s.Index < len(n.Content):
			next = n.Content[s.Index]
			line = next.Line
		}
		if next == nil {
			break
		}
		n, at = next, located{node: next, line: line}
	}
	return at
}

// notedError is a field error of an input that no file holds, with where
// the input came from.
type notedError struct {
	err  *model.FieldError
	note string
}

func (e *notedError) Error() string { return fmt.Sprintf("%v (%s)", e.err, e.note) }

func (e *notedError) Unwrap() error { return e.err }

// PlacedIn returns the file and line where err, placed by an Origin, is;
// "" when it names no file.
func PlacedIn(err error) (file string, line int) {
	var pe *ParseError
	if errors.As(err, &pe) {
		return pe.File, pe.Line
	}
	return "", 0
}

// PlaceFacts names, in each fact of e read from a field of o's input,
// the file and line of the field, as Place names them in an error: the
// solver knows the field's path only (DESIGN.md §3).
func (o Origin) PlaceFacts(e *model.Explanation) {
	if e == nil || o.File == "" {
		return
	}
	for i := range e.Facts {
		f := &e.Facts[i].Origin
		if f.File != "" || f.Field == "" {
			continue
		}
		if path := model.ParsePath(f.Field); o.owns(path) {
			f.File = o.File
			if f.Line == 0 { // a dump's object has its line already
				f.Line = o.line(path)
			}
		}
	}
}
