package model

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// optionalSuffix marks an optional module dependency (R3).
const optionalSuffix = "!optional"

// Constraint is a version range in modsolver's grammar (R6): the Masterminds
// grammar with default options, plus the "!optional" suffix (R3) and
// OLM-style exclusions such as "> 1.0.0 !1.2.1".
//
// The zero Constraint allows every version.
type Constraint struct {
	// Text is the constraint as written, kept for messages.
	Text string
	// Optional is set by the "!optional" suffix.
	Optional bool

	ranges   *semver.Constraints // nil: every version
	excluded []Version
	// simple holds the same range as plain comparisons when it is an AND
	// of them (see simple.go); nil otherwise.
	simple []term
}

// exclusionRE finds OLM-style exclusions: "!1.2.1" or "!v1.2.1", but not "!=".
var exclusionRE = regexp.MustCompile(`(^|[\s,])!\s*(v?[0-9][^\s,|]*)`)

// ParseConstraint reads one constraint. An empty text is an error; a bare
// "!optional" means "any version, if enabled".
func ParseConstraint(text string) (Constraint, error) {
	c := Constraint{Text: strings.TrimSpace(text)}
	if c.Text == "" {
		return Constraint{}, ErrEmptyConstraint
	}
	rest := c.Text
	if r, ok := strings.CutSuffix(rest, optionalSuffix); ok {
		c.Optional = true
		rest = strings.TrimSpace(r)
	}
	rest, err := c.cutExclusions(rest)
	if err != nil {
		return Constraint{}, err
	}
	rest = strings.Trim(rest, " \t,")
	if rest == "" {
		return c, nil
	}
	if strings.Contains(rest, optionalSuffix) {
		return Constraint{}, fmt.Errorf("%w: %q: %s must come last", ErrInvalidConstraint, text, optionalSuffix)
	}
	ranges, err := semver.NewConstraint(rest)
	if err != nil {
		// semver's own message quotes the text again; say it once.
		reason := strings.TrimSuffix(err.Error(), ": "+strconv.Quote(rest))
		return Constraint{}, fmt.Errorf("%w: %q: %s", ErrInvalidConstraint, text, reason)
	}
	c.ranges = ranges
	c.simple = simpleTerms(rest)
	return c, nil
}

// MustParseConstraint is ParseConstraint for literals known to be valid.
func MustParseConstraint(text string) Constraint {
	c, err := ParseConstraint(text)
	if err != nil {
		panic("internal error: " + err.Error())
	}
	return c
}

func (c *Constraint) cutExclusions(text string) (string, error) {
	var bad error
	rest := exclusionRE.ReplaceAllStringFunc(text, func(m string) string {
		sub := exclusionRE.FindStringSubmatch(m)
		v, err := ParseVersion(sub[2])
		if err != nil {
			bad = fmt.Errorf("%w: %q: bad exclusion %q", ErrInvalidConstraint, c.Text, sub[2])
			return m
		}
		c.excluded = append(c.excluded, v)
		return sub[1]
	})
	if strings.Contains(rest, "||") && len(c.excluded) > 0 {
		return "", fmt.Errorf("%w: %q: exclusions cannot be combined with ||", ErrInvalidConstraint, c.Text)
	}
	return rest, bad
}

// AnyVersion reports whether the constraint allows every version.
func (c Constraint) AnyVersion() bool { return c.ranges == nil && len(c.excluded) == 0 }

// Cheap reports whether Allows(v) is a few plain comparisons for a version
// without a prerelease, so that remembering its answers saves nothing.
func (c Constraint) Cheap() bool { return c.ranges == nil || c.simple != nil }

// Allows reports whether v satisfies the constraint. The caller decides
// whether v is stripped of its prerelease first (R6).
func (c Constraint) Allows(v Version) bool {
	if v == nil {
		return false
	}
	for _, x := range c.excluded {
		if v.Equal(x) {
			return false
		}
	}
	if c.simple != nil && v.Prerelease() == "" {
		return allTerms(c.simple, v)
	}
	return c.ranges == nil || c.ranges.Check(v)
}

// AllowsPrereleases reports whether v satisfies the constraint with every
// range admitting prereleases, as Masterminds' IncludePrerelease reads it
// (R6: the blang reading, and the semver reading under devel).
func (c Constraint) AllowsPrereleases(v Version) bool { return c.allowsWhole(v, true) }

// allowsWhole reports whether v, whole, satisfies the constraint by the
// Masterminds rules; pre makes every range admit prereleases, as
// Masterminds' IncludePrerelease does (R6).
func (c Constraint) allowsWhole(v Version, pre bool) bool {
	if !pre || c.ranges == nil || v == nil || v.Prerelease() == "" {
		return c.Allows(v)
	}
	if slices.ContainsFunc(c.excluded, v.Equal) {
		return false
	}
	return c.withPrereleases().Check(v)
}

// withPrereleases is a copy of the ranges that admits prereleases; the
// copy shares the parsed comparators, which Check only reads.
func (c Constraint) withPrereleases() *semver.Constraints {
	cs := *c.ranges
	cs.IncludePrerelease = true
	return &cs
}

// Why says why v does not satisfy the constraint, in the wording DKP uses
// ("1.29.6 is less than 1.30"). It returns "" when v satisfies it.
func (c Constraint) Why(v Version) string {
	if v == nil {
		return "no version"
	}
	for _, x := range c.excluded {
		if v.Equal(x) {
			return fmt.Sprintf("%s is excluded", v)
		}
	}
	if c.ranges == nil {
		return ""
	}
	return validation(c.ranges, v)
}

// validation is the ranges' reasons against v, joined, "" when v passes.
func validation(ranges *semver.Constraints, v Version) string {
	ok, errs := ranges.Validate(v)
	if ok {
		return ""
	}
	msgs := make([]string, 0, len(errs))
	for _, e := range errs {
		msgs = append(msgs, strings.ReplaceAll(e.Error(), `"`, ""))
	}
	return strings.Join(msgs, " or ")
}

// Range is the constraint text without its "!optional" suffix, as DKP
// quotes it in messages.
func (c Constraint) Range() string {
	r, _ := strings.CutSuffix(c.Text, optionalSuffix)
	r = strings.TrimSpace(r)
	if r == "" {
		return ">= 0.0.0"
	}
	return r
}

// IsConstraintError reports whether err came from ParseConstraint.
func IsConstraintError(err error) bool {
	return errors.Is(err, ErrInvalidConstraint) || errors.Is(err, ErrEmptyConstraint)
}
