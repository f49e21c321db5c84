package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// whatifHTML is the page's template: one self-contained document, its
// style inline, with no script and nothing fetched (D194).
//
//go:embed whatif.html.tmpl
var whatifHTML string

var whatifPage = template.Must(template.New("whatif").Parse(whatifHTML))

// HTML writes the batch as one self-contained HTML page: the grid of a
// matrix coloured by outcome and severity (or a list of free-form
// scenarios), each cell marked and linked to its group, then each group
// once with its updates, its blockers, explanation and verified
// suggestions, and its plan.
func (b *WhatIf) HTML(w io.Writer) error {
	return whatifPage.Execute(w, b.page())
}

// htmlPage is what the template shows.
type htmlPage struct {
	Summary  string
	Context  []string
	Warnings []string
	Common   *htmlGroup // one reason blocks every cell (commonBlock)
	Grid     *htmlGrid
	List     []htmlCell // free-form scenarios and shards
	Groups   []htmlGroup
}

type htmlGrid struct {
	Kubernetes []string
	Rows       []htmlRow
	// Legend says what the own cell's mark means (gridLegend).
	Legend string
}

type htmlRow struct {
	Deckhouse string
	Cells     []htmlCell
}

// htmlCell is one scenario: its group's letter, its outcome and the
// class that colours it.
type htmlCell struct {
	Name, Letter, Text, Class string
	// Own marks the cluster's own platform (R33).
	Own bool
}

// htmlGroup is one group of equal answers.
type htmlGroup struct {
	Letter, Covers, Verdict, Class string
	Problem                        string
	Route                          []string
	Updates                        []string
	Notes                          []string
	Blockers                       []htmlBlocker
	Summary                        string
	Facts, Suggestions, Plan       []string
}

type htmlBlocker struct {
	Module, Severity, First, Class string
	Accepted                       bool
}

func (b *WhatIf) page() *htmlPage {
	groups, letters := b.groups(), b.letters()
	p := &htmlPage{Summary: fmt.Sprintf("%d scenarios, %d different answers", len(b.Scenarios), len(groups)), Warnings: b.Warnings, Context: b.Context}
	if b.Matrix != nil {
		if common := commonBlock(b.Scenarios); common != nil {
			p.Summary = fmt.Sprintf("%d DKP × %d Kubernetes versions, every one blocked for one reason that no platform version changes",
				len(b.Matrix.Deckhouse), len(b.Matrix.Kubernetes))
			p.Common = &htmlGroup{Class: "error", Summary: common.Summary, Facts: factTexts(common), Suggestions: suggestionTexts(common)}
			return p
		}
		p.Grid = b.htmlGrid(letters)
	} else {
		for i, s := range b.Scenarios {
			p.List = append(p.List, b.htmlCell(s, letters[i]))
		}
	}
	for _, members := range groups {
		p.Groups = append(p.Groups, b.htmlGroup(letters[members[0]], members))
	}
	return p
}

func (b *WhatIf) htmlGrid(letters []string) *htmlGrid {
	m := b.Matrix
	g := &htmlGrid{}
	for _, k := range m.Kubernetes {
		g.Kubernetes = append(g.Kubernetes, model.VersionString(k))
	}
	for i, d := range m.Deckhouse {
		row := htmlRow{Deckhouse: model.VersionString(d)}
		if d == nil {
			row.Deckhouse = "-"
		}
		for j := range m.Kubernetes {
			k := i*len(m.Kubernetes) + j
			cell := b.htmlCell(b.Scenarios[k], letters[k])
			cell.Text, cell.Own = b.cellText(i, j), m.own(d, m.Kubernetes[j])
			row.Cells = append(row.Cells, cell)
		}
		g.Rows = append(g.Rows, row)
	}
	g.Legend = b.gridLegend()
	return g
}

func (b *WhatIf) htmlCell(s Scenario, letter string) htmlCell {
	return htmlCell{Name: s.Name, Letter: letter, Text: b.outcome(s), Class: outcomeClass(b.Catalog, s)}
}

// outcomeClass names a scenario's colour: ready, updates, error,
// warning (blocked only by later-version risks), accepted (every
// blocker accepted) or bad (bad input). A blocked scenario without R30
// blockers (a free-form one) is an error.
func outcomeClass(cat *model.Catalog, s Scenario) string {
	switch {
	case s.Result == nil:
		return "bad"
	case s.Result.Status != model.StatusUnsatisfiable && len(Updates(cat, s.Result)) > 0:
		return "updates"
	case s.Result.Status != model.StatusUnsatisfiable:
		return "ready"
	case len(s.Blockers) == 0:
		return "error"
	}
	class := "accepted"
	for _, bl := range s.Blockers {
		switch {
		case bl.Accepted:
		case bl.Severity == model.SeverityWarning && class == "accepted":
			class = "warning"
		case bl.Severity != model.SeverityWarning:
			class = "error"
		}
	}
	return class
}

func (b *WhatIf) htmlGroup(letter string, members []int) htmlGroup {
	s := b.Scenarios[members[0]]
	g := htmlGroup{Letter: letter, Covers: b.covers(members), Verdict: b.outcome(s), Class: outcomeClass(b.Catalog, s)}
	switch {
	case s.Result == nil:
		g.Problem = s.Problem
	case s.Result.Status == model.StatusUnsatisfiable:
		for _, bl := range s.Blockers {
			g.Blockers = append(g.Blockers, htmlBlocker{
				Module: bl.Module, Severity: bl.Severity.String(), First: b.Scenarios[bl.First].Name,
				Class: outcomeClass(b.Catalog, Scenario{Result: s.Result, Blockers: []model.Blocker{bl}}), Accepted: bl.Accepted,
			})
		}
		g.Summary, g.Facts, g.Suggestions = s.Result.Explanation.Summary, factTexts(s.Result.Explanation), suggestionTexts(s.Result.Explanation)
	default:
		g.Route = RouteTexts(s.Result)
		g.Updates = Updates(b.Catalog, s.Result)
		if line := BuiltInLine(b.Catalog, s.Result); line != "" {
			g.Updates = append(g.Updates, line)
		}
		g.Notes = Notes(s.Result)
		g.Plan = planTexts(b.Catalog, s.Result.Plan)
	}
	return g
}

func factTexts(e *model.Explanation) []string {
	out := make([]string, len(e.Facts))
	for i, f := range e.Facts {
		out[i] = f.Message
	}
	return out
}

func suggestionTexts(e *model.Explanation) []string {
	out := make([]string, len(e.Suggestions))
	for i, s := range e.Suggestions {
		out[i] = s.Message
	}
	return out
}

// planTexts words the plan's steps, leaving out the built-in modules that
// stay on, which follow the platform (as Updates does).
func planTexts(cat *model.Catalog, steps []model.PlanStep) []string {
	var out []string
	for _, s := range steps {
		if mod := cat.Module(s.Module); mod != nil && mod.BuiltInFrom(s.ToSource) && s.Action != model.ActionDisable {
			continue
		}
		text := fmt.Sprintf("%s %s: %s → %s", s.Module, s.Action, dash(s.FromVersion), dash(s.ToVersion))
		if len(s.CycleWith) > 0 {
			text += " (together with " + strings.Join(s.CycleWith, ", ") + ")"
		}
		out = append(out, text)
	}
	return out
}
