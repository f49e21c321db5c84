package catalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// D71: a version read in another form than written is counted and named.
func TestVersionsNormalised(t *testing.T) {
	index := []byte("apiVersion: v1\nentries:\n  loki:\n    - {version: 0.46.00}\n    - {version: v1.0.0}\n    - {version: '2.1'}\n")
	cat, rep, err := ParseFormat("index.yaml", index, "")
	require.NoError(t, err)
	assert.Len(t, cat.Module("loki").Releases, 3)
	assert.Equal(t, 2, rep.Counts[versionsNormalised], "a v prefix is not a normalisation (D3)")
	assert.Contains(t, rep.Warnings, `loki@0.46.00: version "0.46.00" is read as 0.46.0`)
	assert.Contains(t, rep.Warnings, `loki@2.1: version "2.1" is read as 2.1.0`)
}

// D72: a format named by hand that reads no module is bad input, and
// the error names the format the file looks like.
func TestForcedFormatWithoutModules(t *testing.T) {
	dump := filepath.Join(t.TempDir(), "bundles.json")
	require.NoError(t, os.WriteFile(dump, []byte(`{"packages": {}, "bundles": []}`), 0o644))
	_, _, err := LoadFormat(dump, FormatOLMFBC)
	require.ErrorIs(t, err, ErrNoModules)
	require.ErrorIs(t, err, model.ErrInvalidInput)
	assert.Contains(t, err.Error(), "when read as olm-fbc")

	data, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", "olm", "community-operators-prod-bundles.json"))
	if err != nil {
		t.Skipf("shared data: %v", err)
	}
	_, _, err = ParseFormat("community-operators-prod-bundles.json", data, FormatOLMFBC)
	require.ErrorIs(t, err, ErrNoModules)
	assert.Contains(t, err.Error(), "it looks like olm-bundles")
	_, _, err = ParseFormat("community-operators-prod-bundles.json", data, "")
	require.NoError(t, err, "detected, the same file loads")
}
