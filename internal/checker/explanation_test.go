package checker

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/model"
)

func TestCheckExplanation(t *testing.T) {
	cases := []struct {
		name string
		res  *model.Result
		want []string
	}{
		{name: "complete", res: unsatisfiable(explanation(kubeFact))},
		{name: "resolved answers pass", res: resolved()},
		{name: "missing", res: unsatisfiable(nil), want: []string{"R16"}},
		{name: "no summary", res: unsatisfiable(&model.Explanation{Facts: []model.Fact{kubeFact}}), want: []string{"R16"}},
		{name: "no facts", res: unsatisfiable(explanation()), want: []string{"R16"}},
		{name: "fact without a kind", res: unsatisfiable(explanation(model.Fact{Message: "something"})), want: []string{"R16"}},
		{name: "fact without a message", res: unsatisfiable(explanation(model.Fact{Kind: model.FactEdition})), want: []string{"R16"}},
		{name: "combined suggestion", res: unsatisfiable(suggesting(combined(updateA, updateB)))},
		{name: "combined suggestion of one change", res: unsatisfiable(suggesting(combined(updateA))), want: []string{"R16"}},
		{name: "combined suggestion of four changes", res: unsatisfiable(suggesting(combined(updateA, updateB, updateA, updateB))), want: []string{"R16"}},
		{name: "combined suggestion with a nested set", res: unsatisfiable(suggesting(combined(updateA, combined(updateA, updateB)))), want: []string{"R16"}},
		{name: "single suggestion with parts", res: unsatisfiable(suggesting(model.Suggestion{Kind: model.SuggestUpdateModule, Message: "update module a", Changes: []model.Suggestion{updateB}})), want: []string{"R16"}},
		{name: "suggestion without a message", res: unsatisfiable(suggesting(model.Suggestion{Kind: model.SuggestDisableModule})), want: []string{"R16"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == nil {
				want = []string{}
			}
			assert.Equal(t, want, rulesOf(CheckExplanation(tc.res)))
		})
	}
}

var (
	updateA = model.Suggestion{Kind: model.SuggestUpdateModule, Module: "a", Version: "1.2.0", Message: "update module a to 1.2.0"}
	updateB = model.Suggestion{Kind: model.SuggestUpdateModule, Module: "b", Version: "0.4.0", Message: "update module b to 0.4.0"}
)

// combined makes the combined suggestion of parts, its message naming each.
func combined(parts ...model.Suggestion) model.Suggestion {
	msgs := make([]string, len(parts))
	for i, p := range parts {
		msgs[i] = p.Message
	}
	return model.Suggestion{Kind: model.SuggestCombined, Message: strings.Join(msgs, " and "), Changes: parts}
}

// suggesting is a complete explanation with sugs.
func suggesting(sugs ...model.Suggestion) *model.Explanation {
	e := explanation(kubeFact)
	e.Suggestions = sugs
	return e
}

func TestCheckUnsatisfiableChecksExplanation(t *testing.T) {
	cat := newCatalog(t, promModules()...)
	got := Check(cat, fixture.Cluster(nil), nil, unsatisfiable(nil))
	assert.Equal(t, []string{"R16"}, rulesOf(got))
}

func TestViolationsSorted(t *testing.T) {
	vs := []Violation{
		{Rule: "D1", Module: "a"},
		{Rule: "R10", Module: "a"},
		{Rule: "R2", Module: "b"},
		{Rule: "R2", Module: "a"},
		{Rule: RuleShape, Module: "z"},
	}
	sortViolations(vs)
	assert.Equal(t, []Violation{
		{Rule: RuleShape, Module: "z"},
		{Rule: "R2", Module: "a"},
		{Rule: "R2", Module: "b"},
		{Rule: "R10", Module: "a"},
		{Rule: "D1", Module: "a"},
	}, vs)
}

func TestViolationString(t *testing.T) {
	assert.Equal(t, "R2 prometheus: requires x", Violation{Rule: "R2", Module: "prometheus", Message: "requires x"}.String())
	assert.Equal(t, "R16: no facts", Violation{Rule: "R16", Message: "no facts"}.String())
}
