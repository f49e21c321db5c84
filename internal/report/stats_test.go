package report

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
)

func TestStats(t *testing.T) {
	st := catalog.Stats{Source: "c.yaml", Format: catalog.FormatFile, Modules: 3, Releases: 4,
		SkippedBy: map[string]int{"not a version": 2}, Skipped: 2}
	var out bytes.Buffer
	require.NoError(t, Stats(&out, st, []string{"c.yaml:3: ignored"}))
	assert.Regexp(t, `^catalog\s+c\.yaml \(modsolver\)\n`, out.String())
	assert.Regexp(t, `\nmodules\s+3 \(0 built-in\)\n`, out.String())
	assert.Contains(t, out.String(), "\nSkipped, by reason:\n2  not a version\n")
	assert.NotContains(t, out.String(), "Importer counts:", "no counts, no title")
	assert.True(t, bytes.HasSuffix(out.Bytes(), []byte("\nWarnings:\n  c.yaml:3: ignored\n")), out.String())
}

// The rows that count per release take a built-in module apart, so that
// the stage rows' releases add up to the releases row and their built-in
// modules to the built-in count; rows of what the catalog does not have
// are left out, and one is one (D369).
func TestStatsRowsAddUp(t *testing.T) {
	st := catalog.Stats{Source: "tree", Format: catalog.FormatDKP, Modules: 5, BuiltIn: 3, Releases: 4,
		Stages:         map[string]int{"General Availability": 5, "Preview": 1, "Deprecated": 1},
		BuiltInStages:  map[string]int{"General Availability": 2, "Deprecated": 1},
		UpdatePolicies: map[model.UpdatePolicy]int{"sequential": 2}, DisableConfirmations: 1, BuiltInDisableConfirmations: 1,
		PlatformRequirements: map[string]int{"deckhouse": 4}, BuiltInPlatformRequirements: map[string]int{"deckhouse": 3}}
	var out bytes.Buffer
	require.NoError(t, Stats(&out, st, nil))
	text := out.String()
	for _, want := range []string{
		"\nreleases                    4 (0 prereleases)\n",
		"\nstage General Availability  3 releases, 2 built-in modules\n",
		"\nstage Preview               1 release\n",
		"\nstage Deprecated            0 releases, 1 built-in module\n",
		"\ndisable confirmation        0 releases, 1 built-in module\n",
		"\nrequires deckhouse          1 release, 3 built-in modules\n",
		"\nupdate policy sequential    2 modules (a built-in module has none)\n",
		"\nmodule channels             0 (a module's own channels; the platform's release channels are not counted)\n",
	} {
		assert.Contains(t, text, want)
	}
	for _, absent := range []string{"stage Experimental", "capabilities", "compound requirements", "DKP v2", "update edges", "1 releases"} {
		assert.NotContains(t, text, absent)
	}
}

// On the real tree, each stage's releases add up to the releases row and
// its built-in modules to the built-in count.
func TestStatsRealTreeAddsUp(t *testing.T) {
	cat, rep, err := catalog.Load(shared.Path(t, "data", "dkp"))
	require.NoError(t, err)
	st := catalog.NewStats(cat, rep)
	releases, builtIn := 0, 0
	for stage, n := range st.Stages {
		releases += n - st.BuiltInStages[stage]
		builtIn += st.BuiltInStages[stage]
	}
	assert.Equal(t, st.Releases, releases)
	assert.Equal(t, st.BuiltIn, builtIn)
	var out bytes.Buffer
	require.NoError(t, Stats(&out, st, nil))
	rows := regexp.MustCompile(`(?m)^stage .*?(\d+) releases?(?:, (\d+) built-in modules?)?$`).FindAllStringSubmatch(out.String(), -1)
	require.NotEmpty(t, rows)
	releases, builtIn = 0, 0
	for _, r := range rows {
		n, _ := strconv.Atoi(r[1])
		b, _ := strconv.Atoi(r[2])
		releases, builtIn = releases+n, builtIn+b
	}
	assert.Equal(t, st.Releases, releases, "the table's stage rows")
	assert.Equal(t, st.BuiltIn, builtIn, "the table's stage rows")
}
