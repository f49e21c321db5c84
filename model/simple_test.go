package model

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/Masterminds/semver/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The plain-comparison path must agree with Masterminds everywhere it is
// taken.
func TestSimpleTermsAgreeWithMasterminds(t *testing.T) {
	constraints := []string{
		">= 1.2.3", ">=1.2.3", "> 1.2.3", "< 2.0.0", "<= 1.4.0", "= 1.2.3", "1.2.3", "!= 1.3.0", "v1.2.3",
		">= 1.2", ">= 1", "< 1.30", "<1", ">= 1.2.3, < 2.0.0", ">=0.5.1 <1.0.0", ">= 1.19.0-0", "< 1.30.0-0",
		"=> 1.2.0", "=< 1.2.0", ">= v0.22.1", "> 1.2", "<= 1.4", "= 1.2", "1.2", "!= 1.3", "~1.2", "^1.2.0",
		"1.2.x", "1.2 - 1.4", "< 1.0 || >= 2.0", ">= 1.2.3+meta", "> 0.0.0",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var versions []Version
	for range 400 {
		versions = append(versions, semver.New(uint64(rng.IntN(3)), uint64(rng.IntN(35)), uint64(rng.IntN(6)), "", ""))
	}
	versions = append(versions, MustParseVersion("1.2.3"), MustParseVersion("1.2.0"), MustParseVersion("2.0.0"), MustParseVersion("1.30.0"), MustParseVersion("1.2.3+b"))
	fast := 0
	for _, text := range constraints {
		c, err := ParseConstraint(text)
		require.NoError(t, err, text)
		if c.simple != nil {
			fast++
		}
		mm, err := semver.NewConstraint(text)
		require.NoError(t, err)
		for _, v := range versions {
			assert.Equal(t, mm.Check(v), c.Allows(v), "%s against %s", v, text)
		}
	}
	assert.Greater(t, fast, 15, "most plain constraints take the fast path")
	for _, text := range []string{"> 1.2", "<= 1.4", "1.2", "~1.2", "1.2.x", "1.2 - 1.4", "< 1.0 || >= 2.0"} {
		assert.Nil(t, MustParseConstraint(text).simple, "%s goes to Masterminds", text)
	}
}

// FuzzSimpleTerms: for any constraint text and version, both paths agree.
func FuzzSimpleTerms(f *testing.F) {
	f.Add(">= 1.2.3, < 2.0.0", uint8(1), uint8(5), uint8(0))
	f.Add("< 1.30", uint8(1), uint8(29), uint8(9))
	f.Add("!= 1.3.0 >= 1", uint8(1), uint8(3), uint8(0))
	f.Fuzz(func(t *testing.T, text string, major, minor, patch uint8) {
		c, err := ParseConstraint(text)
		if err != nil || c.simple == nil {
			return
		}
		mm, err := semver.NewConstraint(fmt.Sprint(text))
		if err != nil {
			return // exclusions and !optional are modsolver's own
		}
		v := semver.New(uint64(major), uint64(minor), uint64(patch), "", "")
		if mm.Check(v) != allTerms(c.simple, v) {
			t.Fatalf("%q and %s: Masterminds %v, terms %v", text, v, mm.Check(v), allTerms(c.simple, v))
		}
	})
}

// Comparisons say what Allows says, for versions without a prerelease.
func TestComparisonsAgreeWithAllows(t *testing.T) {
	versions := []Version{MustParseVersion("0.9.0"), MustParseVersion("1.2.0"), MustParseVersion("1.2.3"),
		MustParseVersion("1.3.0"), MustParseVersion("1.10.0"), MustParseVersion("2.0.0")}
	for _, text := range []string{">= 1.2.3", ">= 1.2, < 2.0.0", "!= 1.3.0", ">= 1.2 !1.10.0", "= 1.2.3", "> 1.2.0, <= 1.10.0", "!optional"} {
		c := MustParseConstraint(text)
		cs, ok := c.Comparisons()
		require.True(t, ok, text)
		for _, v := range versions {
			all := true
			for _, x := range cs {
				all = all && allTerms([]term{{op: x.Op, ver: x.Version}}, v)
			}
			assert.Equal(t, c.Allows(v), all, "%s against %s", v, text)
		}
	}
	for _, text := range []string{"~1.2", "^1.2.0", "< 1.0 || >= 2.0", "1.2.x"} {
		_, ok := MustParseConstraint(text).Comparisons()
		assert.False(t, ok, text)
	}
}
