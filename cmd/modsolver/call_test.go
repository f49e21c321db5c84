package main

import (
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/testpki"
)

// call runs `modsolver call METHOD --addr ADDR args…`.
func call(t *testing.T, method, addr string, args ...string) (code int, out, errOut string) {
	t.Helper()
	return runCommand(t, "call", append([]string{method, "--addr", addr}, args...)...)
}

// call resolve, against a real service on loopback, prints what resolve
// prints for the same inputs, table and JSON, byte for byte, and exits as
// resolve does: 0 resolved, 1 unsatisfiable (D410).
func TestCallResolveAsResolve(t *testing.T) {
	s := startServe(t, "--listen", "127.0.0.1:0")
	scenario := "../../testdata/scenarios/d1-prerelease.yaml"
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"resolved", []string{"--cluster", demoCluster, "--request", demoRequest}, exitResolved},
		{"resolved, every module", []string{"--cluster", demoCluster, "--request", demoRequest, "--all"}, exitResolved},
		{"unsatisfiable", []string{"--cluster", demoCluster, "--request", demoUnsat}, exitUnsatisfiable},
		{"json", []string{"--cluster", demoCluster, "--request", demoRequest, "-o", "json", "--no-timing"}, exitResolved},
		{"json, unsatisfiable", []string{"--cluster", demoCluster, "--request", demoUnsat, "-o", "json", "--no-timing"}, exitUnsatisfiable},
		{"a scenario, its catalog inline", []string{"--scenario", scenario}, exitResolved},
		{"a scenario as json", []string{"--scenario", scenario, "-o", "json", "--no-timing"}, exitResolved},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, want, errOut := runCommand(t, "resolve", tc.args...)
			require.Equal(t, tc.code, code, errOut)
			code, got, errOut := call(t, "resolve", s.addr, tc.args...)
			assert.Equal(t, tc.code, code, errOut)
			assert.Equal(t, want, got)
		})
	}

	code, out, errOut := call(t, "explain", s.addr, "--cluster", demoCluster, "--request", demoUnsat)
	assert.Equal(t, exitUnsatisfiable, code, errOut)
	assert.Contains(t, out, "why: the request cannot be met, because\n")
	assert.Contains(t, out, "upgrade Kubernetes to at least 1.31.0")
}

// The service's bad input is exit 2, each field violation on a line of
// its own; a catalog or module it does not hold too; no service, or no
// answer in time, is exit 3 (D410).
func TestCallExitCodes(t *testing.T) {
	s := startServe(t, "--listen", "127.0.0.1:0")
	bad := writeTemp(t, "request.yaml", "enable: [observabilty]\npin: {no-such-module: 1.0.0}\n")
	code, out, errOut := call(t, "resolve", s.addr, "--cluster", demoCluster, "--request", bad)
	assert.Equal(t, exitBadInput, code)
	assert.Empty(t, out)
	assert.Equal(t, "modsolver: call resolve: bad input (InvalidArgument), 2 fields:\n"+
		`  request.enable[0]: invalid input: unknown module: module "observabilty" is not in the catalog; did you mean "observability"?`+"\n"+
		`  request.pin["no-such-module"]: invalid input: unknown module: module "no-such-module" is not in the catalog`+"\n", errOut)

	code, _, errOut = call(t, "resolve", s.addr, "--cluster", demoCluster, "--request", demoRequest, "--catalog-name", "prod")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, "modsolver: call resolve: bad input (NotFound): ")
	assert.Contains(t, errOut, `"prod"`)

	code, _, errOut = call(t, "module", s.addr, "prometeus")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, errOut, `did you mean "prometheus"?`)

	code, _, errOut = call(t, "resolve", s.addr, "--cluster", demoCluster, "--request", demoRequest, "--timeout", "1ns")
	assert.Equal(t, exitNoAnswer, code)
	assert.Contains(t, errOut, "(DeadlineExceeded)")

	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := lis.Addr().String()
	require.NoError(t, lis.Close())
	code, _, errOut = call(t, "catalogs", closed)
	assert.Equal(t, exitNoAnswer, code)
	assert.Contains(t, errOut, "modsolver: call catalogs: no answer from "+closed+" (Unavailable): ")

	for _, args := range [][]string{
		{"resolve", "--cluster", demoCluster},                 // no request
		{"resolve", "--scenario", "x.yaml", "--request", "y"}, // both
		{"module"},                  // no name
		{"catalogs", "-o", "jsonl"}, // whatif's format only
		{"resolve", "--cluster", demoCluster, "--request", demoRequest, "--deckhouse", "1.72"}, // a minor (D412)
		{"nosuch"},
	} {
		code, _, errOut := runCommand(t, "call", append(args, "--addr", s.addr)...)
		assert.Equal(t, exitBadInput, code, "%v: %s", args, errOut)
	}
}

// call whatif sends --scenarios as whatif reads them and prints the
// stream as whatif -o jsonl does, byte for byte, each result with its
// index, the first's 0 included (D414); a bad scenario is answered in its
// place and makes the exit 2, as whatif --scenarios does.
func TestCallWhatIfAsWhatIf(t *testing.T) {
	s := startServe(t, "--listen", "127.0.0.1:0")
	scenarios := writeTemp(t, "batch.yaml", `scenarios:
  - name: enable console
    request: {enable: [console]}
  - name: observability
    request: {enable: [observability]}
`)
	args := []string{"--cluster", demoCluster, "--scenarios", scenarios, "-o", "jsonl", "--no-timing"}
	code, want, errOut := runCommand(t, "whatif", args...)
	require.Equal(t, exitResolved, code, errOut)
	code, got, errOut := call(t, "whatif", s.addr, args...)
	require.Equal(t, exitResolved, code, errOut)
	assert.Equal(t, want, got)
	assert.True(t, strings.HasPrefix(got, `{"index":0,"name":"enable console",`), got)

	code, out, errOut := call(t, "whatif", s.addr, "--cluster", demoCluster, "--scenarios", scenarios)
	require.Equal(t, exitResolved, code, errOut)
	assert.Contains(t, out, "scenario 0, enable console:\nstatus: resolved\n")
	assert.Contains(t, out, "\nscenario 1, observability:\nstatus: unsatisfiable\n")

	bad := writeTemp(t, "bad.yaml", "scenarios:\n  - name: nope\n    request: {enable: [nope]}\n")
	code, out, _ = call(t, "whatif", s.addr, "--cluster", demoCluster, "--scenarios", bad, "-o", "json")
	assert.Equal(t, exitBadInput, code)
	assert.Contains(t, out, `"error": "request.enable[0]: invalid input: unknown module`)
}

func TestCallCatalogsAndModule(t *testing.T) {
	s := startServe(t, "--listen", "127.0.0.1:0", "--catalog", "demo=../../catalog/demo/catalog.yaml")
	code, out, errOut := call(t, "catalogs", s.addr)
	require.Equal(t, exitResolved, code, errOut)
	assert.Regexp(t, `(?m)^NAME\s+DEFAULT\s+FORMAT\s+MODULES\s+BUILT-IN\s+RELEASES\s+SOURCE$`, out)
	assert.Regexp(t, `(?m)^demo\s+yes\s+\S+\s+\d+\s+\d+\s+\d+\s+\S+catalog\.yaml$`, out)
	code, out, errOut = call(t, "catalogs", s.addr, "-o", "json")
	require.Equal(t, exitResolved, code, errOut)
	assert.Contains(t, out, `"name": "demo"`)

	code, out, errOut = call(t, "module", s.addr, "csi-ceph", "--catalog-name", "demo")
	require.Equal(t, exitResolved, code, errOut)
	assert.Regexp(t, `(?m)^channels\s+alpha \S+, beta \S+, early-access 0\.5\.0, stable \S+, rock-solid \S+$`, out)
	assert.Regexp(t, `(?m)^releases\s+\d+: 0\.3\.0, `, out)
}

// call speaks TLS as serve offers it: the server's CA to trust, and a
// client certificate for mutual TLS; without the certificate, or in
// plaintext, there is no answer (D410).
func TestCallOverMutualTLS(t *testing.T) {
	serverCA, clientCA, leaf, clientLeaf := mutualPKI(t)
	dir := t.TempDir()
	require.NoError(t, testpki.WriteSecret(dir, map[string][]byte{
		"tls.crt": leaf.CertPEM, "tls.key": leaf.KeyPEM, "client-ca.crt": clientCA.CertPEM,
		"ca.crt": serverCA.CertPEM, "client.crt": clientLeaf.CertPEM, "client.key": clientLeaf.KeyPEM,
	}))
	file := func(name string) string { return filepath.Join(dir, name) }
	s := startServe(t, "--listen", "127.0.0.1:0", "--tls-cert-file", file("tls.crt"), "--tls-private-key-file", file("tls.key"),
		"--client-ca-file", file("client-ca.crt"))

	inputs := []string{"--cluster", demoCluster, "--request", demoRequest}
	code, out, errOut := call(t, "resolve", s.addr, append(inputs, "--tls-ca-file", file("ca.crt"),
		"--tls-cert-file", file("client.crt"), "--tls-private-key-file", file("client.key"))...)
	require.Equal(t, exitResolved, code, errOut)
	assert.True(t, strings.HasPrefix(out, "status: resolved\n"), out)

	code, _, errOut = call(t, "resolve", s.addr, append(inputs, "--tls-ca-file", file("ca.crt"), "--tls-server-name", "localhost")...)
	assert.Equal(t, exitNoAnswer, code, "no client certificate: %s", errOut)
	code, _, errOut = call(t, "resolve", s.addr, inputs...)
	assert.Equal(t, exitNoAnswer, code, "plaintext: %s", errOut)
	code, _, errOut = call(t, "resolve", s.addr, append(inputs, "--tls-cert-file", file("client.crt"))...)
	assert.Equal(t, exitBadInput, code, "a certificate without its key: %s", errOut)
}
