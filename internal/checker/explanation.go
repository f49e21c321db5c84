package checker

import (
	"fmt"
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
	for _, s := range e.Suggestions {
		for _, msg := range suggestionShape(s) {
			bad(s.Module, msg)
		}
	}
	sortViolations(out)
	return out
}

// maxCombined is the most changes a combined suggestion holds (R16).
const maxCombined = 3

// suggestionShape lists what is wrong with the shape of a suggestion: a
// single change has a message and no parts; a combined one has two to
// three parts, each a single change, and a message that names each.
func suggestionShape(s model.Suggestion) []string {
	var out []string
	if strings.TrimSpace(s.Message) == "" {
		out = append(out, "suggestion of kind "+s.Kind.String()+" without a message")
	}
	if s.Kind != model.SuggestCombined {
		if len(s.Changes) > 0 {
			out = append(out, "single suggestion with parts: "+s.Message)
		}
		return out
	}
	if len(s.Changes) < 2 || len(s.Changes) > maxCombined {
		out = append(out, fmt.Sprintf("combined suggestion of %d changes, not 2 to %d: %s", len(s.Changes), maxCombined, s.Message))
	}
	for _, part := range s.Changes {
		if part.Kind == model.SuggestCombined || len(part.Changes) > 0 || part.Message == "" || !strings.Contains(s.Message, part.Message) {
			out = append(out, "combined suggestion with a part that is not a single change it names: "+s.Message)
		}
	}
	return out
}
