package catalog

import (
	"maps"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// inferBundleDefaults fills in the bundle defaults a DKP tree does not
// record (D129). DKP keeps most built-in modules' bundle defaults outside
// their module.yaml (the real tree records them for 6 of 74), so a tree
// read alone would take every other built-in module as off by default,
// and a module that is on by default and requires one of them would be
// planned for a disable DKP never makes. DKP runs a module only with its
// requirements met, so a built-in module that records no accessibility
// and that a built-in module on by default in bundle B requires (not
// optionally) is taken as on by default in B too, transitively, each with
// a warning; the others stay off by default, as one warning says.
func (l *dkpLoader) inferBundleDefaults(modules []*model.Module) {
	byName := make(map[string]*model.Module, len(modules))
	for _, m := range modules {
		byName[m.Name] = m
	}
	unknown := map[string]bool{}
	for _, m := range modules {
		if m.Embedded && m.Accessibility == nil {
			unknown[m.Name] = true
		}
	}
	inferred := map[string]map[string][]string{} // module → edition → bundles
	why := map[string][]string{}                 // module → the modules that require it
	for changed := true; changed; {
		changed = false
		for _, m := range modules {
			if !m.Embedded || m.Accessibility == nil {
				continue
			}
			for _, d := range m.Requirements.Modules {
				if d.Constraint.Optional || !unknown[d.Module] || !byName[d.Module].Embedded {
					continue
				}
				if inferDefault(inferred, d.Module, m.Accessibility) {
					changed = true
				}
				if !slices.Contains(why[d.Module], m.Name) {
					why[d.Module] = append(why[d.Module], m.Name)
				}
			}
		}
		for name, bundles := range inferred {
			byName[name].Accessibility = accessibilityOf(bundles) // read by the next pass
		}
	}
	for _, name := range slices.Sorted(maps.Keys(inferred)) {
		delete(unknown, name)
		l.rep.warn("built-in module %s records no bundle default; it is taken as on by default where %s, which requires it, is (%s)",
			name, strings.Join(why[name], ", "), bundlesText(inferred[name]))
	}
	switch names := slices.Sorted(maps.Keys(unknown)); len(names) {
	case 0:
	case 1:
		l.rep.warn("built-in module %s records no bundle default (DKP keeps it outside module.yaml); it is taken as off unless the cluster state enables it", names[0])
	default:
		l.rep.warn("%d built-in modules record no bundle default (DKP keeps it outside module.yaml); they are taken as off unless the cluster state enables them: %s",
			len(names), strings.Join(names, ", "))
	}
}

// inferDefault adds to inferred[name] the bundles that access enables,
// per edition; it reports whether any was new.
func inferDefault(inferred map[string]map[string][]string, name string, access *model.Accessibility) bool {
	if inferred[name] == nil {
		inferred[name] = map[string][]string{}
	}
	grew := false
	editions := slices.Sorted(maps.Keys(access.Editions))
	if !slices.Contains(editions, model.DefaultEdition) {
		editions = append(editions, model.DefaultEdition)
	}
	for _, ed := range editions {
		available, bundles := access.For(ed)
		if !available {
			continue
		}
		for _, b := range bundles {
			if !slices.Contains(inferred[name][ed], b) {
				inferred[name][ed] = append(inferred[name][ed], b)
				grew = true
			}
		}
	}
	return grew
}

// accessibilityOf is the accessibility of inferred bundles: available in
// every edition, as a module without accessibility data is (R7).
func accessibilityOf(byEdition map[string][]string) *model.Accessibility {
	yes := true
	a := &model.Accessibility{Editions: map[string]model.EditionAccess{model.DefaultEdition: {Available: &yes}}}
	for ed, bundles := range byEdition {
		e := a.Editions[ed]
		e.EnabledInBundles = slices.Sorted(slices.Values(bundles))
		a.Editions[ed] = e
	}
	return a
}

// bundlesText names inferred bundles, by edition where they differ.
func bundlesText(byEdition map[string][]string) string {
	var parts []string
	for _, ed := range slices.Sorted(maps.Keys(byEdition)) {
		if len(byEdition[ed]) == 0 {
			continue
		}
		bundles := strings.Join(slices.Sorted(slices.Values(byEdition[ed])), ", ")
		if ed == model.DefaultEdition {
			parts = append(parts, "bundles "+bundles)
		} else {
			parts = append(parts, "in edition "+ed+": "+bundles)
		}
	}
	return strings.Join(parts, "; ")
}
