package model

import (
	"regexp"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// Checking a version against a Masterminds constraint formats an error
// for every comparison that fails, which dominates the time of encoding
// large catalogs. Most constraints are an AND of plain comparisons, such
// as ">= 1.2.3, < 2.0.0", and for a version without a prerelease their
// meaning is plain semver order. Those are kept as terms and checked
// directly; everything else (~, ^, wildcards, hyphen ranges, ||, and the
// comparisons whose partial versions Masterminds reads specially) goes to
// Masterminds. A test checks that both ways agree.

// term is one plain comparison.
type term struct {
	op  string // ">=", ">", "<=", "<", "=", "!="
	ver Version
}

var termRE = regexp.MustCompile(`^(>=|=>|<=|=<|!=|>|<|=)?v?(\d+)(\.\d+)?(\.\d+)?((?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$`)

// simpleTerms reads text as an AND of plain comparisons, or returns nil.
func simpleTerms(text string) []term {
	if strings.Contains(text, "||") || strings.Contains(text, " - ") {
		return nil
	}
	fields := strings.Fields(strings.ReplaceAll(text, ",", " "))
	var out []term
	for i := 0; i < len(fields); i++ {
		tok := fields[i]
		if isOp(tok) && i+1 < len(fields) { // an operator written apart: ">= 1.2.3"
			i++
			tok += fields[i]
		}
		m := termRE.FindStringSubmatch(tok)
		if m == nil {
			return nil
		}
		op := m[1]
		switch op {
		case "", "=":
			op = "="
		case "=>":
			op = ">="
		case "=<":
			op = "<="
		}
		partial := m[3] == "" || m[4] == ""
		if partial && op != ">=" && op != "<" {
			return nil // Masterminds reads these partial versions as ranges
		}
		v, err := semver.NewVersion(strings.TrimPrefix(tok, m[1]))
		if err != nil {
			return nil
		}
		out = append(out, term{op: op, ver: v})
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func isOp(s string) bool {
	switch s {
	case ">=", "=>", "<=", "=<", "!=", ">", "<", "=":
		return true
	}
	return false
}

// allTerms checks v, which has no prerelease, against every term.
func allTerms(ts []term, v Version) bool {
	for _, t := range ts {
		c := v.Compare(t.ver)
		var ok bool
		switch t.op {
		case ">=":
			ok = c >= 0
		case ">":
			ok = c > 0
		case "<=":
			ok = c <= 0
		case "<":
			ok = c < 0
		case "=":
			ok = c == 0
		case "!=":
			ok = c != 0
		}
		if !ok {
			return false
		}
	}
	return true
}

// Comparison is one plain comparison of a range, for a peer solver that
// speaks in comparisons: Op is ">=", ">", "<=", "<", "=" or "!=".
type Comparison struct {
	Op      string
	Version Version
}

// Comparisons returns the constraint as an AND of plain comparisons, its
// exclusions as "!=", for versions without a prerelease; none means every
// version. ok is false when the range is not such an AND (~, ^,
// wildcards, hyphen ranges, ||), which only Allows reads.
func (c Constraint) Comparisons() (out []Comparison, ok bool) {
	if c.ranges != nil && c.simple == nil {
		return nil, false
	}
	for _, t := range c.simple {
		out = append(out, Comparison{Op: t.op, Version: t.ver})
	}
	for _, x := range c.excluded {
		out = append(out, Comparison{Op: "!=", Version: x})
	}
	return out, true
}
