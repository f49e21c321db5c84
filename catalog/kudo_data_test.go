package catalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// kudoData is the shared KUDO data (../shared/data/kudo), read in place.
func kudoData(t *testing.T, sub string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "data", "kudo", sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the shared KUDO data is absent: %v", err)
	}
	return dir
}

func TestKUDODataSummary(t *testing.T) {
	_, rep, err := Load(kudoData(t, ""))
	require.NoError(t, err)
	t.Log(rep.Summary())
	_ = model.DefaultWeight
	assert.Equal(t, FormatKUDO, rep.Format)
}
