package catalog

import (
	"testing"

	"github.com/modsolver/modsolver/model"
)

// FuzzHelmIndex feeds arbitrary bytes to the Helm index importer: it must
// return a catalog and a report that accounts for every dependency edge,
// or an input error, and never panic.
func FuzzHelmIndex(f *testing.F) {
	f.Add([]byte(helmAppIndex("{name: lib, version: 1.X.X, repository: R, condition: lib.enabled}", "{name: sub, repository: 'file://../sub'}")))
	f.Add([]byte(helmAppIndex("{name: lib, version: '1.x || 2.x', repository: R, alias: a}", "{name: lib, version: '~ 1.5.0', repository: R, alias: b, tags: [t]}", "{name: app, repository: R}")))
	f.Add([]byte(helmAppIndex("{name: redis, version: '>= 0', repository: 'https://charts.bitnami.com/bitnami'}", "{name: db}")))
	f.Add([]byte("apiVersion: v1\nentries:\n  a:\n  - {name: b, version: v1.0.0, kubeVersion: '^1.8.0-0', deprecated: true}\n  - {version: 1.0.0}\n  - {version: 0.2.3.1}\n  '': []\n"))
	f.Add([]byte(`{"apiVersion": "v1", "entries": {"a": [{"version": "1.0.0+a", "kubeVersion": ">= 1.19.0-0"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cat, rep, err := parseHelmIndex("fuzz.yaml", data)
		if !checkLoaded(t, cat, rep, err) {
			return
		}
		idx, err := readHelmIndex("fuzz.yaml", data)
		if err != nil {
			t.Fatalf("the index reads once but not twice: %v", err)
		}
		if edges, accounted := helmEdges(idx), helmAccounted(cat, rep); edges != accounted {
			t.Fatalf("%d dependency edges, %d accounted for: %v", edges, accounted, rep.Counts)
		}
	})
}

// helmEdges counts the dependency edges of an index.
func helmEdges(idx *helmIndex) int {
	n := 0
	for _, entries := range idx.Entries {
		for _, e := range entries {
			n += len(e.Dependencies)
		}
	}
	return n
}

// helmAccounted counts the edges a load accounts for.
func helmAccounted(cat *model.Catalog, rep *Report) int {
	n := rep.Counts[helmBundled] + rep.Counts[helmMerged] + rep.Counts[helmSelf] + rep.Counts[helmSkippedDeps]
	for _, m := range cat.Modules() {
		for _, r := range m.Releases {
			n += len(r.Requirements.Modules)
		}
	}
	return n
}
