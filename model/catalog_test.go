package model

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func releasesOf(vs ...string) []*Release {
	out := make([]*Release, len(vs))
	for i, v := range vs {
		out[i] = &Release{Version: MustParseVersion(v)}
	}
	return out
}

func dependency(module, constraint string) Dependency {
	return Dependency{Module: module, Constraint: MustParseConstraint(constraint)}
}

func versionTexts(m *Module) []string {
	out := make([]string, len(m.Releases))
	for i, r := range m.Releases {
		out[i] = r.Version.Original()
	}
	return out
}

func moduleNames(c *Catalog) []string {
	out := make([]string, 0, c.Len())
	for _, m := range c.Modules() {
		out = append(out, m.Name)
	}
	return out
}

// R15: the catalog sorts modules by name and releases by version, so the
// input order never matters.
func TestNewCatalogSorts(t *testing.T) {
	build := func(reverse bool) *Catalog {
		mods := []*Module{
			{Name: "prometheus", Releases: releasesOf("2.5.0", "2.3.0", "2.10.0", "2.4.1-rc.1", "2.4.1")},
			{Name: "cni-cilium", Releases: releasesOf("1.0.0")},
			{Name: "deckhouse", Embedded: true},
			{Name: "operator-prometheus", Releases: releasesOf("v0.5.0", "0.4.0")},
		}
		if reverse {
			slices.Reverse(mods)
			for _, m := range mods {
				slices.Reverse(m.Releases)
			}
		}
		cat, err := NewCatalog(mods)
		require.NoError(t, err)
		return cat
	}
	for _, reverse := range []bool{false, true} {
		cat := build(reverse)
		assert.Equal(t, []string{"cni-cilium", "deckhouse", "operator-prometheus", "prometheus"}, moduleNames(cat))
		assert.Equal(t, []string{"2.3.0", "2.4.1-rc.1", "2.4.1", "2.5.0", "2.10.0"}, versionTexts(cat.Module("prometheus")))
		assert.Equal(t, []string{"0.4.0", "v0.5.0"}, versionTexts(cat.Module("operator-prometheus")))
		assert.Equal(t, 4, cat.Len())
		assert.Equal(t, 8, cat.ReleaseCount())
		assert.Equal(t, "catalog(4 modules, 8 releases)", cat.String())
	}
}

func TestNewCatalogSortsRequirements(t *testing.T) {
	cat, err := NewCatalog([]*Module{
		{Name: "a", Releases: []*Release{{
			Version:      MustParseVersion("1.0.0"),
			Requirements: Requirements{Modules: []Dependency{dependency("z", ">= 1.0"), dependency("b", "!optional")}},
		}}},
		{Name: "core", Embedded: true, Requirements: Requirements{Modules: []Dependency{dependency("y", ">= 1.0"), dependency("x", ">= 1.0")}}},
	})
	require.NoError(t, err)
	deps := func(ds []Dependency) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Module)
		}
		return out
	}
	assert.Equal(t, []string{"b", "z"}, deps(cat.Module("a").Releases[0].Requirements.Modules))
	assert.Equal(t, []string{"x", "y"}, deps(cat.Module("core").Requirements.Modules))
}

func TestNewCatalogDoesNotReorderInput(t *testing.T) {
	mods := []*Module{{Name: "b"}, {Name: "a"}}
	_, err := NewCatalog(mods)
	require.NoError(t, err)
	assert.Equal(t, "b", mods[0].Name)
	assert.Equal(t, "a", mods[1].Name)
}

func TestNewCatalogLookups(t *testing.T) {
	cat, err := NewCatalog([]*Module{{Name: "a", Releases: releasesOf("1.0.0", "1.1.0", "1.1.0+build")}})
	require.NoError(t, err)
	m := cat.Module("a")
	require.NotNil(t, m)
	assert.Nil(t, cat.Module("ghost"))
	require.NotNil(t, m.Release(MustParseVersion("v1.1.0")))
	assert.Equal(t, "1.1.0", m.Release(MustParseVersion("1.1.0")).Version.String())
	assert.Equal(t, "build", m.Release(MustParseVersion("1.1.0+build")).Version.Metadata())
	assert.Nil(t, m.Release(MustParseVersion("1.0.1")))
}

func TestNewCatalogDefaultWeight(t *testing.T) {
	cat, err := NewCatalog([]*Module{
		{Name: "plain"},
		{Name: "heavy", Weight: 10},
		{Name: "core", Embedded: true},
	})
	require.NoError(t, err)
	assert.Equal(t, DefaultWeight, cat.Module("plain").Weight)
	assert.Equal(t, 900, cat.Module("plain").Weight, "D6")
	assert.Equal(t, 10, cat.Module("heavy").Weight)
	assert.Equal(t, DefaultWeight, cat.Module("core").Weight)
}

func TestNewCatalogErrors(t *testing.T) {
	selfReq := func(name string) Requirements {
		return Requirements{Modules: []Dependency{dependency(name, ">= 1.0")}}
	}
	tests := []struct {
		name string
		mods []*Module
		want []wantErr
	}{
		{
			name: "module listed twice",
			mods: []*Module{{Name: "a"}, {Name: "b"}, {Name: "a"}},
			want: []wantErr{{ErrDuplicate, "modules.a"}},
		},
		{
			name: "release listed twice",
			mods: []*Module{{Name: "a", Releases: releasesOf("1.0.0", "1.1.0", "1.0.0")}},
			want: []wantErr{{ErrDuplicate, "modules.a.releases"}},
		},
		{
			name: "release listed twice, once with a v prefix",
			mods: []*Module{{Name: "a", Releases: releasesOf("v1.0.0", "1.0.0")}},
			want: []wantErr{{ErrDuplicate, "modules.a.releases"}},
		},
		{
			name: "default channel that the module does not list (D32)",
			mods: []*Module{{Name: "a", Releases: releasesOf("1.0.0"), Channels: map[string]Version{"nightly": MustParseVersion("1.0.0")}, DefaultChannel: "stable"}},
			want: []wantErr{{ErrInvalidValue, "modules.a.defaultChannel"}},
		},
		{
			name: "channel pointing at a version that is not a release (D24)",
			mods: []*Module{{Name: "a", Releases: releasesOf("1.0.0", "1.0.4"), Channels: map[string]Version{"stable": MustParseVersion("1.0.5")}}},
			want: []wantErr{{ErrUnknownVersion, "modules.a.channels.stable"}},
		},
		{
			name: "built-in module with releases",
			mods: []*Module{{Name: "core", Embedded: true, Releases: releasesOf("1.0.0")}},
			want: []wantErr{{ErrInvalidValue, "modules.core.releases"}},
		},
		{
			name: "release requires its own module",
			mods: []*Module{{Name: "a", Releases: []*Release{{Version: MustParseVersion("1.0.0"), Requirements: selfReq("a")}}}},
			want: []wantErr{{ErrInvalidValue, "modules.a.releases[1.0.0].requirements.modules"}},
		},
		{
			name: "built-in module requires itself",
			mods: []*Module{{Name: "core", Embedded: true, Requirements: selfReq("core")}},
			want: []wantErr{{ErrInvalidValue, "modules.core.requirements.modules"}},
		},
		{
			name: "requirement on one module listed twice",
			mods: []*Module{{Name: "a", Releases: []*Release{{
				Version:      MustParseVersion("1.0.0"),
				Requirements: Requirements{Modules: []Dependency{dependency("b", ">= 1.0"), dependency("b", "< 2.0")}},
			}}}},
			want: []wantErr{{ErrDuplicate, "modules.a.releases[1.0.0].requirements.modules"}},
		},
		{
			name: "module without a name",
			mods: []*Module{{Name: ""}},
			want: []wantErr{{ErrMissingField, "modules"}},
		},
		{
			name: "every problem is reported at once",
			mods: []*Module{
				{Name: "b", Releases: releasesOf("1.0.0", "1.0.0")},
				{Name: "a"},
				{Name: "c", Channels: map[string]Version{"lts": MustParseVersion("1.0.0")}, DefaultChannel: "stable"},
				{Name: "core", Embedded: true, Releases: releasesOf("1.0.0")},
				{Name: "a"},
			},
			want: []wantErr{
				{ErrInvalidValue, "modules.c.defaultChannel"},
				{ErrUnknownVersion, "modules.c.channels.lts"},
				{ErrDuplicate, "modules.a"},
				{ErrDuplicate, "modules.b.releases"},
				{ErrInvalidValue, "modules.core.releases"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cat, err := NewCatalog(tc.mods)
			assert.Nil(t, cat)
			requireErrors(t, err, tc.want)
		})
	}
}

func TestIsChannel(t *testing.T) {
	for _, ch := range []string{"alpha", "beta", "early-access", "stable", "rock-solid"} {
		assert.True(t, IsChannel(ch), ch)
	}
	for _, ch := range []string{"", "Stable", "earlyAccess", "lts"} {
		assert.False(t, IsChannel(ch), ch)
	}
	assert.Equal(t, []string{"alpha", "beta", "early-access", "stable", "rock-solid"}, Channels, "least to most stable (R10)")
}

// R7: accessibility per edition, falling back to _default.
func TestAccessibilityFor(t *testing.T) {
	tests := []struct {
		name      string
		acc       *Accessibility
		edition   string
		available bool
		bundles   []string
	}{
		{name: "nil accessibility: available, no bundles", acc: nil, edition: "ce", available: true},
		{name: "empty editions: not available", acc: &Accessibility{}, edition: "ce", available: false},
		{
			name:      "_default applies to an edition without an entry",
			acc:       &Accessibility{Editions: map[string]EditionAccess{DefaultEdition: {Available: yes(), EnabledInBundles: []string{"Default", "Managed"}}}},
			edition:   "ee",
			available: true,
			bundles:   []string{"Default", "Managed"},
		},
		{
			name:    "_default not available",
			acc:     &Accessibility{Editions: map[string]EditionAccess{DefaultEdition: {Available: no(), EnabledInBundles: []string{"Default"}}}},
			edition: "ce",
			bundles: []string{"Default"},
		},
		{
			name: "edition overrides available to false",
			acc: &Accessibility{Editions: map[string]EditionAccess{
				DefaultEdition: {Available: yes(), EnabledInBundles: []string{"Default"}},
				"ce":           {Available: no()},
			}},
			edition: "ce",
			bundles: []string{"Default"},
		},
		{
			name: "edition overrides available to true",
			acc: &Accessibility{Editions: map[string]EditionAccess{
				DefaultEdition: {Available: no()},
				"ee":           {Available: yes()},
			}},
			edition:   "ee",
			available: true,
		},
		{
			name: "another edition's override does not apply",
			acc: &Accessibility{Editions: map[string]EditionAccess{
				DefaultEdition: {Available: no()},
				"ee":           {Available: yes(), EnabledInBundles: []string{"Default"}},
			}},
			edition: "ce",
		},
		{
			name: "edition without available falls back to _default's",
			acc: &Accessibility{Editions: map[string]EditionAccess{
				DefaultEdition: {Available: yes(), EnabledInBundles: []string{"Default"}},
				"ee":           {EnabledInBundles: []string{"Managed"}},
			}},
			edition:   "ee",
			available: true,
			bundles:   []string{"Managed"},
		},
		{
			name: "edition overrides bundles",
			acc: &Accessibility{Editions: map[string]EditionAccess{
				DefaultEdition: {Available: yes(), EnabledInBundles: []string{"Default"}},
				"se":           {Available: yes(), EnabledInBundles: []string{"Minimal"}},
			}},
			edition:   "se",
			available: true,
			bundles:   []string{"Minimal"},
		},
		{
			name: "edition overrides bundles with an empty list",
			acc: &Accessibility{Editions: map[string]EditionAccess{
				DefaultEdition: {Available: yes(), EnabledInBundles: []string{"Default"}},
				"ce":           {EnabledInBundles: []string{}},
			}},
			edition:   "ce",
			available: true,
			bundles:   []string{},
		},
		{
			name: "edition without bundles falls back to _default's",
			acc: &Accessibility{Editions: map[string]EditionAccess{
				DefaultEdition: {Available: no(), EnabledInBundles: []string{"Default"}},
				"ee":           {Available: yes()},
			}},
			edition:   "ee",
			available: true,
			bundles:   []string{"Default"},
		},
		{
			name: "edition entry alone, without _default",
			acc: &Accessibility{Editions: map[string]EditionAccess{
				"ee": {Available: yes(), EnabledInBundles: []string{"Default"}},
			}},
			edition:   "ee",
			available: true,
			bundles:   []string{"Default"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			available, bundles := tc.acc.For(tc.edition)
			assert.Equal(t, tc.available, available, "available")
			assert.Equal(t, tc.bundles, bundles, "bundles")
		})
	}
}

// A release's own accessibility overrides the module's (R7).
func TestModuleAccess(t *testing.T) {
	modAcc := &Accessibility{Editions: map[string]EditionAccess{DefaultEdition: {Available: yes()}}}
	relAcc := &Accessibility{Editions: map[string]EditionAccess{DefaultEdition: {Available: no()}}}
	m := &Module{Name: "a", Accessibility: modAcc}
	assert.Same(t, modAcc, m.Access(nil))
	assert.Same(t, modAcc, m.Access(&Release{Version: MustParseVersion("1.0.0")}))
	assert.Same(t, relAcc, m.Access(&Release{Version: MustParseVersion("1.1.0"), Accessibility: relAcc}))
	assert.Nil(t, (&Module{Name: "b"}).Access(&Release{}))
}
