package model

import (
	"fmt"
	"math/rand/v2"
	"testing"

	blang "github.com/blang/semver/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadingTable walks every reading: each has a row, a name that
// parses back, and the DKP reading is the zero value's.
func TestReadingTable(t *testing.T) {
	for _, r := range VersionReadings {
		_, ok := readingRules[r]
		assert.True(t, ok, "reading %s has no rule", r)
		got, err := ParseVersionReading(string(r))
		require.NoError(t, err)
		assert.Equal(t, r, got)
	}
	assert.Len(t, readingRules, len(VersionReadings))
	zero, err := ParseVersionReading("")
	require.NoError(t, err)
	assert.Equal(t, ReadingDKP, zero)
	assert.Equal(t, ReadingDKP, (&Module{}).Reading())
	_, err = ParseVersionReading("npm")
	assert.ErrorIs(t, err, ErrInvalidValue)
}

// TestEcosystemTable walks every ecosystem: each has words of its own.
func TestEcosystemTable(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Ecosystems {
		w, ok := ecosystemTable[e]
		require.True(t, ok, "ecosystem %q has no words", e)
		assert.False(t, seen[w.deprecated], "ecosystem %q repeats another's words", e)
		seen[w.deprecated] = true
		assert.NotEmpty(t, e.DeprecatedNote())
	}
	assert.Len(t, ecosystemTable, len(Ecosystems))
	assert.Contains(t, EcosystemDKP.DeprecatedNote(), "DKP may remove it")
	assert.NotContains(t, EcosystemHelm.DeprecatedNote(), "DKP")
	assert.Equal(t, "package not found", EcosystemKUDO.NotFound(), "KUDO's words for a missing package (D180)")
	assert.Empty(t, EcosystemDKP.NotFound())
}

// TestReadingAdmits holds each reading to its ecosystem's library rules
// (R6): DKP's strips, Masterminds admits a prerelease only where its AND
// group carries one (v3.4) or under devel, blang's takes a prerelease as
// any other version.
func TestReadingAdmits(t *testing.T) {
	tests := []struct {
		constraint, version       string
		dkp, semver, devel, blang bool
	}{
		{">0.0.0-0", "0.3.0-rc.1", true, true, true, true},
		{">=0.1.0-0", "0.1.0-beta.3", true, true, true, true},
		{"2.0.0-alpha.4", "2.0.0-alpha.4", false, true, true, true},
		{"v2.0.0-alpha.4", "2.0.0", false, false, false, false},
		{">=1.0.0", "1.2.0-beta.1", true, false, true, true},
		{">=1.0.0 <2.0.0", "2.0.0-rc.1", false, false, true, true},
		{">=1.0.0-0, <1.5.0", "1.3.0-rc.1", true, true, true, true}, // the AND group carries a prerelease
		{">=1.0.0 || >=3.0.0-0", "1.3.0-rc.1", true, false, true, true},
		{">= 1.0.0 !1.2.0-rc.1", "1.2.0-rc.1", true, false, false, false},
		{"1.x", "1.4.0", true, true, true, true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s on %s", tc.constraint, tc.version), func(t *testing.T) {
			c, v := MustParseConstraint(tc.constraint), MustParseVersion(tc.version)
			assert.Equal(t, tc.dkp, ReadingDKP.Admits(&c, v, false), "dkp")
			assert.Equal(t, tc.semver, ReadingSemver.Admits(&c, v, false), "semver")
			assert.Equal(t, tc.devel, ReadingSemver.Admits(&c, v, true), "semver, devel")
			assert.Equal(t, tc.blang, ReadingBlang.Admits(&c, v, false), "blang")
		})
	}
}

// TestReadingComparedAs: only DKP's reading compares a version as
// another one, and messages say so (R6).
func TestReadingComparedAs(t *testing.T) {
	v := MustParseVersion("2.0.0-alpha.4+b1")
	assert.Equal(t, "2.0.0", VersionString(ReadingDKP.ComparedAs(v)))
	assert.Equal(t, "2.0.0-alpha.4+b1", VersionString(ReadingSemver.ComparedAs(v)))
	assert.Equal(t, "2.0.0-alpha.4+b1", VersionString(ReadingBlang.ComparedAs(v)))
}

// TestReadingNamesPrerelease: under the semver reading a range names a
// prerelease when it admits it without devel; "any version" names none.
func TestReadingNamesPrerelease(t *testing.T) {
	pre := MustParseVersion("0.3.0-rc.1")
	for text, want := range map[string]bool{">= 0.3.0-0": true, ">= 0.1.0": false, "!optional": false, "0.3.0-rc.1": true} {
		c := MustParseConstraint(text)
		assert.Equal(t, want, ReadingSemver.NamesPrerelease(&c, pre), text)
		assert.False(t, ReadingDKP.NamesPrerelease(&c, pre), text)
		assert.False(t, ReadingBlang.NamesPrerelease(&c, pre), text)
	}
	final := MustParseConstraint(">= 0.1.0")
	assert.False(t, ReadingSemver.NamesPrerelease(&final, MustParseVersion("0.3.0")), "a final release needs no naming")
}

// TestBlangReadingAgreesWithBlang holds the blang reading to OLM's own
// library, blang/semver v4, on the grammar both read: comparisons,
// space-separated AND, || and "!" exclusions, over versions with and
// without prereleases.
func TestBlangReadingAgreesWithBlang(t *testing.T) {
	versions := []string{"0.9.0", "1.0.0-alpha.1", "1.0.0", "1.2.0-rc.1", "1.2.0", "1.2.1", "2.0.0-0", "2.0.0-rc.2", "2.0.0", "2.1.0-beta"}
	ops := []string{">", ">=", "<", "<=", "=", "!"}
	rng := rand.New(rand.NewPCG(6, 140))
	term := func() string { return ops[rng.IntN(len(ops))] + versions[rng.IntN(len(versions))] }
	for range 3000 {
		text := term()
		switch rng.IntN(3) {
		case 1:
			text += " " + term()
		case 2:
			text += " || " + term()
		}
		want, err := blang.ParseRange(text)
		require.NoError(t, err, text)
		c, err := ParseConstraint(text)
		if err != nil {
			continue // modsolver's grammar refuses "||" with exclusions, as DESIGN R6 says
		}
		for _, vt := range versions {
			assert.Equal(t, want(blang.MustParse(vt)), ReadingBlang.Admits(&c, MustParseVersion(vt), false), "%s on %s", text, vt)
		}
	}
}

// TestSkipRangeReading: a skipRange is OLM's, so under the blang reading
// it admits a prerelease as blang/semver does (R21); the other readings
// check it by Masterminds' rules, as before.
func TestSkipRangeReading(t *testing.T) {
	e := &UpdateEdges{SkipRange: new(MustParseConstraint(">=1.1.0 <1.2.0"))}
	rc := MustParseVersion("1.2.0-rc.1")
	assert.True(t, e.From(rc, ReadingBlang))
	assert.False(t, e.From(rc, ReadingSemver))
	assert.False(t, e.From(rc, ReadingDKP))
	assert.True(t, e.From(MustParseVersion("1.1.5"), ReadingDKP))
}

// TestMergeOneReadingAModule: a module listed by several sources reads
// versions one way in all of them; sources that read differently may
// still be merged when they share no module.
func TestMergeOneReadingAModule(t *testing.T) {
	catalogOf := func(reading VersionReading, names ...string) *Catalog {
		var mods []*Module
		for _, name := range names {
			mods = append(mods, &Module{Name: name, Versions: reading, Releases: []*Release{{Version: MustParseVersion("1.0.0")}}})
		}
		cat, err := NewCatalog(mods)
		require.NoError(t, err)
		return cat
	}
	_, err := Merge([]Source{{Name: "dkp", Catalog: catalogOf(ReadingDKP, "a")}, {Name: "charts", Catalog: catalogOf(ReadingSemver, "a")}})
	require.ErrorIs(t, err, ErrInvalidValue)
	assert.ErrorContains(t, err, "module a reads versions as semver in source charts and as dkp in source dkp")
	cat, err := Merge([]Source{{Name: "dkp", Catalog: catalogOf(ReadingDKP, "a")}, {Name: "charts", Catalog: catalogOf(ReadingSemver, "b")}})
	require.NoError(t, err)
	assert.Equal(t, ReadingSemver, cat.Module("b").Reading())
	assert.Equal(t, ReadingDKP, cat.Module("a").Reading())
}
