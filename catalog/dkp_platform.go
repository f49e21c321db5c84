package catalog

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// dkpPlatformFile is the DKP tree's platform data: the DKP versions
// released and in development, the Kubernetes versions supported.
const dkpPlatformFile = "platform.yaml"

// dkpPlatform is the part of platform.yaml that modsolver reads; its
// editions, bundles and channels are not read here.
type dkpPlatform struct {
	Deckhouse struct {
		NewestReleased string `yaml:"newestReleased"`
		InDevelopment  string `yaml:"inDevelopment"`
	} `yaml:"deckhouse"`
	Kubernetes map[string]yaml.Node `yaml:"kubernetes"`
}

// platform reads the tree's platform.yaml into the versions it knows
// (D212). A tree without one knows none; one that cannot be read is a
// warning in the report, as DKP's own tolerance of the tree's other
// extras, and the versions are then not checked.
func (l *dkpLoader) platform() *model.KnownPlatform {
	path := filepath.Join(l.root, dkpPlatformFile)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		l.rep.warn("%s: %v; platform versions are not checked", path, err)
		return nil
	}
	var doc dkpPlatform
	if err := yaml.Unmarshal(data, &doc); err != nil {
		l.rep.warn("%s: %v; platform versions are not checked", path, err)
		return nil
	}
	known := &model.KnownPlatform{}
	for _, f := range []struct {
		key, text string
		into      *model.MajorMinor
	}{
		{"deckhouse.newestReleased", doc.Deckhouse.NewestReleased, &known.DeckhouseReleased},
		{"deckhouse.inDevelopment", doc.Deckhouse.InDevelopment, &known.DeckhouseInDevelopment},
	} {
		if f.text == "" {
			continue
		}
		mm, err := model.ParseMajorMinor(f.text)
		if err != nil {
			l.rep.warn("%s: %s: %v; it is not checked", path, f.key, err)
			continue
		}
		*f.into = mm
	}
	for _, text := range slices.Sorted(maps.Keys(doc.Kubernetes)) {
		mm, err := model.ParseMajorMinor(text)
		if err != nil {
			l.rep.warn("%s: kubernetes.%s: %v; it is not checked", path, text, err)
			continue
		}
		known.Kubernetes = append(known.Kubernetes, mm)
	}
	return known
}
