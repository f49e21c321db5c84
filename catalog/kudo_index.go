package catalog

import (
	"fmt"
	"maps"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// A KUDO repository index.yaml: `apiVersion: v1` and, under
// `entries.<name>[]`, one entry per package with name, operatorVersion and
// appVersion (and digest, maintainers, urls, which are not read). An index
// carries no kudoVersion, kubernetesVersion or tasks: those are inside the
// package tarballs, so an index's releases need kudo at any version and
// nothing else, which the report says once. An entry whose name differs
// from its key keeps the key, with a warning, as a Helm index does.

// kudoIndexFile is the part of a KUDO index that resolution reads.
type kudoIndexFile struct {
	APIVersion string                      `yaml:"apiVersion"`
	Entries    map[string][]kudoIndexEntry `yaml:"entries"`
}

// kudoIndexEntry is one package of an index.
type kudoIndexEntry struct {
	Name            string `yaml:"name"`
	OperatorVersion string `yaml:"operatorVersion"`
	Version         string `yaml:"version"` // an index before KUDO 0.10
	AppVersion      string `yaml:"appVersion"`
}

// parseKUDOIndex reads a KUDO repository index (FormatKUDO).
func parseKUDOIndex(name string, data []byte) (*model.Catalog, *Report, error) {
	node, err := parseNode(name, data)
	if err != nil {
		return nil, nil, err
	}
	var idx kudoIndexFile
	if err := decode(name, node, &idx); err != nil {
		return nil, nil, err
	}
	rep := &Report{Source: name, Format: FormatKUDO}
	if idx.APIVersion != "v1" {
		rep.warn("apiVersion %q is not v1; the index is read as v1", idx.APIVersion)
	}
	var pkgs []*kudoPackage
	for _, key := range slices.Sorted(maps.Keys(idx.Entries)) {
		for i, e := range idx.Entries[key] {
			p := &kudoPackage{
				path: fmt.Sprintf("entries.%s[%d]", key, i), name: key,
				operatorVersion: e.OperatorVersion, appVersion: e.AppVersion,
			}
			if p.operatorVersion == "" && e.Version != "" {
				p.operatorVersion, p.oldKey = e.Version, true
			}
			if e.Name != "" && e.Name != key {
				rep.warn("%s: named %q; the entries key %s is used", p.path, e.Name, key)
			}
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) > 0 {
		rep.warn("an index carries no kudoVersion, kubernetesVersion or tasks: its packages need kudo at any version and nothing else")
	}
	return importKUDO(name, pkgs, rep)
}

// looksKUDOIndex reports whether an index with top-level entries is a KUDO
// index: its entries have operatorVersion, a key a Helm index never has,
// and none has version, the key every Helm entry has.
func looksKUDOIndex(data []byte) bool {
	return hasKey(data, "operatorVersion") && !hasKey(data, "version")
}
