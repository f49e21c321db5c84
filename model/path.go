package model

import (
	"strconv"
	"strings"
)

// Path is where a field of an input is: the steps from the root of the
// cluster state, the request or the catalog to it. It is built where an
// error is found and rendered by each reader (STYLE 17): String for a
// person ("request.pin.x", "request.enable[2]"), the gRPC service for
// its field violations (`request.pin["x"]`), and never parsed back.
type Path []PathStep

// PathStep is one step of a Path: a named field, a map key or a list
// index.
type PathStep struct {
	Kind StepKind
	// Name is a field's name as the input spells it (camelCase), or a
	// map's key.
	Name  string
	Index int
}

// StepKind tells the steps of a Path apart.
type StepKind int

const (
	// StepField is a named field: "cluster", "releaseChannel".
	StepField StepKind = iota
	// StepKey is a key of a map, such as a module's name under
	// cluster.modules or request.pin.
	StepKey
	// StepIndex is a position in a list: request.enable[2].
	StepIndex
	// StepItem is an item of a list named by what identifies it, such
	// as a release by its version: modules.x.releases[1.2.0].
	StepItem
)

// Field is the path of nested named fields: Field("cluster",
// "releaseChannel").
func Field(names ...string) Path {
	var p Path
	for _, n := range names {
		p = append(p, PathStep{Kind: StepField, Name: n})
	}
	return p
}

// Field returns p with the named fields appended; p itself is unchanged.
func (p Path) Field(names ...string) Path { return append(p.clone(), Field(names...)...) }

// Key returns p with a map key appended.
func (p Path) Key(key string) Path { return append(p.clone(), PathStep{Kind: StepKey, Name: key}) }

// Item returns p with a list item named by its identity appended.
func (p Path) Item(id string) Path { return append(p.clone(), PathStep{Kind: StepItem, Name: id}) }

// Index returns p with a list index appended.
func (p Path) Index(i int) Path { return append(p.clone(), PathStep{Kind: StepIndex, Index: i}) }

func (p Path) clone() Path { return append(Path(nil), p...) }

// String renders p as a person reads it in modsolver's own formats: named
// fields and keys joined by dots, indexes in brackets:
// "cluster.modules.x.version", "request.enable[2]".
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch s.Kind {
		case StepIndex:
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
			continue
		case StepItem:
			b.WriteString("[" + s.Name + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.Name)
	}
	return b.String()
}

// ParsePath reads a path as String writes it: fields joined by dots,
// indexes and items in brackets. Each named step is read as a field.
func ParsePath(text string) Path {
	var p Path
	for _, part := range strings.Split(text, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			p = append(p, PathStep{Kind: StepField, Name: name})
		}
		for rest != "" {
			inner, after, _ := strings.Cut(rest, "]")
			if i, err := strconv.Atoi(inner); err == nil {
				p = append(p, PathStep{Kind: StepIndex, Index: i})
			} else {
				p = append(p, PathStep{Kind: StepItem, Name: inner})
			}
			_, rest, _ = strings.Cut(after, "[")
		}
	}
	return p
}
