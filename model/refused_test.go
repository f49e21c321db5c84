package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// R27, D347: NewCatalog sets a refused release aside, unchecked, moves a
// channel at it to the release below, and a pin may name it (D348).
func TestRefusedReleasesSetAside(t *testing.T) {
	rels := releasesOf("0.9.0", "1.0.0", "1.1.0", "2.0.0")
	loop := Requirements{Modules: []Dependency{dependency("vault", ">= 0.0.0")}}
	rels[1].Refused, rels[1].Requirements = "dependency cycle through: vault", loop
	rels[3].Refused, rels[3].Requirements = "dependency cycle through: vault", loop
	lone := releasesOf("1.0.0")
	lone[0].Refused, lone[0].Requirements = "dependency cycle through: lone", Requirements{Modules: []Dependency{dependency("lone", ">= 0.0.0")}}
	cat, err := NewCatalog([]*Module{
		{Name: "vault", Releases: rels, Channels: map[string]Version{"stable": MustParseVersion("1.0.0"), "alpha": MustParseVersion("2.0.0")}},
		{Name: "lone", Releases: lone, Channels: map[string]Version{"stable": MustParseVersion("1.0.0")}},
	})
	require.NoError(t, err, "a refused release's self-requirement is never checked")
	vault := cat.Module("vault")
	assert.Equal(t, []string{"0.9.0", "1.1.0"}, []string{VersionString(vault.Releases[0].Version), VersionString(vault.Releases[1].Version)})
	require.Len(t, vault.Refusals(), 2)
	assert.Equal(t, "1.0.0", VersionString(vault.Refusals()[0].Version))
	assert.Equal(t, "dependency cycle through: vault", vault.RefusedAt(MustParseVersion("2.0.0")).Reason)
	assert.Nil(t, vault.RefusedAt(MustParseVersion("1.1.0")))
	assert.Equal(t, "0.9.0", VersionString(vault.Channels["stable"]), "the same bound, at a release")
	assert.Equal(t, "1.1.0", VersionString(vault.Channels["alpha"]))
	assert.Empty(t, cat.Module("lone").Releases)
	assert.Equal(t, "1.0.0", VersionString(cat.Module("lone").Channels["stable"]), "nothing below: the channel keeps the refused version")

	cluster := &ClusterState{Deckhouse: MustParseVersion("1.77.0"), Kubernetes: MustParseVersion("1.31.0")}
	assert.NoError(t, (&Request{Pin: map[string]Version{"vault": MustParseVersion("1.0.0")}}).Validate(cat, cluster), "a pin on a refused release is a fact, not bad input")
	err = (&Request{Pin: map[string]Version{"vault": MustParseVersion("1.0.5")}}).Validate(cat, cluster)
	assert.ErrorIs(t, err, ErrUnknownVersion)

	dup := releasesOf("1.0.0", "1.0.0")
	dup[0].Refused = "dependency cycle through: d"
	_, err = NewCatalog([]*Module{{Name: "d", Releases: dup}})
	assert.ErrorIs(t, err, ErrDuplicate, "a refused release is still listed twice")
}
