package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
)

// Stats writes `catalog stats` as text: the size of a catalog, then what
// its load skipped by reason, the importer's own counts and the load's
// warnings.
func Stats(w io.Writer, st catalog.Stats, warnings []string) error {
	p := &printer{w: w}
	if p.err == nil {
		p.err = Columns(w, statsRows(st))
	}
	for _, part := range []struct {
		title  string
		counts map[string]int
	}{{"Skipped, by reason:", st.SkippedBy}, {"Importer counts:", st.Counts}} {
		if len(part.counts) == 0 {
			continue
		}
		p.line("\n%s", part.title)
		if p.err == nil {
			p.err = Columns(w, countRows(part.counts))
		}
	}
	if len(warnings) > 0 {
		p.line("\nWarnings:")
		for _, warning := range warnings {
			p.line("  %s", warning)
		}
	}
	return p.err
}

// statsRows lays the stats out as name and value rows.
func statsRows(st catalog.Stats) [][]string {
	n := strconv.Itoa
	rows := [][]string{{"catalog", st.Source + " (" + string(st.Format) + ")"}}
	if st.HelmSubcharts != "" {
		rows = append(rows, []string{"helm subcharts", fmt.Sprintf("%s (%d subchart dependencies bundled in their charts)", st.HelmSubcharts, st.BundledSubcharts)})
	}
	rows = append(rows, [][]string{
		{"modules", fmt.Sprintf("%d (%d built-in)", st.Modules, st.BuiltIn)},
		{"releases", fmt.Sprintf("%d (%d prereleases)", st.Releases, st.Prereleases)},
		{"channels", n(st.Channels)},
		{"module dependencies", fmt.Sprintf("%d required, %d optional, %d on modules outside the catalog", st.RequiredDependencies, st.OptionalDependencies, st.DependenciesOutside)},
		{"capabilities", fmt.Sprintf("%d required, %d provided (%d by releases), %d provided by more than one module", st.RequiredCapabilities, st.ProvidedCapabilities, st.ProvidedEntries, st.SharedCapabilities)},
		{"compound requirements", fmt.Sprintf("%d, of which %d conflicts (a top-level not)", st.CompoundRequirements, st.CompoundConflicts)},
		{"DKP v2 manifests", fmt.Sprintf("%d modules (%d releases), %d Applications", st.V2Modules, st.V2Releases, st.Applications)},
		{"DKP v2 groups", fmt.Sprintf("%d anyOf, %d noneOf, %d members", st.Groups[model.GroupAnyOf.String()], st.Groups[model.GroupNoneOf.String()], st.GroupMembers)},
		{"update edges", fmt.Sprintf("%d replaces, %d skips, %d skipRange; %d modules update along them; %d from-to rules", st.Replaces, st.Skips, st.SkipRanges, st.ModulesWithGraph, st.FromToRules)},
	}...)
	for _, p := range slices.Sorted(maps.Keys(st.UpdatePolicies)) {
		rows = append(rows, []string{"update policy " + string(p), n(st.UpdatePolicies[p]) + " modules"})
	}
	for _, stage := range model.Stages() {
		rows = append(rows, []string{"stage " + stage.String(), n(st.Stages[stage.String()]) + " releases"})
	}
	rows = append(rows, []string{"disable confirmation", n(st.DisableConfirmations) + " releases"})
	for _, name := range slices.Sorted(maps.Keys(st.PlatformRequirements)) {
		rows = append(rows, []string{"requires " + name, n(st.PlatformRequirements[name]) + " releases"})
	}
	for _, form := range slices.Sorted(maps.Keys(st.DependencyForms)) {
		rows = append(rows, []string{"dependency form " + form, n(st.DependencyForms[form])})
	}
	rows = append(rows, []string{"skipped", n(st.Skipped)}, []string{"warnings", n(st.Warnings)})
	return rows
}

// countRows lays out the importer's own counts, one per row.
func countRows(counts map[string]int) [][]string {
	var rows [][]string
	for _, what := range slices.Sorted(maps.Keys(counts)) {
		rows = append(rows, []string{strconv.Itoa(counts[what]), what})
	}
	return rows
}
