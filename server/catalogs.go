package server

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// Catalog is one served catalog, with where it came from.
type Catalog struct {
	// Name is what requests call the catalog by; it must not be empty.
	Name string
	// Source is where the catalog was read from: a path, or "embedded".
	Source string
	// Format is "file", "dkp" or "embedded".
	Format string
	// Notes say what the load skipped or warned about.
	Notes []string
	// Catalog is the catalog itself; it is shared, never modified.
	Catalog *model.Catalog
	// Priority is the catalog's priority when a request names it as one
	// of several sources without a priority of its own (R23).
	Priority int

	// compiled is Catalog compiled for resolution, once, when the set is
	// made (at start and on every reload).
	compiled *solver.Compiled
}

// Compiled returns the catalog compiled for resolution, or nil for a
// Catalog that is not part of a set.
func (c *Catalog) Compiled() *solver.Compiled { return c.compiled }

// Catalogs is the set of catalogs a server answers from. Reads are safe
// from any goroutine; Replace swaps the whole set at once, so a request
// sees either the old set or the new one, never a mix.
type Catalogs struct {
	set atomic.Pointer[catalogSet]
}

// catalogSet is one immutable generation of the served catalogs.
type catalogSet struct {
	byName map[string]*Catalog
	sorted []*Catalog // by name
	def    *Catalog
}

// NewCatalogs returns a set holding cats. The first one is the default,
// used when a request names no catalog.
func NewCatalogs(cats ...Catalog) (*Catalogs, error) {
	c := &Catalogs{}
	if err := c.Replace(cats...); err != nil {
		return nil, err
	}
	return c, nil
}

// Replace swaps in cats as the whole new set; the first one is the
// default. On error the old set stays.
func (c *Catalogs) Replace(cats ...Catalog) error {
	set, err := newCatalogSet(cats)
	if err != nil {
		return err
	}
	c.set.Store(set)
	return nil
}

func newCatalogSet(cats []Catalog) (*catalogSet, error) {
	if len(cats) == 0 {
		return nil, errors.New("catalogs: at least one catalog is needed")
	}
	set := &catalogSet{byName: make(map[string]*Catalog, len(cats))}
	for i := range cats {
		cat := cats[i]
		switch {
		case cat.Name == "":
			return nil, fmt.Errorf("catalogs: catalog %d (%s) has no name", i, cat.Source)
		case cat.Catalog == nil:
			return nil, fmt.Errorf("catalogs: catalog %s is nil", cat.Name)
		case set.byName[cat.Name] != nil:
			return nil, fmt.Errorf("catalogs: two catalogs are named %s", cat.Name)
		}
		cat.Notes = slices.Clone(cat.Notes)
		compiled, err := solver.Compile(cat.Catalog)
		if err != nil {
			return nil, fmt.Errorf("catalogs: catalog %s: %w", cat.Name, err)
		}
		cat.compiled = compiled
		set.byName[cat.Name] = &cat
		set.sorted = append(set.sorted, &cat)
	}
	set.def = set.sorted[0]
	slices.SortFunc(set.sorted, func(a, b *Catalog) int { return cmp.Compare(a.Name, b.Name) })
	return set, nil
}

// Lookup returns the catalog called name, or the default one for "". An
// unknown name is an error that wraps ErrUnknownCatalog.
func (c *Catalogs) Lookup(name string) (*model.Catalog, error) {
	cat, err := c.load().lookup(name)
	if err != nil {
		return nil, err
	}
	return cat.Catalog, nil
}

// lookupCompiled is Lookup for the catalog compiled.
func (c *Catalogs) lookupCompiled(name string) (*solver.Compiled, error) {
	cat, err := c.load().lookup(name)
	if err != nil {
		return nil, err
	}
	return cat.compiled, nil
}

// Names returns the served catalog names, sorted.
func (c *Catalogs) Names() []string { return c.load().names() }

// Default returns the name of the default catalog.
func (c *Catalogs) Default() string { return c.load().def.Name }

func (c *Catalogs) load() *catalogSet {
	set := c.set.Load()
	if set == nil {
		panic("internal error: server.Catalogs used without NewCatalogs")
	}
	return set
}

func (set *catalogSet) lookup(name string) (*Catalog, error) {
	if name == "" {
		return set.def, nil
	}
	cat := set.byName[name]
	if cat == nil {
		return nil, &model.FieldError{Path: model.Field("catalog_name"), Err: fmt.Errorf("%w %q (served: %s)", ErrUnknownCatalog, name, strings.Join(set.names(), ", "))}
	}
	return cat, nil
}

func (set *catalogSet) names() []string {
	names := make([]string, len(set.sorted))
	for i, c := range set.sorted {
		names[i] = c.Name
	}
	return names
}
