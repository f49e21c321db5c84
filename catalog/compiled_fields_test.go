package catalog

import (
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/modsolver/modsolver/model"
)

// TestCompiledMirrorsModel: every exported field of a model type that a
// catalog holds has a field of the same name in the compiled payload's
// mirror of it, so that a field added to the model is not left out of
// compiled catalogs unnoticed.
func TestCompiledMirrorsModel(t *testing.T) {
	pairs := []struct{ model, mirror any }{
		{model.Module{}, compiledModule{}},
		{model.ChannelSet{}, compiledChannelSet{}},
		{model.Release{}, compiledRelease{}},
		{model.UpdateEdges{}, compiledEdges{}},
		{model.Requirements{}, compiledRequirements{}},
		{model.Dependency{}, compiledDependency{}},
		{model.CompoundRequirement{}, compiledCompound{}},
		{model.Predicate{}, compiledPredicate{}},
		{model.Accessibility{}, compiledAccess{}},
		{model.EditionAccess{}, compiledEdition{}},
		{model.SettingsSchema{}, compiledSettings{}},
		{model.PlatformSettings{}, compiledPlatformSettings{}},
		{model.RefusedRelease{}, compiledRefused{}},
		{Report{}, compiledReport{}},
	}
	// rebuilt are the fields that reading builds again instead of
	// reading: a report's totals, counted from the catalog, and a
	// schema's compiled form.
	rebuilt := map[reflect.Type][]string{
		reflect.TypeFor[Report]():               {"Modules", "Embedded", "Releases", "Prereleases"},
		reflect.TypeFor[model.SettingsSchema](): {"Check"},
	}
	for _, p := range pairs {
		m, mirror := reflect.TypeOf(p.model), reflect.TypeOf(p.mirror)
		for f := range m.Fields() {
			if !f.IsExported() || slices.Contains(rebuilt[m], f.Name) {
				continue
			}
			_, ok := mirror.FieldByName(f.Name)
			assert.True(t, ok, "%s.%s has no field in %s", m, f.Name, mirror)
		}
	}
}
