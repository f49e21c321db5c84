package catalog

import (
	"github.com/modsolver/modsolver/model"
)

// dkpNames is the part of platform.yaml that names DKP's editions and
// bundles; its versions are dkp_platform.go's.
type dkpNames struct {
	Editions []string `yaml:"editions"`
	Bundles  []string `yaml:"bundles"`
}

// platformNames reads the editions and bundles the tree's platform.yaml
// lists (D351), against which a cluster state's are checked. A tree
// without one, or one that lists none, names none, and any edition is
// taken; one that cannot be read is a warning, as dkp_platform.go says
// of its versions.
func (l *dkpLoader) platformNames() *model.PlatformNames {
	var doc dkpNames
	if !l.readPlatformFile(dkpPlatformFile, "editions and bundles are not checked", &doc) {
		return nil
	}
	if len(doc.Editions) == 0 && len(doc.Bundles) == 0 {
		return nil
	}
	return &model.PlatformNames{Editions: doc.Editions, Bundles: doc.Bundles}
}
