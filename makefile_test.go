package modsolver

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMakeTestSaysEachPhase holds the Makefile's test and vet targets to
// saying, before each command that builds or runs tests, what it does
// and about how long it takes: the builds print nothing for minutes, and
// a new user took the silence for a hang (D411).
func TestMakeTestSaysEachPhase(t *testing.T) {
	data, err := os.ReadFile("Makefile")
	require.NoError(t, err)
	for _, target := range []string{"test", "vet"} {
		recipe := recipeOf(string(data), target)
		require.NotEmpty(t, recipe, "the Makefile has a %s target", target)
		for i, line := range recipe {
			if !strings.HasPrefix(line, "$(GO) test") && !strings.HasPrefix(line, "$(GO) vet") {
				continue
			}
			require.Positive(t, i, "%s: %q is said first", target, line)
			said := recipe[i-1]
			assert.True(t, strings.HasPrefix(said, "@echo "), "%s: %q follows a line that says what it does, not %q", target, line, said)
			assert.Contains(t, said, "minute", "%s: %q says about how long it takes", target, said)
		}
	}
}

// recipeOf is the command lines of target's recipe, tabs removed.
func recipeOf(makefile, target string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(makefile, "\n") {
		switch {
		case strings.HasPrefix(line, target+":"):
			in = true
		case in && strings.HasPrefix(line, "\t"):
			out = append(out, strings.TrimPrefix(line, "\t"))
		case in:
			return out
		}
	}
	return out
}
