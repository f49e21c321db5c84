package model

import (
	"fmt"
	"slices"
)

// VersionReading is how a module's ecosystem compares versions with ranges
// (R6). The importer that reads a module sets it, as it sets the update
// policy, so that each ecosystem's constraints mean what they mean there;
// the zero value is DKP's reading.
type VersionReading string

const (
	// ReadingDKP strips prerelease and build metadata from module versions
	// before checking them, as DKP does; a prerelease is taken only when
	// deployed, pinned or named by the module's channel (D1).
	ReadingDKP VersionReading = "dkp"
	// ReadingSemver compares whole versions by the Masterminds rules that
	// Helm and Crossplane use: a prerelease satisfies a range only where a
	// comparator of the same AND group carries a prerelease (Masterminds
	// v3.4), or under a request's devel.
	ReadingSemver VersionReading = "semver"
	// ReadingBlang compares whole versions by the rules of blang/semver v4,
	// which OLM uses: a prerelease is a version like any other, in ranges
	// and in the choice of the newest. KUDO, which pins exact versions and
	// takes the newest package unfiltered, reads versions so too.
	ReadingBlang VersionReading = "blang"
)

// VersionReadings lists the readings, in the order the documentation names
// them.
var VersionReadings = []VersionReading{ReadingDKP, ReadingSemver, ReadingBlang}

// readingRule is what a reading does; readingRules holds one per reading,
// and every use reads it (a test walks every reading).
type readingRule struct {
	// strips: versions lose prerelease and metadata before a check.
	strips bool
	// openRanges: every range admits prereleases, devel or not.
	openRanges bool
	// prereleasesOrdinary: a prerelease may be selected like any other
	// release; otherwise only where the prerelease rule allows (D1, D140).
	prereleasesOrdinary bool
	// rangesName: a range that admits a prerelease makes it selectable.
	rangesName bool
}

var readingRules = map[VersionReading]readingRule{
	ReadingDKP:    {strips: true},
	ReadingSemver: {rangesName: true},
	ReadingBlang:  {openRanges: true, prereleasesOrdinary: true},
}

// ParseVersionReading reads a reading's name; "" means DKP's.
func ParseVersionReading(text string) (VersionReading, error) {
	if text == "" {
		return ReadingDKP, nil
	}
	if r := VersionReading(text); slices.Contains(VersionReadings, r) {
		return r, nil
	}
	return "", fmt.Errorf("%w: unknown version reading %q (want dkp, semver or blang)", ErrInvalidValue, text)
}

// rule is r's row of readingRules; "" and unknown names read as DKP.
func (r VersionReading) rule() readingRule {
	if rule, ok := readingRules[r]; ok {
		return rule
	}
	return readingRules[ReadingDKP]
}

// Reading is m's version reading, DKP's when unset.
func (m *Module) Reading() VersionReading {
	if m.Versions == "" {
		return ReadingDKP
	}
	return m.Versions
}

// Admits reports whether version v satisfies c read by r. devel is the
// request's (Helm's --devel): every range admits prereleases.
func (r VersionReading) Admits(c *Constraint, v Version, devel bool) bool {
	rule := r.rule()
	if rule.strips {
		return c.Allows(Core(v))
	}
	return c.allowsWhole(v, devel || rule.openRanges)
}

// ComparedAs is v as r compares it: without prerelease and metadata under
// DKP's reading, whole otherwise.
func (r VersionReading) ComparedAs(v Version) Version {
	if r.rule().strips {
		return Core(v)
	}
	return v
}

// PrereleasesOrdinary reports whether r selects a prerelease like any
// other release, with no rule of its own.
func (r VersionReading) PrereleasesOrdinary() bool { return r.rule().prereleasesOrdinary }

// RangesName reports whether a range that admits a prerelease makes that
// prerelease selectable (D140).
func (r VersionReading) RangesName() bool { return r.rule().rangesName }

// NamesPrerelease reports whether the range c, read by r without devel,
// names the prerelease v of its module: a range that allows some but not
// every version admits it, which under the Masterminds rules means that a
// comparator of its AND group carries a prerelease (R6, D140).
func (r VersionReading) NamesPrerelease(c *Constraint, v Version) bool {
	return r.RangesName() && IsPrerelease(v) && !c.AnyVersion() && c.allowsWhole(v, false)
}
