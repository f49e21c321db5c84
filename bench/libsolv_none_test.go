//go:build !libsolv

package bench

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Without the build tag there is no libsolv: asking for it is an error
// that says so.
func TestLibsolvNotBuilt(t *testing.T) {
	assert.False(t, LibsolvBuilt())
	in := Generate(Size{Name: "10x3", Modules: 10, Releases: 3}, 1)
	_, err := Libsolv(context.Background(), in.Catalog, in.Cluster, in.UpdateAll())
	require.ErrorIs(t, err, ErrNoLibsolv)
	_, err = Run(context.Background(), in, CaseUpdateAll, WithRuns(1), WithLibsolv())
	require.ErrorIs(t, err, ErrNoLibsolv)
}
