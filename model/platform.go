package model

import (
	"fmt"
	"slices"
)

// KnownPlatform is what a catalog's platform data (DKP's platform.yaml)
// says of the platform versions it knows: the newest DKP minor released
// and the one in development, and the Kubernetes minors DKP supports.
// modsolver resolves for any version, but a version outside these is
// most often a typo or a catalog older than the question, and is said
// as a warning (D212).
type KnownPlatform struct {
	// DeckhouseReleased is the newest DKP minor released;
	// DeckhouseInDevelopment the one in development, zero when the data
	// names none.
	DeckhouseReleased, DeckhouseInDevelopment MajorMinor
	// Kubernetes lists the Kubernetes minors the data knows, sorted.
	Kubernetes []MajorMinor
	// Releases is DKP's own data of each minor (R31); nil when the
	// catalog carries none, and then nothing of R31 applies.
	Releases PlatformReleases
}

// newestDeckhouse is the newest DKP minor the data knows.
func (k *KnownPlatform) newestDeckhouse() MajorMinor {
	if k.DeckhouseInDevelopment.Compare(k.DeckhouseReleased) > 0 {
		return k.DeckhouseInDevelopment
	}
	return k.DeckhouseReleased
}

// Unknown says, one text for each, which of the given versions the data
// does not know: a DKP version newer than any it names, a Kubernetes
// version whose minor it does not list. A nil version is not asked
// about; a nil KnownPlatform knows nothing and says nothing.
func (k *KnownPlatform) Unknown(deckhouse, kubernetes Version) []string {
	if k == nil {
		return nil
	}
	var out []string
	if newest := k.newestDeckhouse(); deckhouse != nil && newest != (MajorMinor{}) && MinorOf(deckhouse).Compare(newest) > 0 {
		known := "newest released " + k.DeckhouseReleased.String()
		if k.DeckhouseInDevelopment != (MajorMinor{}) {
			known += ", " + k.DeckhouseInDevelopment.String() + " in development"
		}
		out = append(out, fmt.Sprintf("deckhouse %s is newer than any DKP version the catalog's platform data knows (%s)", VersionString(deckhouse), known))
	}
	if kubernetes != nil && len(k.Kubernetes) > 0 && !slices.Contains(k.Kubernetes, MinorOf(kubernetes)) {
		out = append(out, fmt.Sprintf("kubernetes %s is not a version the catalog's platform data knows (%s to %s)",
			VersionString(kubernetes), k.Kubernetes[0], k.Kubernetes[len(k.Kubernetes)-1]))
	}
	return out
}

// KnownPlatform is the platform data the catalog was read with, or nil
// when its format carries none.
func (c *Catalog) KnownPlatform() *KnownPlatform { return c.known }

// WithKnownPlatform returns a copy of c that carries k as its platform
// data; c itself is unchanged. The copy derives its own values (Derived).
func (c *Catalog) WithKnownPlatform(k *KnownPlatform) *Catalog {
	out := Catalog{modules: c.modules, index: c.index, providers: c.providers, sources: c.sources, needsDeckhouse: c.needsDeckhouse}
	if k != nil {
		k = &KnownPlatform{DeckhouseReleased: k.DeckhouseReleased, DeckhouseInDevelopment: k.DeckhouseInDevelopment,
			Kubernetes: slices.SortedFunc(slices.Values(k.Kubernetes), MajorMinor.Compare), Releases: k.Releases}
	}
	out.known = k
	return &out
}

// PlatformReleases is DKP's release data the catalog carries (R31), or
// nil.
func (c *Catalog) PlatformReleases() PlatformReleases {
	if c.known == nil {
		return nil
	}
	return c.known.Releases
}
