package report

import (
	"cmp"
	"fmt"
	"io"
	"reflect"
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
	// Group is the index of the first scenario whose answer equals this
	// one apart from platform version texts (readiness.Readiness).
	Group int
	// Blockers are the blockers of a blocked platform-upgrade scenario,
	// classed by R30.
	Blockers []model.Blocker
}

// Matrix is the readiness grid: one scenario per pair of a candidate DKP
// version and a candidate Kubernetes version, scenario i*len(Kubernetes)+j
// being Deckhouse[i] × Kubernetes[j].
type Matrix struct {
	Deckhouse, Kubernetes []model.Version
	// Cluster is the cluster's own platform: its cell is marked, and a
	// cell below it on either axis is a downgrade (R33).
	Cluster model.Platform
}

// own reports whether the cell of d × k is the cluster's own platform.
func (m *Matrix) own(d, k model.Version) bool {
	return m.Cluster.Kubernetes != nil && model.SameVersion(k, m.Cluster.Kubernetes) &&
		(d == nil || (m.Cluster.Deckhouse != nil && model.SameVersion(d, m.Cluster.Deckhouse)))
}

// downgrade reports whether the cell of d × k moves a minor down.
func (m *Matrix) downgrade(d, k model.Version) bool {
	below := func(v, now model.Version) bool {
		return v != nil && now != nil && model.MinorOf(v).Compare(model.MinorOf(now)) < 0
	}
	return below(d, m.Cluster.Deckhouse) || below(k, m.Cluster.Kubernetes)
}

// cellMark is what a cell's text starts with: "* " for the cluster's
// own platform, else nothing.
func (m *Matrix) cellMark(i, j int) string {
	if m.own(m.Deckhouse[i], m.Kubernetes[j]) {
		return "* "
	}
	return ""
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
// one reason that blocks all of it), each cell marked with its group,
// then each group of equal answers once: the scenarios it covers, then
// its updates or its blockers and explanation (D190).
type WhatIf struct {
	// Catalog tells built-in modules, which follow the platform and are
	// not counted as updates.
	Catalog *model.Catalog
	// Matrix is nil for free-form scenarios and for a shard of a matrix,
	// which print no grid.
	Matrix    *Matrix
	Scenarios []Scenario
	// Warnings are the batch's own, such as a platform version the
	// catalog's platform data does not know; every output form says them.
	Warnings []string
	// Context says, on the page, what the batch is about: the cluster,
	// the catalog, the verdict (the table's reader has the command line
	// and the exit status).
	Context []string
}

// Table writes the batch as text.
func (b *WhatIf) Table(w io.Writer) error {
	p := &printer{w: w}
	for _, warning := range b.Warnings {
		p.line("warning: %s", warning)
	}
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
		if !reflect.DeepEqual(s.Result.Explanation.Facts, first.Facts) {
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
	p.wrapped("  ", e.Summary)
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
	letters := b.letters()
	for i, d := range m.Deckhouse {
		row := []string{cmp.Or(model.VersionString(d), "-")}
		for j := range m.Kubernetes {
			k := i*len(m.Kubernetes) + j
			row = append(row, m.cellMark(i, j)+letters[k]+" "+b.cellText(i, j))
		}
		rows = append(rows, row)
	}
	if p.err == nil {
		p.err = Columns(p.w, rows)
	}
	if legend := b.gridLegend(); legend != "" {
		p.line("%s", legend)
	}
	p.line("")
}

// cellText is what the cell of Deckhouse[i] × Kubernetes[j] says: its
// outcome, and whether it is a downgrade (R33).
func (b *WhatIf) cellText(i, j int) string {
	m := b.Matrix
	out := b.outcome(b.Scenarios[i*len(m.Kubernetes)+j])
	if m.downgrade(m.Deckhouse[i], m.Kubernetes[j]) {
		out += ", downgrade"
	}
	return out
}

// gridLegend says what the grid's marks mean, when it has the cluster's
// own cell.
func (b *WhatIf) gridLegend() string {
	m := b.Matrix
	for i := range m.Deckhouse {
		for j := range m.Kubernetes {
			if !m.own(m.Deckhouse[i], m.Kubernetes[j]) {
				continue
			}
			for _, s := range b.Scenarios {
				if s.Result != nil && len(s.Result.Route) > 0 {
					return "* the cluster's own platform; every other cell is reached by the route its group lists, one minor at a time"
				}
			}
			return "* the cluster's own platform"
		}
	}
	return ""
}

// RouteTexts say how a resolved answer is reached (R33): the route's
// points, then the module changes made before a step, each as "before
// 1.75/1.31: gateway update: 1.0.0 → 1.1.0".
func RouteTexts(res *model.Result) []string {
	if len(res.Route) == 0 {
		return nil
	}
	points := make([]string, len(res.Route))
	var before []string
	for i, st := range res.Route {
		points[i] = model.MinorText(st.Deckhouse) + "/" + model.MinorText(st.Kubernetes)
		for _, ch := range st.Modules {
			before = append(before, "before "+points[i]+": "+changeText(ch.Module, ch.Action, ch.FromVersion, ch.ToVersion))
		}
	}
	return append([]string{"route: " + strings.Join(points, " → ")}, before...)
}

// outcome is what a cell says without its group: OK, OK with updates,
// or the blockers with their severity.
func (b *WhatIf) outcome(s Scenario) string {
	switch {
	case s.Result == nil:
		return "error"
	case s.Result.Status == model.StatusUnsatisfiable:
		return "blocked: " + strings.Join(blockerNames(s), ", ")
	}
	out := "ok"
	if n := len(s.Result.Assumptions); n > 0 {
		out = fmt.Sprintf("ready, assuming %d", n) // R32: ready only as far as the inputs say
	}
	out += changeCounts(b.Catalog, s.Result)
	if n := len(s.Result.Route); n > 1 {
		out += fmt.Sprintf(", %d steps", n) // R33: reached one minor at a time
	}
	if n := countKind(s.Result.Warnings, model.WarningSettingsRefused); n > 0 {
		out += fmt.Sprintf(", %d held back by settings", n)
	}
	return out
}

// readinessKinds are the warnings a readiness answer states under its
// updates, each with its label: what the modules' settings mean for the
// releases it selects (R34), and a preview or end-of-life Kubernetes
// minor (R31), which an operator has to act on before the upgrade day.
var readinessKinds = map[model.WarningKind]string{
	model.WarningSettingsRefused:  "settings",
	model.WarningSettingsRequired: "settings",
	model.WarningKubernetesStatus: "kubernetes",
}

// Notes are res's readiness warnings, in order, each as "label: message",
// then its assumptions (R32).
func Notes(res *model.Result) []string {
	var out []string
	for _, w := range res.Warnings {
		if label, ok := readinessKinds[w.Kind]; ok {
			out = append(out, label+": "+w.Message)
		}
	}
	for _, a := range res.Assumptions {
		out = append(out, a.Message)
	}
	return out
}

func countKind(ws []model.Warning, k model.WarningKind) int {
	n := 0
	for _, w := range ws {
		if w.Kind == k {
			n++
		}
	}
	return n
}

// changeCounts counts a resolved answer's changes by kind, as ", 2 to
// install, 2 to update", in the order install, update, downgrade,
// disable; empty when nothing changes. Installs are never counted as
// updates: a reader plans them differently.
func changeCounts(cat *model.Catalog, res *model.Result) string {
	counts := map[model.Action]int{}
	for _, m := range changed(cat, res) {
		counts[m.Action]++
	}
	var out string
	for _, k := range []struct {
		action model.Action
		verb   string
	}{{model.ActionInstall, "install"}, {model.ActionUpdate, "update"}, {model.ActionDowngrade, "downgrade"}, {model.ActionDisable, "disable"}} {
		if n := counts[k.action]; n > 0 {
			out += fmt.Sprintf(", %d to %s", n, k.verb)
		}
	}
	return out
}

// blockerNames names a blocked scenario's modules, each with its
// severity when it has one: "csi-ceph (warning, accepted)".
func blockerNames(s Scenario) []string {
	if len(s.Blockers) == 0 {
		return s.Result.Explanation.Blockers()
	}
	out := make([]string, len(s.Blockers))
	for i, bl := range s.Blockers {
		out[i] = bl.Module + " (" + bl.Severity.String()
		if bl.Accepted {
			out[i] += ", accepted"
		}
		out[i] += ")"
	}
	return out
}

// groups returns the scenarios of each group, in the order of each
// group's first scenario.
func (b *WhatIf) groups() [][]int {
	var out [][]int
	at := map[int]int{}
	for i, s := range b.Scenarios {
		k, ok := at[s.Group]
		if !ok {
			k = len(out)
			at[s.Group] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}

// letters names each scenario's group by letter, in the order of the
// groups' first scenarios.
func (b *WhatIf) letters() []string {
	out := make([]string, len(b.Scenarios))
	n := 0
	for i, s := range b.Scenarios {
		if s.Group >= i || s.Group < 0 {
			out[i] = groupLetter(n)
			n++
			continue
		}
		out[i] = out[s.Group]
	}
	return out
}

// groupLetter names the n-th group: A to Z, then AA, AB and on.
func groupLetter(n int) string {
	if n < 26 {
		return string(rune('A' + n))
	}
	return groupLetter(n/26-1) + string(rune('A'+n%26))
}

// details prints each group once: the scenarios it covers, then its
// first scenario's updates or blockers and explanation, in its own
// versions' words.
func (b *WhatIf) details(p *printer) {
	letters := b.letters()
	for _, members := range b.groups() {
		s := b.Scenarios[members[0]]
		head := b.covers(members)
		if b.Matrix != nil { // the grid's cells name the letter
			head = letters[members[0]] + ": " + head
		}
		switch {
		case s.Result == nil:
			p.line("%s: bad input: %s", head, s.Problem)
		case s.Result.Status == model.StatusUnsatisfiable:
			p.line("%s: blocked", head)
			for _, bl := range s.Blockers {
				b.blocker(p, bl)
			}
			p.wrapped("  ", s.Result.Explanation.Summary)
			for _, sg := range s.Result.Explanation.Suggestions {
				p.line("  suggestion: %s", sg.Message)
			}
		default:
			p.line("%s: %s", head, b.outcome(s))
			for _, r := range RouteTexts(s.Result) {
				p.wrapped("  ", r)
			}
			for _, u := range Updates(b.Catalog, s.Result) {
				p.line("  %s", u)
			}
			if line := BuiltInLine(b.Catalog, s.Result); line != "" {
				p.line("  %s", line)
			}
			for _, n := range Notes(s.Result) {
				p.wrapped("  ", n)
			}
		}
	}
}

// blocker prints one blocker's severity and the first scenario it blocks.
func (b *WhatIf) blocker(p *printer, bl model.Blocker) {
	accepted := ""
	if bl.Accepted {
		accepted = ", accepted"
	}
	p.line("  %s: %s%s, blocks from %s", bl.Module, bl.Severity, accepted, b.Scenarios[bl.First].Name)
}

// covers names the scenarios of a group: for a matrix, its DKP versions
// by the Kubernetes versions of each ("deckhouse 1.73.0, 1.74.0 ×
// kubernetes 1.29.1, 1.30.8"), rows with the same Kubernetes versions
// together; otherwise the scenarios' names.
func (b *WhatIf) covers(members []int) string {
	if b.Matrix == nil {
		names := make([]string, len(members))
		for i, k := range members {
			names[i] = b.Scenarios[k].Name
		}
		return strings.Join(names, "; ")
	}
	m := b.Matrix
	cols := map[int][]string{} // DKP row → its Kubernetes versions
	var rows []int
	for _, k := range members {
		i, j := k/len(m.Kubernetes), k%len(m.Kubernetes)
		if _, ok := cols[i]; !ok {
			rows = append(rows, i)
		}
		cols[i] = append(cols[i], model.VersionString(m.Kubernetes[j]))
	}
	var parts []string
	for len(rows) > 0 {
		kube := strings.Join(cols[rows[0]], ", ")
		var dkp []string
		rest := rows[:0:0]
		for _, i := range rows {
			if strings.Join(cols[i], ", ") == kube {
				dkp = append(dkp, model.VersionString(m.Deckhouse[i]))
			} else {
				rest = append(rest, i)
			}
		}
		if m.Deckhouse[rows[0]] == nil {
			parts = append(parts, "kubernetes "+kube)
		} else {
			parts = append(parts, "deckhouse "+strings.Join(dkp, ", ")+" × kubernetes "+kube)
		}
		rows = rest
	}
	return strings.Join(parts, "; ")
}

// Updates lists the modules a resolved answer changes, as "name action:
// from → to" or "name disable: from". Built-in modules that stay on
// follow the platform and are left out.
func Updates(cat *model.Catalog, res *model.Result) []string {
	var out []string
	for _, m := range changed(cat, res) {
		switch m.Action {
		case model.ActionUpdate, model.ActionDowngrade, model.ActionInstall, model.ActionDisable:
			out = append(out, changeText(m.Name, m.Action, m.FromVersion, m.ToVersion))
		}
	}
	return out
}

// changeText words one module change, as the what-if groups and a
// route's steps list them: "csi-nfs update: 0.3.26 → 0.4.1", or
// "prometheus disable: 1.73.3".
func changeText(module string, a model.Action, from, to string) string {
	if a == model.ActionDisable {
		return fmt.Sprintf("%s disable: %s", module, dash(from))
	}
	return fmt.Sprintf("%s %s: %s → %s", module, a, dash(from), to)
}

// changed is the modules a resolved answer changes, in its order: those
// it installs, updates, downgrades or disables. Built-in modules that
// stay on follow the platform and are left out.
// BuiltInLine says how many built-in modules move with DKP in res, and
// from which version to which, as "built in: 37 modules move with DKP
// 1.73.3 → 1.74.0": what tells apart groups whose other changes are the
// same; "" when none moves.
func BuiltInLine(cat *model.Catalog, res *model.Result) string {
	n, from, to := 0, "", ""
	for _, m := range res.Modules {
		mod := cat.Module(m.Name)
		if mod == nil || !mod.BuiltInFrom(m.ToSource) || (m.Action != model.ActionUpdate && m.Action != model.ActionDowngrade) {
			continue
		}
		n++
		from, to = m.FromVersion, m.ToVersion
	}
	switch {
	case n == 0:
		return ""
	case n == 1:
		return fmt.Sprintf("built in: 1 module moves with DKP %s → %s", dash(from), to)
	}
	return fmt.Sprintf("built in: %d modules move with DKP %s → %s", n, dash(from), to)
}

func changed(cat *model.Catalog, res *model.Result) []model.ModuleResult {
	var out []model.ModuleResult
	for _, m := range res.Modules {
		if mod := cat.Module(m.Name); mod != nil && mod.BuiltInFrom(m.ToSource) && m.Action != model.ActionDisable {
			continue
		}
		switch m.Action {
		case model.ActionUpdate, model.ActionDowngrade, model.ActionInstall, model.ActionDisable:
			out = append(out, m)
		}
	}
	return out
}
