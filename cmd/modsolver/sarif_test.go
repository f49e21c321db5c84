package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
)

// testdata/sarif-schema-2.1.0.json is the schema OASIS publishes with the
// SARIF 2.1.0 standard (oasis-tcs/sarif-spec, Schemata/), unchanged.

// sarifSchema compiles the SARIF 2.1.0 schema.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("sarif-2.1.0.json", doc))
	s, err := c.Compile("sarif-2.1.0.json")
	require.NoError(t, err)
	return s
}

// sarifOutput is what the tests read of a SARIF log.
type sarifOutput struct {
	Runs []struct {
		Results []struct {
			RuleID    string `json:"ruleId"`
			Level     string `json:"level"`
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation *struct {
					ArtifactLocation struct{ URI string }
					Region           *struct{ StartLine int }
				}
				LogicalLocations []struct{ Name string }
			}
		}
	}
}

// checkSARIF validates text against the schema and returns it decoded.
func checkSARIF(t *testing.T, schema *jsonschema.Schema, text string) sarifOutput {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(text)))
	require.NoError(t, err)
	require.NoError(t, schema.Validate(doc), "the output is not valid SARIF 2.1.0")
	var out sarifOutput
	require.NoError(t, json.Unmarshal([]byte(text), &out))
	require.Len(t, out.Runs, 1)
	return out
}

// `catalog check -o sarif` on the real DKP tree is valid SARIF 2.1.0,
// one result per module that cannot be installed, each located at the
// line of its module.yaml that keeps it off: the line names the field
// the result's rule is about (issue 31, DESIGN.md §4).
func TestCatalogCheckSARIFRealTree(t *testing.T) {
	schema := sarifSchema(t)
	dkp := shared.Path(t, "data", "dkp")
	code, text, errOut := catalogCmd(t, "check", dkp, "--kubernetes", "1.33.0", "--deckhouse", "1.77.0", "-o", "sarif")
	require.Equal(t, exitUnsatisfiable, code, errOut) // the tree has modules that cannot be installed
	out := checkSARIF(t, schema, text)
	_, table, _ := catalogCmd(t, "check", dkp, "--kubernetes", "1.33.0", "--deckhouse", "1.77.0", "-o", "json")
	var doc struct{ Unsatisfiable, Errors int }
	require.NoError(t, json.Unmarshal([]byte(table), &doc))
	results := out.Runs[0].Results
	require.Len(t, results, doc.Unsatisfiable+doc.Errors, "one result per module that cannot be installed")
	require.NotEmpty(t, results)
	field := map[string]string{"experimental": "stage:", "kubernetes-requirement": "kubernetes:",
		"deckhouse-requirement": "deckhouse:", "edition": "editions"}
	for _, r := range results {
		require.NotEmpty(t, r.Locations, r.Message.Text)
		loc := r.Locations[0].PhysicalLocation
		require.NotNil(t, loc, "%s: no file", r.Message.Text)
		require.NotNil(t, loc.Region, "%s: no line", r.Message.Text)
		assert.True(t, strings.HasSuffix(loc.ArtifactLocation.URI, "/module.yaml") || strings.HasSuffix(loc.ArtifactLocation.URI, "/package.yaml"), loc.ArtifactLocation.URI)
		data, err := os.ReadFile(loc.ArtifactLocation.URI)
		require.NoError(t, err)
		lines := strings.Split(string(data), "\n")
		require.LessOrEqual(t, loc.Region.StartLine, len(lines))
		line := lines[loc.Region.StartLine-1]
		want, ok := field[r.RuleID]
		if r.RuleID == "module-requirement" { // the line of the required module's entry
			_, rest, _ := strings.Cut(r.Message.Text, "requires ")
			want, _, _ = strings.Cut(rest, " ")
			ok = true
		}
		if ok {
			assert.Contains(t, line, want, "%s: %s:%d", r.Message.Text, loc.ArtifactLocation.URI, loc.Region.StartLine)
		}
		assert.Equal(t, "error", r.Level)
	}
}

// `whatif -o sarif` is valid SARIF 2.1.0: on the demo's matrix, one
// result per module that blocks a cell, its level the blocker's
// severity (R30), located at the catalog line of the requirement.
func TestWhatIfSARIF(t *testing.T) {
	schema := sarifSchema(t)
	res := runCLI(t, "whatif", "--deckhouse", "1.72.4,1.73.0,1.74.0,1.75.1", "--kubernetes", "1.29.1,1.30.8,1.31.2,1.32.1", "-o", "sarif")
	require.Contains(t, []int{exitResolved, exitUnsatisfiable}, res.code, res.errOut)
	out := checkSARIF(t, schema, res.out)
	results := out.Runs[0].Results
	require.NotEmpty(t, results)
	seen := map[string]bool{}
	for _, r := range results {
		require.NotEmpty(t, r.Locations)
		name := r.Locations[0].LogicalLocations[0].Name
		assert.False(t, seen[name], "one result per blocker: %s twice", name)
		seen[name] = true
		assert.Contains(t, []string{"error", "warning", "note"}, r.Level)
		if loc := r.Locations[0].PhysicalLocation; loc != nil {
			assert.Contains(t, loc.ArtifactLocation.URI, "catalog.yaml")
			require.NotNil(t, loc.Region)
			assert.Positive(t, loc.Region.StartLine)
		}
	}
}

// -o sarif is refused where it means nothing.
func TestSARIFOnlyWhereItMeansSomething(t *testing.T) {
	code, _, errOut := catalogCmd(t, "stats", "-o", "sarif", writeTemp(t, "c.yaml", sweepCatalog))
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "-o must be table or json")
}
