package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
)

// groupsCatalog has a module whose anyOf group no catalog module can
// meet, one whose noneOf group its own dependency violates, and a legacy
// module beside them.
const groupsCatalog = `
modules:
  - name: backup
    releases:
      - version: 1.0.0
        requirements: {modules: {anyOf: [{name: storage, modules: [{name: csi-ceph}, {name: sds-local-volume}]}]}}
  - name: gateway
    releases:
      - version: 2.0.0
        requirements: {modules: {mandatory: [{name: router}], noneOf: [{name: old, modules: [{name: proxy, constraint: "< 1.0.0"}]}]}}
  - name: router
    releases: [{version: 1.0.0, requirements: {modules: {proxy: "0.9.0"}}}]
  - name: proxy
    releases: [{version: 0.9.0}]
`

// R28: catalog stats counts v2 modules and groups; catalog check names
// the groups that keep modules from installing.
func TestCatalogGroups(t *testing.T) {
	path := writeTemp(t, "groups.yaml", groupsCatalog)
	code, out, errOut := catalogCmd(t, "stats", path)
	require.Equal(t, exitResolved, code, errOut)
	assert.Regexp(t, `DKP v2 manifests\s+2 modules \(2 releases\), 0 Applications`, out)
	assert.Regexp(t, `DKP v2 groups\s+1 anyOf, 1 noneOf, 3 members`, out)
	assert.NotContains(t, out, "compound requirements", "a group is not counted twice, and a row of 0 is left out (D369)")

	code, out, errOut = catalogCmd(t, "check", path, "--kubernetes", "1.31.0")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	assert.Contains(t, out, "DKP v2 groups in the way:")
	assert.Regexp(t, `1\s+anyOf group 'storage' unmet\s+backup`, out)
	assert.Regexp(t, `1\s+noneOf group 'old' violated\s+gateway`, out)

	code, out, errOut = catalogCmd(t, "check", path, "--kubernetes", "1.31.0", "-o", "json")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	var doc struct {
		Groups []struct {
			Reason  string   `json:"reason"`
			Modules []string `json:"modules"`
		} `json:"groups"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Groups, 2)
	assert.Equal(t, "anyOf group 'storage' unmet", doc.Groups[0].Reason)
	assert.Equal(t, []string{"backup"}, doc.Groups[0].Modules)
}

// R28 on the shared mixed tree (handmade/mixed): gateway's noneOf group
// narrows gateway-legacy to 1.0.0, its anyOf group needs a CNI, and the
// CNIs exclude each other (R13, exclusiveGroup in package.yaml).
func TestMixedTree(t *testing.T) {
	tree := shared.Path(t, "data", "dkp-v2", "handmade", "mixed")
	code, out, errOut := catalogCmd(t, "stats", tree)
	require.Equal(t, exitResolved, code, errOut)
	assert.Regexp(t, `DKP v2 manifests\s+4 modules \(4 releases\), 0 Applications`, out)
	assert.Regexp(t, `DKP v2 groups\s+1 anyOf, 1 noneOf, 3 members`, out)

	resolve := func(cluster, request string) cliResult {
		return runCLI(t, "resolve", "--catalog", tree, "--cluster", writeTemp(t, "cluster.yaml", cluster),
			"--request", writeTemp(t, "request.yaml", request), "--no-timing")
	}
	const platform = "deckhouse: 1.77.2\nkubernetes: 1.31.0\nedition: ee\n"
	r := resolve(platform+"modules:\n  gateway-legacy: {enabled: true, version: 0.9.0}\n  cni-alpha: {enabled: true, version: 1.0.0}\n", "enable: [gateway]\n")
	assert.Equal(t, exitUnsatisfiable, r.code, r.errOut)
	assert.Contains(t, r.out, "noneOf group 'old-gateway' violated: forbidden modules installed: [gateway-legacy]")
	assert.Contains(t, r.out, "update module gateway-legacy to 1.0.0")

	r = resolve(platform+"modules:\n  gateway-legacy: {enabled: true, version: 1.0.0}\n  cni-alpha: {enabled: true, version: 1.0.0}\n", "enable: [gateway]\n")
	assert.Equal(t, exitResolved, r.code, r.out+r.errOut)

	r = resolve(platform, "enable: [gateway]\n")
	assert.Equal(t, exitUnsatisfiable, r.code, r.errOut)
	assert.Contains(t, r.out, "anyOf group 'network' unmet: one of [cni-alpha, cni-beta] must be installed and satisfy its constraint")
	assert.Contains(t, r.out, `"a CNI must run"`, "the group's description is quoted")

	r = resolve(platform, "enable: [gateway]\nautoEnable: true\n")
	assert.Equal(t, exitResolved, r.code, r.errOut)
	assert.Regexp(t, `cni-alpha\s+install`, r.out, "one CNI, by name order (R14)")
	assert.NotRegexp(t, `cni-beta\s+install`, r.out, "the CNIs exclude each other")
}
