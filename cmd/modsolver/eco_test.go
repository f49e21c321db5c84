package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
