package bench

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// WriteCatalogFile writes the generated catalog in the single-file format
// (DESIGN.md §2), so that loading it can be measured (§8: a 1.5 MB file of
// 16,000 releases, FileLoadSize). It writes what Generate builds: modules
// with their weight, channels and releases, each release's platform and
// module requirements and update rules, and a built-in module's
// requirements; it is not a general catalog writer.
func WriteCatalogFile(w io.Writer, cat *model.Catalog) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "modules:")
	for _, m := range cat.Modules() {
		fmt.Fprintf(bw, "  - name: %s\n    weight: %d\n", m.Name, m.Weight)
		if m.Embedded {
			fmt.Fprintln(bw, "    embedded: true")
			if !emptyRequirements(&m.Requirements) {
				fmt.Fprint(bw, "    requirements: ")
				writeRequirements(bw, &m.Requirements)
				fmt.Fprintln(bw)
			}
			continue
		}
		if len(m.Channels) > 0 {
			fmt.Fprint(bw, "    channels: {")
			for i, ch := range slices.Sorted(maps.Keys(m.Channels)) {
				if i > 0 {
					fmt.Fprint(bw, ", ")
				}
				fmt.Fprintf(bw, "%s: %s", ch, m.Channels[ch])
			}
			fmt.Fprintln(bw, "}")
		}
		fmt.Fprintln(bw, "    releases:")
		for _, r := range m.Releases {
			fmt.Fprintf(bw, "      - {version: %s", r.Version)
			if !emptyRequirements(&r.Requirements) {
				fmt.Fprint(bw, ", requirements: ")
				writeRequirements(bw, &r.Requirements)
			}
			for i, u := range r.UpdateRules {
				if i == 0 {
					fmt.Fprint(bw, ", update: {versions: [")
				} else {
					fmt.Fprint(bw, ", ")
				}
				fmt.Fprintf(bw, "{from: %q, to: %q}", u.From, u.To)
				if i == len(r.UpdateRules)-1 {
					fmt.Fprint(bw, "]}")
				}
			}
			fmt.Fprintln(bw, "}")
		}
	}
	return bw.Flush()
}

func emptyRequirements(req *model.Requirements) bool {
	return req.Deckhouse == nil && req.Kubernetes == nil && len(req.Modules) == 0
}

// writeRequirements writes req as a flow mapping.
func writeRequirements(w io.Writer, req *model.Requirements) {
	var parts []string
	if req.Deckhouse != nil {
		parts = append(parts, "deckhouse: "+strconv.Quote(req.Deckhouse.Text))
	}
	if req.Kubernetes != nil {
		parts = append(parts, "kubernetes: "+strconv.Quote(req.Kubernetes.Text))
	}
	if len(req.Modules) > 0 {
		deps := make([]string, len(req.Modules))
		for i, d := range req.Modules {
			deps[i] = d.Module + ": " + strconv.Quote(d.Constraint.Text)
		}
		parts = append(parts, "modules: {"+strings.Join(deps, ", ")+"}")
	}
	fmt.Fprint(w, "{"+strings.Join(parts, ", ")+"}")
}
