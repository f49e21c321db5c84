package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
)

// TestDKPPlatformData: the DKP tree's platform.yaml is read into the
// versions the catalog knows (D212).
func TestDKPPlatformData(t *testing.T) {
	cat, _, err := LoadDir(shared.Path(t, "data", "dkp"))
	require.NoError(t, err)
	k := cat.KnownPlatform()
	require.NotNil(t, k)
	assert.Equal(t, model.MajorMinor{Major: 1, Minor: 77}, k.DeckhouseReleased)
	assert.Equal(t, model.MajorMinor{Major: 1, Minor: 78}, k.DeckhouseInDevelopment)
	assert.Equal(t, []model.MajorMinor{{Major: 1, Minor: 31}, {Major: 1, Minor: 32}, {Major: 1, Minor: 33}, {Major: 1, Minor: 34}, {Major: 1, Minor: 35}}, k.Kubernetes)
}

// A tree without platform.yaml knows no versions; one whose platform.yaml
// cannot be read says so in the report and still loads.
func TestDKPPlatformDataMissingOrBad(t *testing.T) {
	mod := "name: a\nweight: 1\n"
	dir := writeTree(t, map[string]string{"embedded/a/module.yaml": mod})
	cat, _, err := LoadDir(dir)
	require.NoError(t, err)
	assert.Nil(t, cat.KnownPlatform())

	dir = writeTree(t, map[string]string{"embedded/a/module.yaml": mod, "platform.yaml": "deckhouse: [not, a, map]\n"})
	cat, rep, err := LoadDir(dir)
	require.NoError(t, err)
	assert.Nil(t, cat.KnownPlatform())
	assert.Contains(t, rep.Summary(), "platform versions are not checked")
}
