package shared

import (
	"path/filepath"
	"slices"
	"strings"
)

// KnownFailing lists the public scenarios that do not pass yet, by file
// name without ".yaml", while the work that owns them goes on. The
// scenario harness prints the list on every run and fails when a listed
// scenario starts passing, so that the list only ever shrinks; suites that
// prove properties of every scenario's answer (minimality, what-if) skip
// the listed ones, which may not even load yet.
var KnownFailing = []string{}

// IsKnownFailing reports whether the scenario file is on KnownFailing.
func IsKnownFailing(file string) bool {
	return slices.Contains(KnownFailing, strings.TrimSuffix(filepath.Base(file), ".yaml"))
}
