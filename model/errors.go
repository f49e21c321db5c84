package model

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors name the categories of bad input. Callers test them with
// errors.Is; every one of them means "bad input", never "unsatisfiable".
var (
	// ErrInvalidInput is the category that every input error below belongs to.
	ErrInvalidInput = errors.New("invalid input")

	ErrInvalidVersion    = fmt.Errorf("%w: invalid version", ErrInvalidInput)
	ErrEmptyConstraint   = fmt.Errorf("%w: empty constraint", ErrInvalidInput)
	ErrInvalidConstraint = fmt.Errorf("%w: invalid constraint", ErrInvalidInput)
	ErrUnknownModule     = fmt.Errorf("%w: unknown module", ErrInvalidInput)
	ErrUnknownVersion    = fmt.Errorf("%w: unknown version", ErrInvalidInput)
	ErrDuplicate         = fmt.Errorf("%w: duplicate", ErrInvalidInput)
	ErrConflict          = fmt.Errorf("%w: conflicting request", ErrInvalidInput)
	ErrMissingField      = fmt.Errorf("%w: missing field", ErrInvalidInput)
	ErrInvalidValue      = fmt.Errorf("%w: invalid value", ErrInvalidInput)
)

// ConstraintError is a constraint that cannot be parsed, with where it was
// found (R6). It unwraps to ErrInvalidConstraint or ErrEmptyConstraint.
type ConstraintError struct {
	File    string // may be empty for inline input
	Module  string
	Release string // empty for a built-in module
	Field   string // "deckhouse", "kubernetes", or "modules.<name>"
	Text    string
	Err     error
}

func (e *ConstraintError) Error() string {
	var where []string
	if e.File != "" {
		where = append(where, e.File)
	}
	if e.Module != "" {
		where = append(where, "module "+e.Module)
	}
	if e.Release != "" {
		where = append(where, "release "+e.Release)
	}
	if e.Field != "" {
		where = append(where, "requirements."+e.Field)
	}
	return fmt.Sprintf("%s: constraint %q: %v", strings.Join(where, ": "), e.Text, e.Err)
}

func (e *ConstraintError) Unwrap() error { return e.Err }

// FieldError is bad input at one field of the cluster state, the request
// or the catalog. Field is a dotted path such as "request.enable[2]"; the
// gRPC service turns it into a BadRequest field violation.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }

func (e *FieldError) Unwrap() error { return e.Err }

// fieldErr builds a FieldError whose message wraps a sentinel.
func fieldErr(field string, sentinel error, format string, args ...any) error {
	return &FieldError{Field: field, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}

// InputErrors collects every problem found in one input, so that a user
// sees all of them at once. It unwraps to each of them.
type InputErrors []error

func (es InputErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

func (es InputErrors) Unwrap() []error { return es }

// Err returns nil for no errors, the single error for one, and es otherwise.
func (es InputErrors) Err() error {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	return es
}
