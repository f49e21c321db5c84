package server_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/server"
)

func TestCatalogsLookupAndDefault(t *testing.T) {
	a, err := parseCatalog("a", []byte(tinyCatalog))
	require.NoError(t, err)
	cats, err := server.NewCatalogs(server.Catalog{Name: "zeta", Catalog: a}, server.Catalog{Name: "alpha", Catalog: a})
	require.NoError(t, err)
	assert.Equal(t, "zeta", cats.Default(), "the first is the default, whatever its name")
	assert.Equal(t, []string{"alpha", "zeta"}, cats.Names())
	got, err := cats.Lookup("")
	require.NoError(t, err)
	assert.Same(t, a, got)
	_, err = cats.Lookup("beta")
	assert.ErrorIs(t, err, server.ErrUnknownCatalog)
	assert.ErrorIs(t, err, server.ErrNotFound)
	var fe *model.FieldError
	require.True(t, errors.As(err, &fe))
	assert.Equal(t, model.Field("catalog_name"), fe.Path)
}

func TestCatalogsRejectBadSets(t *testing.T) {
	a, err := parseCatalog("a", []byte(tinyCatalog))
	require.NoError(t, err)
	for name, set := range map[string][]server.Catalog{
		"empty":     nil,
		"no name":   {{Catalog: a}},
		"nil":       {{Name: "a"}},
		"duplicate": {{Name: "a", Catalog: a}, {Name: "a", Catalog: a}},
	} {
		_, err := server.NewCatalogs(set...)
		assert.Error(t, err, name)
	}
}

// TestCatalogsReplaceWhileServing swaps whole sets while readers look
// names up (a data race fails it under -race); every lookup finds one of
// the sets, and a bad set leaves the old one in place.
func TestCatalogsReplaceWhileServing(t *testing.T) {
	a, err := parseCatalog("a", []byte(tinyCatalog))
	require.NoError(t, err)
	b, err := parseCatalog("b", []byte(tinyCatalog))
	require.NoError(t, err)
	setA := []server.Catalog{{Name: "one", Catalog: a}, {Name: "two", Catalog: a}}
	setB := []server.Catalog{{Name: "one", Catalog: b}, {Name: "two", Catalog: b}}
	cats, err := server.NewCatalogs(setA...)
	require.NoError(t, err)

	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				got, err := cats.Lookup("two")
				if !assert.NoError(t, err) || !assert.True(t, got == a || got == b) {
					return
				}
			}
		})
	}
	for i := range 200 {
		set := setA
		if i%2 == 1 {
			set = setB
		}
		require.NoError(t, cats.Replace(set...))
	}
	close(stop)
	wg.Wait()

	require.Error(t, cats.Replace(server.Catalog{Name: "one", Catalog: a}, server.Catalog{Name: "one", Catalog: a}))
	got, err := cats.Lookup("two")
	require.NoError(t, err)
	assert.Same(t, b, got, "a failed Replace keeps the old set")
}
