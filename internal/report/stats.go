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

// statsRows lays the stats out as name and value rows (D369). The rows
// that count per release count a built-in module apart ("456 releases,
// 73 built-in modules"), so that each set of rows adds up to the modules
// and releases rows; update policies add up to the modules not built in,
// as their rows say.
// A row of what only some formats have (capabilities, DKP v2 manifests,
// update edges, stages but General Availability…) is left out when its
// count is 0: `-o json` has every field.
func statsRows(st catalog.Stats) [][]string {
	n := strconv.Itoa
	rows := [][]string{{"catalog", st.Source + " (" + string(st.Format) + ")"}}
	if st.HelmSubcharts != "" {
		rows = append(rows, []string{"helm subcharts", fmt.Sprintf("%s (%d subchart dependencies bundled in their charts)", st.HelmSubcharts, st.BundledSubcharts)})
	}
	rows = append(rows, [][]string{
		{"modules", fmt.Sprintf("%d (%d built-in)", st.Modules, st.BuiltIn)},
		{"releases", fmt.Sprintf("%d (%d prereleases)", st.Releases, st.Prereleases)},
		{"module channels", fmt.Sprintf("%d (a module's own channels; the platform's release channels are not counted)", st.Channels)},
		{"module dependencies", fmt.Sprintf("%d required, %d optional, %d on modules outside the catalog", st.RequiredDependencies, st.OptionalDependencies, st.DependenciesOutside)},
	}...)
	optional := []struct {
		name  string
		count int
		text  string
	}{
		{"capabilities", st.RequiredCapabilities + st.ProvidedEntries, fmt.Sprintf("%d required, %d provided (%d by releases), %d provided by more than one module", st.RequiredCapabilities, st.ProvidedCapabilities, st.ProvidedEntries, st.SharedCapabilities)},
		{"compound requirements", st.CompoundRequirements, fmt.Sprintf("%d, of which %d conflicts (a top-level not)", st.CompoundRequirements, st.CompoundConflicts)},
		{"DKP v2 manifests", st.V2Modules + st.Applications, fmt.Sprintf("%s (%s), %d Applications", plural(st.V2Modules, "module"), plural(st.V2Releases, "release"), st.Applications)},
		{"DKP v2 groups", st.GroupMembers, fmt.Sprintf("%d anyOf, %d noneOf, %d members", st.Groups[model.GroupAnyOf.String()], st.Groups[model.GroupNoneOf.String()], st.GroupMembers)},
		{"update edges", st.Replaces + st.Skips + st.SkipRanges + st.FromToRules, fmt.Sprintf("%d replaces, %d skips, %d skipRange; %s update along them; %d from-to rules", st.Replaces, st.Skips, st.SkipRanges, plural(st.ModulesWithGraph, "module"), st.FromToRules)},
	}
	for _, o := range optional {
		if o.count > 0 {
			rows = append(rows, []string{o.name, o.text})
		}
	}
	for _, p := range slices.Sorted(maps.Keys(st.UpdatePolicies)) {
		text := plural(st.UpdatePolicies[p], "module")
		if st.BuiltIn > 0 {
			text += " (a built-in module has none)"
		}
		rows = append(rows, []string{"update policy " + string(p), text})
	}
	for _, stage := range model.Stages() {
		rows = appendSplit(rows, "stage "+stage.String(), st.Stages[stage.String()], st.BuiltInStages[stage.String()])
	}
	rows = appendSplit(rows, "disable confirmation", st.DisableConfirmations, st.BuiltInDisableConfirmations)
	for _, name := range slices.Sorted(maps.Keys(st.PlatformRequirements)) {
		rows = appendSplit(rows, "requires "+name, st.PlatformRequirements[name], st.BuiltInPlatformRequirements[name])
	}
	for _, form := range slices.Sorted(maps.Keys(st.DependencyForms)) {
		rows = append(rows, []string{"dependency form " + form, n(st.DependencyForms[form])})
	}
	rows = append(rows, []string{"skipped", n(st.Skipped)}, []string{"warnings", n(st.Warnings)})
	return rows
}

// appendSplit appends the row name of a count that takes a built-in
// module as one release, with the built-in modules apart: "456 releases,
// 73 built-in modules"; none for a count of 0.
func appendSplit(rows [][]string, name string, total, builtIn int) [][]string {
	switch {
	case total == 0:
		return rows
	case builtIn == 0:
		return append(rows, []string{name, plural(total, "release")})
	}
	return append(rows, []string{name, plural(total-builtIn, "release") + ", " + plural(builtIn, "built-in module")})
}

// plural is "1 release" or "n releases".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

// countRows lays out the importer's own counts, one per row.
func countRows(counts map[string]int) [][]string {
	var rows [][]string
	for _, what := range slices.Sorted(maps.Keys(counts)) {
		rows = append(rows, []string{strconv.Itoa(counts[what]), what})
	}
	return rows
}
