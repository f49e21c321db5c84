package report

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// SARIF 2.1.0 (OASIS), the form code scanning reads: `catalog check -o
// sarif` and `whatif -o sarif` write one result per blocker, located at
// the line of the manifest (module.yaml, package.yaml, a catalog file)
// that causes it, so that a module repository's CI shows the blocker on
// that line. Only the properties modsolver fills are declared here; the
// schema test (sarif_test.go) holds the output to the standard's schema.

const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

type sarifLog struct {
	Version string     `json:"version"`
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations,omitempty"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
}

type sarifLocation struct {
	ID               *int           `json:"id,omitempty"`
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
	Message          *sarifMessage  `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogical struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// Blocking is one result of a SARIF log: a module that something blocks,
// what blocks it (the explanation's facts) and how severe it is.
type Blocking struct {
	// Module is the module blocked or blocking; Version its release, if
	// one.
	Module, Version string
	// Level is error, warning or note.
	Level string
	// Text is what the result says, the facts' reason included.
	Text string
	// Facts are the explanation's facts: the first one read from a file
	// locates the result, the others are its related locations.
	Facts []model.Fact
	// Rule names the result's rule when no fact does (bad input).
	Rule string
}

// SARIF writes results as a SARIF 2.1.0 log of one run of modsolver.
func SARIF(w io.Writer, results []Blocking) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "modsolver", InformationURI: "https://github.com/modsolver/modsolver", Rules: []sarifRule{}}},
		Results: make([]sarifResult, 0, len(results))}
	rules := map[string]bool{}
	for _, b := range results {
		r := sarifResult{RuleID: b.Rule, Level: b.Level, Message: sarifMessage{Text: b.Text}}
		at := slices.IndexFunc(b.Facts, locatable)
		if at >= 0 {
			r.RuleID = b.Facts[at].Kind.String()
		}
		if r.RuleID == "" && len(b.Facts) > 0 {
			r.RuleID = b.Facts[0].Kind.String()
		}
		if r.RuleID == "" {
			r.RuleID = "blocked"
		}
		rules[r.RuleID] = true
		logical := []sarifLogical{{Name: strings.TrimSpace(b.Module + " " + b.Version), Kind: "module"}}
		if at >= 0 {
			loc := factLocation(b.Facts[at], 0)
			loc.Message, loc.LogicalLocations = nil, logical
			r.Locations = []sarifLocation{loc}
		} else {
			r.Locations = []sarifLocation{{LogicalLocations: logical}}
		}
		for i, f := range b.Facts {
			if i != at && locatable(f) {
				r.RelatedLocations = append(r.RelatedLocations, factLocation(f, len(r.RelatedLocations)+1))
			}
		}
		run.Results = append(run.Results, r)
	}
	for _, id := range slices.Sorted(maps.Keys(rules)) {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: id, ShortDescription: sarifMessage{Text: ruleText(id)}})
	}
	data, err := json.MarshalIndent(sarifLog{Version: sarifVersion, Schema: sarifSchema, Runs: []sarifRun{run}}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// locatable reports whether a fact was read from a file.
func locatable(f model.Fact) bool { return f.Origin.File != "" }

// factLocation is where a fact was read from, with its message.
func factLocation(f model.Fact, id int) sarifLocation {
	loc := sarifLocation{PhysicalLocation: &sarifPhysical{ArtifactLocation: sarifArtifact{URI: fileURI(f.Origin.File)}},
		Message: &sarifMessage{Text: f.Message}}
	if id > 0 {
		loc.ID = &id
	}
	if f.Origin.Line > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Origin.Line}
	}
	return loc
}

// fileURI is a file path as a relative URI reference: slashes, and the
// characters a URI escapes escaped.
func fileURI(path string) string {
	path = filepath.ToSlash(filepath.Clean(path))
	var b strings.Builder
	for _, c := range []byte(path) {
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~/!$&'()*+,;=:@", c) >= 0) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// ruleText describes a rule: a kind of fact, or bad input.
func ruleText(id string) string {
	if id == "bad-input" {
		return "the module's manifest cannot be read or checked"
	}
	if id == "blocked" {
		return "the module is blocked"
	}
	return "blocked by a fact of kind " + id
}

// SARIF writes the check as a SARIF log: one result for each module that
// cannot be installed, at the line of the fact that keeps it off.
func (c *Check) SARIF(w io.Writer) error {
	var results []Blocking
	for _, a := range c.Answers {
		switch {
		case a.Err != nil:
			results = append(results, Blocking{Module: a.Module, Version: a.Version, Level: "error", Rule: "bad-input",
				Text: fmt.Sprintf("%s %s: bad input: %v", a.Module, a.Version, a.Err)})
		case a.Result.Status != model.StatusResolved:
			var facts []model.Fact
			if e := a.Result.Explanation; e != nil {
				facts = blockingFirst(e.Facts, a.Module)
			}
			results = append(results, Blocking{Module: a.Module, Version: a.Version, Level: "error", Facts: facts,
				Text: fmt.Sprintf("%s %s cannot be installed: %s", a.Module, a.Version, strings.Join(a.Reasons, "; "))})
		}
	}
	return SARIF(w, results)
}

// blockingFirst orders facts so that the first one a file holds is about
// what stands in the way rather than the request itself: a fact of the
// request (which no manifest writes) goes last.
func blockingFirst(facts []model.Fact, module string) []model.Fact {
	out := slices.Clone(facts)
	rank := func(f model.Fact) int {
		switch {
		case f.AboutPlatform() && f.Module == module:
			return 0
		case f.AboutPlatform():
			return 1
		case f.Kind == model.FactRequestEnable || f.Kind == model.FactRequestPin:
			return 3
		}
		return 2
	}
	slices.SortStableFunc(out, func(a, b model.Fact) int { return rank(a) - rank(b) })
	return out
}

// SARIF writes the batch as a SARIF log: one result for each module that
// blocks a scenario, located at the line of its fact that blocks the
// first scenario it blocks, its level its severity (R30: error or
// warning; a note when the batch accepts it); a scenario that is bad
// input is one result of its own. A free-form scenario that is blocked
// without blockers named (no platform question) is one result too.
func (b *WhatIf) SARIF(w io.Writer) error {
	var results []Blocking
	seen := map[string]bool{}
	for i, s := range b.Scenarios {
		switch {
		case s.Problem != "":
			results = append(results, Blocking{Module: s.Name, Level: "error", Rule: "bad-input",
				Text: fmt.Sprintf("scenario %s: bad input: %s", s.Name, s.Problem)})
			continue
		case s.Result == nil || s.Result.Status == model.StatusResolved || s.Result.Explanation == nil:
			continue
		}
		facts := s.Result.Explanation.Facts
		if len(s.Blockers) == 0 {
			results = append(results, Blocking{Module: s.Name, Level: "error", Facts: blockingFirst(facts, ""),
				Text: fmt.Sprintf("scenario %s cannot be met: %s", s.Name, factMessages(facts))})
			continue
		}
		for _, bl := range s.Blockers {
			if seen[bl.Module] || bl.First != i {
				continue
			}
			seen[bl.Module] = true
			own := slices.DeleteFunc(slices.Clone(facts), func(f model.Fact) bool { return f.Module != bl.Module })
			level := bl.Severity.String()
			if bl.Accepted {
				level = "note"
			}
			results = append(results, Blocking{Module: bl.Module, Level: level, Facts: blockingFirst(own, bl.Module),
				Text: fmt.Sprintf("%s blocks %s (%s): %s", bl.Module, s.Name, bl.Severity, factMessages(own))})
		}
	}
	return SARIF(w, results)
}

// factMessages joins facts' messages.
func factMessages(facts []model.Fact) string {
	msgs := make([]string, len(facts))
	for i, f := range facts {
		msgs[i] = f.Message
	}
	return strings.Join(msgs, "; ")
}
