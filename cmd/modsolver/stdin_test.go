package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/shared"
)

// --cluster - reads the cluster from standard input: a kubectl dump piped
// in answers as the same dump read from its file, and bad input names
// standard input.
func TestClusterFromStdin(t *testing.T) {
	dkp := shared.Path(t, "data", "dkp")
	dump := "../../docs/examples/kubectl/dump.yaml"
	request := writeTemp(t, "request.yaml", "updateAll: true\n")
	args := func(cluster string) []string {
		return []string{"resolve", "--catalog", dkp, "--cluster", cluster, "--edition", "ee", "--kubernetes", "1.31.2", "--request", request, "-o", "json", "--no-timing"}
	}
	fromFile := runCLI(t, args(dump)...)
	require.Equal(t, exitResolved, fromFile.code, fromFile.errOut)

	withStdin(t, dump)
	fromStdin := runCLI(t, args("-")...)
	require.Equal(t, exitResolved, fromStdin.code, fromStdin.errOut)
	assert.JSONEq(t, fromFile.out, fromStdin.out)

	withStdin(t, writeTemp(t, "bad.yaml", "deckhouse: [1, 2]\n"))
	bad := runCLI(t, args("-")...)
	assert.Equal(t, exitBadInput, bad.code)
	assert.Contains(t, bad.errOut, "standard input")
}

// withStdin makes the file at path the process's standard input for the
// rest of the test.
func withStdin(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	old := os.Stdin
	os.Stdin = f
	t.Cleanup(func() { os.Stdin = old; f.Close() })
}
