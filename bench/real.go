package bench

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// importedPlatform is the platform the runs on imported catalogs assume:
// the Kubernetes and OpenShift versions `modsolver catalog check` uses in
// the README. DKP's version is not read by OLM or Helm releases.
var importedPlatform = struct{ deckhouse, kubernetes, openshift model.Version }{
	model.MustParseVersion("0.0.0"), model.MustParseVersion("1.31.0"), model.MustParseVersion("4.20.0"),
}

// RunCatalog measures the runs on a real catalog: on a DKP tree (one with
// built-in modules), update-all against DKPCluster (CaseResolveDKP) and
// the route of a platform upgrade (CaseRouteDKP); on an
// imported OLM or Helm catalog, update-all and install-one against
// ImportedCluster. name labels the rows, as the size does for generated
// catalogs.
func RunCatalog(ctx context.Context, name string, cat *model.Catalog, opts ...RunOption) ([]*Outcome, error) {
	if hasBuiltIn(cat) {
		o, err := RunDKP(ctx, cat, opts...)
		if err != nil {
			return nil, err
		}
		route, err := RunRouteDKP(ctx, cat, opts...)
		if err != nil {
			return nil, err
		}
		return []*Outcome{o, route}, nil
	}
	cfg := newRunConfig(opts)
	if cfg.progress != nil {
		cfg.progress(name + ": installing modules one by one to build the cluster")
	}
	cluster, spare, err := ImportedCluster(ctx, cat)
	if err != nil {
		return nil, err
	}
	install := &model.Request{Enable: []string{spare}, AutoEnable: true}
	if Translatable(cat) != nil {
		cfg.deppy = false // the peer translation does not carry R19–R22
	}
	var out []*Outcome
	for _, w := range []*workload{
		{name: CaseUpdateAll, size: name, cat: cat, cluster: cluster, reqs: []*model.Request{{UpdateAll: true}}},
		{name: CaseInstallOne, size: name, cat: cat, cluster: cluster, reqs: []*model.Request{install}},
	} {
		if spare == "" && w.name == CaseInstallOne {
			continue
		}
		o, err := w.measure(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", name, w.name, err)
		}
		out = append(out, o)
	}
	return out, nil
}

func hasBuiltIn(cat *model.Catalog) bool {
	for _, m := range cat.Modules() {
		if m.Embedded {
			return true
		}
	}
	return false
}

// ImportedCluster builds a consistent cluster on an imported catalog, the
// way a cluster grows: it goes through the modules in name order and
// installs each at an older release (two thirds up its list), with
// autoEnable so that its requirements come along, whenever that resolves
// on top of what is installed so far; its dependencies stay at the
// versions the solver picks. Every tenth module is held back, and the
// first of those that installs on the finished cluster is returned as
// spare, for a one-module install. The result depends on the catalog
// alone.
func ImportedCluster(ctx context.Context, cat *model.Catalog) (cluster *model.ClusterState, spare string, err error) {
	cluster = &model.ClusterState{
		Deckhouse: importedPlatform.deckhouse, Kubernetes: importedPlatform.kubernetes,
		Modules: map[string]model.ModuleState{}, Platform: map[string]model.Version{"openshift": importedPlatform.openshift},
	}
	var held []string
	for i, m := range cat.Modules() {
		if len(m.Releases) == 0 || cluster.Modules[m.Name].Configured() {
			continue
		}
		if i%10 == 9 {
			held = append(held, m.Name)
			continue
		}
		if err := tryInstall(ctx, cat, cluster, m); err != nil {
			return nil, "", err
		}
	}
	for _, name := range held {
		res, err := solver.Solve(ctx, cat, cluster, &model.Request{Enable: []string{name}, AutoEnable: true}, solver.WithoutHeldBack(), solver.WithoutSuggestions())
		if err != nil {
			return nil, "", err
		}
		if res.Status == model.StatusResolved && !cluster.Modules[name].Configured() {
			return cluster, name, nil
		}
	}
	return cluster, "", nil
}

// tryInstall installs m into cluster, at an older release when it can,
// else at any; it leaves cluster as it was when neither resolves.
func tryInstall(ctx context.Context, cat *model.Catalog, cluster *model.ClusterState, m *model.Module) error {
	older := m.Releases[len(m.Releases)*2/3].Version
	for _, req := range []*model.Request{
		{Enable: []string{m.Name}, Pin: map[string]model.Version{m.Name: older}, AutoEnable: true},
		{Enable: []string{m.Name}, AutoEnable: true},
	} {
		res, err := solver.Solve(ctx, cat, cluster, req, solver.WithoutHeldBack(), solver.WithoutSuggestions())
		if errors.Is(err, model.ErrInvalidInput) {
			continue
		}
		if err != nil {
			return err
		}
		if res.Status == model.StatusResolved {
			adopt(cluster, res)
			return nil
		}
	}
	return nil
}

// adopt makes every module the answer leaves enabled part of the cluster.
func adopt(cluster *model.ClusterState, res *model.Result) {
	mods := maps.Clone(cluster.Modules)
	for _, r := range res.Modules {
		if r.ToVersion == "" {
			continue
		}
		on := true
		mods[r.Name] = model.ModuleState{Enabled: &on, Version: model.MustParseVersion(r.ToVersion)}
	}
	cluster.Modules = mods
}
