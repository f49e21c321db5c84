package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/checker"
	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/solver"
)

// TestSharedScenarios runs every public acceptance scenario, read in place
// from ../shared/scenarios (DESIGN.md §7).
func TestSharedScenarios(t *testing.T) {
	runScenarioDir(t, shared.Path(t, "scenarios"))
}

// TestOwnScenarios runs modsolver's own scenarios in testdata/scenarios.
func TestOwnScenarios(t *testing.T) {
	runScenarioDir(t, filepath.Join("..", "..", "testdata", "scenarios"))
}

func runScenarioDir(t *testing.T, dir string) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no scenarios in %s", dir)
	listed := "none"
	if len(shared.KnownFailing) > 0 {
		listed = strings.Join(shared.KnownFailing, ", ")
	}
	fmt.Printf("%s: known failing scenarios: %s\n", dir, listed)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		t.Run(name, func(t *testing.T) {
			if !shared.IsKnownFailing(file) {
				runScenario(t, file)
				return
			}
			probe := &recorder{TB: t}
			func() {
				defer func() { _ = recover() }()
				runScenario(probe, file)
			}()
			if !probe.failed {
				t.Fatalf("scenario %s passes now: remove it from shared.KnownFailing", name)
			}
			t.Skipf("known failing: %s", strings.Join(probe.msgs, "; "))
		})
	}
}

// recorder runs a scenario without failing the test, to see whether a
// known-failing scenario still fails.
type recorder struct {
	testing.TB
	failed bool
	msgs   []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func (r *recorder) FailNow() { r.failed = true; panic("stop") }

// runScenario runs one scenario file through the CLI, exactly as a user
// would, and checks its expectations; then it checks the solver's answer
// with the independent checker.
func runScenario(t testing.TB, file string) {
	sc, loadErr := catalog.LoadScenario(file)
	require.NotNil(t, sc, "scenario %s does not parse: %v", file, loadErr)
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"resolve", "--scenario", file, "-o", "json", "--no-timing"}, &out, &errOut)
	if sc.Expect.Error {
		assert.Equal(t, exitBadInput, code, "bad input exits with 2; stderr: %s", errOut.String())
		for _, m := range sc.Expect.ErrorMentions {
			assert.Contains(t, errOut.String(), m, "stderr names %q", m)
		}
		return
	}
	require.NoError(t, loadErr)
	require.Contains(t, []int{exitResolved, exitUnsatisfiable}, code, "stderr: %s", errOut.String())
	var resp modsolverv1.ResolveResponse
	require.NoError(t, protojson.Unmarshal(out.Bytes(), &resp), "output is the protojson form of ResolveResponse")
	checkExpectation(t, &sc.Expect, &resp, code)

	res, err := solver.Solve(context.Background(), sc.Catalog, sc.Cluster, sc.Request)
	require.NoError(t, err)
	for _, v := range checker.Check(sc.Catalog, sc.Cluster, sc.Request, res) {
		t.Errorf("checker: %s", v)
	}
}

func checkExpectation(t testing.TB, want *catalog.Expectation, got *modsolverv1.ResolveResponse, code int) {
	wantStatus := "STATUS_" + strings.ToUpper(want.Status)
	require.Equal(t, wantStatus, got.GetStatus().String(), "status; explanation: %v", got.GetExplanation())
	if wantStatus == "STATUS_UNSATISFIABLE" {
		assert.Equal(t, exitUnsatisfiable, code)
	} else {
		assert.Equal(t, exitResolved, code)
	}
	byName := map[string]*modsolverv1.ModuleResult{}
	for _, m := range got.GetModules() {
		byName[m.GetName()] = m
	}
	names := make([]string, 0, len(want.Modules))
	for name := range want.Modules {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		checkModule(t, name, want.Modules[name], byName[name])
	}
	if want.Listed != nil {
		listed := make([]string, 0, len(got.GetModules()))
		for _, m := range got.GetModules() {
			listed = append(listed, m.GetName())
		}
		assert.ElementsMatch(t, want.Listed, listed, "the modules listed")
	}
	checkPlanOrder(t, want.PlanOrder, got.GetPlan())
	checkMentions(t, "plan", planText(got.GetPlan()), want.PlanMentions, nil)
	checkMentions(t, "warnings", warningsText(got.GetWarnings()), want.WarningsMentions, want.WarningsNotMentions)
	var assumed []string
	for _, a := range got.GetAssumptions() {
		assumed = append(assumed, a.GetGate()+" "+a.GetSubject()+" "+a.GetMessage())
	}
	checkMentions(t, "assumptions", strings.Join(assumed, "\n"), want.AssumptionsMentions, nil)
	if want.Route != nil {
		assert.Equal(t, want.Route, routeText(got.GetRoute()), "route")
	}
	if want.Explanation != nil {
		checkExplanation(t, want.Explanation, got.GetExplanation())
	}
}

func checkModule(t testing.TB, name string, want catalog.ModuleExpectation, got *modsolverv1.ModuleResult) {
	if got == nil {
		assert.True(t, strings.EqualFold(want.Action, "absent"), "module %s is missing from the output", name)
		return
	}
	if want.Action != "" {
		action := strings.TrimPrefix(got.GetAction().String(), "ACTION_")
		assert.True(t, strings.EqualFold(want.Action, action), "module %s: action %s, want %s", name, action, want.Action)
	}
	if want.Version != "" {
		assert.Equal(t, want.Version, got.GetToVersion(), "module %s: toVersion", name)
	}
	for _, m := range want.HeldBackMentions {
		assert.Contains(t, got.GetHeldBack(), m, "module %s: heldBack", name)
	}
	for _, m := range want.HeldBackNotMentions {
		assert.NotContains(t, got.GetHeldBack(), m, "module %s: heldBack", name)
	}
	if want.Path != nil {
		assert.Equal(t, want.Path, got.GetPath(), "module %s: path", name)
	}
	if want.PathNoteMentions != nil && len(want.PathNoteMentions) == 0 {
		assert.Empty(t, got.GetPathNote(), "module %s: pathNote", name)
	}
	for _, m := range want.PathNoteMentions {
		assert.Contains(t, got.GetPathNote(), m, "module %s: pathNote", name)
	}
	if want.Source != nil {
		assert.Equal(t, *want.Source, got.GetToSource(), "module %s: toSource", name)
	}
	if want.Moved != nil {
		assert.Equal(t, *want.Moved, got.GetMoved(), "module %s: moved", name)
	}
}

func checkPlanOrder(t testing.TB, order []string, plan []*modsolverv1.PlanStep) {
	last, lastName := -1, ""
	for _, name := range order {
		at := slices.IndexFunc(plan, func(s *modsolverv1.PlanStep) bool { return s.GetModule() == name })
		if !assert.GreaterOrEqual(t, at, 0, "plan has no step for %s", name) {
			continue
		}
		assert.Greater(t, at, last, "plan: %s must come after %s", name, lastName)
		last, lastName = at, name
	}
}

func checkExplanation(t testing.TB, want *catalog.ExplanationExpectation, got *modsolverv1.Explanation) {
	require.NotNil(t, got, "an explanation is expected")
	text := explanationText(got)
	for _, m := range want.Mentions {
		assert.Contains(t, text, m, "explanation mentions %q", m)
	}
	for _, m := range want.NotMentions {
		assert.NotContains(t, text, m, "explanation must not mention %q", m)
	}
	if want.MaxFacts > 0 {
		assert.NotEmpty(t, got.GetFacts())
		assert.LessOrEqual(t, len(got.GetFacts()), want.MaxFacts, "facts: %s", text)
	}
}

// checkMentions checks that text, what of the answer, holds every one of
// mentions and none of notMentions.
func checkMentions(t testing.TB, what, text string, mentions, notMentions []string) {
	for _, m := range mentions {
		assert.Contains(t, text, m, "%s mention %q", what, m)
	}
	for _, m := range notMentions {
		assert.NotContains(t, text, m, "%s must not mention %q", what, m)
	}
}

// planText is everything the plan says: every step, all its fields.
func planText(plan []*modsolverv1.PlanStep) string {
	var parts []string
	for _, s := range plan {
		parts = append(parts, s.GetModule(), s.GetAction().String(), s.GetFromVersion(), s.GetToVersion(),
			s.GetConfirmationMessage(), s.GetConfirmationAnnotation())
		if from, to := s.GetFromSource(), s.GetToSource(); from != "" && to != "" && from != to {
			parts = append(parts, s.GetModule()+" moves from source "+from+" to source "+to)
		} else if to != "" {
			parts = append(parts, s.GetModule()+" from source "+to)
		}
		if with := s.GetCycleWith(); len(with) > 0 {
			parts = append(parts, s.GetModule()+" in a cycle with "+strings.Join(with, ", "))
		}
	}
	return strings.Join(parts, "\n")
}

// warningsText is everything the warnings say.
func warningsText(ws []*modsolverv1.Warning) string {
	var parts []string
	for _, w := range ws {
		parts = append(parts, w.GetKind().String(), w.GetModule(), w.GetVersion(), w.GetMessage())
	}
	return strings.Join(parts, "\n")
}

// explanationText is everything an explanation says: summary, facts and
// suggestions.
func explanationText(e *modsolverv1.Explanation) string {
	parts := []string{e.GetSummary()}
	for _, f := range e.GetFacts() {
		parts = append(parts, f.GetModule(), f.GetVersion(), f.GetConstraint(), f.GetMessage(), f.GetEcosystemMessage())
	}
	for _, s := range e.GetSuggestions() {
		parts = append(parts, s.GetMessage())
	}
	return strings.Join(parts, "\n")
}

// TestScenarioHarnessFails guards the harness itself: a scenario
// with a wrong expectation must fail it.
func TestScenarioHarnessFails(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "wrong.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`
name: wrong
catalog: {modules: [{name: a, releases: [{version: 1.0.0}, {version: 1.1.0}]}]}
cluster: {deckhouse: 1.70.0, kubernetes: 1.30.0}
request: {enable: [a]}
expect:
  status: resolved
  modules: {a: {action: install, version: 1.0.0}}
`), 0o644))
	probe := &recorder{TB: t}
	func() {
		defer func() { _ = recover() }()
		runScenario(probe, file)
	}()
	assert.True(t, probe.failed, "a scenario expecting 1.0.0 where 1.1.0 is chosen must fail")
	assert.NotEmpty(t, probe.msgs)
}

// routeText writes a route as a scenario expects it: each step as the
// DKP and Kubernetes minors after it (R33).
func routeText(route []*modsolverv1.RouteStep) []string {
	out := []string{}
	for _, s := range route {
		out = append(out, model.MinorText(s.GetDeckhouse())+"/"+model.MinorText(s.GetKubernetes()))
	}
	return out
}
