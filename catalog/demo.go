package catalog

import (
	"embed"

	"github.com/modsolver/modsolver/model"
)

// demo holds modsolver's own demo catalog, written for demos and tests and
// modelled on DKP's module set.
//
//go:embed demo/*.yaml
var demo embed.FS

// Demo files, as named in error messages.
const (
	DemoCatalogFile      = "demo/catalog.yaml"
	DemoClusterFile      = "demo/cluster.yaml"
	DemoRequestFile      = "demo/request.yaml"
	DemoUnsatRequestFile = "demo/unsat-request.yaml"
)

// Demo returns the embedded demo catalog: the default when no catalog is
// given.
func Demo() (*model.Catalog, error) {
	data, err := demo.ReadFile(DemoCatalogFile)
	if err != nil {
		return nil, err
	}
	cat, _, err := Parse(DemoCatalogFile, data)
	return cat, err
}

// DemoState returns the demo cluster state and the demo request, which
// resolves.
func DemoState() (*model.ClusterState, *model.Request, error) {
	return demoState(DemoRequestFile)
}

// DemoUnsatisfiable returns the demo cluster state and a demo request
// that has no consistent answer, to show explanations.
func DemoUnsatisfiable() (*model.ClusterState, *model.Request, error) {
	return demoState(DemoUnsatRequestFile)
}

func demoState(requestFile string) (*model.ClusterState, *model.Request, error) {
	data, err := demo.ReadFile(DemoClusterFile)
	if err != nil {
		return nil, nil, err
	}
	cluster, err := ParseCluster(DemoClusterFile, data)
	if err != nil {
		return nil, nil, err
	}
	if data, err = demo.ReadFile(requestFile); err != nil {
		return nil, nil, err
	}
	req, err := ParseRequest(requestFile, data)
	return cluster, req, err
}
