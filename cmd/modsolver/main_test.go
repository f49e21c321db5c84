package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protojson"

	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// The demo files, relative to this package's directory (go test runs
// there).
var (
	demoCatalog = filepath.Join("..", "..", "catalog", "demo", "catalog.yaml")
	demoCluster = filepath.Join("..", "..", "catalog", "demo", "cluster.yaml")
	demoRequest = filepath.Join("..", "..", "catalog", "demo", "request.yaml")
	demoUnsat   = filepath.Join("..", "..", "catalog", "demo", "unsat-request.yaml")
)

const demoNotice = "modsolver: no inputs given; resolving the embedded demo request\n"

// cliResult is what one run of the command line left behind.
type cliResult struct {
	code        int
	out, errOut string
}

// runCLI runs one command line in-process with a background context.
func runCLI(t *testing.T, args ...string) cliResult {
	t.Helper()
	return runCLIContext(t, context.Background(), args...)
}

func runCLIContext(t *testing.T, ctx context.Context, args ...string) cliResult {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(ctx, args, &out, &errOut)
	return cliResult{code: code, out: out.String(), errOut: errOut.String()}
}

// decodeResponse parses -o json output as the gRPC response message.
func decodeResponse(t *testing.T, data string) *modsolverv1.ResolveResponse {
	t.Helper()
	var resp modsolverv1.ResolveResponse
	require.NoError(t, protojson.Unmarshal([]byte(data), &resp), "output is not protojson of ResolveResponse:\n%s", data)
	return &resp
}

// runCommand runs modsolver's command name with args in this process and
// returns its exit code and output.
func runCommand(t *testing.T, name string, args ...string) (code int, out, errOut string) {
	t.Helper()
	r := runCLI(t, append([]string{name}, args...)...)
	return r.code, r.out, r.errOut
}

// writeTemp writes content to name in a fresh temporary directory and
// returns its path.
func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

func TestUsageAndHelp(t *testing.T) {
	const topUsage = "Usage:\n  modsolver <command> [flags]"
	resolveUsageParts := []string{
		"modsolver resolve --catalog PATH --cluster FILE --request FILE [-o table|json]",
		"modsolver resolve --scenario FILE",
		"-o format",
		"-scenario file",
		"-timeout duration",
		"-no-timing",
		"Exit codes: 0 resolved, 1 unsatisfiable, 2 bad input, 3 no answer.",
	}
	tests := []struct {
		name    string
		args    []string
		code    int
		out     []string // substrings of stdout; nil means stdout is empty
		errOut  []string // substrings of stderr; nil means stderr is empty
		anyErrs bool     // stderr is not checked
	}{
		{name: "no args", args: nil, code: exitBadInput, errOut: []string{topUsage, "Commands:", "resolve", "Exit codes:"}},
		{name: "help", args: []string{"help"}, code: exitResolved, out: []string{topUsage, "Commands:", "resolve", "Exit codes:"}},
		{name: "--help", args: []string{"--help"}, code: exitResolved, out: []string{topUsage}},
		{name: "-h", args: []string{"-h"}, code: exitResolved, out: []string{topUsage}},
		{name: "-help", args: []string{"-help"}, code: exitResolved, out: []string{topUsage}},
		// The flag package also prints the usage on stderr before
		// parseFlags prints it again on stdout, so stderr is not checked
		// for the resolve help (see the report: the usage appears twice).
		{name: "help resolve", args: []string{"help", "resolve"}, code: exitResolved, out: resolveUsageParts, anyErrs: true},
		{name: "resolve --help", args: []string{"resolve", "--help"}, code: exitResolved, out: resolveUsageParts, anyErrs: true},
		{name: "resolve -h", args: []string{"resolve", "-h"}, code: exitResolved, out: resolveUsageParts, anyErrs: true},
		{name: "help nosuch", args: []string{"help", "nosuch"}, code: exitBadInput, errOut: []string{`modsolver: unknown command "nosuch"`}},
		{name: "unknown command", args: []string{"frobnicate"}, code: exitBadInput, errOut: []string{`modsolver: unknown command "frobnicate"`, topUsage}},
		{name: "misspelt command", args: []string{"resolv"}, code: exitBadInput, errOut: []string{`modsolver: unknown command "resolv"; did you mean "resolve"?`}},
		{name: "version", args: []string{"version"}, code: exitResolved, out: []string{"modsolver " + versionText(debug.ReadBuildInfo()) + "\n"}},
		{name: "--version", args: []string{"--version"}, code: exitResolved, out: []string{"modsolver " + versionText(debug.ReadBuildInfo()) + "\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runCLI(t, tc.args...)
			assert.Equal(t, tc.code, got.code, "stdout:\n%s\nstderr:\n%s", got.out, got.errOut)
			if tc.out == nil {
				assert.Empty(t, got.out)
			}
			for _, s := range tc.out {
				assert.Contains(t, got.out, s)
			}
			if !tc.anyErrs {
				if tc.errOut == nil {
					assert.Empty(t, got.errOut)
				}
				for _, s := range tc.errOut {
					assert.Contains(t, got.errOut, s)
				}
			}
		})
	}
}

func TestVersionPrefix(t *testing.T) {
	got := runCLI(t, "version")
	require.Equal(t, exitResolved, got.code)
	assert.True(t, strings.HasPrefix(got.out, "modsolver "), "stdout: %q", got.out)
	assert.Equal(t, 1, strings.Count(got.out, "\n"), "one line: %q", got.out)
}

func TestResolveDemo(t *testing.T) {
	t.Run("table", func(t *testing.T) {
		got := runCLI(t, "resolve")
		require.Equal(t, exitResolved, got.code, "stderr:\n%s", got.errOut)
		assert.True(t, strings.HasPrefix(got.out, "status: resolved\n"), "stdout:\n%s", got.out)
		assert.Equal(t, demoNotice, got.errOut)
		for _, s := range []string{"MODULE", "ACTION", "STEP", "virtualization", "console", "install", "update"} {
			assert.Contains(t, got.out, s)
		}
	})
	t.Run("json", func(t *testing.T) {
		got := runCLI(t, "resolve", "-o", "json")
		require.Equal(t, exitResolved, got.code, "stderr:\n%s", got.errOut)
		assert.Equal(t, demoNotice, got.errOut)
		resp := decodeResponse(t, got.out)
		assert.Equal(t, modsolverv1.Status_STATUS_RESOLVED, resp.GetStatus())
		assert.NotEmpty(t, resp.GetModules())
		assert.NotEmpty(t, resp.GetPlan())
		assert.Nil(t, resp.GetExplanation())
		byName := map[string]*modsolverv1.ModuleResult{}
		for _, m := range resp.GetModules() {
			byName[m.GetName()] = m
		}
		require.Contains(t, byName, "virtualization")
		assert.Equal(t, modsolverv1.Action_ACTION_INSTALL, byName["virtualization"].GetAction())
	})
	t.Run("explicit demo files give the embedded answer", func(t *testing.T) {
		embedded := runCLI(t, "resolve", "-o", "json", "--no-timing")
		files := runCLI(t, "resolve", "-o", "json", "--no-timing",
			"--catalog", demoCatalog, "--cluster", demoCluster, "--request", demoRequest)
		require.Equal(t, exitResolved, files.code, "stderr:\n%s", files.errOut)
		assert.Empty(t, files.errOut)
		assert.Equal(t, embedded.out, files.out)
	})
}

func TestResolveNoTimingIsByteIdentical(t *testing.T) {
	for _, format := range []string{"json", "table"} {
		t.Run(format, func(t *testing.T) {
			first := runCLI(t, "resolve", "-o", format, "--no-timing")
			second := runCLI(t, "resolve", "-o", format, "--no-timing")
			require.Equal(t, exitResolved, first.code)
			require.Equal(t, exitResolved, second.code)
			assert.Equal(t, first.out, second.out)
			if format == "json" {
				assert.Zero(t, decodeResponse(t, first.out).GetStats().GetSolveMicros())
			} else {
				assert.NotContains(t, first.out, "µs", "the solver's figures only with -v")
			}
		})
	}
}

// The table answers the operator; the solver's figures (variables,
// clauses, solves, µs) follow only with -v, while -o json carries them as
// stats whatever -v says.
func TestResolveSolverFiguresOnlyVerbose(t *testing.T) {
	plain := runCLI(t, "resolve", "--no-timing")
	verbose := runCLI(t, "resolve", "--no-timing", "-v")
	require.Equal(t, exitResolved, plain.code, plain.errOut)
	require.Equal(t, exitResolved, verbose.code, verbose.errOut)
	assert.NotContains(t, plain.out, "variables")
	assert.Regexp(t, `\n\n\d+ variables, \d+ clauses, \d+ solves, 0 µs\n$`, verbose.out)
	assert.Equal(t, plain.out, verbose.out[:len(plain.out)], "-v only adds the figures at the end")
	for _, args := range [][]string{{"-o", "json"}, {"-o", "json", "-v"}} {
		r := runCLI(t, append([]string{"resolve", "--no-timing"}, args...)...)
		assert.NotZero(t, decodeResponse(t, r.out).GetStats().GetVariables(), "%v", args)
	}
}

func TestResolveUnsatisfiableFiles(t *testing.T) {
	args := []string{"resolve", "--catalog", demoCatalog, "--cluster", demoCluster, "--request", demoUnsat}
	t.Run("table", func(t *testing.T) {
		got := runCLI(t, args...)
		require.Equal(t, exitUnsatisfiable, got.code, "stderr:\n%s", got.errOut)
		assert.Empty(t, got.errOut)
		assert.True(t, strings.HasPrefix(got.out, "status: unsatisfiable\n"), "stdout:\n%s", got.out)
		for _, s := range []string{
			"why: the request cannot be met",
			"request-enable",
			"kubernetes-requirement",
			"observability",
			"requires kubernetes >= 1.31 (the cluster runs 1.30.8)",
			"suggestions (each works on its own):",
			"upgrade Kubernetes to at least 1.31",
		} {
			assert.Contains(t, got.out, s)
		}
	})
	t.Run("json", func(t *testing.T) {
		got := runCLI(t, append(args, "-o", "json")...)
		require.Equal(t, exitUnsatisfiable, got.code, "stderr:\n%s", got.errOut)
		resp := decodeResponse(t, got.out)
		assert.Equal(t, modsolverv1.Status_STATUS_UNSATISFIABLE, resp.GetStatus())
		require.NotNil(t, resp.GetExplanation())
		facts := resp.GetExplanation().GetFacts()
		require.NotEmpty(t, facts)
		kinds := make([]modsolverv1.FactKind, 0, len(facts))
		for _, f := range facts {
			kinds = append(kinds, f.GetKind())
			assert.Equal(t, "observability", f.GetModule())
		}
		assert.ElementsMatch(t, []modsolverv1.FactKind{
			modsolverv1.FactKind_FACT_KIND_REQUEST_ENABLE,
			modsolverv1.FactKind_FACT_KIND_KUBERNETES_REQUIREMENT,
		}, kinds)
		assert.NotEmpty(t, resp.GetExplanation().GetSuggestions())
	})
}

func TestResolveBadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "does-not-exist.yaml")
	unknownKey := writeTemp(t, "unknown-key.yaml", "enable: [virtualization]\nupdateAl: true\n")
	unknownModule := writeTemp(t, "unknown-module.yaml", "enable: [no-such-module]\n")

	files := func(request string) []string {
		return []string{"resolve", "--catalog", demoCatalog, "--cluster", demoCluster, "--request", request}
	}
	tests := []struct {
		name   string
		args   []string
		prefix string   // stderr starts with this
		want   []string // and contains these
	}{
		{name: "unknown output format", args: []string{"resolve", "-o", "yaml"}, prefix: "modsolver: ", want: []string{`-o "yaml"`, "table or json"}},
		{name: "cluster without request", args: []string{"resolve", "--cluster", demoCluster}, prefix: "modsolver: ", want: []string{"--cluster and --request"}},
		{name: "request without cluster", args: []string{"resolve", "--request", demoRequest}, prefix: "modsolver: ", want: []string{"--cluster and --request"}},
		{name: "catalog alone", args: []string{"resolve", "--catalog", demoCatalog}, prefix: "modsolver: ", want: []string{"--cluster and --request"}},
		{name: "scenario with catalog", args: []string{"resolve", "--scenario", missing, "--catalog", demoCatalog}, prefix: "modsolver: ", want: []string{"--scenario", "do not give them too"}},
		{name: "missing request file", args: files(missing), prefix: "modsolver: ", want: []string{missing, "no such file"}},
		{name: "missing cluster file", args: []string{"resolve", "--cluster", missing, "--request", demoRequest}, prefix: "modsolver: ", want: []string{missing, "no such file"}},
		{name: "missing catalog path", args: []string{"resolve", "--catalog", missing, "--cluster", demoCluster, "--request", demoRequest}, prefix: "modsolver: ", want: []string{missing, "no such file"}},
		{name: "missing scenario file", args: []string{"resolve", "--scenario", missing}, prefix: "modsolver: ", want: []string{missing, "no such file"}},
		{name: "request with unknown key", args: files(unknownKey), prefix: "modsolver: ", want: []string{unknownKey + ":2:", `unknown key "updateAl"`, "updateAll"}},
		{name: "request enabling unknown module", args: files(unknownModule), prefix: "modsolver: ", want: []string{`"no-such-module"`, "request.enable[0]", "not in the catalog"}},
		// The two cases below use the flag parser's own forms rather than
		// fail's "modsolver: " form (see the report).
		{name: "unexpected argument", args: []string{"resolve", "extra"}, prefix: "modsolver resolve: ", want: []string{`unexpected argument "extra"`}},
		{name: "unknown flag", args: []string{"resolve", "--bogus"}, prefix: "modsolver resolve: ", want: []string{"flag provided but not defined: -bogus", "modsolver resolve --help"}},
		{name: "flag missing its value", args: []string{"resolve", "--catalog"}, prefix: "modsolver resolve: ", want: []string{"flag needs an argument: -catalog", "modsolver resolve --help"}},
		{name: "bad timeout", args: []string{"resolve", "--timeout", "soon"}, prefix: "modsolver resolve: ", want: []string{`invalid value "soon" for flag -timeout`}},
		{name: "zero timeout", args: []string{"resolve", "--timeout", "0"}, prefix: "modsolver: ", want: []string{"--timeout 0s: want a positive duration"}},
		{name: "negative timeout", args: []string{"resolve", "--timeout", "-1s"}, prefix: "modsolver: ", want: []string{"--timeout -1s: want a positive duration"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runCLI(t, tc.args...)
			assert.Equal(t, exitBadInput, got.code, "stderr:\n%s", got.errOut)
			assert.Empty(t, got.out)
			assert.True(t, strings.HasPrefix(got.errOut, tc.prefix), "stderr should start with %q:\n%s", tc.prefix, got.errOut)
			for _, s := range tc.want {
				assert.Contains(t, got.errOut, s)
			}
		})
	}
}

// TestResolveNoAnswer: --timeout bounds the whole command, reading the
// inputs included (D201), and the solver checks the context before every
// SAT call, so a deadline that has passed always ends the run without an
// answer (exit 3), never with a partial or resolved one.
func TestResolveNoAnswer(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		args   []string
		errOut string
	}{
		{name: "1ns timeout on the demo", ctx: context.Background(), args: []string{"resolve", "--timeout", "1ns"},
			errOut: "modsolver: reading the inputs took longer than --timeout 1ns: context deadline exceeded\n"},
		{name: "1ns timeout on an unsatisfiable request", ctx: context.Background(),
			args:   []string{"resolve", "--timeout", "1ns", "--catalog", demoCatalog, "--cluster", demoCluster, "--request", demoUnsat},
			errOut: "modsolver: reading the inputs took longer than --timeout 1ns: context deadline exceeded\n"},
		{name: "interrupted", ctx: canceled, args: []string{"resolve"},
			errOut: "modsolver: interrupted while reading the inputs: context canceled\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runCLIContext(t, tc.ctx, tc.args...)
			assert.Equal(t, exitNoAnswer, got.code)
			assert.Empty(t, got.out)
			assert.Equal(t, tc.errOut, got.errOut)
		})
	}
	t.Run("bad input read in time is bad input, not a timeout", func(t *testing.T) {
		req := writeTemp(t, "request.yaml", "enable: [no-such-module]\n")
		got := runCLI(t, "resolve", "--timeout", "1m", "--catalog", demoCatalog, "--cluster", demoCluster, "--request", req)
		assert.Equal(t, exitBadInput, got.code, "stderr:\n%s", got.errOut)
		assert.Contains(t, got.errOut, "no-such-module")
	})
}

// No line of the demo's answers is wider than 160 characters (D398,
// issue 31's finding 12): the tables list what changes, and prose is
// wrapped.
func TestDemoLinesFit(t *testing.T) {
	for _, args := range [][]string{
		{"resolve", "--catalog", "../../catalog/demo/catalog.yaml", "--cluster", "../../catalog/demo/cluster.yaml", "--request", "../../catalog/demo/request.yaml"},
		{"resolve", "--catalog", "../../catalog/demo/catalog.yaml", "--cluster", "../../catalog/demo/cluster.yaml", "--request", "../../catalog/demo/unsat-request.yaml"},
		{"whatif", "--deckhouse", "1.72.4,1.73.0,1.74.0,1.75.1", "--kubernetes", "1.29.1,1.30.8,1.31.2,1.32.1"},
	} {
		got := runCLI(t, args...)
		require.Contains(t, []int{exitResolved, exitUnsatisfiable}, got.code, got.errOut)
		for _, line := range strings.Split(got.out, "\n") {
			assert.LessOrEqual(t, len([]rune(line)), 160, "%v: %q", args, line)
		}
	}
}
