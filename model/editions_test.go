package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// namedCatalog is validateCatalog with platform data that lists the
// editions ce and ee and the bundles Default and Minimal.
func namedCatalog(t *testing.T) *Catalog {
	t.Helper()
	return validateCatalog(t).WithPlatformNames(&PlatformNames{Editions: []string{"ce", "ee"}, Bundles: []string{"Default", "Minimal"}})
}

// TestValidatePlatformNames: an edition or bundle the catalog's platform
// data does not list is bad input that names the value and the listed
// ones; one listed in another case is spelled as the data spells it
// (R7, D351).
func TestValidatePlatformNames(t *testing.T) {
	tests := []struct {
		name            string
		edition, bundle string
		want            []wantErr
		wantEdition     string
		wantBundle      string
	}{
		{name: "listed", edition: "ee", bundle: "Default", wantEdition: "ee", wantBundle: "Default"},
		{name: "another case", edition: "EE", bundle: "minimal", wantEdition: "ee", wantBundle: "Minimal"},
		{name: "none given", wantEdition: "", wantBundle: ""},
		{name: "unknown edition", edition: "xe", bundle: "Default", want: []wantErr{{ErrInvalidValue, "cluster.edition"}}},
		{name: "unknown bundle", edition: "ce", bundle: "Defualt", want: []wantErr{{ErrInvalidValue, "cluster.bundle"}}},
		{name: "both unknown", edition: "xe", bundle: "Big", want: []wantErr{{ErrInvalidValue, "cluster.edition"}, {ErrInvalidValue, "cluster.bundle"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := validCluster()
			c.Edition, c.Bundle = tc.edition, tc.bundle
			err := c.Validate(namedCatalog(t))
			requireErrors(t, err, tc.want)
			if len(tc.want) == 0 {
				assert.Equal(t, tc.wantEdition, c.Edition)
				assert.Equal(t, tc.wantBundle, c.Bundle)
			}
		})
	}
	c := validCluster()
	c.Edition = "xe"
	err := c.Validate(namedCatalog(t))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown edition "xe": the catalog's platform data lists ce, ee`)
}

// A catalog without platform data, or whose data lists no editions,
// takes any edition as it is.
func TestValidatePlatformNamesWithoutData(t *testing.T) {
	c := validCluster()
	c.Edition, c.Bundle = "XE", "anything"
	require.NoError(t, c.Validate(validateCatalog(t)))
	assert.Equal(t, "XE", c.Edition)
	assert.Nil(t, validateCatalog(t).PlatformNames())

	bundlesOnly := validateCatalog(t).WithPlatformNames(&PlatformNames{Bundles: []string{"Default"}})
	c = validCluster()
	c.Edition, c.Bundle = "XE", "default"
	require.NoError(t, c.Validate(bundlesOnly))
	assert.Equal(t, "XE", c.Edition)
	assert.Equal(t, "Default", c.Bundle)
	assert.Nil(t, validateCatalog(t).WithPlatformNames(&PlatformNames{}).PlatformNames(), "an empty list names nothing")
}

// Platform data survives WithKnownPlatform when set after it, and merged
// sources check against every source's names (D351).
func TestPlatformNamesCarried(t *testing.T) {
	cat := namedCatalog(t)
	again := cat.WithPlatformNames(cat.PlatformNames())
	assert.Equal(t, cat.PlatformNames(), again.PlatformNames())

	other, err := NewCatalog([]*Module{{Name: "x", Releases: []*Release{{Version: MustParseVersion("1.0.0")}}}})
	require.NoError(t, err)
	other = other.WithPlatformNames(&PlatformNames{Editions: []string{"EE", "se"}})
	plain, err := NewCatalog([]*Module{{Name: "y", Releases: []*Release{{Version: MustParseVersion("1.0.0")}}}})
	require.NoError(t, err)
	merged, err := Merge([]Source{{Name: "a", Catalog: cat}, {Name: "b", Catalog: other}, {Name: "c", Catalog: plain}})
	require.NoError(t, err)
	assert.Equal(t, &PlatformNames{Editions: []string{"ce", "ee", "se"}, Bundles: []string{"Default", "Minimal"}}, merged.PlatformNames())

	merged, err = Merge([]Source{{Name: "c", Catalog: plain}, {Name: "d", Catalog: plain}})
	require.NoError(t, err)
	assert.Nil(t, merged.PlatformNames(), "no source names any")
}
