package checker

import (
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
