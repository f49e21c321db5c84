package server

import (
	"fmt"

	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// with returns ref with the sources a request names (R23).
func (ref catalogRef) with(sources []*modsolverv1.SourceRef) catalogRef {
	ref.sources = sources
	return ref
}

// sourcesCatalog merges the served catalogs a request names as sources
// (R23, D78), each under its own name, at the request's priority or 0.
// A request names either sources or one catalog.
func (r *resolver) sourcesCatalog(ref catalogRef) (*model.Catalog, error) {
	if ref.isInline || ref.name != "" {
		return nil, &model.FieldError{Field: "sources", Err: fmt.Errorf("%w: name sources or one catalog, not both", model.ErrInvalidInput)}
	}
	sources := make([]model.Source, len(ref.sources))
	for i, s := range ref.sources {
		cat, err := r.catalogs.Lookup(s.GetCatalogName())
		if err != nil {
			return nil, &model.FieldError{Field: fmt.Sprintf("sources[%d].catalog_name", i), Err: err}
		}
		if s.GetCatalogName() == "" {
			return nil, &model.FieldError{Field: fmt.Sprintf("sources[%d].catalog_name", i), Err: model.ErrMissingField}
		}
		sources[i] = model.Source{Name: s.GetCatalogName(), Priority: int(s.GetPriority()), Catalog: cat}
	}
	return model.Merge(sources)
}
