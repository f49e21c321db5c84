package model

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// Version is a semantic version as modsolver reads it: the Masterminds
// grammar, a "v" prefix allowed, and missing minor or patch parts read as 0.
type Version = *semver.Version

// ParseVersion reads one version. It accepts "v1.2.3", "1.2.3" and "1.2",
// and refuses anything that is not semver, such as a four-part "0.2.3.1".
func ParseVersion(text string) (Version, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return nil, fmt.Errorf("%w: empty version", ErrInvalidVersion)
	}
	if v, ok := parseCore(s); ok {
		return v, nil
	}
	v, err := semver.NewVersion(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %v", ErrInvalidVersion, text, err)
	}
	return v, nil
}

// ParseRunningVersion reads the version a cluster runs, of DKP or of
// Kubernetes: a release, patch included, such as 1.72.4 or v1.72.4. A
// bare minor or major (1.72, v1.72, 1) names no release a cluster can
// run; ParseVersion would read it as 1.72.0, which a requirement such as
// >= 1.72.3 or an update step then reads as a version the cluster does
// not run, so it is bad input that says so (D412). Candidate versions, a
// what-if's and a request's platform, take minors on purpose and are
// read by ParseVersion.
func ParseRunningVersion(text string) (Version, error) {
	v, err := ParseVersion(text)
	if err != nil {
		return nil, err
	}
	core := strings.TrimLeft(strings.TrimSpace(text), "vV")
	if i := strings.IndexAny(core, "-+"); i >= 0 {
		core = core[:i]
	}
	switch strings.Count(core, ".") {
	case 0:
		return nil, fmt.Errorf("%w: %q is a major, not the release the cluster runs: give its minor and patch too (%d.x.y)", ErrInvalidVersion, text, v.Major())
	case 1:
		return nil, fmt.Errorf("%w: %q is a minor, not the release the cluster runs: give its patch too (%d.%d.x)", ErrInvalidVersion, text, v.Major(), v.Minor())
	}
	return v, nil
}

// parseCore reads the common form "1.2.3", three numbers without leading
// zeros and nothing else, as semver.NewVersion reads it but without its
// regular expression, which shows in profiles of the service (each
// request carries a version per module). Any other form is not ok, and
// is left to semver.NewVersion.
func parseCore(s string) (Version, bool) {
	if strings.ContainsAny(s, "-+") {
		return nil, false
	}
	v, err := semver.StrictNewVersion(s)
	return v, err == nil
}

// MustParseVersion is ParseVersion for literals known to be valid; it
// panics on a bad literal and is meant for tests and built-in tables.
func MustParseVersion(text string) Version {
	v, err := ParseVersion(text)
	if err != nil {
		panic("internal error: " + err.Error())
	}
	return v
}

// Core returns v without its prerelease and build metadata, as DKP checks
// module and platform versions (R6). A nil version stays nil.
func Core(v Version) Version {
	if v == nil || (v.Prerelease() == "" && v.Metadata() == "") {
		return v
	}
	return semver.New(v.Major(), v.Minor(), v.Patch(), "", "")
}

// IsPrerelease reports whether v carries a prerelease part.
func IsPrerelease(v Version) bool { return v != nil && v.Prerelease() != "" }

// SameVersion reports whether a and b are the same version, build
// metadata included, so that "1.0.0+a" and "1.0.0+b" stay distinct.
func SameVersion(a, b Version) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(b) && a.Metadata() == b.Metadata()
}

// CompareVersions orders versions by semver precedence and then by build
// metadata text, which gives a total order even where semver ties.
func CompareVersions(a, b Version) int {
	if c := a.Compare(b); c != 0 {
		return c
	}
	return strings.Compare(a.Metadata(), b.Metadata())
}

// VersionString is the canonical text of v ("1.2.3", no "v"), or "" for
// nil. It gives what v.String() gives, without its fmt-based formatting,
// which shows in profiles of large answers.
func VersionString(v Version) string {
	if v == nil {
		return ""
	}
	return string(AppendVersion(make([]byte, 0, 16), v))
}

// AppendVersion appends VersionString(v) to b.
func AppendVersion(b []byte, v Version) []byte {
	if v == nil {
		return b
	}
	b = strconv.AppendUint(b, v.Major(), 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, v.Minor(), 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, v.Patch(), 10)
	if pre := v.Prerelease(); pre != "" {
		b = append(append(b, '-'), pre...)
	}
	if meta := v.Metadata(); meta != "" {
		b = append(append(b, '+'), meta...)
	}
	return b
}

// VersionStrings writes versions with VersionString, in order; nil for
// none.
func VersionStrings(vs []Version) []string {
	var out []string
	for _, v := range vs {
		out = append(out, VersionString(v))
	}
	return out
}

// MajorMinor is a "major.minor" pair, used by from-to update rules (R11).
type MajorMinor struct {
	Major, Minor uint64
}

// ParseMajorMinor reads "1.67" (a patch part, if present, must be 0).
func ParseMajorMinor(text string) (MajorMinor, error) {
	v, err := ParseVersion(text)
	if err != nil {
		return MajorMinor{}, err
	}
	if v.Patch() != 0 || v.Prerelease() != "" {
		return MajorMinor{}, fmt.Errorf("%w: %q: want major.minor", ErrInvalidVersion, text)
	}
	return MajorMinor{Major: v.Major(), Minor: v.Minor()}, nil
}

// MinorOf returns the major.minor of v.
func MinorOf(v Version) MajorMinor { return MajorMinor{Major: v.Major(), Minor: v.Minor()} }

// Compare orders two major.minor pairs.
func (m MajorMinor) Compare(o MajorMinor) int {
	switch {
	case m.Major != o.Major:
		return cmpUint(m.Major, o.Major)
	default:
		return cmpUint(m.Minor, o.Minor)
	}
}

// Version returns major.minor.0.
func (m MajorMinor) Version() Version { return semver.New(m.Major, m.Minor, 0, "", "") }

func (m MajorMinor) String() string { return fmt.Sprintf("%d.%d", m.Major, m.Minor) }

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// MinorText is the major.minor of a version's text ("1.74.2" is "1.74");
// a text without a second dot is returned as it is.
func MinorText(v string) string {
	if i := strings.IndexByte(v, '.'); i >= 0 {
		if j := strings.IndexByte(v[i+1:], '.'); j >= 0 {
			return v[:i+1+j]
		}
	}
	return v
}
