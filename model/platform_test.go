package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKnownPlatformUnknown(t *testing.T) {
	v := MustParseVersion
	k := &KnownPlatform{DeckhouseReleased: MajorMinor{1, 77}, DeckhouseInDevelopment: MajorMinor{1, 78},
		Kubernetes: []MajorMinor{{1, 31}, {1, 32}, {1, 33}, {1, 34}, {1, 35}}}
	assert.Empty(t, k.Unknown(v("1.78.2"), v("1.31.14")), "the version in development and a listed Kubernetes are known")
	assert.Empty(t, k.Unknown(v("1.60.0"), nil), "an older DKP is known; a nil version is not asked about")
	assert.Equal(t, []string{
		"deckhouse 1.99.0 is newer than any DKP version the catalog's platform data knows (newest released 1.77, 1.78 in development)",
		"kubernetes 1.20.0 is not a version the catalog's platform data knows (1.31 to 1.35)",
	}, k.Unknown(v("1.99.0"), v("1.20.0")))
	assert.Len(t, k.Unknown(v("1.74.0"), v("1.36.0")), 1, "a Kubernetes newer than the list is unknown too")
	var none *KnownPlatform
	assert.Nil(t, none.Unknown(v("1.99.0"), v("1.20.0")))
}

func TestWithKnownPlatform(t *testing.T) {
	cat, err := NewCatalog([]*Module{{Name: "a", Releases: []*Release{{Version: MustParseVersion("1.0.0")}}}})
	require.NoError(t, err)
	with := cat.WithKnownPlatform(&KnownPlatform{Kubernetes: []MajorMinor{{1, 33}, {1, 31}}})
	assert.Nil(t, cat.KnownPlatform(), "the catalog itself is unchanged")
	assert.Equal(t, []MajorMinor{{1, 31}, {1, 33}}, with.KnownPlatform().Kubernetes)
	assert.Equal(t, cat.Len(), with.Len())
	assert.NotNil(t, with.Module("a"))
}
