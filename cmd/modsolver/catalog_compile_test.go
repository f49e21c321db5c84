package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/shared"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// compileCLI runs `catalog compile` with args, writing a file of a fresh
// temporary directory, and returns the file's path.
func compileCLI(t *testing.T, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "compiled.bin")
	got := runCLI(t, append([]string{"catalog", "compile", "-o", path}, args...)...)
	require.Equal(t, exitResolved, got.code, "stderr:\n%s", got.errOut)
	return path
}

func TestCatalogCompileResolve(t *testing.T) {
	path := filepath.Join(t.TempDir(), "compiled.bin")
	got := runCLI(t, "catalog", "compile", demoCatalog, "-o", path)
	require.Equal(t, exitResolved, got.code, "stderr:\n%s", got.errOut)
	assert.Contains(t, got.out, "(modsolver): 33 modules, 85 releases")
	assert.Contains(t, got.out, "wrote "+path+": ")
	assert.Contains(t, got.out, "reads back in")
	assert.Empty(t, got.errOut)

	for _, req := range []string{demoRequest, demoUnsat} {
		want := runCLI(t, "resolve", "-o", "json", "--no-timing", "--catalog", demoCatalog, "--cluster", demoCluster, "--request", req)
		compiled := runCLI(t, "resolve", "-o", "json", "--no-timing", "--catalog", path, "--cluster", demoCluster, "--request", req)
		assert.Equal(t, want.code, compiled.code, "stderr:\n%s", compiled.errOut)
		assert.Equal(t, want.out, compiled.out)
		assert.Empty(t, compiled.errOut)
	}
	named := runCLI(t, "resolve", "--catalog-format", "compiled", "--catalog", path, "--cluster", demoCluster, "--request", demoRequest)
	assert.Equal(t, exitResolved, named.code, "stderr:\n%s", named.errOut)
}

// TestCatalogCompileSources compiles two sources merged (R23) and the
// real DKP tree, and runs resolve, whatif and catalog check on the file
// as on its sources.
func TestCatalogCompileSources(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	community := filepath.Join("..", "..", "docs", "examples", "r23", "community.yaml")
	cluster := filepath.Join("..", "..", "docs", "examples", "r23", "cluster.yaml")
	request := filepath.Join("..", "..", "docs", "examples", "r23", "request.yaml")
	sources := []string{"--source", "deckhouse=10:" + dkp, "--source", "community=0:" + community}
	path := compileCLI(t, sources...)

	want := runCLI(t, append([]string{"resolve", "-o", "json", "--no-timing", "--cluster", cluster, "--request", request}, sources...)...)
	got := runCLI(t, "resolve", "-o", "json", "--no-timing", "--cluster", cluster, "--request", request, "--catalog", path)
	assert.Equal(t, want.code, got.code, "stderr:\n%s", got.errOut)
	assert.Equal(t, want.out, got.out)

	tree := compileCLI(t, dkp)
	whatif := func(cat string) cliResult {
		return runCLI(t, "whatif", "--catalog", cat, "--cluster", "../../docs/examples/kubectl/dump.yaml",
			"--kubernetes", "1.31.2", "--edition", "ee", "--deckhouse", "1.74.0,1.75.0", "--no-timing")
	}
	wantIf, gotIf := whatif(dkp), whatif(tree)
	require.Equal(t, wantIf.code, gotIf.code, "stderr:\n%s", gotIf.errOut)
	require.NotEqual(t, exitBadInput, gotIf.code, "stderr:\n%s", gotIf.errOut)
	assert.Equal(t, wantIf.out, gotIf.out)

	check := func(cat string) cliResult {
		return runCLI(t, "catalog", "check", cat, "--kubernetes", "1.31.0", "--deckhouse", "1.74.2", "-o", "json")
	}
	wantCheck, gotCheck := check(dkp), check(tree)
	assert.Equal(t, wantCheck.code, gotCheck.code)
	assert.JSONEq(t, strings.ReplaceAll(wantCheck.out, dkp, tree), gotCheck.out)
}

func TestCatalogCompileRefusals(t *testing.T) {
	path := compileCLI(t, demoCatalog)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	flipped := bytes.Clone(data)
	flipped[len(flipped)/2] ^= 1
	damaged := writeTemp(t, "damaged.bin", string(flipped))
	truncated := writeTemp(t, "truncated.bin", string(data[:len(data)-10]))
	resolve := func(cat string) cliResult {
		return runCLI(t, "resolve", "--catalog", cat, "--cluster", demoCluster, "--request", demoRequest)
	}
	for name, file := range map[string]string{"flipped byte": damaged, "truncated": truncated} {
		t.Run(name, func(t *testing.T) {
			got := resolve(file)
			assert.Equal(t, exitBadInput, got.code)
			assert.Contains(t, got.errOut, file+": invalid input: damaged compiled catalog: ")
			assert.Contains(t, got.errOut, "compile it again with `modsolver catalog compile`")
		})
	}
	t.Run("another build", func(t *testing.T) {
		this, other := rewriteBuild(t, data, "v0.0.1-test")
		assert.Equal(t, catalog.Build(), this)
		file := writeTemp(t, "other.bin", string(other))
		got := resolve(file)
		assert.Equal(t, exitBadInput, got.code)
		assert.Contains(t, got.errOut, file+": invalid input: compiled catalog of another modsolver: compiled by modsolver v0.0.1-test; this is modsolver "+this+": compile it again")
	})
	t.Run("read as another format", func(t *testing.T) {
		got := runCLI(t, "resolve", "--catalog-format", "modsolver", "--catalog", path, "--cluster", demoCluster, "--request", demoRequest)
		assert.Equal(t, exitBadInput, got.code)
		assert.Contains(t, got.errOut, "a compiled catalog cannot be read as modsolver")
	})
}

// rewriteBuild is a compiled catalog's data with its header naming build
// instead, and a checksum that matches: the file another build writes.
func rewriteBuild(t *testing.T, data []byte, build string) (old string, out []byte) {
	t.Helper()
	head := len("\x00modsolver compiled catalog\n") + 4 + sha256.Size
	n, size := binary.Uvarint(data[head:])
	require.Positive(t, size)
	old = string(data[head+size : head+size+int(n)])
	body := binary.AppendUvarint(nil, uint64(len(build)))
	body = append(append(body, build...), data[head+size+int(n):]...)
	sum := sha256.Sum256(body)
	out = append(append(bytes.Clone(data[:head-sha256.Size]), sum[:]...), body...)
	return old, out
}

func TestCatalogCompileBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.bin")
	empty := writeTemp(t, "empty.yaml", "modules: []\n")
	tests := []struct {
		name    string
		args    []string
		mention string
	}{
		{"no -o", []string{demoCatalog}, "-o FILE is required"},
		{"no catalog", []string{"-o", out}, "a catalog PATH is required"},
		{"path and sources", []string{demoCatalog, "--source", "a=" + demoCatalog, "-o", out}, "not both"},
		{"missing catalog", []string{filepath.Join(t.TempDir(), "missing.yaml"), "-o", out}, "missing.yaml"},
		{"no module", []string{empty, "-o", out}, "nothing to compile"},
		{"unknown format", []string{demoCatalog, "--catalog-format", "x", "-o", out}, "unknown catalog format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runCLI(t, append([]string{"catalog", "compile"}, tt.args...)...)
			assert.Equal(t, exitBadInput, got.code)
			assert.Contains(t, got.errOut, tt.mention)
			assert.NoFileExists(t, out)
		})
	}
	t.Run("unwritable", func(t *testing.T) {
		got := runCLI(t, "catalog", "compile", demoCatalog, "-o", filepath.Join(t.TempDir(), "no", "such", "dir.bin"))
		assert.Equal(t, exitNoAnswer, got.code)
		assert.Contains(t, got.errOut, "-o ")
	})
	t.Run("help", func(t *testing.T) {
		got := runCLI(t, "catalog", "compile", "--help")
		assert.Equal(t, exitResolved, got.code)
		assert.Contains(t, got.out+got.errOut, "Another build of modsolver refuses it")
	})
}

// TestServeCompiledCatalog serves a compiled catalog and reloads it on
// SIGHUP once it has been compiled again from a changed source.
func TestServeCompiledCatalog(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "prod.yaml")
	compiled := filepath.Join(dir, "prod.bin")
	compile := func(content string) {
		require.NoError(t, os.WriteFile(src, []byte(content), 0o600))
		got := runCLI(t, "catalog", "compile", src, "-o", compiled)
		require.Equal(t, exitResolved, got.code, "stderr:\n%s", got.errOut)
	}
	compile("modules: [{name: a, releases: [{version: 1.0.0}]}]")
	s := startServe(t, "--listen", "127.0.0.1:0", "--catalog", "prod="+compiled)
	modules := func() uint32 {
		list, err := s.client.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
		require.NoError(t, err)
		require.Len(t, list.GetCatalogs(), 1)
		assert.Equal(t, "compiled", list.GetCatalogs()[0].GetFormat())
		return list.GetCatalogs()[0].GetModules()
	}
	require.Equal(t, uint32(1), modules())

	compile("modules: [{name: a, releases: [{version: 1.0.0}]}, {name: b, releases: [{version: 2.0.0}]}]")
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGHUP))
	require.Eventually(t, func() bool { return modules() == 2 }, 10*time.Second, 20*time.Millisecond)
	assert.Equal(t, exitResolved, s.stop(t))
}
