package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

func resolvedResult() *model.Result {
	return &model.Result{
		Status: model.StatusResolved,
		Modules: []model.ModuleResult{
			{Name: "console", Action: model.ActionInstall, ToVersion: "1.3.1", ChannelHead: "1.3.1", Path: []string{"1.3.1"}},
			{Name: "log-shipper", Action: model.ActionKeep, FromVersion: "1.72.4", ToVersion: "1.72.4", ChannelHead: "1.72.4"},
			{
				Name: "sds-replicated-volume", Action: model.ActionUpdate, FromVersion: "0.7.4", ToVersion: "0.8.1",
				ChannelHead: "0.9.2", Path: []string{"0.8.1", "0.9.2"},
				HeldBack: "sds-replicated-volume 0.9.2 is the next step after 0.8.1",
			},
			{Name: "stronghold", Action: model.ActionDisable, FromVersion: "1.11.1"},
		},
		Plan: []model.PlanStep{
			{Module: "log-shipper", Action: model.ActionKeep, FromVersion: "1.72.4", ToVersion: "1.72.4"},
			{Module: "sds-replicated-volume", Action: model.ActionUpdate, FromVersion: "0.7.4", ToVersion: "0.8.1"},
			{Module: "console", Action: model.ActionInstall, ToVersion: "1.3.1"},
			{Module: "stronghold", Action: model.ActionDisable, FromVersion: "1.11.1"},
		},
		Stats: model.Stats{Variables: 142, Clauses: 117, Solves: 4, SolveMicros: 681},
	}
}

func unsatisfiableResult() *model.Result {
	return &model.Result{
		Status: model.StatusUnsatisfiable,
		Explanation: &model.Explanation{
			Summary: "the request cannot be met: observability needs a newer Kubernetes",
			Facts: []model.Fact{
				{Kind: model.FactRequestEnable, Module: "observability", Message: "the request enables observability"},
				{
					Kind: model.FactKubernetesRequirement, Module: "observability", Version: "0.4.1", Constraint: ">= 1.31",
					Message: "observability 0.4.1 requires kubernetes >= 1.31: 1.30.8 is less than 1.31",
				},
				{Kind: model.FactExclusiveGroup, Message: "at most one module of group cni may be enabled"},
			},
			Suggestions: []model.Suggestion{
				{Kind: model.SuggestUpgradeKubernetes, Version: "1.31.0", Message: "upgrade Kubernetes to at least 1.31.0"},
				{Kind: model.SuggestDisableModule, Module: "observability", Message: "do not enable observability"},
			},
		},
		Stats: model.Stats{Variables: 10, Clauses: 20, Solves: 3},
	}
}

func render(t *testing.T, res *model.Result) string {
	t.Helper()
	return renderWith(t, res)
}

func renderWith(t *testing.T, res *model.Result, opts ...ResultOption) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, Result(&buf, res, opts...))
	return buf.String()
}

// row returns the first line of out that starts with the given first
// column, split into whitespace-separated fields.
func row(t *testing.T, out, first string) []string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == first {
			return f
		}
	}
	require.Failf(t, "no row", "no line starts with %q in:\n%s", first, out)
	return nil
}

// lineIndex is the index of the first line of out that starts with prefix,
// or -1.
func lineIndex(out, prefix string) int {
	for i, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, prefix) {
			return i
		}
	}
	return -1
}

func TestResultResolvedModules(t *testing.T) {
	out := render(t, resolvedResult())
	require.True(t, strings.HasPrefix(out, "status: resolved\n"), "output:\n%s", out)
	assert.Equal(t, []string{"MODULE", "ACTION", "FROM", "TO", "HEAD"}, row(t, out, "MODULE"))
	tests := []struct {
		module string
		want   []string // the fields of the module's row
	}{
		{"console", []string{"console", "install", "-", "1.3.1", "1.3.1"}},
		{"sds-replicated-volume", []string{"sds-replicated-volume", "update", "0.7.4", "0.8.1", "0.9.2"}},
		{"stronghold", []string{"stronghold", "disable", "1.11.1", "-", "-"}},
	}
	for _, tc := range tests {
		t.Run(tc.module, func(t *testing.T) {
			assert.Equal(t, tc.want, row(t, out, tc.module))
		})
	}
	// D398: what keeps its version is counted, not listed, unless asked;
	// a held-back reason and the path to the head stand below the table.
	assert.NotContains(t, out, "log-shipper")
	assert.Contains(t, out, "1 module kept as it is (--all lists it)")
	assert.Contains(t, out, "held back:\n  sds-replicated-volume: sds-replicated-volume 0.9.2 is the next step after 0.8.1; path 0.8.1 → 0.9.2\n")
	all := renderWith(t, resolvedResult(), WithAll())
	assert.Equal(t, []string{"log-shipper", "keep", "1.72.4", "1.72.4", "1.72.4"}, row(t, all, "log-shipper"))
	for _, line := range strings.Split(all, "\n") {
		assert.LessOrEqual(t, len([]rune(line)), maxLine, "no line is wider than %d: %q", maxLine, line)
	}
	assert.NotContains(t, out, "why:")
	assert.NotContains(t, out, "suggestions")
	assert.NotContains(t, out, "variables", "the solver's figures only with WithStats")
	withStats := renderWith(t, resolvedResult(), WithStats())
	assert.Equal(t, out+"\n142 variables, 117 clauses, 4 solves, 681 µs\n", withStats)
}

func TestResultPlanIsNumberedInOrder(t *testing.T) {
	res := resolvedResult()
	out := renderWith(t, res, WithAll())
	header := lineIndex(out, "STEP")
	require.GreaterOrEqual(t, header, 0, "no plan table in:\n%s", out)
	assert.Greater(t, header, lineIndex(out, "MODULE"), "the plan follows the modules")
	assert.Equal(t, []string{"STEP", "MODULE", "ACTION", "FROM", "TO"}, strings.Fields(strings.Split(out, "\n")[header]))

	lines := strings.Split(out, "\n")[header+1:]
	want := [][]string{
		{"1", "log-shipper", "keep", "1.72.4", "1.72.4"},
		{"2", "sds-replicated-volume", "update", "0.7.4", "0.8.1"},
		{"3", "console", "install", "-", "1.3.1"},
		{"4", "stronghold", "disable", "1.11.1", "-"},
	}
	require.GreaterOrEqual(t, len(lines), len(want))
	for i, w := range want {
		assert.Equal(t, w, strings.Fields(lines[i]), "plan step %d", i+1)
	}
	assert.Empty(t, strings.TrimSpace(lines[len(want)]), "a blank line ends the plan")

	changes := render(t, res) // D398: without --all, the plan's changes only, numbered anew
	header = lineIndex(changes, "STEP")
	assert.Equal(t, []string{"1", "sds-replicated-volume", "update", "0.7.4", "0.8.1"}, strings.Fields(strings.Split(changes, "\n")[header+1]))
}

func TestResultUnsatisfiable(t *testing.T) {
	out := render(t, unsatisfiableResult())
	require.True(t, strings.HasPrefix(out, "status: unsatisfiable\n"), "output:\n%s", out)
	// D406: a summary that says more than the facts stands above them,
	// and the facts follow, numbered, each with its kind.
	assert.Contains(t, out, "\nwhy: the request cannot be met: observability needs a newer Kubernetes\nbecause\n"+
		"  1. the request enables observability [request-enable]\n"+
		"  2. observability 0.4.1 requires kubernetes >= 1.31: 1.30.8 is less than 1.31 [kubernetes-requirement]\n"+
		"  3. at most one module of group cni may be enabled [exclusive-group]\n")
	assert.NotContains(t, out, "FACT")
	same := unsatisfiableResult()
	msgs := make([]string, len(same.Explanation.Facts))
	for i, f := range same.Explanation.Facts {
		msgs[i] = f.Message
	}
	same.Explanation.Summary = "the request cannot be met: " + strings.Join(msgs, "; ")
	assert.Contains(t, render(t, same), "\nwhy: the request cannot be met, because\n  1. the request enables observability [request-enable]\n",
		"a summary that only joins the facts is not said twice")
	assert.Contains(t, out, "\nsuggestions (each works on its own):\n"+
		"  - upgrade Kubernetes to at least 1.31.0\n"+
		"  - do not enable observability\n")
	// No modules or plan were given, so neither table is printed.
	assert.Equal(t, -1, lineIndex(out, "MODULE  "))
	assert.Equal(t, -1, lineIndex(out, "STEP"))
	assert.NotContains(t, out, "variables")
	assert.True(t, strings.HasSuffix(renderWith(t, unsatisfiableResult(), WithStats()), "\n10 variables, 20 clauses, 3 solves, 0 µs\n"))
}

func TestResultExplanationWithoutSuggestions(t *testing.T) {
	res := unsatisfiableResult()
	res.Explanation.Suggestions = nil
	out := render(t, res)
	assert.Contains(t, out, "request-enable")
	assert.NotContains(t, out, "suggestions")
}

// A set of changes is said to work only as a whole (R16).
func TestResultCombinedSuggestion(t *testing.T) {
	res := unsatisfiableResult()
	parts := []model.Suggestion{
		{Kind: model.SuggestUpdateModule, Module: "a", Version: "1.2.0", Message: "update module a to 1.2.0"},
		{Kind: model.SuggestUpdateModule, Module: "b", Version: "0.4.0", Message: "update module b to 0.4.0"},
	}
	res.Explanation.Suggestions = []model.Suggestion{{Kind: model.SuggestCombined, Message: "update module a to 1.2.0 and update module b to 0.4.0", Changes: parts}}
	out := render(t, res)
	assert.Contains(t, out, "\nsuggestions (no single change works; each set works when its changes are made together):\n"+
		"  - update module a to 1.2.0 and update module b to 0.4.0\n")
	assert.NotContains(t, out, "each works on its own")
}

func TestResultMinimal(t *testing.T) {
	assert.Equal(t, "status: unspecified\n", render(t, &model.Result{}))
	assert.Equal(t, "status: unspecified\n\n0 variables, 0 clauses, 0 solves, 0 µs\n", renderWith(t, &model.Result{}, WithStats()))
}

// failingWriter accepts limit bytes, then fails every write.
type failingWriter struct {
	limit int
	n     int
	calls int
}

var errWrite = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	w.calls++
	if w.n+len(p) > w.limit {
		k := max(w.limit-w.n, 0)
		w.n += k
		return k, errWrite
	}
	w.n += len(p)
	return len(p), nil
}

func TestResultWriteError(t *testing.T) {
	full := map[string]int{}
	for name, res := range map[string]*model.Result{"resolved": resolvedResult(), "unsatisfiable": unsatisfiableResult()} {
		var buf bytes.Buffer
		require.NoError(t, Result(&buf, res))
		full[name] = buf.Len()
	}
	tests := []struct {
		name  string
		res   *model.Result
		limit int
	}{
		{"resolved, first write fails", resolvedResult(), 0},
		{"resolved, fails in the module table", resolvedResult(), 40},
		{"resolved, fails in the plan", resolvedResult(), full["resolved"] - 120},
		{"resolved, fails on the stats line", resolvedResult(), full["resolved"] - 5},
		{"unsatisfiable, fails in the facts", unsatisfiableResult(), 80},
		{"unsatisfiable, fails in the suggestions", unsatisfiableResult(), full["unsatisfiable"] - 80},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := &failingWriter{limit: tc.limit}
			err := Result(w, tc.res)
			require.ErrorIs(t, err, errWrite)
			assert.LessOrEqual(t, w.n, tc.limit)
		})
	}
	t.Run("stops writing after the first error", func(t *testing.T) {
		w := &failingWriter{limit: 0}
		require.ErrorIs(t, Result(w, resolvedResult()), errWrite)
		assert.Equal(t, 1, w.calls)
	})
}

func TestResultWarningsAndConfirmation(t *testing.T) {
	res := resolvedResult()
	res.Plan[3].ConfirmationMessage = "Disabling this module stops the vault."
	res.Plan[3].ConfirmationAnnotation = model.AllowDisablingAnnotation
	res.Warnings = []model.Warning{{Kind: model.WarningDeprecated, Module: "console", Version: "1.3.1", Message: "console 1.3.1 is Deprecated"}}
	out := renderWith(t, res, WithAll()) // the steps numbered with the kept ones
	assert.Contains(t, out, "step 4 needs confirmation: DKP disables stronghold only once its ModuleConfig has the annotation modules.deckhouse.io/allow-disabling=true")
	assert.Contains(t, out, "stronghold says: Disabling this module stops the vault.")
	assert.Contains(t, out, "warnings:\n  - console 1.3.1 is Deprecated\n")
	assert.NotContains(t, render(t, resolvedResult()), "warnings:")
}

func TestResultPlanCycle(t *testing.T) {
	res := resolvedResult()
	res.Plan[1].CycleWith = []string{"console"}
	res.Plan[2].CycleWith = []string{"sds-replicated-volume"}
	out := renderWith(t, res, WithAll()) // the steps numbered with the kept ones
	assert.Equal(t, 1, strings.Count(out, "need each other"), "one line per cycle:\n%s", out)
	assert.Contains(t, out, "step 2: sds-replicated-volume, console need each other (a dependency cycle); they are applied together, as one unit")
}

func TestResultPlanSources(t *testing.T) {
	res := resolvedResult()
	assert.NotContains(t, render(t, res), "SOURCE", "one catalog: no source column")
	for i := range res.Plan {
		res.Plan[i].FromSource, res.Plan[i].ToSource = "deckhouse-prod", "deckhouse-prod"
	}
	res.Plan[0].FromSource, res.Plan[0].ToSource = "", "community"
	res.Plan[1].FromSource = "community"
	out := renderWith(t, res, WithAll()) // the steps numbered with the kept ones
	assert.Contains(t, out, "STEP  MODULE")
	assert.Regexp(t, `(?m)^1 .*  community$`, out, "an install names the source it comes from:\n%s", out)
	assert.Regexp(t, `(?m)^2 .*  community → deckhouse-prod$`, out, "a move names both sources:\n%s", out)
}
