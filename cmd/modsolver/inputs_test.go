package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
)

// Every error about a request file names the file and, where the file has
// the field, its line: bad input found while reading it, and bad input
// found when it meets the catalog alike.
func TestRequestErrorsNameTheFile(t *testing.T) {
	tests := []struct {
		name, request string
		want          []string
	}{
		{"a misspelt module", "enable: [observabilty]\n", []string{`:1: request.enable[0]: invalid input: unknown module: module "observabilty" is not in the catalog; did you mean "observability"?`}},
		{"a pin the catalog lacks", "enable: [console]\npin: {csi-ceph: \"v1.2\"}\n", []string{":2: request.pin.csi-ceph: invalid input: unknown version"}},
		{"a pin that is no version", "pin:\n  csi-ceph: latest\n", []string{":2: request.pin.csi-ceph: invalid input: invalid version"}},
		{"an unknown key", "enable: [console]\nupgrade: [csi-ceph]\n", []string{`:2: invalid input: unknown key "upgrade"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := writeTemp(t, "req.yaml", tt.request)
			code, out, errOut := runCommand(t, "resolve", "--catalog", demoCatalog, "--cluster", demoCluster, "--request", req)
			assert.Equal(t, exitBadInput, code, errOut)
			assert.Empty(t, out)
			for _, w := range tt.want {
				assert.Contains(t, errOut, "modsolver: "+req+w)
			}
		})
	}
	// whatif's base request alike.
	req := writeTemp(t, "req.yaml", "enable: [observabilty]\n")
	code, _, errOut := runCommand(t, "whatif", "--request", req, "--deckhouse", "1.72.4")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, req+":1: request.enable[0]: invalid input: unknown module")
}

// A cluster state's errors name its file and line too, but not for a
// field a flag gave over the file.
func TestClusterErrorsNameTheFile(t *testing.T) {
	cluster := writeTemp(t, "cluster.yaml", "deckhouse: 1.72.4\nkubernetes: 1.30.8\nmodules:\n  nope: {enabled: true}\n")
	code, _, errOut := runCommand(t, "resolve", "--catalog", demoCatalog, "--cluster", cluster, "--request", demoRequest)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, cluster+":4: cluster.modules.nope: invalid input: unknown module")

	typo := writeTemp(t, "cluster.yaml", "deckhouse: 1.75.1\nkubernetes: 1.31.4\nedition: ee\nbundle: Default\n")
	code, _, errOut = runCommand(t, "resolve", "--catalog", smallTree, "--cluster", typo, "--request", demoRequest, "--edition", "xe")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "modsolver: cluster.edition: invalid input: invalid value: unknown edition \"xe\"", "--edition is not the file's")
}

// Two --source flags with one name are refused in the flags' words.
func TestDuplicateSourceNames(t *testing.T) {
	code, _, errOut := runCommand(t, "resolve", "--source", "a=1:"+demoCatalog, "--source", "a=0:"+demoCatalog, "--cluster", demoCluster, "--request", demoRequest)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "another --source is named a already")
	assert.NotContains(t, errOut, "catalogs[1]")
}

// An empty request file is the empty request, as {} is.
func TestEmptyRequestFile(t *testing.T) {
	empty := writeTemp(t, "req.yaml", "# nothing to ask\n")
	braces := writeTemp(t, "braces.yaml", "{}\n")
	code, out, errOut := runCommand(t, "resolve", "--catalog", demoCatalog, "--cluster", demoCluster, "--request", empty, "-o", "json", "--no-timing")
	require.Equal(t, exitResolved, code, errOut)
	_, want, _ := runCommand(t, "resolve", "--catalog", demoCatalog, "--cluster", demoCluster, "--request", braces, "-o", "json", "--no-timing")
	assert.Equal(t, want, out)
}

// A file that is valid YAML or JSON of the wrong kind says so in plain
// words, naming the file, not in Go's names for its types.
func TestWrongKindOfFile(t *testing.T) {
	list := writeTemp(t, "list.json", `[{"name": "a"}]`)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a catalog that is a list", []string{"--catalog", list, "--cluster", demoCluster, "--request", demoRequest},
			list + ": invalid input: wrong kind of value: a catalog is a mapping"},
		{"a catalog that is a list, read as modsolver's", []string{"--catalog", list, "--catalog-format", "modsolver", "--cluster", demoCluster, "--request", demoRequest},
			list + ":1: invalid input: wrong kind of value: a catalog is a mapping with `modules:`, not a list"},
		{"a catalog given as the cluster", []string{"--catalog", demoCatalog, "--cluster", demoCatalog, "--request", demoRequest},
			demoCatalog + ":23: invalid input: wrong kind of value: modules: want a mapping, not a list"},
		{"a request that is a list", []string{"--catalog", demoCatalog, "--cluster", demoCluster, "--request", list},
			list + ":1: invalid input: wrong kind of value: a request is a mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runCommand(t, "resolve", tt.args...)
			assert.Equal(t, exitBadInput, code, errOut)
			assert.Contains(t, errOut, tt.want)
			for _, leak := range []string{"unmarshal", "!!seq", "catalog.file", "syntax error"} {
				assert.NotContains(t, errOut, leak)
			}
		})
	}
}

// whatif with a catalog of its own and no --cluster is bad input: the
// embedded demo cluster state goes with the demo catalog only (D367).
func TestWhatIfCatalogNeedsCluster(t *testing.T) {
	for _, args := range [][]string{
		{"--catalog", demoCatalog},
		{"--source", "demo=0:" + demoCatalog},
	} {
		code, out, errOut := whatif(t, append(args, "--deckhouse", "1.74.0", "--kubernetes", "1.31.2")...)
		assert.Equal(t, exitBadInput, code, errOut)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "modsolver: bad command line: "+args[0]+" gives a catalog, so give its cluster state with --cluster")
	}
	code, _, errOut := whatif(t, "--deckhouse", "1.72.4", "--kubernetes", "1.30.8")
	assert.NotEqual(t, exitBadInput, code, "the demo catalog still runs on the demo cluster: %s", errOut)
}

// Without --cluster, bad input about the cluster says it is the demo
// cluster's; with a --cluster but no --catalog, that the catalog is the
// demo catalog.
func TestWhatIfNamesTheDemoInputs(t *testing.T) {
	f := whatifFlags{}
	err := f.clusterOrigin().Place(&model.FieldError{Path: model.Field("cluster", "modules").Key("code"), Err: model.ErrUnknownModule})
	assert.Equal(t, "cluster.modules.code: invalid input: unknown module (the embedded demo cluster, since --cluster was not given)", err.Error())

	code, _, errOut := whatif(t, "--cluster", "../../docs/examples/kubectl/dump.yaml", "--kubernetes", "1.31.2", "--edition", "ee", "--deckhouse", "1.74.0")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "../../docs/examples/kubectl/dump.yaml: cluster.modules.")
	assert.Contains(t, errOut, "(the catalog is the embedded demo catalog, since --catalog was not given)")
}

// A batch with bad scenarios answers every good one and reports each bad
// one in its place, by name and line, in the table and in JSON alike;
// its exit status is 2 (D368). A scenario whose version does not parse
// and one whose module the catalog lacks are handled alike.
func TestWhatIfBadScenariosInABatch(t *testing.T) {
	file := writeTemp(t, "batch.yaml", `scenarios:
  - name: enable console
    request: {enable: [console]}
  - name: bad pin
    request: {pin: {prometheus: "x"}}
  - name: unknown module
    request:
      enable: [nope]
  - name: update all
    request: {updateAll: true}
`)
	code, table, errOut := whatif(t, "--scenarios", file)
	require.Equal(t, exitBadInput, code, errOut)
	assert.Contains(t, table, "enable console: ok")
	assert.Contains(t, table, "update all: ok")
	assert.Contains(t, table, fmt.Sprintf("bad pin: bad input: %s:5: request.pin[\"prometheus\"]: invalid input: invalid version", file))
	assert.Contains(t, table, fmt.Sprintf("unknown module: bad input: %s:8: request.enable[0]: invalid input: unknown module", file))
	assert.Equal(t, fmt.Sprintf("modsolver: 2 of 4 scenarios are bad input: \"bad pin\" (%s:5), \"unknown module\" (%s:8)\n", file, file), errOut)

	code, out, _ := whatif(t, "--scenarios", file, "-o", "json", "--no-timing")
	require.Equal(t, exitBadInput, code)
	var doc struct {
		Results []struct {
			Name     string          `json:"name"`
			Error    string          `json:"error"`
			Response json.RawMessage `json:"response"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Results, 4)
	for i, r := range doc.Results {
		bad := strings.Contains(r.Name, "bad") || strings.Contains(r.Name, "unknown")
		assert.Equal(t, bad, r.Error != "", "scenario %d: %s", i, r.Error)
		assert.Equal(t, !bad, r.Response != nil, "scenario %d is answered", i)
		if bad {
			assert.Contains(t, table, r.Name+": bad input: "+r.Error+"\n", "the table words scenario %d as JSON does", i)
		}
	}
}

// On the real tree, the same.
func TestWhatIfBadScenarioOnDKP(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	cluster := writeTemp(t, "cluster.yaml", "deckhouse: 1.74.2\nkubernetes: 1.31.4\nedition: ee\nbundle: Default\n")
	file := writeTemp(t, "batch.yaml", "scenarios:\n  - name: fine\n    request: {}\n  - name: typo\n    request: {enable: [csi-cef]}\n")
	code, out, errOut := whatif(t, "--catalog", dkp, "--cluster", cluster, "--scenarios", file)
	assert.Equal(t, exitBadInput, code, errOut)
	assert.Contains(t, out, "fine: ok")
	assert.Contains(t, out, "typo: bad input: "+file+":5: request.enable[0]")
}
