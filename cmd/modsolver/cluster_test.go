package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// kubeCatalog and kubeDump are a catalog and a cluster as kubectl prints
// DKP's resources for it: DKP 1.73.3, hello 1.0.0 deployed from source
// example on the Stable channel, world 2.0.0 deployed on Alpha.
const kubeCatalog = `
modules:
  - name: hello
    channels: {alpha: 1.2.0, stable: 1.1.0}
    releases: [{version: 1.0.0}, {version: 1.1.0}, {version: 1.2.0}]
  - name: world
    channels: {alpha: 2.1.0, stable: 2.0.0}
    releases:
      - version: 2.0.0
      - version: 2.1.0
        requirements: {deckhouse: ">= 1.74"}
  - name: console
    embedded: true
    accessibility: {editions: {_default: {available: true, enabledInBundles: [Default]}, ce: {available: false}}}
`

const kubeDump = `apiVersion: v1
kind: List
items:
- apiVersion: deckhouse.io/v1alpha1
  kind: DeckhouseRelease
  metadata: {name: v1.73.3}
  spec: {version: v1.73.3}
  status: {phase: Deployed}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: deckhouse}
  spec: {version: 1, settings: {bundle: Default, releaseChannel: Stable}}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: hello}
  spec: {enabled: true, source: example}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: world}
  spec: {enabled: true, updatePolicy: fast}
- apiVersion: deckhouse.io/v1alpha2
  kind: ModuleUpdatePolicy
  metadata: {name: fast}
  spec: {releaseChannel: Alpha, update: {mode: Auto}}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleRelease
  metadata: {name: hello-v1.0.0, labels: {module: hello, source: example}}
  spec: {moduleName: hello, version: v1.0.0}
  status: {phase: Deployed}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleRelease
  metadata: {name: world-v2.0.0, labels: {module: world, source: example}}
  spec: {moduleName: world, version: v2.0.0}
  status: {phase: Deployed}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: unrelated}
`

func TestResolveKubectlDump(t *testing.T) {
	cat := writeTemp(t, "catalog.yaml", kubeCatalog)
	dump := writeTemp(t, "dump.yaml", kubeDump)
	req := writeTemp(t, "request.yaml", "updateAll: true\n")
	code, out, errOut := runCommand(t, "resolve", "--catalog", cat, "--cluster", dump, "--request", req,
		"--kubernetes", "1.31.2", "--edition", "ee", "-o", "json", "--no-timing")
	require.Equal(t, exitResolved, code, errOut)
	assert.Contains(t, errOut, "kubectl dump: skipped 1 ConfigMap v1", "what the dump held besides is counted")
	byName := map[string]*modsolverv1.ModuleResult{}
	for _, m := range decodeResponse(t, out).GetModules() {
		byName[m.GetName()] = m
	}
	assert.Equal(t, "1.0.0", byName["hello"].GetFromVersion())
	assert.Equal(t, "1.1.0", byName["hello"].GetToVersion(), "the cluster's Stable channel")
	assert.Equal(t, "2.0.0", byName["world"].GetToVersion(), "2.1.0 needs DKP 1.74")
	assert.Equal(t, modsolverv1.Action_ACTION_KEEP, byName["console"].GetAction(), "on by the Default bundle, in edition ee")

	code, out, errOut = runCommand(t, "resolve", "--catalog", cat, "--cluster", dump, "--request", req,
		"--kubernetes", "1.31.2", "--edition", "ee", "--deckhouse", "1.74.0", "--bundle", "Minimal", "-o", "json")
	require.Equal(t, exitResolved, code, errOut)
	byName = map[string]*modsolverv1.ModuleResult{}
	for _, m := range decodeResponse(t, out).GetModules() {
		byName[m.GetName()] = m
	}
	assert.Equal(t, "2.1.0", byName["world"].GetToVersion(), "--deckhouse wins over the Deployed DeckhouseRelease, and world follows Alpha by its update policy")
	assert.NotContains(t, byName, "console", "--bundle wins over the deckhouse ModuleConfig: Minimal does not run console")
}

func TestResolveKubectlDumpMissingFacts(t *testing.T) {
	cat := writeTemp(t, "catalog.yaml", kubeCatalog)
	dump := writeTemp(t, "dump.yaml", kubeDump)
	req := writeTemp(t, "request.yaml", "updateAll: true\n")
	code, _, errOut := runCommand(t, "resolve", "--catalog", cat, "--cluster", dump, "--request", req, "--edition", "ee")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "the Kubernetes version (a dump holds it as its Nodes' kubelet version) is not known; give it with --kubernetes")
	assert.NotContains(t, errOut, "--edition", "the edition was given")

	code, _, errOut = runCommand(t, "resolve", "--catalog", cat, "--cluster", dump, "--request", req, "--kubernetes", "1.31.2")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "give it with --edition")

	// The version the cluster runs is a release, patch included (D412).
	code, _, errOut = runCommand(t, "resolve", "--catalog", cat, "--cluster", dump, "--request", req, "--kubernetes", "1.31", "--edition", "ee")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, `--kubernetes: invalid input: invalid version: "1.31" is a minor, not the release the cluster runs: give its patch too (1.31.x)`)

	code, _, errOut = runCommand(t, "resolve", "--catalog", cat, "--cluster", dump, "--request", req, "--kubernetes", "one")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "--kubernetes: invalid input: invalid version")

	scenario := writeTemp(t, "s.yaml", "catalog: {modules: []}\ncluster: {deckhouse: 1.0.0, kubernetes: 1.0.0}\nrequest: {}\n")
	code, _, errOut = runCommand(t, "resolve", "--scenario", scenario, "--edition", "ee")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "cluster's facts")
}

func TestResolveFactFlagsOverAClusterFile(t *testing.T) {
	cat := writeTemp(t, "catalog.yaml", kubeCatalog)
	cluster := writeTemp(t, "cluster.yaml", "deckhouse: 1.73.3\nkubernetes: 1.30.0\nedition: ee\nbundle: Default\n")
	req := writeTemp(t, "request.yaml", "{}\n")
	code, out, errOut := runCommand(t, "resolve", "--catalog", cat, "--cluster", cluster, "--request", req, "-o", "json")
	require.Equal(t, exitResolved, code, errOut)
	assert.Contains(t, out, `"console"`)
	code, out, errOut = runCommand(t, "resolve", "--catalog", cat, "--cluster", cluster, "--request", req, "--edition", "ce", "-o", "json")
	require.Equal(t, exitResolved, code, errOut)
	assert.NotContains(t, out, `"console"`, "--edition ce wins over the file's ee, and console is not in ce")
}

func TestWhatIfKubectlDumpLowestCandidate(t *testing.T) {
	cat := writeTemp(t, "catalog.yaml", kubeCatalog)
	dump := writeTemp(t, "dump.yaml", kubeDump)
	code, out, errOut := runCommand(t, "whatif", "--catalog", cat, "--cluster", dump, "--edition", "ee",
		"--kubernetes", "1.31.2,1.30.4", "--deckhouse", "1.73.3,1.74.0", "--no-timing")
	require.Equal(t, exitResolved, code, errOut)
	assert.Contains(t, out, "B: deckhouse 1.74.0 × kubernetes 1.31.2, 1.30.4: ok")
	assert.Contains(t, out, "world update: 2.0.0 → 2.1.0")

	code, _, errOut = runCommand(t, "whatif", "--catalog", cat, "--cluster", dump, "--deckhouse", "1.74.0")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "give it with --kubernetes")
	assert.Contains(t, errOut, "give it with --edition")
}

func TestLowestCandidates(t *testing.T) {
	v := model.MustParseVersion
	var notes []string
	note := func(s string) { notes = append(notes, s) }
	fill := lowestCandidates([]model.Version{v("1.31.2"), v("1.29.6"), v("1.30.0")}, []model.Version{v("1.75.0"), v("1.74.1")}, note)
	given := &model.ClusterState{}
	fill(&model.ClusterState{}, given)
	assert.Equal(t, "1.29.6", given.Kubernetes.String())
	assert.Equal(t, "1.74.1", given.Deckhouse.String())
	assert.Equal(t, []string{
		"the dump does not say which Kubernetes the cluster runs (it has no Nodes): the lowest candidate, 1.29.6, is taken as the version it runs",
		"the dump does not say which DKP the cluster runs (it has no Deployed DeckhouseRelease): the lowest candidate, 1.74.1, is taken as the version it runs",
	}, notes, "each stand-in is said (finding 6)")

	given = &model.ClusterState{Kubernetes: v("1.32.0")}
	fill(&model.ClusterState{Deckhouse: v("1.73.3")}, given)
	assert.Equal(t, "1.32.0", given.Kubernetes.String(), "a version given stays")
	assert.Nil(t, given.Deckhouse, "the dump's own version stays: no candidate stands in")

	given = &model.ClusterState{}
	lowestCandidates(nil, nil, note)(&model.ClusterState{}, given)
	assert.Nil(t, given.Kubernetes)
}

// TestWhatIfKubectlDumpOnDKP runs the README's example: the real DKP tree
// and docs/examples/kubectl/dump.yaml.
func TestWhatIfKubectlDumpOnDKP(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	code, out, errOut := runCommand(t, "whatif", "--catalog", dkp, "--cluster", "../../docs/examples/kubectl/dump.yaml",
		"--kubernetes", "1.31.2", "--edition", "ee", "--deckhouse", "1.74.0,1.75.0", "--no-timing")
	require.Equal(t, exitUnsatisfiable, code, "R32: the move assumes gates no input decides: %s", errOut)
	lines := strings.Split(out, "\n")
	assert.Contains(t, lines[0], "warning: the dump does not say which Kubernetes the cluster runs (it has no Nodes): the lowest candidate, 1.31.2")
	assert.Regexp(t, `^DKP \\ KUBERNETES\s+1\.31\.2$`, lines[1])
	assert.Regexp(t, `^1\.74\.0\s+A ready, assuming 4, 4 to update$`, lines[2])
	assert.Contains(t, out, "assumed: DKP 1.74 requires ingressNginx: 1.9, which the cluster state does not decide")
	for _, want := range []string{
		"csi-nfs update: 0.3.26 → 0.4.1",
		"sds-local-volume update: 0.4.10 → 0.4.13",
		"sds-node-configurator update: 0.6.9 → 0.7.1",
		"snapshot-controller update: 0.1.18 → 0.1.20",
	} {
		// lines are wrapped at 160 characters (D398): read them as one
		assert.Contains(t, strings.Join(strings.Fields(out), " "), want)
	}
	assert.NotContains(t, errOut, "kubectl dump:", "the example dump holds only what modsolver reads")

	// snapshot-controller is built in and external in the tree; the dump
	// runs its release 0.1.18, so it runs from external/ and updates
	// there, with no move (R29, D350).
	code, out, errOut = runCommand(t, "resolve", "--catalog", dkp, "--cluster", "../../docs/examples/kubectl/dump.yaml",
		"--kubernetes", "1.31.2", "--edition", "ee", "--request", writeTemp(t, "r.yaml", "updateAll: true\n"), "-o", "json")
	require.Equal(t, exitResolved, code, errOut)
	var sc *modsolverv1.ModuleResult
	for _, m := range decodeResponse(t, out).GetModules() {
		if m.GetName() == "snapshot-controller" {
			sc = m
		}
	}
	require.NotNil(t, sc)
	assert.Equal(t, modsolverv1.Action_ACTION_UPDATE, sc.GetAction())
	assert.Equal(t, "external", sc.GetFromSource())
	assert.Equal(t, "external", sc.GetToSource())
	assert.False(t, sc.GetMoved())

	code, _, errOut = runCommand(t, "whatif", "--catalog", dkp, "--cluster", "../../docs/examples/kubectl/dump.yaml",
		"--edition", "ee", "--deckhouse", "1.74.0")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "give it with --kubernetes")
}

// TestWhatIfSettingsOnDKP runs the README's settings example (R34): the
// real DKP tree, whose releases carry their settings schemas, and
// docs/examples/kubectl/settings.yaml, whose ModuleConfigs hold settings
// that newer releases refuse. Each cell names every module its settings
// hold back, the releases that refuse them and the field.
func TestWhatIfSettingsOnDKP(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	code, out, errOut := runCommand(t, "whatif", "--catalog", dkp, "--cluster", "../../docs/examples/kubectl/settings.yaml",
		"--kubernetes", "1.31.4", "--edition", "ee", "--deckhouse", "1.75.1,1.76.0", "--no-timing")
	require.Equal(t, exitUnsatisfiable, code, "R32: the move to 1.76 assumes gates no input decides: %s", errOut)
	assert.Contains(t, out, "3 held back by settings")
	// snapshot-controller runs built in by the Default bundle: no cell
	// installs it, and none lists it, since it follows the platform
	// (R29, D350).
	assert.NotContains(t, out, "to install")
	assert.NotContains(t, out, "snapshot-controller")
	for _, want := range []string{
		"settings: csi-nfs stays at 0.2.2: the module's settings are refused by 0.2.3–0.4.1 (32 releases)",
		`(settings.tlsParameters.ca: "-----BEGIN CERTIFICATE-----`,
		"settings: secrets-store-integration stays at 1.3.21: the module's settings are refused by 1.4.0–1.4.3 (settings.connection.authPath: ",
		"settings: virtualization stays at 1.8.4: the module's settings are refused by 1.9.0, ",
		"(settings.dvcr.storage.type: must be one of [PersistentVolumeClaim])",
	} {
		// lines are wrapped at 160 characters (D398): read them as one
		assert.Contains(t, strings.Join(strings.Fields(out), " "), want)
	}
	assert.NotContains(t, errOut, "kubectl dump:", "the example dump holds only what modsolver reads")
}

// A fact read from a dump names the object it came from and its line
// in the dump (D421): here hello keeps the version its Deployed
// ModuleRelease says, which the new module x cannot live with.
func TestKubectlDumpFactsNameTheirObjects(t *testing.T) {
	cat := writeTemp(t, "catalog.yaml", kubeCatalog+`  - name: x
    releases: [{version: 1.0.0, requirements: {modules: {hello: ">= 1.1.0"}}}]
`)
	dump := writeTemp(t, "dump.yaml", kubeDump)
	req := writeTemp(t, "request.yaml", "enable: [x]\n")
	code, out, errOut := runCommand(t, "resolve", "--catalog", cat, "--cluster", dump, "--request", req,
		"--kubernetes", "1.31.2", "--edition", "ee", "-o", "json", "--no-timing")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	objects := map[string]*modsolverv1.Origin{}
	for _, f := range decodeResponse(t, out).GetExplanation().GetFacts() {
		if o := f.GetOrigin(); o.GetObject() != "" {
			objects[o.GetObject()] = o
		}
	}
	lineOf := func(text string) int32 {
		return int32(strings.Count(kubeDump[:strings.Index(kubeDump, text)], "\n") + 1)
	}
	require.Contains(t, objects, "ModuleRelease/hello-v1.0.0", out)
	o := objects["ModuleRelease/hello-v1.0.0"]
	assert.Equal(t, dump, o.GetFile())
	assert.Equal(t, "cluster.modules.hello.version", o.GetField())
	assert.Equal(t, lineOf("kind: ModuleRelease\n  metadata: {name: hello-v1.0.0"), o.GetLine()+1, "the line of the object, whose kind is the line after its first")

	code, table, errOut := runCommand(t, "resolve", "--catalog", cat, "--cluster", dump, "--request", req,
		"--kubernetes", "1.31.2", "--edition", "ee")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	assert.Contains(t, table, "ModuleRelease/hello-v1.0.0]")
}
