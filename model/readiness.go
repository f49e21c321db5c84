package model

import (
	"slices"
)

// Severity classes a blocker of a platform-upgrade scenario (R30), as
// EKS's upgrade insights and OpenShift's update recommendations do.
type Severity int

const (
	SeverityUnspecified Severity = iota
	// SeverityError: the blocker blocks the next minor of a platform
	// component that the batch asks about.
	SeverityError
	// SeverityWarning: the blocker blocks only later versions.
	SeverityWarning
)

var severityNames = map[Severity]string{SeverityError: "error", SeverityWarning: "warning"}

// Severities lists every severity, in declaration order.
func Severities() []Severity { return []Severity{SeverityError, SeverityWarning} }

func (s Severity) String() string {
	if n, ok := severityNames[s]; ok {
		return n
	}
	return "unspecified"
}

// Blocker is one module that blocks a platform-upgrade scenario of a
// what-if batch (R12), classed by R30.
type Blocker struct {
	Module   string
	Severity Severity
	// First is the index, in the batch, of the first scenario the module
	// blocks: the first platform version it blocks.
	First int
	// Accepted says the batch accepts the risk: it names the module, or
	// the kind of every fact that makes it a blocker
	// (Explanation.BlockingKinds).
	Accepted bool
}

// PlatformBlocker names, among the blockers, a platform that DKP does not
// run or may not move to (R31), which no module change fixes.
const PlatformBlocker = "platform"

// Blockers names the modules the explanation blames, sorted and without
// repeats: the modules of its facts about a platform version (DKP,
// Kubernetes or another platform component, R22), as the facts
// themselves say (Fact.AboutPlatform); when no fact is, the modules of
// all its facts.
func (e *Explanation) Blockers() []string {
	var platform, all []string
	for _, f := range e.Facts {
		name := f.Module
		if name == "" && f.AboutPlatform() {
			name = PlatformBlocker // R31: the platform itself, not a module
		}
		if name == "" {
			continue
		}
		if f.AboutPlatform() {
			platform = append(platform, name)
		}
		all = append(all, name)
	}
	if len(platform) > 0 {
		all = platform
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// BlockingKinds returns the kinds of the facts that make module a
// blocker (Blockers): those of its facts about a platform version, or,
// when the explanation has none, those of all its facts.
func (e *Explanation) BlockingKinds(module string) []FactKind {
	var platform, all []FactKind
	for _, f := range e.Facts {
		if f.Module != module {
			continue
		}
		if f.AboutPlatform() {
			platform = append(platform, f.Kind)
		}
		all = append(all, f.Kind)
	}
	if slices.ContainsFunc(e.Facts, Fact.AboutPlatform) {
		return platform
	}
	return all
}

// ParseFactKind returns the kind named name ("kubernetes-requirement"),
// and whether there is one.
func ParseFactKind(name string) (FactKind, bool) {
	for k, n := range factKindNames {
		if n == name {
			return k, true
		}
	}
	return FactUnspecified, false
}

// ValidateAccept checks the risks a what-if batch accepts (R30): each
// names a module of cat, a fact kind, or a gate of cat's release data
// that the live cluster decides (R32). field names the list, such as
// "accept".
func ValidateAccept(cat *Catalog, field Path, accept []string) error {
	for i, a := range accept {
		if _, ok := ParseFactKind(a); ok || cat.Module(a) != nil || cat.PlatformReleases().HasGate(a) {
			continue
		}
		return fieldErr(field.Index(i), ErrUnknownModule, "%q is neither a module of the catalog, a fact kind nor a gate of its release data%s", a, cat.didYouMean(a))
	}
	return nil
}
