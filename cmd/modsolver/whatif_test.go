package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/shared"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

func whatif(t *testing.T, args ...string) (code int, out, errOut string) {
	t.Helper()
	return runCommand(t, "whatif", args...)
}

func TestWhatIfMatrixOnDemo(t *testing.T) {
	code, out, errOut := whatif(t, "--deckhouse", "1.72.4,1.73.0", "--kubernetes", "1.31.2,1.32.1", "--no-timing")
	require.Equal(t, exitUnsatisfiable, code, "csi-ceph blocks Kubernetes 1.32, a risk nobody accepted (R30): %s", errOut)
	lines := strings.Split(out, "\n")
	assert.Regexp(t, `^DKP \\ KUBERNETES\s+1\.31\.2\s+1\.32\.1$`, lines[0])
	assert.Regexp(t, `^1\.72\.4\s+A ok, \d+ to update\s+B blocked: csi-ceph \(warning\)$`, lines[1])
	assert.Regexp(t, `^1\.73\.0\s+C ok, \d+ to update\s+B blocked: csi-ceph \(warning\)$`, lines[2])
	assert.Contains(t, out, "\nC: deckhouse 1.73.0 × kubernetes 1.31.2: ok")
	assert.Contains(t, out, "\nB: deckhouse 1.72.4, 1.73.0 × kubernetes 1.32.1: blocked\n  csi-ceph: warning, blocks from deckhouse 1.72.4, kubernetes 1.32.1\n")
	assert.Equal(t, 1, strings.Count(out, "suggestion: disable module csi-ceph"), "one report per group")
	assert.Contains(t, out, "commander-agent update: 1.4.0 → 1.5.0", "DKP 1.73 lets commander-agent reach 1.5.0")
	assert.Contains(t, out, "csi-ceph 0.4.0, 0.4.4 requires kubernetes < 1.32 (asked about 1.32.1)")

	code, again, _ := whatif(t, "--deckhouse", "1.73.0,1.72.4", "--kubernetes", "1.32.1,1.31.2", "--no-timing")
	require.Equal(t, exitUnsatisfiable, code)
	assert.Contains(t, again, "A: deckhouse 1.73.0, 1.72.4 × kubernetes 1.32.1: blocked", "the grid follows the order given")
}

func TestWhatIfJSON(t *testing.T) {
	code, out, errOut := whatif(t, "--kubernetes", "1.31.2,1.32.1", "-o", "json", "--no-timing", "--workers", "1")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	var doc struct {
		Results []json.RawMessage `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Results, 2)
	statuses := []modsolverv1.Status{modsolverv1.Status_STATUS_RESOLVED, modsolverv1.Status_STATUS_UNSATISFIABLE}
	for i, raw := range doc.Results {
		var r modsolverv1.WhatIfResult
		require.NoError(t, protojson.Unmarshal(raw, &r), "each result is a WhatIfResult")
		assert.Equal(t, uint32(i), r.GetIndex())
		assert.Equal(t, statuses[i], r.GetResponse().GetStatus())
	}
	_, again, _ := whatif(t, "--kubernetes", "1.31.2,1.32.1", "-o", "json", "--no-timing")
	assert.Equal(t, out, again, "the output does not depend on the number of workers")
}

func TestWhatIfScenariosFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "w.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`
scenarios:
  - name: enable console
    request: {enable: [console]}
  - name: enable observability
    request: {enable: [observability]}
  - name: enable a module that does not exist
    request: {enable: [nope]}
`), 0o644))
	code, out, errOut := whatif(t, "--scenarios", file)
	require.Equal(t, exitBadInput, code, "one scenario is bad input, the others are answered (D368): %s", errOut)
	assert.Contains(t, out, "enable console: ok")
	assert.Contains(t, out, "enable observability: blocked")
	assert.Contains(t, out, "upgrade Kubernetes to at least 1.31")
	assert.Contains(t, out, `enable a module that does not exist: bad input: `+file+`:8: request.enable[0]`)
}

func TestWhatIfBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nothing to ask", nil, "give --deckhouse and/or --kubernetes"},
		{"bad version", []string{"--kubernetes", "1.31,next"}, "--kubernetes"},
		{"scenarios with matrix", []string{"--scenarios", "x.yaml", "--deckhouse", "1.74.0"}, "do not combine"},
		{"bad format", []string{"--kubernetes", "1.31.0", "-o", "xml"}, `-o "xml"`},
		{"missing scenarios file", []string{"--scenarios", "no/such.yaml"}, "no/such.yaml"},
		{"a version twice", []string{"--deckhouse", "1.73.0,1.73.0", "--kubernetes", "1.31.2"}, "--deckhouse: version 1.73.0 is listed twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := whatif(t, tt.args...)
			assert.Equal(t, exitBadInput, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tt.want)
		})
	}
}

// The matrix runs on the real DKP tree as well.
func TestWhatIfMatrixOnDKP(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	cluster := filepath.Join(t.TempDir(), "cluster.yaml")
	require.NoError(t, os.WriteFile(cluster, []byte(`
deckhouse: 1.74.2
kubernetes: 1.31.4
edition: ee
bundle: Default
modules:
  cni-cilium: {enabled: true}
  virtualization: {enabled: true, version: 0.17.0}
  storage-foundation: {enabled: true, version: 0.1.3}
  state-snapshotter: {enabled: true, version: 0.1.7}
`), 0o644))
	code, out, errOut := whatif(t, "--catalog", dkp, "--cluster", cluster, "--deckhouse", "1.74.2,1.77.0", "--kubernetes", "1.31.4,1.33.0")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	// The cluster runs Experimental releases without allowing them (R25):
	// no platform version changes that, and the matrix says so once, in
	// the group of every cell that DKP runs; DKP 1.77 does not run
	// Kubernetes 1.31 at all (R31, releases.yaml).
	assert.Contains(t, out, "A: deckhouse 1.74.2 × kubernetes 1.31.4, 1.33.0; deckhouse 1.77.0 × kubernetes 1.33.0: blocked")
	assert.Equal(t, 1, strings.Count(out, "allowExperimentalModules=false"), out)
	assert.Contains(t, out, "allow experimental modules")
	assert.Contains(t, out, "B: deckhouse 1.77.0 × kubernetes 1.31.4: blocked")
	assert.Contains(t, out, "DKP 1.77 supports Kubernetes 1.32–1.36; 1.31.4 is not among them")

	code, out, errOut = whatif(t, "--catalog", dkp, "--cluster", cluster, "--deckhouse", "1.74.2,1.77.0", "--kubernetes", "1.31.4,1.33.0", "--allow-experimental")
	require.Equal(t, exitUnsatisfiable, code, "DKP 1.77, the upgrade asked about, does not run on the cluster's Kubernetes 1.31: %s", errOut)
	assert.Contains(t, out, "DKP \\ KUBERNETES")
	// R33: the cluster's own cell is marked; each other cell says how it
	// is reached, one minor at a time, so cells with different routes
	// are different answers.
	assert.Contains(t, out, "* A ok, 1 to update")
	assert.Contains(t, out, "A: deckhouse 1.74.2 × kubernetes 1.31.4: ok")
	assert.Contains(t, out, "B: deckhouse 1.74.2 × kubernetes 1.33.0: ok, 1 to update, 2 steps")
	assert.Contains(t, out, "route: 1.74/1.32 → 1.74/1.33")
	assert.Contains(t, out, "C: deckhouse 1.77.0 × kubernetes 1.31.4: blocked")
	assert.Contains(t, out, "route: 1.75/1.31 → 1.76/1.31 → 1.76/1.32 → 1.77/1.32 → 1.77/1.33")
	assert.Contains(t, out, "virtualization update: 0.17.0 → 1.0.0")
}

// A bad cluster state or base request is bad in every cell: it is
// reported once, with exit code 2, instead of in every scenario.
func TestWhatIfBadBaseInputOnce(t *testing.T) {
	cluster := writeTemp(t, "cluster.yaml", "deckhouse: 1.72.4\nkubernetes: 1.30.8\nmodules:\n  no-such-module: {enabled: true, version: 1.0.0}\n")
	code, out, errOut := whatif(t, "--cluster", cluster, "--deckhouse", "1.72.4,1.73.0", "--kubernetes", "1.30.8,1.31.2")
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, out)
	assert.Equal(t, 1, strings.Count(errOut, "unknown module"), errOut)

	request := writeTemp(t, "request.yaml", "enable: [no-such-module]\n")
	code, out, errOut = whatif(t, "--request", request, "--deckhouse", "1.72.4,1.73.0")
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, out)
	assert.Equal(t, 1, strings.Count(errOut, "unknown module"), errOut)
	assert.Contains(t, errOut, request+":1: request.enable[0]", "the base request's file and line")
}

// A cluster that is inconsistent as it is blocks every cell for one reason
// that no platform version changes; the matrix says so once, first.
func TestWhatIfMatrixSameReasonEverywhere(t *testing.T) {
	cluster := writeTemp(t, "cluster.yaml", `deckhouse: 1.72.4
kubernetes: 1.30.8
edition: ee
bundle: Default
releaseChannel: stable
modules:
  cni-cilium: {enabled: true}
  csi-ceph: {enabled: true, version: 0.4.0}
`)
	code, out, errOut := whatif(t, "--cluster", cluster, "--deckhouse", "1.72.4,1.73.0", "--kubernetes", "1.30.8,1.31.2")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	assert.True(t, strings.HasPrefix(out, "every scenario is blocked for one reason that no platform version changes (2 DKP × 2 Kubernetes versions):\n"), out)
	assert.Equal(t, 1, strings.Count(out, "(snapshot-controller is off); csi-ceph 0.4.4"), out)
	assert.NotContains(t, out, "DKP \\ KUBERNETES", "no grid of identical cells")

	// A matrix whose cells differ keeps its grid.
	code, out, _ = whatif(t, "--deckhouse", "1.72.4", "--kubernetes", "1.31.2,1.32.1")
	require.Equal(t, exitUnsatisfiable, code)
	assert.Contains(t, out, "DKP \\ KUBERNETES")
}

// A cell blocked by a Kubernetes requirement and an R22 platform
// requirement names both modules: the blockers are the modules of the
// explanation's facts about any platform version (DKP, Kubernetes or
// another component), as the facts themselves say.
func TestWhatIfMatrixListsPlatformComponentBlockers(t *testing.T) {
	cat := writeTemp(t, "catalog.yaml", `modules:
  - name: app
    releases:
      - {version: 1.0.0, requirements: {kubernetes: "< 1.32"}}
      - {version: 1.1.0, requirements: {modules: {operator: ">= 1.0.0"}}}
  - name: operator
    releases:
      - {version: 1.0.0, requirements: {platform: {kudo: ">= 0.17"}}}
`)
	cluster := writeTemp(t, "cluster.yaml", `deckhouse: 1.74.0
kubernetes: 1.31.0
platform: {kudo: 0.16.0}
modules:
  app: {enabled: true, version: 1.0.0}
`)
	request := writeTemp(t, "request.yaml", "updateAll: true\nautoEnable: true\n")
	code, out, errOut := whatif(t, "--catalog", cat, "--cluster", cluster, "--request", request, "--kubernetes", "1.31.0,1.32.0")
	require.Equal(t, exitUnsatisfiable, code, errOut)
	lines := strings.Split(out, "\n")
	assert.Regexp(t, `^1\.74\.0\s+\* A ok\s+B blocked: app \(error\), operator \(error\)$`, lines[1],
		"app 1.0.0 needs Kubernetes < 1.32, and app 1.1.0 needs operator, which needs kudo >= 0.17 (R22)")
	assert.Contains(t, out, "operator 1.0.0 requires kudo >= 0.17")
}

// A bad scenario is worded alike by the whatif table, whatif -o json and
// the gRPC WhatIf stream (D103), the command line's after the file and
// line the stream does not have (D368).
func TestWhatIfBadScenarioWordedAlike(t *testing.T) {
	const scenarios = `scenarios:
  - name: pin a built-in module
    request: {pin: {prometheus: "2.0.0"}}
  - name: update an unknown module
    request: {update: [nope]}
`
	file := writeTemp(t, "w.yaml", scenarios)
	code, table, errOut := whatif(t, "--scenarios", file)
	require.Equal(t, exitBadInput, code, errOut)
	code, out, errOut := whatif(t, "--scenarios", file, "-o", "json", "--no-timing")
	require.Equal(t, exitBadInput, code, errOut)
	var doc struct {
		Results []struct {
			Error string `json:"error"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))

	stream := whatIfOverGRPC(t, scenarios)
	require.Len(t, stream, 2)
	require.Len(t, doc.Results, 2)
	assert.Contains(t, stream[0].GetError(), `request.pin["prometheus"]: `)
	for i, r := range stream {
		require.NotEmpty(t, r.GetError(), "scenario %d is bad input", i)
		where := fmt.Sprintf("%s:%d: ", file, 3+2*i)
		assert.Equal(t, where+r.GetError(), doc.Results[i].Error, "-o json words scenario %d as the stream does", i)
		assert.Contains(t, table, r.GetName()+": bad input: "+where+r.GetError()+"\n", "the table words scenario %d as the stream does", i)
	}
}

// whatIfOverGRPC sends the scenarios of a what-if file to an in-process
// server of the demo catalog, against the demo cluster state, and returns
// its stream.
func whatIfOverGRPC(t *testing.T, file string) []*modsolverv1.WhatIfResult {
	t.Helper()
	demo, err := catalog.Demo()
	require.NoError(t, err)
	cluster, _, err := catalog.DemoState()
	require.NoError(t, err)
	named, err := catalog.ParseWhatIf("w.yaml", []byte(file))
	require.NoError(t, err)
	in := &modsolverv1.WhatIfRequest{Cluster: server.ClusterProto(cluster)}
	for _, s := range named {
		in.Scenarios = append(in.Scenarios, &modsolverv1.Scenario{Name: s.Name, Request: server.RequestProto(s.Request)})
	}
	cats, err := server.NewCatalogs(server.Catalog{Name: "demo", Source: "embedded", Format: "embedded", Catalog: demo})
	require.NoError(t, err)
	srv := server.New(cats)
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	stream, err := modsolverv1.NewResolverClient(conn).WhatIf(t.Context(), in)
	require.NoError(t, err)
	var out []*modsolverv1.WhatIfResult
	for {
		r, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
		out = append(out, r)
	}
}

// TestWhatIfDemoMatrixGroups runs the README's matrix: sixteen cells,
// three answers, each reported once.
func TestWhatIfDemoMatrixGroups(t *testing.T) {
	code, out, errOut := whatif(t, "--deckhouse", "1.72.4,1.73.0,1.74.0,1.75.1", "--kubernetes", "1.29.1,1.30.8,1.31.2,1.32.1")
	assert.Equal(t, exitUnsatisfiable, code, errOut)
	var heads []string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && line[0] >= 'A' && line[0] <= 'Z' && strings.Contains(line, ": ") {
			heads = append(heads, line)
		}
	}
	assert.Equal(t, []string{
		"A: deckhouse 1.72.4 × kubernetes 1.29.1, 1.30.8, 1.31.2: ok, 6 to update",
		"B: deckhouse 1.72.4, 1.73.0, 1.74.0, 1.75.1 × kubernetes 1.32.1: blocked",
		"C: deckhouse 1.73.0, 1.74.0, 1.75.1 × kubernetes 1.29.1, 1.30.8, 1.31.2: ok, 6 to update",
	}, heads, out)
	assert.Equal(t, 1, strings.Count(out, "commander-agent update: 1.4.0 → 1.5.0"), "from DKP 1.73 on, once")
	assert.Equal(t, 1, strings.Count(out, "commander-agent update: 1.4.0 → 1.4.1"), "under DKP 1.72.4, once")
	assert.Contains(t, out, "  csi-ceph: warning, blocks from deckhouse 1.72.4, kubernetes 1.32.1\n")
}

// TestWhatIfAccept: csi-ceph blocks Kubernetes 1.32, a later minor than
// the next one asked about, so the first cell is ready, but the exit
// status counts the unaccepted risk until --accept names the module or
// the kind of fact that makes it a blocker (R30).
func TestWhatIfAccept(t *testing.T) {
	matrix := []string{"--deckhouse", "1.72.4", "--kubernetes", "1.31.2,1.32.1"}
	code, out, errOut := whatif(t, matrix...)
	assert.Equal(t, exitUnsatisfiable, code, errOut)
	assert.Contains(t, out, "B blocked: csi-ceph (warning)\n")

	for _, accept := range [][]string{{"--accept", "csi-ceph"}, {"--accept", "kubernetes-requirement"}, {"--accept", "virtualization,csi-ceph"}, {"--accept", "virtualization", "--accept", "csi-ceph"}} {
		code, out, errOut = whatif(t, append(append([]string{}, matrix...), accept...)...)
		assert.Equal(t, exitResolved, code, "%v: %s", accept, errOut)
		assert.Contains(t, out, "B blocked: csi-ceph (warning, accepted)\n", accept)
	}

	code, out, errOut = whatif(t, append(append([]string{}, matrix...), "--accept", "csi-ceph", "-o", "jsonl")...)
	assert.Equal(t, exitResolved, code, errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 2)
	var r modsolverv1.WhatIfResult
	require.NoError(t, protojson.Unmarshal([]byte(lines[1]), &r))
	require.Len(t, r.GetBlockers(), 1)
	assert.True(t, r.GetBlockers()[0].GetAccepted())
	assert.Equal(t, modsolverv1.Severity_SEVERITY_WARNING, r.GetBlockers()[0].GetSeverity())

	code, _, errOut = whatif(t, append(append([]string{}, matrix...), "--accept", "channel-head")...)
	assert.Equal(t, exitUnsatisfiable, code, "channel-head is among csi-ceph's facts but is not what blocks it: %s", errOut)

	// The first asked-for version blocked: accepting its blocker makes
	// the exit status 0, as the operator takes the risk on.
	code, out, _ = whatif(t, "--kubernetes", "1.32.1")
	assert.Equal(t, exitUnsatisfiable, code)
	assert.Contains(t, out, "csi-ceph (error)")
	code, _, _ = whatif(t, "--kubernetes", "1.32.1", "--accept", "csi-ceph")
	assert.Equal(t, exitResolved, code)

	code, _, errOut = whatif(t, append(append([]string{}, matrix...), "--accept", "csi-cepj")...)
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, `--accept[0]: `)
	assert.Contains(t, errOut, `"csi-cepj" is neither a module of the catalog, a fact kind nor a gate of its release data`)
}

// -o html is one page, with the exit status of the matrix; the browser
// check (whatif_browser_test.go) looks at it as a person does.
func TestWhatIfHTMLOutput(t *testing.T) {
	code, out, errOut := whatif(t, "--deckhouse", "1.72.4,1.73.0", "--kubernetes", "1.31.2,1.32.1", "-o", "html", "--accept", "csi-ceph")
	require.Equal(t, exitResolved, code, errOut)
	assert.True(t, strings.HasPrefix(out, "<!DOCTYPE html>"), out)
	assert.Equal(t, 4, strings.Count(out, `<td class="cell `))
	assert.Equal(t, 2, strings.Count(out, `<td class="cell accepted" data-group="B"`))
	assert.Equal(t, 3, strings.Count(out, `<article class="group `))

	code, _, errOut = whatif(t, "--kubernetes", "1.31.2", "-o", "pdf")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "want table, json, jsonl, html or sarif")
}
