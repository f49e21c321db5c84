package bench

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/checker"
	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// tinyCatalog exercises every part of the translation: a built-in module
// (R5), an exclusive group (R13), channels (R10), an optional dependency
// (R3), platform requirements (R4), a required module the catalog lacks,
// and update steps (R11).
const tinyCatalog = `
modules:
  - name: core
    embedded: true
    requirements: {kubernetes: ">= 1.28"}
  - name: cni-a
    exclusiveGroup: cni
    releases: [{version: 1.0.0}, {version: 1.1.0}]
  - name: cni-b
    exclusiveGroup: cni
    releases: [{version: 2.0.0}]
  - name: prometheus
    channels: {stable: 2.4.1, alpha: 2.5.0}
    releases:
      - version: 2.3.0
        requirements: {modules: {operator: ">= 1.0", grafana: "< 8.0 !optional"}}
      - version: 2.4.0
        requirements: {modules: {operator: ">= 1.1", grafana: ">= 8.0 !optional"}}
      - version: 2.4.1
        requirements: {deckhouse: ">= 1.70", modules: {operator: ">= 1.1", grafana: ">= 8.0 !optional"}}
      - version: 2.5.0
        requirements: {modules: {operator: ">= 1.2"}}
  - name: operator
    releases:
      - version: 1.0.0
      - version: 1.1.0
      - version: 1.2.0
        requirements: {kubernetes: ">= 1.31"}
  - name: grafana
    releases: [{version: 7.0.0}, {version: 8.0.0}]
  - name: logging
    releases:
      - version: 1.0.0
        requirements: {modules: {core: ">= 1.60"}}
      - version: 1.1.0
        requirements: {modules: {core: ">= 1.60", ghost: ">= 1.0"}}
  - name: dashboards
    releases:
      - version: 1.0.0
        requirements: {modules: {grafana: ">= 8.0"}}
  - name: alerts
    releases:
      - version: 0.1.0
        requirements: {modules: {logging: ">= 1.0"}}
`

const tinyCluster = `
deckhouse: 1.69.0
kubernetes: 1.30.1
releaseChannel: stable
modules:
  core: {enabled: true}
  prometheus: {enabled: true, version: 2.3.0}
  operator: {enabled: true, version: 1.0.0}
  grafana: {enabled: true, version: 7.0.0}
  cni-a: {enabled: true, version: 1.1.0}
  cni-b: {enabled: false}
`

func tinyInputs(t *testing.T) (*model.Catalog, *model.ClusterState) {
	t.Helper()
	cat, _, err := catalog.Parse("tiny.yaml", []byte(tinyCatalog))
	require.NoError(t, err)
	cluster, err := catalog.ParseCluster("cluster.yaml", []byte(tinyCluster))
	require.NoError(t, err)
	return cat, cluster
}

// enabledAfter maps each module a resolved answer enables to its version.
func enabledAfter(res *model.Result) map[string]string {
	out := map[string]string{}
	for _, m := range res.Modules {
		if m.ToVersion != "" {
			out[m.Name] = m.ToVersion
		}
	}
	return out
}

// solveBoth answers req with modsolver and with deppy (both translations),
// checks every answer, and returns modsolver's and the default deppy's.
func solveBoth(t *testing.T, cat *model.Catalog, cluster *model.ClusterState, req *model.Request) (*model.Result, *PeerAnswer) {
	t.Helper()
	res, err := solver.Solve(context.Background(), cat, cluster, req)
	require.NoError(t, err)
	require.Empty(t, checker.Check(cat, cluster, req, res), "modsolver's answer")
	var first *PeerAnswer
	for _, opts := range [][]DeppyOption{nil, {WithPruning()}} {
		peer, err := Deppy(context.Background(), cat, cluster, req, opts...)
		require.NoError(t, err)
		require.Empty(t, CheckPeer(cat, cluster, req, peer, res.Status), "deppy's answer (pruned: %v)", len(opts) > 0)
		if res.Status == model.StatusResolved {
			assert.Equal(t, keys(enabledAfter(res)), keys(enabledAfter(peer.Result)), "the same modules are enabled")
		}
		if first == nil {
			first = peer
		}
	}
	return res, first
}

func keys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// tinyRequest is a request on tinyCatalog with the answer every solver
// must give.
type tinyRequest struct {
	name   string
	req    *model.Request
	status model.Status
	// want holds versions every answer must have ("" for off).
	want map[string]string
}

// tinyRequests exercise the translations to the peers on tinyCatalog.
func tinyRequests() []tinyRequest {
	return []tinyRequest{
		{
			name:   "nothing asked",
			req:    &model.Request{},
			status: model.StatusResolved,
			want:   map[string]string{"prometheus": "2.3.0", "operator": "1.0.0", "grafana": "7.0.0", "core": "1.69.0", "logging": ""},
		},
		{
			name:   "update-all, sequential: 2.4.1 is the step from 2.3 but needs DKP 1.70, and grafana 8 is a major jump",
			req:    &model.Request{UpdateAll: true},
			status: model.StatusResolved,
			want:   map[string]string{"prometheus": "2.3.0", "operator": "1.1.0", "grafana": "7.0.0", "cni-a": "1.1.0", "core": "1.69.0"},
		},
		{
			name:   "update-all, direct: prometheus 2.4.0 takes grafana 8 along (R3)",
			req:    &model.Request{UpdateAll: true, Strategy: model.StrategyDirect},
			status: model.StatusResolved,
			want:   map[string]string{"prometheus": "2.4.0", "operator": "1.1.0", "grafana": "8.0.0"},
		},
		{
			name:   "platform upgrade: the channel head and the newest operator fit",
			req:    &model.Request{UpdateAll: true, Strategy: model.StrategyDirect, Platform: model.Platform{Deckhouse: model.MustParseVersion("1.70.0"), Kubernetes: model.MustParseVersion("1.31.0")}},
			status: model.StatusResolved,
			want:   map[string]string{"prometheus": "2.4.1", "operator": "1.2.0", "grafana": "8.0.0", "core": "1.70.0"},
		},
		{
			name:   "enable a module whose newest release requires a missing module",
			req:    &model.Request{Enable: []string{"logging"}},
			status: model.StatusResolved,
			want:   map[string]string{"logging": "1.0.0"},
		},
		{
			name:   "a module that needs a newer grafana, which keeps its version (R9)",
			req:    &model.Request{Enable: []string{"dashboards"}},
			status: model.StatusUnsatisfiable,
		},
		{
			name:   "the same with every module free to update",
			req:    &model.Request{Enable: []string{"dashboards"}, UpdateAll: true, Strategy: model.StrategyDirect},
			status: model.StatusResolved,
			want:   map[string]string{"dashboards": "1.0.0", "grafana": "8.0.0", "prometheus": "2.4.0"},
		},
		{
			name:   "a required module nobody configures stays off without autoEnable",
			req:    &model.Request{Enable: []string{"alerts"}},
			status: model.StatusUnsatisfiable,
		},
		{
			name:   "autoEnable turns it on",
			req:    &model.Request{Enable: []string{"alerts"}, AutoEnable: true},
			status: model.StatusResolved,
			want:   map[string]string{"alerts": "0.1.0", "logging": "1.0.0"},
		},
		{
			name:   "two modules of one exclusive group (R13)",
			req:    &model.Request{Enable: []string{"cni-b"}},
			status: model.StatusUnsatisfiable,
		},
		{
			name:   "disabling a required module",
			req:    &model.Request{Disable: []string{"operator"}},
			status: model.StatusUnsatisfiable,
		},
		{
			name:   "pin below the deployed version",
			req:    &model.Request{Pin: map[string]model.Version{"cni-a": model.MustParseVersion("1.0.0")}, UpdateAll: true},
			status: model.StatusResolved,
			want:   map[string]string{"cni-a": "1.0.0"},
		},
	}
}

func TestDeppyAgreesOnTinyCatalog(t *testing.T) {
	tests := tinyRequests()
	cat, cluster := tinyInputs(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, peer := solveBoth(t, cat, cluster, tt.req)
			require.Equal(t, tt.status, res.Status, "modsolver: %+v", res.Explanation)
			require.Equal(t, tt.status, peer.Result.Status, "deppy: %v", peer.Conflicts)
			if tt.status == model.StatusUnsatisfiable {
				assert.NotEmpty(t, peer.Conflicts, "deppy says why")
				return
			}
			for name, v := range tt.want {
				assert.Equal(t, v, enabledAfter(res)[name], "modsolver: %s", name)
				assert.Equal(t, v, enabledAfter(peer.Result)[name], "deppy: %s", name)
			}
		})
	}
}

// Every generated request kind, on a small instance, with both
// translations.
func TestDeppyAgreesOnGeneratedInstance(t *testing.T) {
	in := Generate(Size{Name: "40x8", Modules: 40, Releases: 8}, 3)
	reqs := map[string]*model.Request{
		CaseUpdateAll:       in.UpdateAll(),
		CaseInstallOne:      in.InstallOne(),
		CasePlatformUpgrade: in.PlatformUpgrade(),
		CaseUnsatisfiable:   in.Unsatisfiable(),
		"direct":            {UpdateAll: true, Strategy: model.StrategyDirect},
	}
	for name, req := range reqs {
		t.Run(name, func(t *testing.T) {
			res, peer := solveBoth(t, in.Catalog, in.Cluster, req)
			assert.Equal(t, res.Status, peer.Result.Status)
		})
	}
}

// The acceptance scenarios make a broad test of the translation: where
// modsolver finds an answer, so must deppy, and each answer passes its
// check. Modules that modsolver only prefers on (bundle defaults,
// allowDisable) may be off in deppy's answer, so only statuses and checks
// are compared.
func TestDeppyOnScenarios(t *testing.T) {
	var files []string
	for _, dir := range []string{shared.Path(t, "scenarios"), filepath.Join("..", "testdata", "scenarios")} {
		found, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		require.NoError(t, err)
		files = append(files, found...)
	}
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sc, err := catalog.LoadScenario(file)
			if err != nil || sc.Expect.Error {
				t.Skip("bad input by design")
			}
			if err := Translatable(sc.Catalog); err != nil {
				t.Skip(err)
			}
			if sc.Catalog.PlatformReleases() != nil {
				t.Skip("DKP's release data (R31) has no form in the peer's translation")
			}
			res, err := solver.Solve(context.Background(), sc.Catalog, sc.Cluster, sc.Request)
			if err != nil {
				_, perr := Deppy(context.Background(), sc.Catalog, sc.Cluster, sc.Request)
				assert.ErrorIs(t, perr, model.ErrInvalidInput, "bad input for both")
				return
			}
			for _, opts := range [][]DeppyOption{nil, {WithPruning()}} {
				peer, err := Deppy(context.Background(), sc.Catalog, sc.Cluster, sc.Request, opts...)
				require.NoError(t, err)
				assert.Empty(t, CheckPeer(sc.Catalog, sc.Cluster, sc.Request, peer, res.Status), "conflicts: %v", peer.Conflicts)
			}
		})
	}
}

func TestDeppyBadInputAndCancel(t *testing.T) {
	cat, cluster := tinyInputs(t)
	_, err := Deppy(context.Background(), cat, cluster, &model.Request{Enable: []string{"ghost"}})
	assert.ErrorIs(t, err, model.ErrInvalidInput)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Deppy(ctx, cat, cluster, &model.Request{UpdateAll: true})
	assert.True(t, errors.Is(err, context.Canceled), "got %v", err)
}

// A variable whose stop flag is set abandons deppy's run.
func TestSolveDeppyStops(t *testing.T) {
	cat, cluster := tinyInputs(t)
	req := &model.Request{UpdateAll: true}
	ds, err := solver.NewDomains(cat, cluster, req)
	require.NoError(t, err)
	tr := newTranslation(cat, cluster, req, ds, deppyConfig{})
	tr.translate()
	ctx, cancel := context.WithCancel(context.Background())
	tr.stop.Store(true)
	cancel()
	_, err = solveDeppy(ctx, tr.vars, tr.stop)
	assert.ErrorIs(t, err, context.Canceled)
}

// Two sources (R23): prometheus is in both, at different releases; the
// operator only in the higher-priority one.
const (
	sourceProd = `
modules:
  - name: prometheus
    releases:
      - version: 2.2.0
      - version: 2.3.0
        requirements: {modules: {operator: ">= 1.0"}}
  - name: operator
    releases: [{version: 1.0.0}]
`
	sourceCommunity = `
modules:
  - name: prometheus
    releases: [{version: 2.3.0}, {version: 2.5.0}]
`
)

func twoSources(t *testing.T, modules string) (*model.Catalog, *model.ClusterState) {
	t.Helper()
	prod, _, err := catalog.Parse("prod.yaml", []byte(sourceProd))
	require.NoError(t, err)
	community, _, err := catalog.Parse("community.yaml", []byte(sourceCommunity))
	require.NoError(t, err)
	cat, err := model.Merge([]model.Source{{Name: "deckhouse-prod", Priority: 10, Catalog: prod}, {Name: "community", Catalog: community}})
	require.NoError(t, err)
	cluster, err := catalog.ParseCluster("cluster.yaml", []byte("deckhouse: 1.74.0\nkubernetes: 1.31.0\nmodules:\n"+modules))
	require.NoError(t, err)
	return cat, cluster
}

// moduleResult returns the result of module name in res.
func moduleResult(t *testing.T, res *model.Result, name string) model.ModuleResult {
	t.Helper()
	i := slices.IndexFunc(res.Modules, func(r model.ModuleResult) bool { return r.Name == name })
	require.GreaterOrEqual(t, i, 0, "%s is in the answer", name)
	return res.Modules[i]
}

// The translation carries several sources: a free module's candidates
// come from the higher-priority source first, a deployed module stays in
// its source, a move and a pin take the source that serves them, and the
// answer names the sources as modsolver's does.
func TestDeppySeveralSources(t *testing.T) {
	tests := []struct {
		name           string
		cluster        string
		req            *model.Request
		version, to    string
		from           string
		moved, withOps bool
	}{
		{name: "a free module comes from the higher-priority source, with what it needs there",
			req: &model.Request{Enable: []string{"prometheus"}, AutoEnable: true}, version: "2.3.0", to: "deckhouse-prod", withOps: true},
		{name: "a deployed module takes updates from its own source",
			cluster: "  prometheus: {enabled: true, version: 2.3.0, source: community}\n",
			req:     &model.Request{UpdateAll: true, Strategy: model.StrategyDirect}, version: "2.5.0", from: "community", to: "community"},
		{name: "a move takes the new source's releases",
			cluster: "  prometheus: {enabled: true, version: 2.3.0, source: community}\n",
			req:     &model.Request{Update: []string{"prometheus"}, Sources: map[string]string{"prometheus": "deckhouse-prod"}, AutoEnable: true},
			version: "2.3.0", from: "community", to: "deckhouse-prod", moved: true, withOps: true},
		{name: "a pin of a version one source lists takes that source",
			req: &model.Request{Pin: map[string]model.Version{"prometheus": model.MustParseVersion("2.5.0")}}, version: "2.5.0", to: "community"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cat, cluster := twoSources(t, tt.cluster)
			res, peer := solveBoth(t, cat, cluster, tt.req)
			require.Equal(t, model.StatusResolved, res.Status, "modsolver: %+v", res.Explanation)
			require.Equal(t, model.StatusResolved, peer.Result.Status, "deppy: %v", peer.Conflicts)
			got := moduleResult(t, peer.Result, "prometheus")
			assert.Equal(t, tt.version, got.ToVersion)
			assert.Equal(t, tt.to, got.ToSource)
			assert.Equal(t, tt.from, got.FromSource)
			assert.Equal(t, tt.moved, got.Moved)
			assert.Equal(t, tt.withOps, enabledAfter(peer.Result)["operator"] != "", "the operator comes along")
		})
	}
}

// Compound requirements (R24) become deppy dependencies and conflicts on
// the releases that satisfy their predicate.
const compoundCatalog = `
modules:
  - name: app
    releases:
      - version: 1.0.0
      - version: 2.0.0
        requirements:
          compound:
            - not: {module: legacy-agent}
  - name: legacy-agent
    releases: [{version: 1.0.0}]
  - name: backup
    releases:
      - version: 1.0.0
        requirements:
          compound:
            - any: [{module: pg, version: ">= 12"}, {module: mysql}]
  - name: pg
    releases: [{version: 11.0.0}, {version: 13.0.0}]
  - name: mysql
    releases: [{version: 8.0.0}]
  - name: strict
    releases:
      - version: 1.0.0
        requirements:
          compound:
            - all: [{module: pg, version: ">= 12"}, {not: {module: pg, version: ">= 13"}}]
`

func TestDeppyCompoundRequirements(t *testing.T) {
	cat, _, err := catalog.Parse("compound.yaml", []byte(compoundCatalog))
	require.NoError(t, err)
	cluster, err := catalog.ParseCluster("cluster.yaml", []byte(`
deckhouse: 1.74.0
kubernetes: 1.31.0
modules:
  legacy-agent: {enabled: true, version: 1.0.0}
  pg: {enabled: true, version: 11.0.0}
`))
	require.NoError(t, err)
	tests := []struct {
		name   string
		req    *model.Request
		status model.Status
		want   map[string]string
	}{
		{name: "a conflict with a kept module leaves the older release",
			req: &model.Request{Enable: []string{"app"}}, status: model.StatusResolved, want: map[string]string{"app": "1.0.0", "legacy-agent": "1.0.0"}},
		{name: "without the conflicting module the newer release is free",
			req: &model.Request{Enable: []string{"app"}, Disable: []string{"legacy-agent"}}, status: model.StatusResolved, want: map[string]string{"app": "2.0.0", "legacy-agent": ""}},
		{name: "any: the kept pg is too old, so mysql comes along",
			req: &model.Request{Enable: []string{"backup"}, AutoEnable: true}, status: model.StatusResolved, want: map[string]string{"backup": "1.0.0", "mysql": "8.0.0", "pg": "11.0.0"}},
		{name: "any: an update of pg meets it too",
			req: &model.Request{Enable: []string{"backup"}, Update: []string{"pg"}, Disable: []string{"mysql"}, Strategy: model.StrategyDirect}, status: model.StatusResolved, want: map[string]string{"backup": "1.0.0", "pg": "13.0.0"}},
		{name: "all: no release of pg is both at least 12 and below 13",
			req: &model.Request{Enable: []string{"strict"}, Update: []string{"pg"}}, status: model.StatusUnsatisfiable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, peer := solveBoth(t, cat, cluster, tt.req)
			require.Equal(t, tt.status, res.Status, "modsolver: %+v", res.Explanation)
			require.Equal(t, tt.status, peer.Result.Status, "deppy: %v", peer.Conflicts)
			for name, v := range tt.want {
				assert.Equal(t, v, enabledAfter(peer.Result)[name], "deppy: %s", name)
			}
		})
	}
}

// Capabilities stay out of the translation, with the reason.
func TestDeppyRefusesCapabilities(t *testing.T) {
	cat, _, err := catalog.Parse("caps.yaml", []byte(`
modules:
  - name: api
    releases: [{version: 1.0.0, provides: [example.com/v1/Thing]}]
`))
	require.NoError(t, err)
	cluster, err := catalog.ParseCluster("cluster.yaml", []byte("deckhouse: 1.74.0\nkubernetes: 1.31.0\n"))
	require.NoError(t, err)
	_, err = Deppy(context.Background(), cat, cluster, &model.Request{})
	require.ErrorIs(t, err, ErrNotTranslated)
	assert.ErrorContains(t, err, "module api uses capabilities (R19, R20)")
}
