package catalog

import (
	"errors"
	"os"
	"testing"

	"github.com/modsolver/modsolver/model"
)

// FuzzKubectl feeds arbitrary bytes to the kubectl dump reader: it must
// return a dump or an input error, never panic, and a dump it returns
// must give a cluster state once the facts it lacks are given.
func FuzzKubectl(f *testing.F) {
	if data, err := os.ReadFile("testdata/kubectl/list.yaml"); err == nil {
		f.Add(data)
		f.Add([]byte(asDocuments(string(data))))
	}
	f.Add([]byte("apiVersion: deckhouse.io/v1alpha1\nkind: ModuleRelease\nmetadata: {name: a, labels: {source: s}}\nspec: {moduleName: a, version: v1.0.0}\nstatus: {phase: Deployed}\n"))
	f.Add([]byte("apiVersion: deckhouse.io/v1alpha1\nkind: ModuleUpdatePolicy\nmetadata: {name: p}\nspec: {releaseChannel: RockSolid, moduleReleaseSelector: {labelSelector: {matchLabels: {module: a}}}}\n"))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: Pod, metadata: {name: x}}]\n"))
	cat, err := model.NewCatalog(nil)
	if err != nil {
		f.Fatal(err)
	}
	given := &model.ClusterState{Deckhouse: model.MustParseVersion("1.73.0"), Kubernetes: model.MustParseVersion("1.31.0"), Edition: "ee", Bundle: "Default"}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseKubectl("fuzz.yaml", data)
		if err != nil {
			if !errors.Is(err, model.ErrInvalidInput) {
				t.Fatalf("error is not an input error: %v", err)
			}
			return
		}
		if d.Cluster == nil || d.Cluster.Kubernetes != nil || d.Cluster.Edition != "" {
			t.Fatalf("a dump without a cluster, or one holding what a dump cannot say: %v", d.Cluster)
		}
		if _, err := d.State(cat, given, FactNames{}); err != nil {
			t.Fatalf("every fact given, yet: %v", err)
		}
	})
}
