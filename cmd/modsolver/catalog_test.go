package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/report"
	"github.com/modsolver/modsolver/internal/shared"
)

func catalogCmd(t *testing.T, args ...string) (code int, out, errOut string) {
	t.Helper()
	return runCommand(t, "catalog", args...)
}

// sweepCatalog has one module that installs, one that needs a newer
// Kubernetes, one whose dependency is missing and one that needs a
// capability only an OpenShift-bound module provides.
const sweepCatalog = `modules:
  - name: ok
    releases: [{version: 1.0.0}]
  - name: new-kube
    releases: [{version: 2.0.0, requirements: {kubernetes: ">= 1.32"}}]
  - name: orphan
    releases: [{version: 1.0.0, requirements: {modules: {devworkspace: ">= 0.11.0"}}}]
  - name: needs-api
    releases: [{version: 1.0.0, requirements: {capabilities: [example.com/v1/Thing]}}]
  - name: api
    releases: [{version: 1.0.0, provides: [example.com/v1/Thing], requirements: {platform: {openshift: "< 4.20"}}}]
`

func TestCatalogStats(t *testing.T) {
	path := writeTemp(t, "c.yaml", sweepCatalog)
	code, out, errOut := catalogCmd(t, "stats", path)
	require.Equal(t, exitResolved, code, errOut)
	assert.Regexp(t, `modules\s+5 \(0 built-in\)`, out)
	assert.Regexp(t, `module dependencies\s+1 required, 0 optional, 1 on modules outside the catalog`, out)
	assert.Regexp(t, `requires openshift\s+1 release\n`, out)
	assert.Regexp(t, `compiled for resolution in \S+, [0-9.]+ MiB of tables \(estimated\)`, out)

	code, out, errOut = catalogCmd(t, "stats", "-o", "json", path)
	require.Equal(t, exitResolved, code, errOut)
	var st struct {
		Format        string `json:"format"`
		Releases      int    `json:"releases"`
		CompiledBytes int64  `json:"compiledBytes"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	assert.Equal(t, "modsolver", st.Format)
	assert.Equal(t, 5, st.Releases)
	assert.Positive(t, st.CompiledBytes)
}

func TestCatalogCheck(t *testing.T) {
	path := writeTemp(t, "c.yaml", sweepCatalog)
	code, out, errOut := catalogCmd(t, "check", path, "--kubernetes", "1.31.0", "--platform", "openshift=4.20", "--details")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	assert.Regexp(t, `modules checked\s+5`, out)
	assert.Regexp(t, `install\s+1\n`, out)
	assert.Regexp(t, `cannot install\s+4`, out)
	for _, reason := range []string{"missing module devworkspace", "kubernetes >= 1.32", "openshift < 4.20", "capability example.com/v1/Thing not provided", "By kind of fact (", "platform-requirement"} {
		assert.Contains(t, out, reason)
	}

	code, out, errOut = catalogCmd(t, "check", "-o", "json", "--kubernetes", "1.32.0", "--platform", "openshift=4.19", path)
	require.Equal(t, exitUnsatisfiable, code, errOut)
	var doc report.CheckJSON
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, 4, doc.Resolved, "only the missing dependency remains")
	assert.Equal(t, []report.ReasonJSON{{Reason: "missing module devworkspace", Modules: []string{"orphan"}}}, doc.Reasons)
	assert.Equal(t, []report.ReasonJSON{{Reason: "missing-module", Modules: []string{"orphan"}}}, doc.Kinds)
}

func TestCatalogBadInput(t *testing.T) {
	path := writeTemp(t, "c.yaml", sweepCatalog)
	for _, args := range [][]string{
		{"stats"},
		{"stats", path, "--catalog-format", "rpm"},
		{"stats", path, "--catalog-format", "helm-index"},
		{"check", path},
		{"check", path, "--kubernetes", "1.31", "--platform", "openshift"},
		{"frobnicate"},
	} {
		code, _, errOut := catalogCmd(t, args...)
		assert.Equal(t, exitBadInput, code, "%v: %s", args, errOut)
		assert.NotEmpty(t, errOut, "%v", args)
	}
	code, out, _ := catalogCmd(t, "--help")
	assert.Equal(t, exitResolved, code)
	assert.Contains(t, out, "catalog check PATH")
}

func TestCatalogCheckDKPNeedsDeckhouse(t *testing.T) {
	dir := shared.Path(t, "data", "dkp")
	code, _, errOut := catalogCmd(t, "check", dir, "--kubernetes", "1.31.0")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "--deckhouse is required")
	code, out, errOut := catalogCmd(t, "check", dir, "--kubernetes", "1.31.0", "--deckhouse", "1.74.0")
	assert.Contains(t, []int{exitResolved, exitUnsatisfiable}, code, errOut)
	assert.Regexp(t, `modules checked\s+\d+`, out)
}

// The sweeps the README shows, on the real catalogs: each finishes, and
// the reasons name real missing packages.
func TestCatalogCheckRealData(t *testing.T) {
	olm := shared.Path(t, "data", "olm", "community-operators-prod-bundles.json")
	code, out, errOut := catalogCmd(t, "check", olm, "--kubernetes", "1.31.0", "--platform", "openshift=4.20", "-o", "json")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	var doc report.CheckJSON
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Greater(t, doc.Resolved, doc.Unsatisfiable)
	che := findResult(t, doc, "eclipse-che")
	assert.Equal(t, "unsatisfiable", che.Status)
	assert.Contains(t, che.Reasons, "missing module devworkspace-operator")

	for _, index := range []string{"grafana-index.yaml", "bitnami-index.yaml"} {
		code, out, errOut := catalogCmd(t, "check", shared.Path(t, "data", "helm", index), "--kubernetes", "1.31.0")
		assert.Contains(t, []int{exitResolved, exitUnsatisfiable}, code, "%s: %s", index, errOut)
		assert.Regexp(t, `modules checked\s+\d+`, out, index)
	}
}

func findResult(t *testing.T, doc report.CheckJSON, module string) report.CheckModuleJSON {
	t.Helper()
	for _, r := range doc.Results {
		if r.Module == module {
			return r
		}
	}
	t.Fatalf("no result for %s", module)
	return report.CheckModuleJSON{}
}

// In the OLM file-based catalog, rabbitmq-messaging-topology-operator needs
// rabbitmq-cluster-operator > 2.0.0 and its RabbitmqCluster API: both come
// from the same file, and the operator's newest release installs.
func TestResolveFBCRabbitMQ(t *testing.T) {
	fbc := shared.Path(t, "data", "olm", "community-operators-prod-fbc-v4.21.json")
	cluster := writeTemp(t, "cluster.yaml", "deckhouse: 0.0.0\nkubernetes: 1.31.0\nplatform: {openshift: 4.21.0}\n")
	request := writeTemp(t, "request.yaml", "enable: [rabbitmq-messaging-topology-operator, rabbitmq-cluster-operator]\n")
	var o, e bytes.Buffer
	code := run(context.Background(), []string{"resolve", "--catalog", fbc, "--cluster", cluster, "--request", request}, &o, &e)
	require.Equal(t, exitResolved, code, e.String()+o.String())
	out := o.String()
	assert.Regexp(t, `\nrabbitmq-cluster-operator\s+install\s+-\s+2\.\d+\.\d+`, out)
	assert.Regexp(t, `\nrabbitmq-messaging-topology-operator\s+install\s+-\s+1\.19\.3\s`, out)
	plan := out[strings.Index(out, "STEP"):]
	assert.Less(t, strings.Index(plan, "rabbitmq-cluster-operator"), strings.Index(plan, "rabbitmq-messaging-topology-operator"), "the provider comes first")

	code, out, errOut := catalogCmd(t, "check", fbc, "--kubernetes", "1.31.0", "--platform", "openshift=4.21", "-o", "json")
	require.Contains(t, []int{exitResolved, exitUnsatisfiable}, code, errOut)
	var doc report.CheckJSON
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, "resolved", findResult(t, doc, "rabbitmq-messaging-topology-operator").Status)
}

// catalog check takes several sources (R23) in place of PATH: the DKP
// tree and a small third-party catalog, of two formats, checked together.
func TestCatalogCheckSources(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	community := filepath.Join("..", "..", "docs", "examples", "r23", "community.yaml")
	code, out, errOut := catalogCmd(t, "check", "--source", "deckhouse=10:"+dkp, "--source", "community=0:"+community,
		"--kubernetes", "1.31.0", "--deckhouse", "1.74.2", "--details")
	assert.Equal(t, exitUnsatisfiable, code, errOut) // Experimental-only modules cannot install (R25)
	assert.Contains(t, out, "modules checked")
	assert.NotContains(t, out, "nfs-backup", "the community module installs with csi-nfs from either source")
	assert.Contains(t, errOut, "deckhouse=10:")

	code, _, errOut = catalogCmd(t, "check", "--source", "a=x:"+community, "--kubernetes", "1.31.0")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "not an integer")
}

// catalog check takes --edition and --bundle as resolve does: without an
// edition, a module DKP ships in some editions only cannot install, and
// the table says which edition the check ran on; with --edition ee it
// installs. An edition the platform data does not list is bad input, and
// one in another case is read as it spells it (D351).
func TestCatalogCheckEdition(t *testing.T) {
	sources := []string{"--source", "deckhouse=10:" + shared.Path(t, "data", "dkp"), "--source", "v2=0:" + shared.Path(t, "data", "dkp-v2"),
		"--kubernetes", "1.33.0", "--deckhouse", "1.77.0"}
	check := func(args ...string) (int, report.CheckJSON, string) {
		code, out, errOut := catalogCmd(t, append(append([]string{"check"}, sources...), args...)...)
		var doc report.CheckJSON
		if code != exitBadInput && strings.Contains(strings.Join(args, " "), "json") {
			require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
		}
		return code, doc, out + errOut
	}
	status := func(doc report.CheckJSON, module string) string {
		for _, r := range doc.Results {
			if r.Module == module {
				return r.Status
			}
		}
		return ""
	}

	_, none, _ := check("-o", "json")
	assert.Equal(t, "unsatisfiable", status(none, "stronghold"))
	assert.Empty(t, none.Cluster.Edition)
	assert.Contains(t, none.Catalog, "deckhouse=10:", "the sources name the catalog")
	_, _, table := check()
	assert.Regexp(t, `checked on\s+kubernetes 1\.33\.0, deckhouse 1\.77\.0, no edition\n`, table)

	_, ee, _ := check("--edition", "EE", "--bundle", "default", "-o", "json")
	assert.Equal(t, "resolved", status(ee, "stronghold"))
	assert.Equal(t, &report.CheckClusterJSON{Kubernetes: "1.33.0", Deckhouse: "1.77.0", Edition: "ee", Bundle: "Default"}, ee.Cluster)
	_, _, table = check("--edition", "ee")
	assert.Regexp(t, `checked on\s+kubernetes 1\.33\.0, deckhouse 1\.77\.0, edition ee\n`, table)

	code, _, errOut := check("--edition", "xe")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, `unknown edition "xe"`)
}

// catalog stats takes --source as resolve does (R23), and the sources name
// the catalog.
func TestCatalogStatsSources(t *testing.T) {
	path := writeTemp(t, "c.yaml", sweepCatalog)
	other := writeTemp(t, "d.yaml", "modules:\n  - name: extra\n    releases: [{version: 1.0.0}]\n")
	code, out, errOut := catalogCmd(t, "stats", "--source", "main=10:"+path, "--source", "extra=0:"+other)
	require.Equal(t, exitResolved, code, errOut)
	assert.Regexp(t, `catalog\s+main=10:\S+, extra=0:\S+`, out)
	assert.Regexp(t, `modules\s+6 \(0 built-in\)`, out)

	code, _, errOut = catalogCmd(t, "stats", path, "--source", "main=10:"+path)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "give PATH or --source, not both")
}
