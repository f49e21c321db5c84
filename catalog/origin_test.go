package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

func fieldError(path model.Path) *model.FieldError {
	return &model.FieldError{Path: path, Err: fmt.Errorf("%w: module nope is not in the catalog", model.ErrUnknownModule)}
}

// Bad input found when a request meets the catalog names the request's
// file and the line of the field, as bad input found while reading it
// does; errors about the cluster are left to the cluster's origin.
func TestOriginPlacesFieldErrors(t *testing.T) {
	dir := t.TempDir()
	req := filepath.Join(dir, "req.yaml")
	require.NoError(t, os.WriteFile(req, []byte("# enable two\nenable:\n  - console\n  - nope\npin: {csi-ceph: 9.9.9}\n"), 0o600))
	cluster := filepath.Join(dir, "cluster.yaml")
	require.NoError(t, os.WriteFile(cluster, []byte("deckhouse: 1.72.4\nedition: ee\nmodules:\n  code: {enabled: true}\n"), 0o600))

	err := errors.Join(
		fieldError(model.Field("cluster", "modules").Key("code")),
		fieldError(model.Field("request", "enable").Index(1)),
		fieldError(model.Field("request", "pin").Key("csi-ceph")),
		fieldError(model.Field("request", "update").Index(0)),
	)
	placed := ClusterOrigin(cluster).Place(RequestOrigin(req).Place(err))
	require.ErrorIs(t, placed, model.ErrUnknownModule)
	var fe *model.FieldError
	require.ErrorAs(t, placed, &fe, "the field error is still there, for the gRPC details")
	assert.Equal(t, cluster+":4: cluster.modules.code: invalid input: unknown module: module nope is not in the catalog; "+
		req+":4: request.enable[1]: invalid input: unknown module: module nope is not in the catalog; "+
		req+":5: request.pin.csi-ceph: invalid input: unknown module: module nope is not in the catalog; "+
		req+": request.update[0]: invalid input: unknown module: module nope is not in the catalog", placed.Error(),
		"a field the file does not hold names the file alone")
}

// A field given beside the file (a flag) is not the file's; an input that
// no file holds says where it came from.
func TestOriginGivenAndNoted(t *testing.T) {
	cluster := filepath.Join(t.TempDir(), "cluster.yaml")
	require.NoError(t, os.WriteFile(cluster, []byte("deckhouse: 1.72.4\nedition: ee\n"), 0o600))
	edition := fieldError(model.Field("cluster", "edition"))
	assert.Equal(t, edition, ClusterOrigin(cluster, "edition").Place(edition))
	file, line := PlacedIn(ClusterOrigin(cluster).Place(edition))
	assert.Equal(t, cluster, file)
	assert.Equal(t, 2, line)

	demo := Origin{Root: "cluster", Note: "the embedded demo cluster, since --cluster was not given"}
	noted := demo.Place(fieldError(model.Field("cluster", "modules").Key("code")))
	assert.Equal(t, "cluster.modules.code: invalid input: unknown module: module nope is not in the catalog (the embedded demo cluster, since --cluster was not given)", noted.Error())
	assert.ErrorIs(t, noted, model.ErrUnknownModule)
	file, _ = PlacedIn(noted)
	assert.Empty(t, file)
}

// In a scenario file, the cluster and the request are its keys.
func TestScenarioOrigin(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: s\ncatalog: {modules: [{name: a, releases: [{version: 1.0.0}]}]}\ncluster:\n  kubernetes: 1.31.0\nrequest:\n  enable: [a, b]\n"), 0o600))
	sc, err := LoadScenario(path)
	require.NoError(t, err)
	_, line := PlacedIn(sc.Origin("request").Place(fieldError(model.Field("request", "enable").Index(1))))
	assert.Equal(t, 6, line)
	_, line = PlacedIn(sc.Origin("cluster").Place(fieldError(model.Field("cluster", "kubernetes"))))
	assert.Equal(t, 4, line)
}
