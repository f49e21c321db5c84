package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// joinedCatalog is a single catalog that holds snap both built in
// (source embedded) and as releases (source external), as a DKP tree
// does (D350), beside a module lib of its own.
func joinedCatalog(t *testing.T) *Catalog {
	t.Helper()
	listed := &Module{Name: "snap", Releases: []*Release{{Version: MustParseVersion("0.1.18")}, {Version: MustParseVersion("0.1.20")}}}
	builtIn := &Module{Name: "snap", Embedded: true}
	snap, err := JoinSources([]SourceCopy{{Source: "external", Module: listed}, {Source: "embedded", Module: builtIn}})
	require.NoError(t, err)
	cat, err := NewCatalog([]*Module{snap, {Name: "lib", Releases: []*Release{{Version: MustParseVersion("1.0.0")}}}})
	require.NoError(t, err)
	return cat
}

// TestJoinSources: a module a single catalog holds under sources of its
// own is read as a module built in in one source and listed in another
// (R29), and only it names sources (D350).
func TestJoinSources(t *testing.T) {
	cat := joinedCatalog(t)
	assert.Empty(t, cat.Sources(), "the catalog stays a single one")
	snap := cat.Module("snap")
	assert.True(t, snap.MultiSource())
	assert.Equal(t, "embedded", snap.BuiltInSource())
	assert.Equal(t, []string{"external", "embedded"}, snap.ModuleSources())
	assert.Equal(t, "external", snap.MovedTo())
	assert.True(t, snap.ForSource("embedded").Embedded)
	require.Len(t, snap.Releases, 2)
	assert.Equal(t, "external", snap.Releases[0].Source)
	assert.True(t, snap.BuiltInFrom("embedded"))
	assert.False(t, snap.BuiltInFrom("external"))
	assert.Empty(t, cat.Module("lib").ModuleSources())

	cluster := validCluster()
	runs, on := cluster.Deployed(snap)
	assert.False(t, on, "not configured, no bundle default")
	cluster.Modules["snap"] = enabledAt("")
	runs, on = cluster.Deployed(snap)
	assert.True(t, on)
	assert.Equal(t, cluster.Deckhouse, runs, "no version: it runs built in, at the DKP version")
	cluster.Modules["snap"] = enabledAt("0.1.18")
	assert.Equal(t, "external", cluster.DeployedSource(snap), "a version names a release of a source")
	cluster.Modules["snap"] = enabledAt("0.1.15")
	assert.Equal(t, "external", cluster.DeployedSource(snap), "one its source no longer lists too (D73, D75)")

	_, err := JoinSources([]SourceCopy{{Source: "a", Module: &Module{Name: "x", Embedded: true}}, {Source: "b", Module: &Module{Name: "x", Embedded: true}}})
	assert.ErrorIs(t, err, ErrDuplicate, "two built-in copies")
	_, err = JoinSources([]SourceCopy{{Source: "a", Module: &Module{Name: "x"}}})
	assert.ErrorIs(t, err, ErrDuplicate, "one copy is no join")
}

// Such a module's own sources may be named by the cluster state and the
// request; no other module's, and no other name (D350).
func TestJoinedSourcesValidate(t *testing.T) {
	cat := joinedCatalog(t)
	cluster := validCluster()
	cluster.Modules["snap"] = enabledAt("")
	req := &Request{Sources: map[string]string{"snap": "external"}}
	require.NoError(t, cluster.Validate(cat))
	require.NoError(t, req.Validate(cat, cluster))

	req = &Request{Sources: map[string]string{"snap": "deckhouse"}}
	err := req.Validate(cat, cluster)
	requireErrors(t, err, []wantErr{{ErrInvalidValue, "request.sources.snap"}})
	assert.Contains(t, err.Error(), `unknown source "deckhouse" of module snap (its sources: external, embedded)`)

	req = &Request{Sources: map[string]string{"lib": "external"}}
	err = req.Validate(cat, cluster)
	requireErrors(t, err, []wantErr{{ErrInvalidValue, "request.sources.lib"}})
	assert.Contains(t, err.Error(), "single catalog")

	cluster.Modules["snap"] = ModuleState{Enabled: yes(), Version: MustParseVersion("0.1.18"), Source: "external"}
	require.NoError(t, cluster.Validate(cat))
	req = &Request{Sources: map[string]string{"snap": "embedded"}}
	err = req.Validate(cat, cluster)
	requireErrors(t, err, []wantErr{{ErrInvalidValue, "request.sources.snap"}})
	assert.Contains(t, err.Error(), "cannot move into the platform")
}

// A catalog that holds such a module, merged as one source among
// several, serves its releases as that source's, and keeps the built-in
// copy under its own name, with the source it came from (D350).
func TestMergeJoinedModule(t *testing.T) {
	other, err := NewCatalog([]*Module{{Name: "snap", Releases: []*Release{{Version: MustParseVersion("0.2.0")}}}})
	require.NoError(t, err)
	merged, err := Merge([]Source{{Name: "deckhouse", Priority: 10, Catalog: joinedCatalog(t)}, {Name: "community", Catalog: other}})
	require.NoError(t, err)
	snap := merged.Module("snap")
	assert.Equal(t, []string{"deckhouse", "embedded", "community"}, snap.ModuleSources())
	assert.Equal(t, "embedded", snap.BuiltInSource())
	assert.Equal(t, "deckhouse", snap.MovedTo())
	assert.Equal(t, "deckhouse", snap.ForSource("deckhouse").Releases[0].Source)
	assert.Same(t, snap.ForSource("embedded"), snap.BuiltInOf("deckhouse"))
	assert.Nil(t, snap.BuiltInOf("community"))
	assert.Equal(t, "deckhouse", merged.Module("lib").Source)

	_, err = Merge([]Source{{Name: "embedded", Catalog: joinedCatalog(t)}, {Name: "community", Catalog: other}})
	assert.ErrorIs(t, err, ErrDuplicate, "a source named as a built-in copy")
	assert.ErrorContains(t, err, `carries module snap built in as "embedded", which is also the name of a source`)
}

// Only a built-in copy and a listed one, under two names, join.
func TestJoinSourcesRefuses(t *testing.T) {
	listed := func() *Module { return &Module{Name: "x", Releases: []*Release{{Version: MustParseVersion("1.0.0")}}} }
	for name, copies := range map[string][]SourceCopy{
		"two listed":   {{Source: "a", Module: listed()}, {Source: "b", Module: listed()}},
		"one name":     {{Source: "a", Module: listed()}, {Source: "a", Module: &Module{Name: "x", Embedded: true}}},
		"three copies": {{Source: "a", Module: listed()}, {Source: "b", Module: &Module{Name: "x", Embedded: true}}, {Source: "c", Module: listed()}},
	} {
		_, err := JoinSources(copies)
		assert.ErrorIs(t, err, ErrDuplicate, name)
	}
}

// Merge keeps DKP's release data, which one source carries (R31): it says
// what the platform does whatever serves the modules; two sources with
// different release data are bad input.
func TestMergeKeepsReleaseData(t *testing.T) {
	data := PlatformReleases{{Major: 1, Minor: 81}: {Kubernetes: map[MajorMinor]KubernetesStatus{{Major: 1, Minor: 31}: KubernetesDefault}}}
	withData := joinedCatalog(t).WithKnownPlatform(&KnownPlatform{Releases: data})
	other, err := NewCatalog([]*Module{{Name: "snap", Releases: []*Release{{Version: MustParseVersion("0.2.0")}}}})
	require.NoError(t, err)
	merged, err := Merge([]Source{{Name: "community", Catalog: other}, {Name: "deckhouse", Priority: 10, Catalog: withData}})
	require.NoError(t, err)
	assert.Equal(t, data, merged.PlatformReleases())

	otherData := PlatformReleases{{Major: 1, Minor: 80}: {Kubernetes: map[MajorMinor]KubernetesStatus{{Major: 1, Minor: 30}: KubernetesDefault}}}
	_, err = Merge([]Source{{Name: "community", Catalog: other.WithKnownPlatform(&KnownPlatform{Releases: otherData})}, {Name: "deckhouse", Priority: 10, Catalog: withData}})
	assert.ErrorIs(t, err, ErrConflict)
	assert.ErrorContains(t, err, "sources deckhouse and community carry different DKP release data")
}
