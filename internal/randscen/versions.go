package randscen

import (
	"github.com/modsolver/modsolver/model"
)

// versionStream is mixed into the seed of the stream that draws what R6
// reads per ecosystem: the catalog's version reading, the prereleases and
// prerelease ranges it adds, and the request's devel. A scenario read as
// DKP reads it keeps every other draw of its seed as it was before the
// generator knew the readings; only its devel is new.
const versionStream = 0x0006_5e4a

// readingPre are the prereleases a catalog with another ecosystem's
// reading adds to a module's versions, near the final pool's versions.
var readingPre = []string{"0.2.0-beta.1", "1.0.0-alpha.4", "1.2.1-rc.2", "2.0.0-rc.1"}

// drawReading draws the catalog's version reading: DKP's half the time,
// else Helm's (semver) or OLM's (blang).
func (g *gen) drawReading() model.VersionReading {
	switch f := g.vrng.Float64(); {
	case f < 0.5:
		return model.ReadingDKP
	case f < 0.75:
		return model.ReadingSemver
	}
	return model.ReadingBlang
}

// extraPrerelease returns a prerelease to add to a module's versions under
// another ecosystem's reading, or "".
func (g *gen) extraPrerelease() string {
	if g.reading == model.ReadingDKP || g.vrng.Float64() >= 0.4 {
		return ""
	}
	return readingPre[g.vrng.IntN(len(readingPre))]
}

// prereleaseRange returns, now and then under another ecosystem's
// reading, a range over vs that carries a prerelease, as Helm's ranges
// do to admit one (">= 1.0.0-0", ">0.0.0-0", an exact prerelease); ""
// otherwise.
func (g *gen) prereleaseRange(vs []string) string {
	if g.reading == model.ReadingDKP || g.vrng.Float64() >= 0.35 {
		return ""
	}
	x := core(vs[g.vrng.IntN(len(vs))])
	var pre []string
	for _, v := range vs {
		if model.IsPrerelease(model.MustParseVersion(v)) {
			pre = append(pre, v)
		}
	}
	forms := []func() string{
		func() string { return ">= " + x + "-0" },
		func() string { return ">0.0.0-0" },
		func() string { return ">= " + x + "-0, < 2.0.0" },
		func() string { return "~" + x + "-0" },
		func() string { return "< " + x + "-rc.9" },
	}
	if len(pre) > 0 {
		p := pre[g.vrng.IntN(len(pre))]
		forms = append(forms, func() string { return p }, func() string { return "= v" + p })
	}
	return forms[g.vrng.IntN(len(forms))]()
}

// drawDevel draws the request's devel (R6, Helm's --devel).
func (g *gen) drawDevel() bool { return g.vrng.Float64() < 0.2 }

// dropDeckhouse leaves the cluster without a DKP version now and then
// when the catalog needs none (D142), as a Helm or OLM user's cluster
// state says nothing of DKP.
func (g *gen) dropDeckhouse(cat *model.Catalog, cluster *model.ClusterState) {
	if g.vrng.Float64() < 0.5 && !cat.NeedsDeckhouse() {
		cluster.Deckhouse = nil
	}
}
