package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
)

// argoIndex is modsolver's own Helm index in argo-helm's shape.
var argoIndex = filepath.Join("..", "..", "testdata", "catalogs", "helm-argo-index.yaml")

// D67: --helm-subcharts names how dependencies are read, and catalog
// stats says which mode was used.
func TestHelmSubchartsFlag(t *testing.T) {
	code, out, errOut := catalogCmd(t, "stats", argoIndex)
	require.Equal(t, exitResolved, code, errOut)
	assert.Regexp(t, `helm subcharts\s+bundled \(2 subchart dependencies bundled in their charts\)`, out)
	assert.Regexp(t, `module dependencies\s+0 required`, out)
	assert.Regexp(t, `update policy direct\s+3 modules`, out)

	code, out, errOut = catalogCmd(t, "stats", argoIndex, "--helm-subcharts", "installed")
	require.Equal(t, exitResolved, code, errOut)
	assert.Regexp(t, `helm subcharts\s+installed \(0 subchart`, out)
	assert.Regexp(t, `module dependencies\s+1 required, 1 optional`, out)

	code, _, errOut = catalogCmd(t, "stats", argoIndex, "--helm-subcharts", "vendored")
	assert.Equal(t, exitBadInput, code, errOut)

	cluster := writeTemp(t, "cluster.yaml", "deckhouse: 0.0.0\nkubernetes: 1.31.0\n")
	request := writeTemp(t, "request.yaml", "enable: [argo-ci]\n")
	args := []string{"resolve", "--catalog", argoIndex, "--cluster", cluster, "--request", request, "-o", "json"}
	assert.Equal(t, exitResolved, runCmd(t, args...), "bundled: argo-ci installs alone")
	assert.Equal(t, exitUnsatisfiable, runCmd(t, append(args, "--helm-subcharts", "installed")...), "installed: argo must be enabled")
}

// D72: a format named by hand that reads no module is bad input.
func TestForcedFormatReadsNothing(t *testing.T) {
	dump := writeTemp(t, "bundles.json", `{"packages": {"a": {"defaultChannel": "stable"}}, "bundles": [{"package": "a", "name": "a.v1.0.0", "version": "1.0.0"}]}`)
	code, _, errOut := catalogCmd(t, "stats", dump, "--catalog-format", "olm-fbc")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "holds no module when read as olm-fbc")
	code, _, errOut = catalogCmd(t, "check", dump, "--catalog-format", "olm-fbc", "--kubernetes", "1.31.0")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "it looks like olm-bundles")
	code, _, errOut = catalogCmd(t, "check", dump, "--kubernetes", "1.31.0")
	assert.Equal(t, exitResolved, code, errOut)
}

func runCmd(t *testing.T, args ...string) int {
	t.Helper()
	return runCLI(t, args...).code
}

// TestLoaderWarningsEveryWay: the loader's report reaches stderr the same
// way whether the catalog comes from --catalog, --source or a scenario's
// catalogFile.
func TestLoaderWarningsEveryWay(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "index.yaml")
	require.NoError(t, os.WriteFile(index, []byte("apiVersion: v1\nentries:\n  web:\n    - {name: web, version: 1.0.0}\n    - {name: web, version: not-semver}\n"), 0o600))
	cluster := filepath.Join(dir, "cluster.yaml")
	require.NoError(t, os.WriteFile(cluster, []byte("kubernetes: 1.31.0\n"), 0o600))
	request := filepath.Join(dir, "request.yaml")
	require.NoError(t, os.WriteFile(request, []byte("enable: [web]\n"), 0o600))
	scenario := filepath.Join(dir, "scenario.yaml")
	require.NoError(t, os.WriteFile(scenario, []byte("name: s\ncatalogFile: index.yaml\ncluster: {kubernetes: 1.31.0}\nrequest: {enable: [web]}\nexpect: {status: resolved}\n"), 0o600))
	ways := map[string][]string{
		"--catalog":  {"resolve", "--catalog", index, "--cluster", cluster, "--request", request},
		"--source":   {"resolve", "--source", "charts=0:" + index, "--cluster", cluster, "--request", request},
		"--scenario": {"resolve", "--scenario", scenario},
	}
	for way, args := range ways {
		t.Run(way, func(t *testing.T) {
			code, _, errOut := runCommand(t, args[0], append(args[1:], "-v")...)
			require.Equal(t, exitResolved, code, errOut)
			assert.Contains(t, errOut, "skipped 1:", way)
			assert.Contains(t, errOut, "not-semver", way)

			// Without -v, one line counts the notes (D211).
			code, _, errOut = runCommand(t, args[0], args[1:]...)
			require.Equal(t, exitResolved, code, errOut)
			assert.Contains(t, errOut, "; skipped 1 (-v lists them)\n", way)
			assert.NotContains(t, errOut, "not-semver", way)
		})
	}
}

// TestDevelFlag: --devel sets devel: true on the request (R6, Helm's
// --devel), on resolve and on every what-if request.
func TestDevelFlag(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join("..", "..", "testdata", "catalogs", "helm-r6-index.yaml")
	cluster := filepath.Join(dir, "cluster.yaml")
	require.NoError(t, os.WriteFile(cluster, []byte("kubernetes: 1.31.0\n"), 0o600))
	request := filepath.Join(dir, "request.yaml")
	require.NoError(t, os.WriteFile(request, []byte("enable: [chart-the]\n"), 0o600))
	for devel, want := range map[bool]string{false: "1.4.0", true: "1.5.0-beta.2"} {
		args := []string{"--catalog", index, "--cluster", cluster, "--request", request, "-o", "json"}
		if devel {
			args = append(args, "--devel")
		}
		code, out, errOut := runCommand(t, "resolve", args...)
		require.Equal(t, exitResolved, code, errOut)
		assert.Contains(t, out, `"toVersion": "`+want+`"`, "devel %v", devel)
	}
	code, out, errOut := runCommand(t, "whatif", "--catalog", index, "--cluster", cluster, "--request", request, "--kubernetes", "1.31.0", "--devel", "-o", "json")
	require.Equal(t, exitResolved, code, errOut)
	assert.Contains(t, out, "1.5.0-beta.2")
}

// TestErrorNotBuriedUnderLoadNotes: on the DKP tree, whose loader skips
// and warns on every run, a bad input's error is one line below a single
// line of load notes, not the last of many (D211).
func TestErrorNotBuriedUnderLoadNotes(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	empty := filepath.Join(t.TempDir(), "request.yaml")
	require.NoError(t, os.WriteFile(empty, []byte("enable: [no-such-module]\n"), 0o600))
	code, _, errOut := runCommand(t, "resolve", "--catalog", dkp, "--cluster", "../../docs/examples/kubectl/dump.yaml", "--kubernetes", "1.31.2", "--edition", "ee", "--request", empty)
	require.Equal(t, exitBadInput, code, errOut)
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	require.LessOrEqual(t, len(lines), 3, errOut)
	assert.Contains(t, lines[0], "(-v lists them)")
	assert.Contains(t, errOut, "no-such-module")
}

// TestUnknownPlatformWarns: on the DKP tree, whose platform.yaml lists
// DKP up to 1.77 (1.78 in development) and Kubernetes 1.31 to 1.35, a
// what-if or resolve at versions outside them answers with a warning for
// each, once; known versions give none (D212).
func TestUnknownPlatformWarns(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	dump := "../../docs/examples/kubectl/dump.yaml"
	const dkpWarning = "modsolver: warning: deckhouse 1.99.0 is newer than any DKP version the catalog's platform data knows (newest released 1.77, 1.78 in development)\n"
	const kubeWarning = "modsolver: warning: kubernetes 1.20.0 is not a version the catalog's platform data knows (1.31 to 1.35)\n"
	code, out, errOut := runCommand(t, "whatif", "--catalog", dkp, "--cluster", dump, "--edition", "ee",
		"--deckhouse", "1.99.0,1.74.0", "--kubernetes", "1.20.0,1.31.2", "--no-timing")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	assert.Contains(t, out, "DKP 1.74 requires Kubernetes 1.30 or newer before it moves to 1.74", "R31: the first cell is no platform DKP moves to")
	assert.Equal(t, 1, strings.Count(out, "warning: deckhouse 1.99.0 is newer than any DKP version"), "the table says it: %s", out)
	assert.Equal(t, 1, strings.Count(out, "warning: kubernetes 1.20.0 is not a version"), "the table says it: %s", out)
	assert.NotContains(t, errOut, "warning:", "said once, in the output (D396)")
	_, _, errOut = runCommand(t, "whatif", "--catalog", dkp, "--cluster", dump, "--edition", "ee",
		"--deckhouse", "1.99.0,1.74.0", "--kubernetes", "1.20.0,1.31.2", "--no-timing", "-o", "jsonl")
	assert.Equal(t, 1, strings.Count(errOut, dkpWarning), "JSON lines carry no batch warnings: stderr says them: %s", errOut)
	assert.Equal(t, 1, strings.Count(errOut, kubeWarning), errOut)

	// Every output form carries the batch's warnings (R31): JSON and the page.
	_, out, _ = runCommand(t, "whatif", "--catalog", dkp, "--cluster", dump, "--edition", "ee",
		"--deckhouse", "1.99.0", "--kubernetes", "1.31.2", "--no-timing", "-o", "json")
	var doc struct{ Warnings []string }
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Contains(t, doc.Warnings, strings.TrimSuffix(strings.TrimPrefix(dkpWarning, "modsolver: warning: "), "\n"))
	_, out, _ = runCommand(t, "whatif", "--catalog", dkp, "--cluster", dump, "--edition", "ee",
		"--deckhouse", "1.99.0", "--kubernetes", "1.31.2", "--no-timing", "-o", "html")
	assert.Contains(t, out, "warning: deckhouse 1.99.0 is newer than any DKP version")

	code, _, errOut = runCommand(t, "whatif", "--catalog", dkp, "--cluster", dump, "--edition", "ee",
		"--deckhouse", "1.74.0", "--kubernetes", "1.31.2", "--no-timing",
		"--accept", "ingressNginx,nodesMinimalOSVersionDebian,nodesMinimalOSVersionUbuntu,unmetCloudConditions")
	require.Equal(t, exitResolved, code, "the gates the move assumes are accepted (R32): %s", errOut)
	assert.NotContains(t, errOut, "warning:")

	request := filepath.Join(t.TempDir(), "request.yaml")
	require.NoError(t, os.WriteFile(request, []byte("platform: {kubernetes: 1.20.0}\n"), 0o600))
	_, _, errOut = runCommand(t, "resolve", "--catalog", dkp, "--cluster", dump, "--edition", "ee", "--kubernetes", "1.31.2", "--request", request)
	assert.Contains(t, errOut, kubeWarning)
	assert.NotContains(t, errOut, "deckhouse 1.")
}

// A combined suggestion asks for no more than needed (issue 31's finding
// 3): on the real tree, enabling storage-foundation on DKP 1.73 needs DKP
// 1.74 and state-snapshotter, enabled or auto-enabled; the version its
// newest release needs (1.76.9) is not the least, and each set is
// verified by solving.
func TestCombinedSuggestionIsTheLowestVersion(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	request := filepath.Join(t.TempDir(), "request.yaml")
	require.NoError(t, os.WriteFile(request, []byte("enable: [storage-foundation]\n"), 0o600))
	code, out, errOut := runCommand(t, "resolve", "--catalog", dkp, "--cluster", "../../docs/examples/kubectl/dump.yaml",
		"--kubernetes", "1.31.4", "--edition", "ee", "--request", request)
	require.Equal(t, exitUnsatisfiable, code, errOut)
	assert.Contains(t, out, "upgrade DKP to at least 1.74.0 and set autoEnable: true")
	assert.NotContains(t, out, "1.76.9 and set autoEnable")

	require.NoError(t, os.WriteFile(request, []byte("enable: [storage-foundation]\nautoEnable: true\nplatform: {deckhouse: 1.74.0}\n"), 0o600))
	code, _, errOut = runCommand(t, "resolve", "--catalog", dkp, "--cluster", "../../docs/examples/kubectl/dump.yaml",
		"--kubernetes", "1.31.4", "--edition", "ee", "--request", request)
	assert.Equal(t, exitResolved, code, "the suggestion works: %s", errOut)
}
