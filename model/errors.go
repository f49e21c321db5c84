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

// ErrTooLarge is the category of a request that needs more than a limit
// its caller set, such as the memory of one resolution. It is not bad
// input: the same request may be answered with a higher limit.
var ErrTooLarge = errors.New("too large")

// MemoryLimitError is a resolution stopped because its encodings outgrew
// the memory limit set for it. It unwraps to ErrTooLarge.
type MemoryLimitError struct {
	// Limit is the limit in bytes; Estimate is the estimated size, in
	// bytes, when the solver stopped, the first figure above Limit.
	Limit, Estimate int64
	// Variables and Clauses count what had been encoded by then.
	Variables, Clauses int
}

func (e *MemoryLimitError) Error() string {
	return fmt.Sprintf("%v: the resolution needs more memory than the limit of %s: its encoding reached an estimated %s (%d variables, %d clauses) and was stopped",
		ErrTooLarge, FormatBytes(e.Limit), FormatBytes(e.Estimate), e.Variables, e.Clauses)
}

func (e *MemoryLimitError) Unwrap() error { return ErrTooLarge }

// FormatBytes renders n bytes in binary units: "512 B", "1.5 KiB",
// "64.0 MiB".
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

// ConstraintError is a constraint that cannot be parsed, with where it was
// found (R6). It unwraps to ErrInvalidConstraint or ErrEmptyConstraint.
// An ErrInvalidConstraint error quotes the constraint's text itself (as
// ParseConstraint's do), so the text is said once.
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
	if errors.Is(e.Err, ErrInvalidConstraint) {
		// ParseConstraint's errors quote the text already: say it once.
		return fmt.Sprintf("%s: %v", strings.Join(where, ": "), e.Err)
	}
	return fmt.Sprintf("%s: constraint %q: %v", strings.Join(where, ": "), e.Text, e.Err)
}

func (e *ConstraintError) Unwrap() error { return e.Err }

// FieldError is bad input at one field of the cluster state, the request
// or the catalog. Path says where, as steps (request, enable, [2]): the
// message renders it for a person, and the gRPC service renders the same
// steps as a BadRequest field violation, with nothing parsed back
// (STYLE 17).
type FieldError struct {
	Path Path
	Err  error
}

func (e *FieldError) Error() string { return e.Path.String() + ": " + e.Err.Error() }

func (e *FieldError) Unwrap() error { return e.Err }

// fieldErr builds a FieldError whose message wraps a sentinel.
func fieldErr(field Path, sentinel error, format string, args ...any) error {
	return &FieldError{Path: field, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
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
