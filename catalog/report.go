package catalog

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Format names the layout a catalog was read from.
type Format string

const (
	// FormatFile is modsolver's single-file YAML or JSON catalog.
	FormatFile Format = "modsolver"
	// FormatDKP is a directory in DKP's module-source layout.
	FormatDKP Format = "dkp"
	// FormatOLMBundles is a JSON dump of OLM bundle metadata: packages with
	// their channels, and one entry per bundle.
	FormatOLMBundles Format = "olm-bundles"
	// FormatOLMFBC is an OLM file-based catalog, as `opm render` emits it.
	FormatOLMFBC Format = "olm-fbc"
	// FormatHelmIndex is a Helm repository index.yaml.
	FormatHelmIndex Format = "helm-index"
)

// Report says what a catalog load read, what it skipped and why. Loading
// a DKP directory is tolerant, as DKP is; the report is how the tolerance
// stays visible.
type Report struct {
	Source      string
	Format      Format
	Modules     int
	Embedded    int
	Releases    int
	Prereleases int
	// Skipped lists what was not loaded at all, such as non-semver tags.
	Skipped []Skipped
	// Warnings list what was loaded with a part ignored.
	Warnings []string
	// Counts are what an importer counted that the catalog itself does not
	// hold, such as dependencies bundled inside a Helm chart; by phrase.
	Counts map[string]int
	// HelmSubcharts is how a Helm index's dependencies were read (D67);
	// "" for other formats.
	HelmSubcharts HelmSubcharts
}

// add counts n more of what.
func (r *Report) add(what string, n int) {
	if r.Counts == nil {
		r.Counts = map[string]int{}
	}
	r.Counts[what] += n
}

// Skipped is one file or folder that a load left out.
type Skipped struct {
	Path   string
	Reason string
}

func (r *Report) skip(path, format string, args ...any) {
	r.Skipped = append(r.Skipped, Skipped{Path: path, Reason: fmt.Sprintf(format, args...)})
}

func (r *Report) warn(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// count fills in the totals from the loaded catalog.
func (r *Report) count(cat *model.Catalog) {
	for _, m := range cat.Modules() {
		r.Modules++
		if m.Embedded {
			r.Embedded++
		}
		for _, rel := range m.Releases {
			r.Releases++
			if model.IsPrerelease(rel.Version) {
				r.Prereleases++
			}
		}
	}
}

// Headline is the report's first line: what was read, in which format,
// and its totals.
func (r *Report) Headline() string {
	line := fmt.Sprintf("catalog %s (%s): %d modules (%d built-in), %d releases (%d prereleases)",
		r.Source, r.Format, r.Modules, r.Embedded, r.Releases, r.Prereleases)
	if r.HelmSubcharts != "" {
		line += fmt.Sprintf("; helm subcharts %s", r.HelmSubcharts)
	}
	return line
}

// Summary is the report as a few lines of text: the totals, then every
// skipped path and warning.
func (r *Report) Summary() string {
	var b strings.Builder
	b.WriteString(r.Headline())
	if len(r.Skipped) > 0 {
		fmt.Fprintf(&b, "\nskipped %d:", len(r.Skipped))
		for _, s := range r.Skipped {
			fmt.Fprintf(&b, "\n  %s: %s", s.Path, s.Reason)
		}
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintf(&b, "\nwarnings %d:", len(r.Warnings))
		for _, w := range r.Warnings {
			fmt.Fprintf(&b, "\n  %s", w)
		}
	}
	for _, what := range slices.Sorted(maps.Keys(r.Counts)) {
		fmt.Fprintf(&b, "\n%s: %d", what, r.Counts[what])
	}
	return b.String()
}
