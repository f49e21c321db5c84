package catalog

import (
	"reflect"
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
		{Report{}, compiledReport{}},
	}
	counted := map[string]bool{"Modules": true, "Embedded": true, "Releases": true, "Prereleases": true}
	for _, p := range pairs {
		m, mirror := reflect.TypeOf(p.model), reflect.TypeOf(p.mirror)
		for f := range m.Fields() {
			if !f.IsExported() || (m == reflect.TypeFor[Report]() && counted[f.Name]) {
				continue
			}
			_, ok := mirror.FieldByName(f.Name)
			assert.True(t, ok, "%s.%s has no field in %s", m, f.Name, mirror)
		}
	}
}
