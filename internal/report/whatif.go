package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Scenario is one scenario of a what-if batch and its answer.
type Scenario struct {
	Name string
	// Result is the answer; nil when the scenario is bad input.
	Result *model.Result
	// Problem says, for bad input, what is wrong, in the words of the
	// WhatIf stream's error (server.BadInput), so that every output of a
	// batch words it alike.
	Problem string
}

// Matrix is the readiness grid: one scenario per pair of a candidate DKP
// version and a candidate Kubernetes version, scenario i*len(Kubernetes)+j
// being Deckhouse[i] × Kubernetes[j].
type Matrix struct {
	Deckhouse, Kubernetes []model.Version
}

// Requests returns the matrix's scenarios: base, on each pair of
// versions, and the name of each.
func (m *Matrix) Requests(base *model.Request) (names []string, reqs []*model.Request) {
	for _, d := range m.Deckhouse {
		for _, k := range m.Kubernetes {
			req := base.Clone()
			req.Platform = model.Platform{Deckhouse: d, Kubernetes: k}
			names = append(names, matrixName(d, k))
			reqs = append(reqs, req)
		}
	}
	return names, reqs
}

// matrixName names the scenario of a pair of versions; a cluster whose
// catalog needs no DKP version (R6, D142) may have none, and the name
// then gives the Kubernetes version alone.
func matrixName(d, k model.Version) string {
	if d == nil {
		return "kubernetes " + model.VersionString(k)
	}
	return fmt.Sprintf("deckhouse %s, kubernetes %s", model.VersionString(d), model.VersionString(k))
}

// WhatIf prints a what-if batch for people: the grid of a matrix (or the
// one reason that blocks all of it), then each scenario's updates or
// explanation.
type WhatIf struct {
	// Catalog tells built-in modules, which follow the platform and are
	// not counted as updates.
	Catalog *model.Catalog
	// Matrix is nil for free-form scenarios and for a shard of a matrix,
	// which print no grid.
	Matrix    *Matrix
	Scenarios []Scenario
}

// Table writes the batch as text.
func (b *WhatIf) Table(w io.Writer) error {
	p := &printer{w: w}
	if b.Matrix != nil {
		if common := commonBlock(b.Scenarios); common != nil {
			b.commonBlock(p, common)
			return p.err
		}
		b.grid(p)
	}
	b.details(p)
	return p.err
}

// commonBlock returns the explanation every cell of a matrix shares when
// every cell is blocked by the same facts and none of them is about a
// platform version: then no candidate platform changes anything (the
// cluster is inconsistent as it is), and the matrix says that once
// instead of in every cell. It returns nil otherwise.
func commonBlock(scenarios []Scenario) *model.Explanation {
	var first *model.Explanation
	for _, s := range scenarios {
		if s.Result == nil || s.Result.Status != model.StatusUnsatisfiable {
			return nil
		}
		if first == nil {
			first = s.Result.Explanation
		}
		if !slices.Equal(s.Result.Explanation.Facts, first.Facts) {
			return nil
		}
	}
	if first == nil || slices.ContainsFunc(first.Facts, model.Fact.AboutPlatform) {
		return nil
	}
	return first
}

// commonBlock prints the one reason that blocks every cell.
func (b *WhatIf) commonBlock(p *printer, e *model.Explanation) {
	p.line("every scenario is blocked for one reason that no platform version changes (%d DKP × %d Kubernetes versions):",
		len(b.Matrix.Deckhouse), len(b.Matrix.Kubernetes))
	p.line("  %s", e.Summary)
	for _, s := range e.Suggestions {
		p.line("  suggestion: %s", s.Message)
	}
}

// grid prints the readiness matrix: DKP versions down, Kubernetes
// versions across, one verdict per cell.
func (b *WhatIf) grid(p *printer) {
	m := b.Matrix
	header := []string{"DKP \\ KUBERNETES"}
	for _, k := range m.Kubernetes {
		header = append(header, model.VersionString(k))
	}
	rows := [][]string{header}
	for i, d := range m.Deckhouse {
		row := []string{cmp.Or(model.VersionString(d), "-")}
		for j := range m.Kubernetes {
			row = append(row, b.verdict(b.Scenarios[i*len(m.Kubernetes)+j]))
		}
		rows = append(rows, row)
	}
	if p.err == nil {
		p.err = Columns(p.w, rows)
	}
	p.line("")
}

// verdict is one cell: OK, OK with updates, or the blockers.
func (b *WhatIf) verdict(s Scenario) string {
	switch {
	case s.Result == nil:
		return "error"
	case s.Result.Status == model.StatusUnsatisfiable:
		return "blocked: " + strings.Join(Blockers(s.Result.Explanation), ", ")
	}
	if n := len(Updates(b.Catalog, s.Result)); n > 0 {
		return fmt.Sprintf("ok, %d to update", n)
	}
	return "ok"
}

// details prints, per scenario, the updates or the explanation.
func (b *WhatIf) details(p *printer) {
	for _, s := range b.Scenarios {
		switch {
		case s.Result == nil:
			p.line("%s: bad input: %s", s.Name, s.Problem)
		case s.Result.Status == model.StatusUnsatisfiable:
			p.line("%s: blocked\n  %s", s.Name, s.Result.Explanation.Summary)
			for _, sg := range s.Result.Explanation.Suggestions {
				p.line("  suggestion: %s", sg.Message)
			}
		default:
			ups := Updates(b.Catalog, s.Result)
			p.line("%s: ok, %d to update", s.Name, len(ups))
			for _, u := range ups {
				p.line("  %s", u)
			}
		}
	}
}

// Updates lists the modules a resolved answer changes, as "name action:
// from → to" or "name disable: from". Built-in modules that stay on
// follow the platform and are left out.
func Updates(cat *model.Catalog, res *model.Result) []string {
	var out []string
	for _, m := range res.Modules {
		if mod := cat.Module(m.Name); mod != nil && mod.Embedded && m.Action != model.ActionDisable {
			continue
		}
		switch m.Action {
		case model.ActionUpdate, model.ActionDowngrade, model.ActionInstall:
			out = append(out, fmt.Sprintf("%s %s: %s → %s", m.Name, m.Action, dash(m.FromVersion), m.ToVersion))
		case model.ActionDisable:
			out = append(out, fmt.Sprintf("%s disable: %s", m.Name, dash(m.FromVersion)))
		}
	}
	return out
}

// Blockers names the modules an explanation blames, sorted and without
// repeats: the modules of its facts about a platform version (DKP,
// Kubernetes or another platform component, R22), as the facts
// themselves say (model.Fact.AboutPlatform); when no fact is, the
// modules of all its facts.
func Blockers(e *model.Explanation) []string {
	var platform, all []string
	for _, f := range e.Facts {
		if f.Module == "" {
			continue
		}
		if f.AboutPlatform() {
			platform = append(platform, f.Module)
		}
		all = append(all, f.Module)
	}
	if len(platform) > 0 {
		all = platform
	}
	slices.Sort(all)
	return slices.Compact(all)
}
