package catalog

import (
	"fmt"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// Option changes how an importer reads a catalog (functional options for
// Load, LoadFormat and ParseFormat).
type Option func(*options)

// options are the importers' settings; the zero value is the default.
type options struct {
	helmSubcharts HelmSubcharts
}

func newOptions(opts []Option) options {
	o := options{helmSubcharts: SubchartsBundled}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// HelmSubcharts says what a Helm chart's dependencies are (D67).
type HelmSubcharts string

const (
	// SubchartsBundled reads dependencies as Helm does: subcharts packaged
	// inside the parent chart (`helm dependency update` vendors them), so
	// they are not modules the cluster must enable. The default.
	SubchartsBundled HelmSubcharts = "bundled"
	// SubchartsInstalled reads each dependency on a chart of another
	// repository as a requirement on that chart, installed as a release
	// of its own: for users who install subcharts separately, and for the
	// benchmarks, which measure the solver on a dependency graph.
	SubchartsInstalled HelmSubcharts = "installed"
)

// HelmSubchartModes lists the modes by the names the command line uses.
var HelmSubchartModes = []HelmSubcharts{SubchartsBundled, SubchartsInstalled}

// ParseHelmSubcharts reads a mode name; "" is the default, bundled.
func ParseHelmSubcharts(name string) (HelmSubcharts, error) {
	if name == "" {
		return SubchartsBundled, nil
	}
	if m := HelmSubcharts(name); slices.Contains(HelmSubchartModes, m) {
		return m, nil
	}
	return "", fmt.Errorf("%w: unknown helm subcharts mode %q (want bundled or installed)", model.ErrInvalidValue, name)
}

// WithHelmSubcharts sets how a Helm index's dependencies are read.
func WithHelmSubcharts(mode HelmSubcharts) Option {
	return func(o *options) { o.helmSubcharts = mode }
}
