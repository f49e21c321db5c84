package randscen

import (
	"math/rand/v2"

	"github.com/modsolver/modsolver/model"
)

// releaseStream salts the stream that draws DKP's release data (R31).
const releaseStream = 0x5231_7e1d

// kubeStatuses are the statuses a drawn release gives a Kubernetes minor.
var kubeStatuses = []model.KubernetesStatus{model.KubernetesAvailable, model.KubernetesAvailable, model.KubernetesDefault,
	model.KubernetesPreview, model.KubernetesEndOfLife}

// drawReleases gives some catalogs DKP's release data (R31), on a stream
// of its own: for each DKP minor of the pool, the Kubernetes minors of
// the pool it supports, most of them, with a status each, and now and
// then a Kubernetes floor, a module it requires disabled, a built-in
// module it moves out of the platform, or the Kubernetes minor it moves
// an Automatic cluster to; and some clusters on kubernetesVersion:
// Automatic. Nil when the catalog draws none.
func (g *gen) drawReleases(rng *rand.Rand, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) model.PlatformReleases {
	chance := func(p float64) bool { return rng.Float64() < p }
	if !chance(0.35) {
		return nil
	}
	if chance(0.4) {
		g.routeTarget(rng, cluster, req)
	}
	cluster.KubernetesAutomatic = chance(0.3)
	kubeMinor := func() model.MajorMinor {
		return model.MinorOf(model.MustParseVersion(kubePool[rng.IntN(len(kubePool))]))
	}
	var embedded []string
	for _, m := range cat.Modules() {
		if m.Embedded {
			embedded = append(embedded, m.Name)
		}
	}
	out := model.PlatformReleases{}
	for _, text := range dkpPool {
		r := &model.PlatformRelease{Kubernetes: map[model.MajorMinor]model.KubernetesStatus{}}
		for _, k := range kubePool {
			if chance(0.85) {
				r.Kubernetes[model.MinorOf(model.MustParseVersion(k))] = kubeStatuses[rng.IntN(len(kubeStatuses))]
			}
		}
		if len(r.Kubernetes) == 0 {
			r.Kubernetes[kubeMinor()] = model.KubernetesDefault
		}
		req := &r.Requirements
		if chance(0.3) {
			req.K8s = kubeMinor()
		}
		if chance(0.25) {
			req.DisabledModules = []string{g.names[rng.IntN(len(g.names))]}
		}
		if len(embedded) > 0 && chance(0.2) {
			req.MigratedModules = []string{embedded[rng.IntN(len(embedded))]}
		}
		if chance(0.3) {
			req.AutoK8sVersion = kubeMinor()
		}
		if chance(0.3) { // R32: a gate the live cluster decides
			g := liveGates[rng.IntN(len(liveGates))]
			req.Other = map[string]string{g.key: g.required}
		}
		out[model.MinorOf(model.MustParseVersion(text))] = r
	}
	for _, g := range liveGates { // the cluster says what it knows, now and then
		if chance(0.4) {
			if cluster.Facts == nil {
				cluster.Facts = map[string]string{}
			}
			cluster.Facts[model.GateFor(g.key).Fact] = g.facts[rng.IntN(len(g.facts))]
		}
	}
	return out
}

// routeTarget asks, now and then, for a platform some minors above the
// cluster's on both axes, so that the answer takes a route of several
// steps (R33): DKP one to three minors up, Kubernetes none to two.
func (g *gen) routeTarget(rng *rand.Rand, cluster *model.ClusterState, req *model.Request) {
	above := func(pool []string, now model.Version) []string {
		var out []string
		for _, v := range pool {
			if now == nil || model.MinorOf(model.MustParseVersion(v)).Compare(model.MinorOf(now)) > 0 {
				out = append(out, v)
			}
		}
		return out
	}
	if up := above(dkpPool, cluster.Deckhouse); len(up) > 0 {
		req.Platform.Deckhouse = model.MustParseVersion(up[rng.IntN(len(up))])
	}
	if up := above(kubePool, cluster.Kubernetes); len(up) > 0 && rng.IntN(3) > 0 {
		req.Platform.Kubernetes = model.MustParseVersion(up[rng.IntN(len(up))])
	}
}

// liveGates are the release.yaml keys the generator draws (R32), each
// with the requirement and the facts a cluster may give, some meeting it.
var liveGates = []struct {
	key, required string
	facts         []string
}{
	{"nodesMinimalOSVersionUbuntu", "20.04", []string{"18.04", "22.04"}},
	{"ingressNginx", "1.9", []string{"1.6", "1.12"}},
	{"istioMinimalVersion", "1.19", []string{"1.16,1.21", "1.21"}},
	{"yandexHasDeprecatedZoneInNodes", "false", []string{"true", "false"}},
}
