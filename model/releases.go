package model

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// KubernetesStatus is DKP's status of a Kubernetes minor in one of its
// releases (R31).
type KubernetesStatus string

const (
	KubernetesAvailable  KubernetesStatus = "available"
	KubernetesPreview    KubernetesStatus = "preview"
	KubernetesEndOfLife  KubernetesStatus = "end-of-life"
	KubernetesDefault    KubernetesStatus = "default"
	kubernetesStatusList                  = "available, preview, end-of-life, default"
)

// ParseKubernetesStatus reads a status as DKP's release data writes it.
func ParseKubernetesStatus(text string) (KubernetesStatus, error) {
	switch s := KubernetesStatus(text); s {
	case KubernetesAvailable, KubernetesPreview, KubernetesEndOfLife, KubernetesDefault:
		return s, nil
	}
	return "", fmt.Errorf("%w: kubernetes status %q (want one of %s)", ErrInvalidValue, text, kubernetesStatusList)
}

// Warns reports whether a cluster on this status should hear of it: a
// preview or end-of-life Kubernetes minor.
func (s KubernetesStatus) Warns() bool { return s == KubernetesPreview || s == KubernetesEndOfLife }

// PlatformRelease is DKP's own data of one of its minors (R31): the
// Kubernetes minors it supports, with DKP's status of each, and what its
// release.yaml requires of the cluster before DKP moves to it.
type PlatformRelease struct {
	Kubernetes   map[MajorMinor]KubernetesStatus
	Requirements ReleaseRequirements
}

// ReleaseRequirements are the requirements of a DKP release's
// release.yaml that the inputs decide (R31); the keys that need facts of
// the live cluster (R32) are kept, as written, in Other.
type ReleaseRequirements struct {
	// K8s is the lowest Kubernetes minor the cluster may run when DKP
	// moves to the release; zero for none.
	K8s MajorMinor
	// DisabledModules must be off after the answer.
	DisabledModules []string
	// MigratedModules, where on, must be served by a source of the
	// catalog, not built in.
	MigratedModules []string
	// AutoK8sVersion is the Kubernetes minor a cluster on
	// kubernetesVersion: Automatic moves to; every enabled module must
	// admit it. Zero for none.
	AutoK8sVersion MajorMinor
	// Other are the keys modsolver does not decide from these inputs.
	Other map[string]string
}

// PlatformReleases are DKP's release data, by minor.
type PlatformReleases map[MajorMinor]*PlatformRelease

// Release is the data of d's minor, or nil.
func (pr PlatformReleases) Release(d Version) *PlatformRelease {
	if d == nil {
		return nil
	}
	return pr[MinorOf(d)]
}

// OnTheWay lists, in order, the minors with data that DKP passes moving
// from from to to: every minor above from's, up to and including to's.
// None when to is not above from's minor.
func (pr PlatformReleases) OnTheWay(from, to Version) []MajorMinor {
	if from == nil || to == nil {
		return nil
	}
	lo, hi := MinorOf(from), MinorOf(to)
	var out []MajorMinor
	for _, m := range slices.SortedFunc(maps.Keys(pr), MajorMinor.Compare) {
		if m.Compare(lo) > 0 && m.Compare(hi) <= 0 {
			out = append(out, m)
		}
	}
	return out
}

// Supported lists the Kubernetes minors r supports, sorted.
func (r *PlatformRelease) Supported() []MajorMinor {
	return slices.SortedFunc(maps.Keys(r.Kubernetes), MajorMinor.Compare)
}

// SupportedText says which Kubernetes minors r supports, as "1.29–1.33"
// when they run without a gap, else listed.
func (r *PlatformRelease) SupportedText() string {
	minors := r.Supported()
	if len(minors) == 0 {
		return "no Kubernetes version"
	}
	first, last := minors[0], minors[len(minors)-1]
	if first.Major == last.Major && int(last.Minor-first.Minor)+1 == len(minors) {
		if len(minors) == 1 {
			return first.String()
		}
		return first.String() + "–" + last.String()
	}
	texts := make([]string, len(minors))
	for i, m := range minors {
		texts[i] = m.String()
	}
	return strings.Join(texts, ", ")
}

// DefaultKubernetes is the minor r marks default, or false.
func (r *PlatformRelease) DefaultKubernetes() (MajorMinor, bool) {
	for _, m := range r.Supported() {
		if r.Kubernetes[m] == KubernetesDefault {
			return m, true
		}
	}
	return MajorMinor{}, false
}

// FirstSupporting is the lowest minor of pr, from at on, that supports
// Kubernetes minor k; false when none does.
func (pr PlatformReleases) FirstSupporting(at MajorMinor, k MajorMinor) (MajorMinor, bool) {
	for _, m := range slices.SortedFunc(maps.Keys(pr), MajorMinor.Compare) {
		if _, ok := pr[m].Kubernetes[k]; ok && m.Compare(at) >= 0 {
			return m, true
		}
	}
	return MajorMinor{}, false
}

// HasGate reports whether some release requires key, a gate the live
// cluster decides (R32).
func (pr PlatformReleases) HasGate(key string) bool {
	for _, r := range pr {
		if _, ok := r.Requirements.Other[key]; ok {
			return true
		}
	}
	return false
}
