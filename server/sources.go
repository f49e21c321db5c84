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
// (R23, D78), each under its own name, at the request's priority or else
// the one serve gave it (--catalog-priority, default 0).
// A request names either sources or one catalog.
func (r *resolver) sourcesCatalog(ref catalogRef) (*model.Catalog, error) {
	if ref.isInline || ref.name != "" {
		return nil, &model.FieldError{Path: model.Field("sources"), Err: fmt.Errorf("%w: name sources or one catalog, not both", model.ErrInvalidInput)}
	}
	sources := make([]model.Source, len(ref.sources))
	for i, s := range ref.sources {
		if s.GetCatalogName() == "" {
			return nil, &model.FieldError{Path: model.Field("sources").Index(i).Field("catalog_name"), Err: model.ErrMissingField}
		}
		served, err := r.catalogs.load().lookup(s.GetCatalogName())
		if err != nil {
			return nil, &model.FieldError{Path: model.Field("sources").Index(i).Field("catalog_name"), Err: err}
		}
		priority := served.Priority
		if s.Priority != nil {
			priority = int(s.GetPriority())
		}
		sources[i] = model.Source{Name: s.GetCatalogName(), Priority: priority, Catalog: served.Catalog}
	}
	return model.Merge(sources)
}
