package checker

import (
	"strings"

	"github.com/modsolver/modsolver/model"
)

// CheckExplanation checks the shape of an unsatisfiable answer's
// explanation (R16): a summary, at least one fact, and every fact with a
// kind and a message. Other answers pass. Minimality (D19) needs the
// solver and is checked elsewhere.
func CheckExplanation(res *model.Result) []Violation {
	if res.Status != model.StatusUnsatisfiable {
		return nil
	}
	e := res.Explanation
	if e == nil {
		return []Violation{{Rule: "R16", Message: "unsatisfiable answer without an explanation"}}
	}
	var out []Violation
	bad := func(module, msg string) {
		out = append(out, Violation{Rule: "R16", Module: module, Message: msg})
	}
	if strings.TrimSpace(e.Summary) == "" {
		bad("", "explanation without a summary")
	}
	if len(e.Facts) == 0 {
		bad("", "explanation without facts")
	}
	for _, f := range e.Facts {
		if f.Kind.String() == model.FactUnspecified.String() {
			bad(f.Module, "fact of unspecified kind: "+f.Message)
		}
		if strings.TrimSpace(f.Message) == "" {
			bad(f.Module, "fact of kind "+f.Kind.String()+" without a message")
		}
	}
	sortViolations(out)
	return out
}
