package catalog

import (
	"fmt"
	"os"

	"github.com/modsolver/modsolver/model"
)

// Load reads a catalog from path: a single YAML or JSON file in
// modsolver's format, or a directory in DKP's module-source layout. The
// report says what was read and what was skipped.
func Load(path string) (*model.Catalog, *Report, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: catalog: %w", model.ErrInvalidInput, err)
	}
	if info.IsDir() {
		return LoadDir(path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: catalog: %w", model.ErrInvalidInput, err)
	}
	return Parse(path, data)
}

// Parse reads a catalog in the single-file format from data; name is used
// in error messages.
func Parse(name string, data []byte) (*model.Catalog, *Report, error) {
	node, err := parseNode(name, data)
	if err != nil {
		return nil, nil, err
	}
	return parseFile(name, node)
}
