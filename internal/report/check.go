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
}

// Table writes the check as tables: the counts, the modules only their
// stage keeps off, the kinds of fact and the top reasons.
func (c *Check) Table(w io.Writer) error {
	p := &printer{w: w}
	var counts [][]string
	if c.Cluster != nil {
		counts = append(counts, []string{"checked on", checkedOn(c.Cluster)})
	}
	counts = append(counts, [][]string{
		{"modules checked", strconv.Itoa(c.Summary.Modules)},
		{"install", strconv.Itoa(c.Summary.Resolved)},
		{"cannot install", strconv.Itoa(c.Summary.Unsatisfiable)},
	}...)
	if c.Summary.Errors > 0 {
		counts = append(counts, []string{"bad input", strconv.Itoa(c.Summary.Errors)})
	}
	if p.err == nil {
		p.err = Columns(w, counts)
	}
	if only := c.Summary.ExperimentalOnly; len(only) > 0 {
		p.line("\nExperimental only, so refused while allowExperimentalModules=false (%d): %s", len(only), strings.Join(only, ", "))
	}
	if len(c.Summary.Kinds) > 0 {
		p.line("\nBy kind of fact:")
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
