package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// smallTree is a DKP tree whose platform.yaml lists the editions ce and
// ee and the bundles Default, Managed and Minimal, and which holds
// snapshot-controller both built in and external.
const smallTree = "../../testdata/catalogs/dkp-r29-small"

// smallDump is a cluster of smallTree as kubectl prints DKP's resources:
// DKP 1.75.1, bundle Default.
const smallDump = `apiVersion: v1
kind: List
items:
- apiVersion: deckhouse.io/v1alpha1
  kind: DeckhouseRelease
  metadata: {name: v1.75.1}
  spec: {version: v1.75.1}
  status: {phase: Deployed}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: deckhouse}
  spec: {version: 1, settings: {bundle: Default, releaseChannel: Stable}}
`

// TestUnknownEditionIsBadInput: an edition or bundle that the catalog's
// platform data does not list is bad input (exit 2) that names the value
// and the listed ones, whether it comes from a flag, a cluster file or
// beside a kubectl dump, in resolve and in whatif (R7, D351).
func TestUnknownEditionIsBadInput(t *testing.T) {
	cluster := writeTemp(t, "cluster.yaml", "deckhouse: 1.75.1\nkubernetes: 1.31.4\nedition: ee\nbundle: Default\n")
	typo := writeTemp(t, "typo.yaml", "deckhouse: 1.75.1\nkubernetes: 1.31.4\nedition: xe\nbundle: Default\n")
	dump := writeTemp(t, "dump.yaml", smallDump)
	req := writeTemp(t, "request.yaml", "{}\n")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"resolve --edition", []string{"resolve", "--catalog", smallTree, "--cluster", cluster, "--request", req, "--edition", "xe"},
			[]string{`unknown edition "xe": the catalog's platform data lists ce, ee`}},
		{"resolve --bundle", []string{"resolve", "--catalog", smallTree, "--cluster", cluster, "--request", req, "--bundle", "Big"},
			[]string{`unknown bundle "Big": the catalog's platform data lists Default, Managed, Minimal`}},
		{"resolve, the cluster file", []string{"resolve", "--catalog", smallTree, "--cluster", typo, "--request", req},
			[]string{"cluster.edition", `unknown edition "xe"`}},
		{"resolve, beside a dump", []string{"resolve", "--catalog", smallTree, "--cluster", dump, "--request", req, "--kubernetes", "1.31.4", "--edition", "xe"},
			[]string{`unknown edition "xe"`}},
		{"whatif --edition", []string{"whatif", "--catalog", smallTree, "--cluster", cluster, "--edition", "xe", "--deckhouse", "1.75.1,1.76.0", "--kubernetes", "1.31.4"},
			[]string{`unknown edition "xe"`}},
		{"whatif, beside a dump", []string{"whatif", "--catalog", smallTree, "--cluster", dump, "--edition", "xe", "--deckhouse", "1.75.1", "--kubernetes", "1.31.4"},
			[]string{`unknown edition "xe"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCommand(t, tc.args[0], tc.args[1:]...)
			assert.Equal(t, exitBadInput, code, errOut)
			for _, w := range tc.want {
				assert.Contains(t, errOut, w)
			}
		})
	}
}

// TestEditionCase: EE is ee, and default is Default, wherever they are
// given (D351): the answer is the one the catalog's spelling gives.
func TestEditionCase(t *testing.T) {
	upper := writeTemp(t, "cluster.yaml", "deckhouse: 1.75.1\nkubernetes: 1.31.4\nedition: EE\nbundle: default\n")
	dump := writeTemp(t, "dump.yaml", smallDump)
	req := writeTemp(t, "request.yaml", "{}\n")
	for _, args := range [][]string{
		{"--cluster", upper},
		{"--cluster", dump, "--kubernetes", "1.31.4", "--edition", "EE"},
	} {
		code, out, errOut := runCommand(t, "resolve", append([]string{"--catalog", smallTree, "--request", req, "-o", "json"}, args...)...)
		require.Equal(t, exitResolved, code, errOut)
		byName := map[string]*modsolverv1.ModuleResult{}
		for _, m := range decodeResponse(t, out).GetModules() {
			byName[m.GetName()] = m
		}
		require.Contains(t, byName, "snapshot-controller", "on by the Default bundle")
		assert.Equal(t, modsolverv1.Action_ACTION_KEEP, byName["snapshot-controller"].GetAction())
	}
	code, out, errOut := runCommand(t, "whatif", "--catalog", smallTree, "--cluster", upper, "--deckhouse", "1.75.1", "--kubernetes", "1.31.4", "--no-timing")
	require.Equal(t, exitResolved, code, errOut)
	assert.Contains(t, out, "ok")
}

// On the real tree, whatif --edition xe is bad input, no longer an "ok"
// in which every edition-gated module is unavailable; a catalog without
// platform data, as the demo, still takes any edition.
func TestUnknownEditionOnRealTreeAndDemo(t *testing.T) {
	code, _, errOut := runCommand(t, "whatif", "--catalog", shared.Path(t, "data", "dkp"), "--cluster", "../../docs/examples/kubectl/dump.yaml",
		"--kubernetes", "1.31.2", "--edition", "xe", "--deckhouse", "1.74.0")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, `unknown edition "xe": the catalog's platform data lists ce, be, se, se-plus, ee, fe, cse`)

	code, _, errOut = runCommand(t, "whatif", "--deckhouse", "1.72.4", "--kubernetes", "1.30.8", "--edition", "xe", "--no-timing")
	assert.NotEqual(t, exitBadInput, code, "the demo catalog has no platform data: %s", errOut)
}
