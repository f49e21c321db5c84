package bench

import (
	"context"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
)

// dkpCluster is a representative cluster on the real DKP tree: a recent
// DKP, the Default bundle (which turns many built-in modules on), one CNI
// and a storage and virtualization stack of external modules.
const dkpCluster = `
deckhouse: 1.74.2
kubernetes: 1.31.4
edition: ee
bundle: Default
releaseChannel: stable
modules:
  cni-cilium: {enabled: true}
  virtualization: {enabled: true, version: 0.17.0}
  csi-ceph: {enabled: true, version: 0.4.2}
  storage-foundation: {enabled: true, version: 0.1.3}
  state-snapshotter: {enabled: true, version: 0.1.7}
`

// DKPCluster returns the cluster state RunDKP resolves against, keeping
// only the modules cat has at the versions it lists.
func DKPCluster(cat *model.Catalog) (*model.ClusterState, error) {
	cluster, err := catalog.ParseCluster("resolve-dkp cluster", []byte(dkpCluster))
	if err != nil {
		return nil, err
	}
	for name, st := range cluster.Modules {
		m := cat.Module(name)
		if m == nil || (st.Version != nil && m.Release(st.Version) == nil) {
			delete(cluster.Modules, name)
		}
	}
	return cluster, nil
}

// RunDKP measures CaseResolveDKP: update-all on cat, normally the real
// DKP tree read with catalog.Load, against DKPCluster.
func RunDKP(ctx context.Context, cat *model.Catalog, opts ...RunOption) (*Outcome, error) {
	cluster, err := DKPCluster(cat)
	if err != nil {
		return nil, err
	}
	w := &workload{name: CaseResolveDKP, size: "dkp", cat: cat, cluster: cluster, reqs: []*model.Request{{UpdateAll: true}}}
	return w.measure(ctx, newRunConfig(opts))
}

// routeFrom and routeTo are CaseRouteDKP's platforms: five DKP minors and
// two Kubernetes minors apart, a route of seven steps on the real tree's
// release data.
var routeFrom, routeTo = model.Platform{Deckhouse: model.MustParseVersion("1.73.2")},
	model.Platform{Deckhouse: model.MustParseVersion("1.78.0"), Kubernetes: model.MustParseVersion("1.33.0")}

// RunRouteDKP measures CaseRouteDKP: DKPCluster moved to DKP 1.73 (with
// its Experimental modules allowed, so that the answer resolves) asks
// for DKP 1.78 on Kubernetes 1.33 with update-all; the answer, its route
// included, is checked as every benchmark answer is. The peers do not
// run: neither has a route.
func RunRouteDKP(ctx context.Context, cat *model.Catalog, opts ...RunOption) (*Outcome, error) {
	cluster, req, err := RouteDKP(cat)
	if err != nil {
		return nil, err
	}
	cfg := newRunConfig(opts)
	cfg.deppy, cfg.libsolv = false, false
	w := &workload{name: CaseRouteDKP, size: "dkp", cat: cat, cluster: cluster, reqs: []*model.Request{req}}
	o, err := w.measure(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return o, nil
}

// RouteDKP returns CaseRouteDKP's cluster state and request on cat.
func RouteDKP(cat *model.Catalog) (*model.ClusterState, *model.Request, error) {
	cluster, err := DKPCluster(cat)
	if err != nil {
		return nil, nil, err
	}
	cluster.Deckhouse, cluster.AllowExperimentalModules = routeFrom.Deckhouse, true
	return cluster, &model.Request{UpdateAll: true, Platform: routeTo}, nil
}
