package checker

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// RuleShape labels violations of the output format (DESIGN.md §3) rather
// than of a numbered rule.
const RuleShape = "shape"

// Violation is one way an answer breaks the rules.
type Violation struct {
	// Rule names the rule broken: "R2", "D1", or RuleShape.
	Rule string
	// Module is the module concerned; empty for the answer as a whole.
	Module string
	// Message says what is wrong, in the form "what: why".
	Message string
	// Reported is set when the violation is about what the answer reports
	// of its selection (R25's warnings, R26's plan step), not about the
	// selection itself; a peer solver that reports nothing is checked
	// without these.
	Reported bool
}

func (v Violation) String() string {
	if v.Module == "" {
		return fmt.Sprintf("%s: %s", v.Rule, v.Message)
	}
	return fmt.Sprintf("%s %s: %s", v.Rule, v.Module, v.Message)
}

// sortViolations orders violations by rule (shape first, then R1…R18,
// then the decisions), then module, then message.
func sortViolations(vs []Violation) {
	slices.SortFunc(vs, func(a, b Violation) int {
		return cmp.Or(compareRules(a.Rule, b.Rule), cmp.Compare(a.Module, b.Module), cmp.Compare(a.Message, b.Message))
	})
}

// compareRules orders rule labels by family and then by number, so that
// R2 comes before R10.
func compareRules(a, b string) int {
	fa, na := ruleKey(a)
	fb, nb := ruleKey(b)
	return cmp.Or(cmp.Compare(fa, fb), cmp.Compare(na, nb), cmp.Compare(a, b))
}

func ruleKey(rule string) (family, number int) {
	if rule == RuleShape {
		return 0, 0
	}
	n, err := strconv.Atoi(rule[min(1, len(rule)):])
	switch {
	case err != nil:
		return 3, 0
	case strings.HasPrefix(rule, "R"):
		return 1, n
	case strings.HasPrefix(rule, "D"):
		return 2, n
	}
	return 3, n
}
