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
	known := l.knownVersions()
	if releases := l.releases(); releases != nil {
		if known == nil {
			known = &model.KnownPlatform{}
		}
		known.Releases = releases
	}
	return known
}

// dkpReleasesFile is DKP's release data, one entry per minor (R31).
const dkpReleasesFile = "releases.yaml"

// releases reads the tree's releases.yaml (R31); nil when there is none.
// One that cannot be read is a warning, and then nothing of R31 applies.
func (l *dkpLoader) releases() model.PlatformReleases {
	var doc struct {
		Releases map[string]filePlatformRelease `yaml:"releases"`
	}
	const unread = "DKP's release data is not read"
	if !l.readPlatformFile(dkpReleasesFile, unread, &doc) {
		return nil
	}
	releases, err := platformReleases(doc.Releases)
	if err != nil {
		l.rep.warn("%s: %v; %s", filepath.Join(l.root, dkpReleasesFile), err, unread)
		return nil
	}
	return releases
}

// knownVersions reads platform.yaml's versions (D212).
func (l *dkpLoader) knownVersions() *model.KnownPlatform {
	var doc dkpPlatform
	if !l.readPlatformFile(dkpPlatformFile, "platform versions are not checked", &doc) {
		return nil
	}
	path := filepath.Join(l.root, dkpPlatformFile)
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

// readPlatformFile decodes the tree's file name into doc: false when the
// tree has none, or when it cannot be read, which is a warning that ends
// in unread, as DKP's own tolerance of the tree's other extras.
func (l *dkpLoader) readPlatformFile(name, unread string, doc any) bool {
	path := filepath.Join(l.root, name)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err == nil {
		err = yaml.Unmarshal(data, doc)
	}
	if err != nil {
		l.rep.warn("%s: %v; %s", path, err, unread)
		return false
	}
	return true
}
