package model

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// R6: the Masterminds grammar, plus "!optional" and OLM-style exclusions.
func TestParseConstraint(t *testing.T) {
	tests := []struct {
		text     string
		optional bool
		any      bool
		allows   []string
		refuses  []string
	}{
		{text: ">= 0.0.0", allows: []string{"0.0.0", "9.9.9"}},
		{text: "!optional", optional: true, any: true, allows: []string{"0.0.1", "5.0.0"}},
		{text: "  !optional ", optional: true, any: true},
		{text: ">v0.22.1 !optional", optional: true, allows: []string{"0.22.2"}, refuses: []string{"0.22.1", "0.21.1"}},
		{text: "> 1.0.0 !1.2.1", allows: []string{"1.2.0", "1.2.2"}, refuses: []string{"1.0.0", "1.2.1"}},
		{text: ">= 1.0.0, < 2.0.0 !v1.5.0 !1.6.0", allows: []string{"1.4.0"}, refuses: []string{"1.5.0", "1.6.0", "2.0.0"}},
		{text: "~1.2", allows: []string{"1.2.9"}, refuses: []string{"1.3.0"}},
		{text: "^1.2", allows: []string{"1.9.0"}, refuses: []string{"2.0.0"}},
		{text: "1.2.x", allows: []string{"1.2.7"}, refuses: []string{"1.3.0"}},
		{text: "1.2 - 1.4", allows: []string{"1.4.5"}, refuses: []string{"1.5.0"}},
		{text: ">=1.2 <1.4", allows: []string{"1.3.0"}, refuses: []string{"1.4.0"}},
		{text: "<1.0 || >=2.0", allows: []string{"0.9.0", "2.1.0"}, refuses: []string{"1.5.0"}},
		{text: "!= 1.3.0", allows: []string{"1.3.1"}, refuses: []string{"1.3.0"}},
		{text: "= v1.3.0", allows: []string{"1.3.0"}, refuses: []string{"1.3.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			c, err := ParseConstraint(tt.text)
			require.NoError(t, err)
			assert.Equal(t, tt.optional, c.Optional)
			assert.Equal(t, tt.any, c.AnyVersion())
			for _, v := range tt.allows {
				assert.True(t, c.Allows(MustParseVersion(v)), "%s allows %s", tt.text, v)
				assert.Empty(t, c.Why(MustParseVersion(v)))
			}
			for _, v := range tt.refuses {
				assert.False(t, c.Allows(MustParseVersion(v)), "%s refuses %s", tt.text, v)
				assert.NotEmpty(t, c.Why(MustParseVersion(v)))
			}
		})
	}
}

func TestParseConstraintErrors(t *testing.T) {
	tests := []struct {
		text string
		is   error
	}{
		{"", ErrEmptyConstraint},
		{"   ", ErrEmptyConstraint},
		{">= banana", ErrInvalidConstraint},
		{"!optional >= 1.0", ErrInvalidConstraint},
		{"> 1.0 !1.2.x.y", ErrInvalidConstraint},
		{"> 1.0 !1.2.1 || < 0.5", ErrInvalidConstraint}, // D2
		{">== 1", ErrInvalidConstraint},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			_, err := ParseConstraint(tt.text)
			assert.ErrorIs(t, err, tt.is)
			assert.ErrorIs(t, err, ErrInvalidInput)
			assert.True(t, IsConstraintError(err))
		})
	}
}

// R16: DKP's wording for a version outside a range.
func TestConstraintWhy(t *testing.T) {
	tests := []struct{ constraint, version, want string }{
		{">= 1.30", "1.29.6", "1.29.6 is less than 1.30"},
		{">v0.22.1", "0.21.1", "0.21.1 is less than or equal to v0.22.1"},
		{"> 1.0.0 !1.2.1", "1.2.1", "1.2.1 is excluded"},
		{"< 1.0 || > 2.0", "1.5.0", "1.5.0 is greater than or equal to 1.0 or 1.5.0 is less than or equal to 2.0"},
	}
	for _, tt := range tests {
		t.Run(tt.constraint, func(t *testing.T) {
			assert.Equal(t, tt.want, MustParseConstraint(tt.constraint).Why(MustParseVersion(tt.version)))
		})
	}
}

func TestConstraintRange(t *testing.T) {
	assert.Equal(t, ">= 0.0.0", MustParseConstraint("!optional").Range())
	assert.Equal(t, ">v0.22.1", MustParseConstraint(">v0.22.1 !optional").Range())
	assert.Equal(t, "> 1.0.0 !1.2.1", MustParseConstraint("> 1.0.0 !1.2.1").Range())
}

func TestVersions(t *testing.T) {
	v := MustParseVersion("v1.10.3-rc.5+build")
	assert.Equal(t, "1.10.3-rc.5+build", VersionString(v), "D3: canonical text, no v")
	assert.True(t, IsPrerelease(v))
	assert.Equal(t, "1.10.3", Core(v).String(), "R6: prerelease and metadata stripped")
	assert.Equal(t, "1.30.0", MustParseVersion("1.30").String())
	assert.Equal(t, "", VersionString(nil))
	assert.True(t, SameVersion(MustParseVersion("1.0.0"), MustParseVersion("v1.0.0")))
	assert.False(t, SameVersion(MustParseVersion("1.0.0+a"), MustParseVersion("1.0.0+b")))
	assert.Negative(t, CompareVersions(MustParseVersion("1.0.0-rc.1"), MustParseVersion("1.0.0")))

	for _, bad := range []string{"", "0.2.3.1", "one"} {
		_, err := ParseVersion(bad)
		assert.ErrorIs(t, err, ErrInvalidVersion, bad)
	}
	mm, err := ParseMajorMinor("1.67")
	require.NoError(t, err)
	assert.Equal(t, "1.67", mm.String())
	assert.Positive(t, mm.Compare(MajorMinor{1, 9}))
	_, err = ParseMajorMinor("1.67.3")
	assert.ErrorIs(t, err, ErrInvalidVersion)
}

// FuzzParseConstraint: any text gives a constraint or a constraint error,
// never a panic; a parsed constraint answers Allows and Why consistently.
func FuzzParseConstraint(f *testing.F) {
	for _, s := range []string{">= 0.0.0", "!optional", ">v0.22.1 !optional", "> 1.0.0 !1.2.1", "~1.2 || ^2", "1.2 - 1.4", ">=1.2.x <1.3.0", "<v1.2.3", ">= 1.19.0-0", "!= 1.0"} {
		f.Add(s, "1.2.1")
		f.Add(s, "1.2.1-rc.1") // R6: the readings differ on prereleases
	}
	f.Fuzz(func(t *testing.T, text, version string) {
		c, err := ParseConstraint(text)
		if err != nil {
			if !IsConstraintError(err) || !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("ParseConstraint(%q): untyped error %v", text, err)
			}
			return
		}
		v, err := ParseVersion(version)
		if err != nil {
			return
		}
		if c.Allows(v) != (c.Why(v) == "") {
			t.Fatalf("%q and %s: Allows=%v but Why=%q", text, v, c.Allows(v), c.Why(v))
		}
		if c.Allows(v) && !c.AllowsPrereleases(v) {
			t.Fatalf("%q and %s: admitting prereleases refuses what the plain reading allows", text, v)
		}
		for _, r := range VersionReadings {
			if r.Admits(&c, v, false) && !r.Admits(&c, v, true) {
				t.Fatalf("%q and %s: devel refuses what %s admits without it", text, v, r)
			}
		}
	})
}

func TestVersionStringMatchesString(t *testing.T) {
	for _, text := range []string{"1.2.3", "v0.0.1-rc.0", "1.30", "2.0.0+build.5", "1.10.3-rc.5+meta", "v3"} {
		v := MustParseVersion(text)
		assert.Equal(t, v.String(), VersionString(v), text)
	}
}

// TestConstraintErrorSaysTextOnce: a constraint that cannot be parsed is
// quoted once in its message, not by the parser, semver and the place.
func TestConstraintErrorSaysTextOnce(t *testing.T) {
	_, err := ParseConstraint(">= foo")
	require.Error(t, err)
	ce := &ConstraintError{File: "c.yaml", Module: "a", Release: "1.0.0", Field: "kubernetes", Text: ">= foo", Err: err}
	assert.Equal(t, `c.yaml: module a: release 1.0.0: requirements.kubernetes: invalid input: invalid constraint: ">= foo": improper constraint`, ce.Error())
	assert.ErrorIs(t, ce, ErrInvalidConstraint)
	empty := &ConstraintError{Module: "a", Field: "deckhouse", Err: ErrEmptyConstraint}
	assert.Equal(t, `module a: requirements.deckhouse: constraint "": invalid input: empty constraint`, empty.Error())
}
