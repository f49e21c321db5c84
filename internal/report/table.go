package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/modsolver/modsolver/model"
)

// Result writes one answer as tables: the status, the modules, the plan,
// the warnings, and for an unsatisfiable answer the explanation; with
// WithStats, then the solver's own figures.
func Result(w io.Writer, res *model.Result, opts ...ResultOption) error {
	var o resultOptions
	for _, opt := range opts {
		opt(&o)
	}
	p := &printer{w: w}
	p.line("status: %s", res.Status)
	mods, plan := res.Modules, res.Plan
	if !o.all { // D398: the tables list changes; --all lists what stays too
		mods = slices.DeleteFunc(slices.Clone(mods), func(m model.ModuleResult) bool { return m.Action == model.ActionKeep })
		plan = slices.DeleteFunc(slices.Clone(plan), func(s model.PlanStep) bool { return s.Action == model.ActionKeep })
	}
	if len(mods) > 0 {
		p.modules(mods)
	}
	switch kept := len(res.Modules) - len(mods); {
	case kept == 1:
		p.line("1 module kept as it is (--all lists it)")
	case kept > 1:
		p.line("%d modules kept as they are (--all lists them)", kept)
	}
	p.heldBack(mods)
	if len(res.Route) > 0 {
		p.route(res.Route)
	}
	if len(plan) > 0 {
		p.plan(plan)
	}
	if len(res.Warnings) > 0 {
		p.warnings(res.Warnings)
	}
	if len(res.Assumptions) > 0 {
		p.assumptions(res.Assumptions)
	}
	if res.Explanation != nil {
		p.explanation(res.Explanation)
	}
	if res.Stats.Unchanged > 0 {
		p.line("%d modules unchanged, not listed", res.Stats.Unchanged)
	}
	if o.stats {
		p.line("")
		p.line("%d variables, %d clauses, %d solves, %d µs", res.Stats.Variables, res.Stats.Clauses, res.Stats.Solves, res.Stats.SolveMicros)
	}
	return p.err
}

// ResultOption is an option of Result.
type ResultOption func(*resultOptions)

type resultOptions struct {
	stats, all bool
}

// WithAll lists every module and plan step, those that keep their
// version too; without it the tables list changes only (D398).
func WithAll() ResultOption { return func(o *resultOptions) { o.all = true } }

// WithStats ends the answer with the size of its encoding and the
// solver's time: variables, clauses, solves and microseconds. They
// describe the solver, not the answer, so an operator's table leaves them
// out unless asked (resolve -v); JSON always carries them as stats.
func WithStats() ResultOption { return func(o *resultOptions) { o.stats = true } }

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
	}
}

func (p *printer) table(header string, rows [][]string) {
	if p.err == nil {
		p.err = Columns(p.w, append([][]string{strings.Split(header, "\t")}, rows...))
	}
}

// Columns writes rows as left-aligned columns two spaces apart, with no
// padding at the ends of lines.
func Columns(w io.Writer, rows [][]string) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// An empty last column would leave padding at the end of its lines.
	for line := range strings.Lines(buf.String()) {
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " \n")); err != nil {
			return err
		}
	}
	return nil
}

func (p *printer) modules(ms []model.ModuleResult) {
	p.line("")
	rows := make([][]string, 0, len(ms))
	sources := slices.ContainsFunc(ms, func(m model.ModuleResult) bool { return m.FromSource != "" || m.ToSource != "" })
	for _, m := range ms {
		row := []string{m.Name, m.Action.String(), dash(m.FromVersion), dash(m.ToVersion), dash(m.ChannelHead)}
		if sources {
			row = slices.Insert(row, 4, sourceText(m))
		}
		rows = append(rows, row)
	}
	if sources {
		// R23: the source column shows where the release comes from, and a move.
		p.table("MODULE\tACTION\tFROM\tTO\tSOURCE\tHEAD", rows)
		return
	}
	p.table("MODULE\tACTION\tFROM\tTO\tHEAD", rows)
}

// heldBack says, below the table, why each module of ms stays below its
// head (R17) and the path to the head (R11), a module a line, wrapped
// (D398): reasons are sentences, too long for a column.
func (p *printer) heldBack(ms []model.ModuleResult) {
	first := true
	for _, m := range ms {
		path := ""
		if len(m.Path) > 0 && !(len(m.Path) == 1 && m.Path[0] == m.ToVersion) {
			path = "path " + pathText(m)
		}
		if m.HeldBack == "" && path == "" {
			continue
		}
		if first {
			p.line("")
			p.line("held back:")
			first = false
		}
		text := m.Name + ": " + m.HeldBack
		if m.HeldBack == "" {
			text = m.Name + ": " + path
		} else if path != "" {
			text += "; " + path
		}
		p.wrapped("  ", text)
	}
}

// route prints the platform steps of a route (R33), each with the
// changes made before it.
func (p *printer) route(steps []model.RouteStep) {
	p.line("")
	p.line("route (one minor at a time):")
	for i, st := range steps {
		p.line("  %d. DKP %s, Kubernetes %s", i+1, st.Deckhouse, st.Kubernetes)
		for _, ch := range st.Modules {
			p.line("     before it: %s", changeText(ch.Module, ch.Action, ch.FromVersion, ch.ToVersion))
		}
	}
}

// wrapped prints text after indent, wrapped to maxLine (D398).
func (p *printer) wrapped(indent, text string) {
	for _, l := range wrap(text, maxLine-len(indent)) {
		p.line("%s%s", indent, l)
	}
}

// maxLine is the widest line the tables' prose is wrapped to.
const maxLine = 160

// wrap breaks text at spaces into lines of at most width characters,
// the lines after the first indented by two; a word longer than width
// stays whole.
func wrap(text string, width int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) > width:
			out = append(out, line)
			line = "  " + word
		default:
			line += " " + word
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

func (p *printer) plan(steps []model.PlanStep) {
	p.line("")
	rows := make([][]string, 0, len(steps))
	sources := slices.ContainsFunc(steps, func(s model.PlanStep) bool { return s.FromSource != "" || s.ToSource != "" })
	for i, s := range steps {
		row := []string{fmt.Sprint(i + 1), s.Module, s.Action.String(), dash(s.FromVersion), dash(s.ToVersion)}
		if sources {
			row = append(row, sourcesText(s.FromSource, s.ToSource))
		}
		rows = append(rows, row)
	}
	if sources {
		p.table("STEP\tMODULE\tACTION\tFROM\tTO\tSOURCE", rows) // R23, D94
	} else {
		p.table("STEP\tMODULE\tACTION\tFROM\tTO", rows)
	}
	for i, s := range steps {
		if len(s.CycleWith) > 0 && (i == 0 || !slices.Contains(steps[i-1].CycleWith, s.Module)) {
			p.line("step %d: %s need each other (a dependency cycle); they are applied together, as one unit", i+1, strings.Join(append([]string{s.Module}, s.CycleWith...), ", "))
		}
		if s.ConfirmationAnnotation != "" {
			p.line("step %d needs confirmation: DKP disables %s only once its ModuleConfig has the annotation %s", i+1, s.Module, s.ConfirmationAnnotation)
			if s.ConfirmationMessage != "" {
				p.line("  %s says: %s", s.Module, s.ConfirmationMessage)
			}
		}
	}
}

func (p *printer) warnings(ws []model.Warning) {
	p.line("")
	p.line("warnings:")
	for _, w := range ws {
		p.line("  - %s", w.Message)
	}
}

// assumptions lists the gates the answer could not decide (R32).
func (p *printer) assumptions(as []model.Assumption) {
	p.line("")
	p.line("assumptions (the cluster state does not decide these gates; give their facts to decide them):")
	for _, a := range as {
		p.line("  - %s", a.Message)
	}
}

func (p *printer) explanation(e *model.Explanation) {
	p.line("")
	// D406: the facts, numbered, each with its kind, say the reason once;
	// the summary is printed above them only where it says more than they
	// do (a platform question's blockers, a route's step).
	msgs := factMessages(e.Facts)
	const lead = "the request cannot be met: "
	joined := lead + msgs
	rest, more := strings.CutPrefix(e.Summary, joined+"; ")
	switch {
	case e.Summary == joined || e.Summary == msgs || more:
		p.line("why: the request cannot be met, because")
	default:
		p.wrapped("", "why: "+e.Summary)
		p.line("because")
	}
	for i, f := range e.Facts {
		p.wrapped("  ", fmt.Sprintf("%d. %s [%s]", i+1, f.Message, factTag(f)))
	}
	if model.Chains(e.Steps) { // the derivation: how the facts chain into the reason
		p.wrapped("  ", model.StepsText(e.Steps))
	}
	if more { // what the summary says beyond the facts: a platform question's blockers
		p.wrapped("  ", "and "+rest)
	}
	if len(e.Suggestions) > 0 {
		p.line("")
		p.line("%s", suggestionsHeader(e.Suggestions))
		for _, s := range e.Suggestions {
			p.line("  - %s", s.Message)
		}
	}
}

// suggestionsHeader says how the suggestions work: each on its own, or,
// when no single change does, each set as a whole (R16).
func suggestionsHeader(sugs []model.Suggestion) string {
	if slices.ContainsFunc(sugs, func(s model.Suggestion) bool { return s.Kind == model.SuggestCombined }) {
		return "suggestions (no single change works; each set works when its changes are made together):"
	}
	return "suggestions (each works on its own):"
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// pathText is a module's path, with its note when it has one (D70).
func pathText(m model.ModuleResult) string {
	text := strings.Join(m.Path, " → ")
	if m.PathNote != "" {
		text += " (" + m.PathNote + ")"
	}
	return text
}

// sourceText is a module result's source for the table (R23): the source
// after, or "from → to" for a move.
func sourceText(m model.ModuleResult) string {
	return sourcesText(m.FromSource, m.ToSource)
}

// sourcesText is a source column's cell (R23): the source after, or
// "from → to" for a move, or the source before when the module ends off.
func sourcesText(from, to string) string {
	if from != "" && to != "" && from != to {
		return from + " → " + to
	}
	if to != "" {
		return to
	}
	return dash(from)
}

// factTag is what the table says of a fact besides its message: its kind,
// and where it was read from when that is known.
func factTag(f model.Fact) string {
	if o := f.Origin.String(); o != "" {
		return f.Kind.String() + ", " + o
	}
	return f.Kind.String()
}
