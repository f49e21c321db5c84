package model

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/Masterminds/semver/v3"
	"github.com/stretchr/testify/assert"
)

// ParseVersion's fast path for "1.2.3" gives what semver.NewVersion
// gives, original text included, and leaves every other form to it;
// surrounding space is trimmed first.
func TestParseVersionAsSemver(t *testing.T) {
	texts := []string{"1.2.3", "0.0.0", "10.20.30", "1.2", "1", "v1.2.3", "01.2.3", "1.02.3", "1.2.03",
		"1.2.3-rc.1", "1.2.3+build.5", "1.2.3-rc.1+b", "18446744073709551615.0.0", "18446744073709551616.0.0",
		"1.2.3.4", "1..3", ".1.2", "1.2.", "a.b.c", "1.2.3 ", "１.2.3"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		texts = append(texts, fmt.Sprintf("%d.%d.%d", rng.IntN(3)*rng.IntN(200), rng.IntN(100), rng.IntN(1000)))
	}
	for _, text := range texts {
		want, wantErr := semver.NewVersion(strings.TrimSpace(text))
		got, gotErr := ParseVersion(text)
		if wantErr != nil {
			assert.Error(t, gotErr, "%q", text)
			continue
		}
		if _, fast := parseCore(strings.TrimSpace(text)); fast {
			assert.Equal(t, *want, *got, "%q", text)
			assert.Equal(t, want.Original(), got.Original(), "%q", text)
		}
		assert.NoError(t, gotErr, "%q", text)
		assert.True(t, SameVersion(want, got), "%q", text)
	}
}

// A version a cluster runs is a release, patch included: a bare minor or
// major is bad input that says what to give, not read as x.y.0 (D412).
func TestParseRunningVersion(t *testing.T) {
	for _, text := range []string{"1.72.4", "v1.72.4", " 1.30.8 ", "1.73.0-rc.1", "v1.2.3+build"} {
		v, err := ParseRunningVersion(text)
		if assert.NoError(t, err, text) {
			assert.Equal(t, MustParseVersion(text).String(), v.String(), text)
		}
	}
	for text, want := range map[string]string{
		"v1.72":     `"v1.72" is a minor, not the release the cluster runs: give its patch too (1.72.x)`,
		"1.30":      `"1.30" is a minor`,
		"1.72-rc.1": `"1.72-rc.1" is a minor`,
		"1":         `"1" is a major, not the release the cluster runs: give its minor and patch too (1.x.y)`,
		"latest":    `invalid version: "latest"`,
	} {
		_, err := ParseRunningVersion(text)
		assert.ErrorIs(t, err, ErrInvalidVersion, text)
		assert.ErrorContains(t, err, want, text)
	}
}
