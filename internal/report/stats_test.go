package report

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/catalog"
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
