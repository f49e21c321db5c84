package report

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// Check is the outcome of `catalog check`: a sweep of every module's head
// release (solver.Sweep) and its summary.
type Check struct {
	// Catalog names what was checked, as the user gave it.
	Catalog string
	// Cluster is the empty cluster each module was installed into: its
	// platform, edition and bundle; nil when not known.
	Cluster *model.ClusterState
	Summary solver.SweepSummary
	Answers []solver.Installability
	// Top is how many of the most frequent reasons the table shows; with
	// none, the table has no section of them.
	Top int
	// Details lists every module that cannot be installed, with its
	// reasons, after the tables.
	Details bool
	// BuiltIn, AlsoBuiltIn and NoReleases are the catalog's modules the
	// check does not install, so that "modules checked" is not read as
	// the whole catalog (D415): the number of built-in modules and the
	// names of modules a source also carries built in (R29), which run
	// with the platform, and the number without releases of their own.
	BuiltIn     int
	AlsoBuiltIn []string
	NoReleases  int
}

// experimentalFix says how an Experimental release gets installed, for
// the modules whose reasons hold the experimental kind (R25, D393).
const experimentalFix = "DKP installs an Experimental release once the deckhouse ModuleConfig sets allowExperimentalModules: true,\n" +
	"  or names the module in allowedExperimentalModules"

// Table writes the check as tables: the counts, with the modules that
// cannot install and those not checked; the modules held back by their
// Experimental stage and how to allow them; the kinds of fact and the
// top reasons; with Details, each module that cannot install (D415).
func (c *Check) Table(w io.Writer) error {
	p := &printer{w: w}
	var counts [][]string
	if c.Cluster != nil {
		counts = append(counts, []string{"checked on", checkedOn(c.Cluster)})
	}
	counts = append(counts, [][]string{
		{"modules checked", c.checkedText()},
	}...)
	if not := c.notCheckedText(); not != "" {
		counts = append(counts, []string{"not checked", not})
	}
	counts = append(counts, [][]string{
		{"install", strconv.Itoa(c.Summary.Resolved)},
		{"cannot install", c.failedText(c.Summary.Unsatisfiable, func(a solver.Installability) bool { return a.Err == nil && a.Result.Status != model.StatusResolved })},
	}...)
	if c.Summary.Errors > 0 {
		counts = append(counts, []string{"bad input", c.failedText(c.Summary.Errors, func(a solver.Installability) bool { return a.Err != nil })})
	}
	if p.err == nil {
		p.err = Columns(w, counts)
	}
	c.experimental(p)
	if len(c.Summary.Kinds) > 0 {
		p.line("\nBy kind of fact (a module counts once under each kind among its reasons):")
		p.table("MODULES\tKIND\tFOR EXAMPLE", reasonRows(c.Summary.Kinds))
	}
	if len(c.Summary.Groups) > 0 {
		p.line("\nDKP v2 groups in the way:")
		p.table("MODULES\tGROUP\tFOR EXAMPLE", reasonRows(c.Summary.Groups))
	}
	if top := min(max(c.Top, 0), len(c.Summary.Reasons)); top > 0 {
		p.line("\nTop reasons:")
		p.table("MODULES\tREASON\tFOR EXAMPLE", reasonRows(c.Summary.Reasons[:top]))
	}
	if c.Details {
		c.details(p)
	}
	return p.err
}

// checkedText is the "modules checked" count, with what the check asks
// of each.
func (c *Check) checkedText() string {
	if c.Summary.Modules == 0 {
		return "0"
	}
	return strconv.Itoa(c.Summary.Modules) + ", each at its head (the newest release its channel offers), installed alone"
}

// notCheckedText counts the modules the check leaves out, and says why:
// "74: 73 built-in modules and snapshot-controller (also carried built
// in), which run with the platform"; "" for none.
func (c *Check) notCheckedText() string {
	n := c.BuiltIn + len(c.AlsoBuiltIn) + c.NoReleases
	if n == 0 {
		return ""
	}
	var parts []string
	if c.BuiltIn+len(c.AlsoBuiltIn) > 0 {
		var with []string
		if c.BuiltIn > 0 {
			with = append(with, countOf(c.BuiltIn, "built-in module"))
		}
		if len(c.AlsoBuiltIn) > 0 {
			with = append(with, examples(c.AlsoBuiltIn, 3)+" (also carried built in)")
		}
		verb := "run"
		if c.BuiltIn+len(c.AlsoBuiltIn) == 1 {
			verb = "runs"
		}
		parts = append(parts, strings.Join(with, " and ")+", which "+verb+" with the platform")
	}
	if c.NoReleases > 0 {
		parts = append(parts, fmt.Sprintf("%d without releases of their own", c.NoReleases))
	}
	return strconv.Itoa(n) + ": " + strings.Join(parts, "; ")
}

// failedText is the count of the modules that cannot install (or are bad
// input), n of them, each picked by is: the first few by name and where
// their reasons are, below with Details, else behind --details.
func (c *Check) failedText(n int, is func(solver.Installability) bool) string {
	if n == 0 {
		return "0"
	}
	if c.Details {
		return strconv.Itoa(n) + " (listed at the end, with their reasons)"
	}
	var names []string
	for _, a := range c.Answers {
		if is(a) {
			names = append(names, a.Module)
		}
	}
	if len(names) == 0 { // a summary without its answers
		return strconv.Itoa(n) + "; --details lists each with its reasons"
	}
	return fmt.Sprintf("%d: %s; --details lists each with its reasons", n, examples(names, 5))
}

// experimental says which modules their Experimental stage keeps off,
// what the two counts of them mean, and how DKP allows them: the kind
// "experimental" counts the modules whose release checked, the head, is
// Experimental; of those, "Experimental only" are the modules with no
// release the stage does not forbid, which no older release helps.
func (c *Check) experimental(p *printer) {
	var heads []string
	for _, k := range c.Summary.Kinds {
		if k.Reason == model.FactExperimental.String() {
			heads = k.Modules
		}
	}
	only := c.Summary.ExperimentalOnly
	if len(heads) == 0 && len(only) == 0 {
		return
	}
	if len(heads) > 0 {
		p.line("\nExperimental: the head of %s is Experimental (kind experimental below), and the cluster does not allow", countOf(len(heads), "module"))
		p.line("  experimental modules. %s.", experimentalFix)
	} else {
		p.line("\nExperimental: the cluster does not allow experimental modules.\n  %s.", experimentalFix)
	}
	if len(only) > 0 {
		p.line("  Experimental only (%d), with no release that is not Experimental, so no older release would do: %s", len(only), examples(only, 5))
	}
}

// countOf is "1 module" or "3 modules".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// checkedOn says what cluster a check installs into, so that a reason
// such as "edition" reads against the edition it was: "kubernetes 1.33.0,
// deckhouse 1.77.0, edition ee, bundle Default", or, on a DKP cluster,
// "no edition" when none was given, where a module of some editions only
// cannot install.
func checkedOn(c *model.ClusterState) string {
	var parts []string
	if c.Kubernetes != nil {
		parts = append(parts, "kubernetes "+c.Kubernetes.String())
	}
	if c.Deckhouse != nil {
		parts = append(parts, "deckhouse "+c.Deckhouse.String())
	}
	for _, name := range slices.Sorted(maps.Keys(c.Platform)) {
		parts = append(parts, name+" "+model.VersionString(c.Platform[name]))
	}
	switch {
	case c.Edition != "":
		parts = append(parts, "edition "+c.Edition)
	case c.Deckhouse != nil: // a DKP cluster, where editions count
		parts = append(parts, "no edition")
	}
	if c.Bundle != "" {
		parts = append(parts, "bundle "+c.Bundle)
	}
	return strings.Join(parts, ", ")
}

// reasonRows lays out one reason per row: how many modules, the reason,
// and the first few modules.
func reasonRows(reasons []solver.ReasonCount) [][]string {
	rows := make([][]string, len(reasons))
	for i, r := range reasons {
		rows[i] = []string{strconv.Itoa(len(r.Modules)), r.Reason, examples(r.Modules, 3)}
	}
	return rows
}

// examples lists at most names, then how many more there are.
func examples(names []string, most int) string {
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + fmt.Sprintf(", … (%d more)", len(names)-most)
}

func (c *Check) details(p *printer) {
	p.line("\nModules that cannot be installed:")
	for _, a := range c.Answers {
		switch {
		case a.Err != nil:
			p.line("  %s %s: bad input: %v", a.Module, a.Version, a.Err)
		case a.Result.Status != model.StatusResolved:
			p.line("  %s %s: %s", a.Module, a.Version, strings.Join(a.Reasons, "; "))
		}
	}
}

// CheckJSON is the JSON form of a catalog check.
type CheckJSON struct {
	Catalog string `json:"catalog"`
	// Cluster is the empty cluster each module was installed into.
	Cluster       *CheckClusterJSON `json:"cluster,omitempty"`
	Modules       int               `json:"modules"`
	Resolved      int               `json:"resolved"`
	Unsatisfiable int               `json:"unsatisfiable"`
	Errors        int               `json:"errors"`
	// BuiltIn, AlsoBuiltIn and WithoutReleases are the modules not
	// checked: built-in ones, a source's modules the platform also
	// carries built in, and those without releases.
	BuiltIn         int      `json:"builtIn"`
	AlsoBuiltIn     []string `json:"alsoBuiltIn"`
	WithoutReleases int      `json:"withoutReleases"`
	// ExperimentalOnly are the modules whose every admissible release is
	// Experimental (R25).
	ExperimentalOnly []string     `json:"experimentalOnly"`
	Kinds            []ReasonJSON `json:"kinds"`
	Reasons          []ReasonJSON `json:"reasons"`
	// Groups are the DKP v2 groups that kept modules from installing
	// (R28): unmet anyOf and violated noneOf groups.
	Groups  []ReasonJSON      `json:"groups"`
	Results []CheckModuleJSON `json:"results"`
}

// CheckClusterJSON is the cluster a check installs into; an edition or
// bundle left out was not given.
type CheckClusterJSON struct {
	Kubernetes string            `json:"kubernetes,omitempty"`
	Deckhouse  string            `json:"deckhouse,omitempty"`
	Platform   map[string]string `json:"platform,omitempty"`
	Edition    string            `json:"edition,omitempty"`
	Bundle     string            `json:"bundle,omitempty"`
}

// ReasonJSON is one reason, or kind of fact, and the modules it kept
// from installing.
type ReasonJSON struct {
	Reason  string   `json:"reason"`
	Modules []string `json:"modules"`
}

// CheckModuleJSON is the outcome for one module's head release.
type CheckModuleJSON struct {
	Module  string   `json:"module"`
	Version string   `json:"version"`
	Status  string   `json:"status"`
	Reasons []string `json:"reasons,omitempty"`
	Summary string   `json:"summary,omitempty"`
	Error   string   `json:"error,omitempty"`
}

// Doc returns the check's JSON document; its lists are empty, not null,
// when there is nothing in them.
func (c *Check) Doc() CheckJSON {
	sum := c.Summary
	doc := CheckJSON{Catalog: c.Catalog, Modules: sum.Modules, Resolved: sum.Resolved, Unsatisfiable: sum.Unsatisfiable, Errors: sum.Errors,
		BuiltIn: c.BuiltIn, AlsoBuiltIn: append([]string{}, c.AlsoBuiltIn...), WithoutReleases: c.NoReleases,
		ExperimentalOnly: append([]string{}, sum.ExperimentalOnly...),
		Kinds:            reasonsJSON(sum.Kinds), Reasons: reasonsJSON(sum.Reasons), Groups: reasonsJSON(sum.Groups), Results: []CheckModuleJSON{}}
	if cl := c.Cluster; cl != nil {
		doc.Cluster = &CheckClusterJSON{Kubernetes: model.VersionString(cl.Kubernetes), Deckhouse: model.VersionString(cl.Deckhouse), Edition: cl.Edition, Bundle: cl.Bundle}
		for name, v := range cl.Platform {
			if doc.Cluster.Platform == nil {
				doc.Cluster.Platform = map[string]string{}
			}
			doc.Cluster.Platform[name] = model.VersionString(v)
		}
	}
	for _, a := range c.Answers {
		m := CheckModuleJSON{Module: a.Module, Version: a.Version, Reasons: a.Reasons}
		switch {
		case a.Err != nil:
			m.Status, m.Error = "error", a.Err.Error()
		case a.Result.Status == model.StatusResolved:
			m.Status = "resolved"
		default:
			m.Status = "unsatisfiable"
			m.Summary = a.Result.Explanation.Summary
		}
		doc.Results = append(doc.Results, m)
	}
	return doc
}

func reasonsJSON(reasons []solver.ReasonCount) []ReasonJSON {
	out := make([]ReasonJSON, len(reasons))
	for i, r := range reasons {
		out[i] = ReasonJSON{Reason: r.Reason, Modules: r.Modules}
	}
	return out
}

// JSON writes the check's JSON document, indented by two spaces.
func (c *Check) JSON(w io.Writer) error {
	return WriteJSON(w, c.Doc())
}

// WriteJSON writes v as JSON indented by two spaces, with a newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
