package model

import (
	"slices"
	"strings"
)

// PlatformNames are the editions and bundles a catalog's platform data
// lists (DKP's platform.yaml). A cluster state is checked against them
// (D351): an edition or bundle they do not list is bad input, and one
// they list in another case is read as they spell it (EE is ee). An empty
// list names nothing, and then any value is taken as it is.
type PlatformNames struct {
	Editions []string
	Bundles  []string
}

// PlatformNames are the editions and bundles c's platform data lists, or
// nil when it lists none.
func (c *Catalog) PlatformNames() *PlatformNames { return c.names }

// WithPlatformNames returns a copy of c that checks editions and bundles
// against n (nil: none); c itself is unchanged. The copy derives its own
// values (Derived).
func (c *Catalog) WithPlatformNames(n *PlatformNames) *Catalog {
	out := Catalog{modules: c.modules, index: c.index, providers: c.providers, sources: c.sources,
		needsDeckhouse: c.needsDeckhouse, known: c.known}
	if n != nil && (len(n.Editions) > 0 || len(n.Bundles) > 0) {
		out.names = &PlatformNames{Editions: slices.Clone(n.Editions), Bundles: slices.Clone(n.Bundles)}
	}
	return &out
}

// mergeNames joins the names the sources' platform data lists, in the
// order of the sources given and then of each list: several sources run
// on one platform, and a source without platform data names nothing.
func mergeNames(sources []Source) *PlatformNames {
	var out PlatformNames
	for _, s := range sources {
		if s.Catalog == nil || s.Catalog.names == nil {
			continue
		}
		out.Editions = appendNew(out.Editions, s.Catalog.names.Editions)
		out.Bundles = appendNew(out.Bundles, s.Catalog.names.Bundles)
	}
	if len(out.Editions) == 0 && len(out.Bundles) == 0 {
		return nil
	}
	return &out
}

func appendNew(to, names []string) []string {
	for _, n := range names {
		if !slices.ContainsFunc(to, func(t string) bool { return strings.EqualFold(t, n) }) {
			to = append(to, n)
		}
	}
	return to
}

// spell returns the spelling list gives name, matched without regard to
// case, and whether list has it; an empty list takes any name as it is.
func spell(list []string, name string) (string, bool) {
	if len(list) == 0 {
		return name, true
	}
	i := slices.IndexFunc(list, func(n string) bool { return strings.EqualFold(n, name) })
	if i < 0 {
		return name, false
	}
	return list[i], true
}

// validateNames checks the cluster's edition and bundle against the
// catalog's platform data, and spells each as the data does (D351). An
// empty edition or bundle is not checked: where one is needed, the
// reader that needs it says so.
func (c *ClusterState) validateNames(cat *Catalog) InputErrors {
	n := cat.names
	if n == nil {
		return nil
	}
	var errs InputErrors
	for _, f := range []struct {
		what  string
		value *string
		list  []string
	}{
		{"edition", &c.Edition, n.Editions},
		{"bundle", &c.Bundle, n.Bundles},
	} {
		if *f.value == "" {
			continue
		}
		spelled, ok := spell(f.list, *f.value)
		if !ok {
			errs = append(errs, fieldErr(Field("cluster", f.what), ErrInvalidValue, "unknown %s %q: the catalog's platform data lists %s",
				f.what, *f.value, strings.Join(f.list, ", ")))
			continue
		}
		if spelled != *f.value {
			*f.value = spelled
		}
	}
	return errs
}
