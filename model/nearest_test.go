package model

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func nearCatalog(t *testing.T) *Catalog {
	t.Helper()
	var mods []*Module
	for _, n := range []string{"prometheus", "prometheus-crd", "csi-ceph", "csi-nfs", "code", "commander-agent"} {
		mods = append(mods, &Module{Name: n, Releases: []*Release{{Version: MustParseVersion("1.0.0")}}})
	}
	cat, err := NewCatalog(mods)
	require.NoError(t, err)
	return cat
}

func TestNearestModules(t *testing.T) {
	cat := nearCatalog(t)
	tests := map[string][]string{
		"promethues": {"prometheus"},
		"Prometheus": {"prometheus"},
		"csi-cef":    {"csi-ceph"},
		"cod":        {"code"},
		"zzz":        nil,
		"istio":      nil,
	}
	for in, want := range tests {
		assert.Equal(t, want, cat.NearestModules(in), in)
	}
	assert.Equal(t, 3, editDistance("kitten", "sitting"))
	assert.Equal(t, 0, editDistance("", ""))
}

// A misspelt module name in a request says which names were meant.
func TestUnknownModuleDidYouMean(t *testing.T) {
	cat := nearCatalog(t)
	err := checkNames(cat, Field("request", "enable"), []string{"promethues", "istio"}).Err()
	require.Error(t, err)
	var fe *FieldError
	require.True(t, errors.As(err, &fe))
	assert.ErrorIs(t, err, ErrUnknownModule)
	assert.Contains(t, err.Error(), `request.enable[0]: invalid input: unknown module: module "promethues" is not in the catalog; did you mean "prometheus"?`)
	assert.Contains(t, err.Error(), `module "istio" is not in the catalog`)
	assert.NotContains(t, err.Error(), `"istio" is not in the catalog;`)

	err = ValidateAccept(cat, Field("accept"), []string{"csi-cep"})
	assert.ErrorIs(t, err, ErrUnknownModule)
	assert.Contains(t, err.Error(), `did you mean "csi-ceph"?`)
}
