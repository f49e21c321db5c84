package catalog

import (
	"fmt"

	"github.com/modsolver/modsolver/model"
)

// Sentinel errors of this package. All are bad input.
var (
	// ErrSyntax is a file that is not valid YAML or JSON, or has a value of
	// the wrong type.
	ErrSyntax = fmt.Errorf("%w: syntax error", model.ErrInvalidInput)
	// ErrUnknownKey is a key the format does not define.
	ErrUnknownKey = fmt.Errorf("%w: unknown key", model.ErrInvalidInput)
	// ErrWrongKind is valid YAML or JSON that holds one kind of value
	// where the format has another: a list or a single value where it
	// has a mapping, and so on. It is said in the format's words, not as
	// a syntax error.
	ErrWrongKind = fmt.Errorf("%w: wrong kind of value", model.ErrInvalidInput)
	// ErrEmptyFile is a file with nothing in it, or white space and
	// comments alone: said as such rather than as a syntax error or a
	// format that cannot be told. An empty request file is no error: it
	// is the empty request.
	ErrEmptyFile = fmt.Errorf("%w: the file is empty", model.ErrInvalidInput)
	// ErrManifest is a DKP v2 requirement that DKP's own validation
	// refuses (R28); the *ManifestError that carries it says why.
	ErrManifest = fmt.Errorf("%w: invalid package manifest", model.ErrInvalidInput)
)

// ParseError is bad input at a known place in a file. Line is 0 when the
// place is the whole file; File is empty for a document without a name,
// such as a gRPC request's inline catalog, whose field names it.
type ParseError struct {
	File string
	Line int
	Err  error
}

func (e *ParseError) Error() string {
	if e.File == "" { // a document without a name, such as an inline catalog
		if e.Line > 0 {
			return fmt.Sprintf("line %d: %v", e.Line, e.Err)
		}
		return e.Err.Error()
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }
