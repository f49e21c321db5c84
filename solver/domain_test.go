package solver_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

const domainCatalog = `
modules:
  - name: core
    embedded: true
  - name: prometheus
    channels: {stable: 2.4.0}
    releases:
      - version: 2.3.0
      - version: 2.3.5
      - version: 2.4.0
        requirements: {kubernetes: ">= 1.32"}
      - version: 2.5.0
  - name: grafana
    releases: [{version: 7.0.0}, {version: 8.0.0}]
  - name: loki
    releases: [{version: 1.0.0}, {version: 1.1.0-rc.1}]
  - name: tempo
    releases: [{version: 1.0.0}]
`

// Domains gives each module the releases its static facts leave and its
// role, as Solve reads them.
func TestDomains(t *testing.T) {
	cat, _, err := catalog.Parse("domains.yaml", []byte(domainCatalog))
	require.NoError(t, err)
	cluster, err := catalog.ParseCluster("cluster.yaml", []byte(`
deckhouse: 1.74.0
kubernetes: 1.31.0
releaseChannel: stable
modules:
  core: {enabled: true}
  prometheus: {enabled: true, version: 2.3.0}
  grafana: {enabled: true, version: 7.0.0}
  tempo: {enabled: false}
`))
	require.NoError(t, err)
	ds, err := solver.NewDomains(cat, cluster, &model.Request{Update: []string{"prometheus"}, AutoEnable: true})
	require.NoError(t, err)
	allowed := func(d *solver.Domain) []string {
		var out []string
		for i, r := range d.Releases {
			if d.Allowed[i] {
				out = append(out, model.VersionString(r.Version))
			}
		}
		return out
	}
	tests := []struct {
		name    string
		role    solver.Role
		allowed []string
	}{
		// 2.4.0 is the head but needs Kubernetes 1.32 (R4); 2.5.0 is above
		// the head (R10); the sequential step from 2.3.0 is 2.3.5 (R11).
		{"prometheus", solver.RoleMust, []string{"2.3.0", "2.3.5"}},
		{"grafana", solver.RoleMust, []string{"7.0.0"}}, // not in the update set (R9)
		{"loki", solver.RoleMay, []string{"1.0.0"}},     // autoEnable; no prerelease (D1)
		{"tempo", solver.RoleOff, []string{"1.0.0"}},    // disabled by the cluster
		{"core", solver.RoleMust, []string{"1.74.0"}},   // built in, at DKP's version (R5)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ds.Of(tt.name)
			require.NotNil(t, d)
			assert.Equal(t, tt.role, d.Role)
			assert.Equal(t, tt.allowed, allowed(d))
			assert.Equal(t, make([]string, len(d.Releases)), d.Sources, "a single catalog names no source")
		})
	}
	assert.Nil(t, ds.Of("ghost"))

	_, err = solver.NewDomains(cat, cluster, &model.Request{Enable: []string{"ghost"}})
	assert.ErrorIs(t, err, model.ErrInvalidInput)
}

// MayMeet names the modules a compound requirement's predicate can speak
// of: its atoms' modules, or every module when a not leaves it unbounded.
func TestDomainsMayMeet(t *testing.T) {
	cat, _, err := catalog.Parse("compound.yaml", []byte(`
modules:
  - name: app
    releases:
      - version: 1.0.0
        requirements:
          compound:
            - any: [{module: pg, version: ">= 12"}, {module: mysql}]
            - not: {module: legacy}
            - any: [{module: pg}, {not: {module: mysql}}]
  - name: pg
    releases: [{version: 13.0.0}]
  - name: mysql
    releases: [{version: 8.0.0}]
  - name: legacy
    releases: [{version: 1.0.0}]
`))
	require.NoError(t, err)
	cluster, err := catalog.ParseCluster("cluster.yaml", []byte("deckhouse: 1.74.0\nkubernetes: 1.31.0\n"))
	require.NoError(t, err)
	ds, err := solver.NewDomains(cat, cluster, &model.Request{})
	require.NoError(t, err)
	got := map[string][]string{}
	for _, c := range ds.Of("app").Releases[0].Requirements.Compound {
		got[c.String()] = ds.MayMeet(c)
	}
	assert.Equal(t, map[string][]string{
		"any(mysql, pg >= 12)": {"mysql", "pg"},
		"not(legacy)":          {"legacy"},                       // a conflict's operand
		"any(not(mysql), pg)":  {"app", "legacy", "mysql", "pg"}, // unbounded
	}, got)
}
