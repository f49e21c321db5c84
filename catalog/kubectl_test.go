package catalog

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

func readDump(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/kubectl/list.yaml")
	require.NoError(t, err)
	return data
}

// asDocuments rewrites the List in testdata/kubectl/list.yaml as one YAML
// document per item, as `kubectl get … -o yaml` never prints it but a
// hand-made dump often is.
func asDocuments(list string) string {
	_, items, _ := strings.Cut(list, "items:\n")
	var out []string
	for item := range strings.SplitSeq(items, "\n- ") {
		item = strings.TrimPrefix(item, "- ")
		lines := strings.Split(item, "\n")
		for i := range lines {
			lines[i] = strings.TrimPrefix(lines[i], "  ")
		}
		out = append(out, strings.Join(lines, "\n"))
	}
	return "---\n" + strings.Join(out, "\n---\n")
}

func TestParseKubectlReadsEveryKind(t *testing.T) {
	list := string(readDump(t))
	for name, text := range map[string]string{"list": list, "documents": asDocuments(list)} {
		t.Run(name, func(t *testing.T) {
			d, err := ParseKubectl("dump.yaml", []byte(text))
			require.NoError(t, err)
			c := d.Cluster
			assert.Equal(t, "1.73.3", c.Deckhouse.String(), "the Deployed DeckhouseRelease")
			assert.Nil(t, c.Kubernetes, "a dump never holds the Kubernetes version")
			assert.Empty(t, c.Edition, "a dump never holds the edition")
			assert.Equal(t, "Minimal", c.Bundle, "the deckhouse ModuleConfig's bundle")
			assert.Equal(t, "early-access", c.ReleaseChannel, "the deckhouse ModuleConfig's channel, in modsolver's name")

			parca := c.Modules["parca"]
			assert.True(t, parca.On())
			assert.Equal(t, "1.4.3", parca.Version.String(), "the Deployed ModuleRelease, not the Pending or Superseded one")
			assert.Equal(t, "alpha", parca.Channel, "the update policy its ModuleConfig names")

			console := c.Modules["console"]
			assert.True(t, console.On())
			assert.Equal(t, "0.9.1", console.Version.String(), "a Ready Module's version when the dump has no release")
			assert.Equal(t, "rock-solid", console.Channel, "the policy its ModuleSource's status names")

			assert.True(t, c.Modules["dashboard"].Off())
			assert.False(t, c.Modules["deckhouse"].Configured(), "the deckhouse ModuleConfig configures no enabled")
			assert.NotContains(t, c.Modules, "global", "global is not a module")
			assert.NotContains(t, c.Modules, "prometheus", "a built-in Module with no ModuleConfig follows its bundle default")

			assert.Empty(t, parca.Source, "sources are kept apart until State knows the catalog")
			assert.Equal(t, map[string]string{"parca": "foxtrot", "console": "foxtrot"}, d.Sources)
			assert.Equal(t, map[string]int{"ConfigMap v1": 1}, d.Skipped)
			assert.Empty(t, d.Warnings)
		})
	}
}

func TestParseKubectlSingleResource(t *testing.T) {
	d, err := ParseKubectl("one.yaml", []byte(`
apiVersion: deckhouse.io/v1alpha1
kind: DeckhouseRelease
metadata: {name: v1.74.1}
spec: {version: v1.74.1}
status: {phase: Deployed}
`))
	require.NoError(t, err)
	assert.Equal(t, "1.74.1", d.Cluster.Deckhouse.String())
	assert.Empty(t, d.Cluster.Modules)
	assert.Empty(t, d.Cluster.Bundle, "no deckhouse ModuleConfig, no bundle")
}

func TestParseKubectlDefaultBundle(t *testing.T) {
	d, err := ParseKubectl("mc.yaml", []byte(`
apiVersion: deckhouse.io/v1alpha1
kind: ModuleConfig
metadata: {name: deckhouse}
spec: {version: 1, settings: {releaseChannel: Stable}}
`))
	require.NoError(t, err)
	assert.Equal(t, "Default", d.Cluster.Bundle, "DKP runs the Default bundle when the deckhouse ModuleConfig names none")
	assert.Equal(t, "stable", d.Cluster.ReleaseChannel)
}

// TestParseKubectlSettings reads a ModuleConfig's settings (R34): they
// are the module's, at the settings version spec.version gives, in the
// shape encoding/json gives the same values.
func TestParseKubectlSettings(t *testing.T) {
	d, err := ParseKubectl("mc.yaml", []byte(`
apiVersion: v1
kind: List
items:
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: virtualization}
  spec: {enabled: true, version: 1, settings: {dvcr: {storage: {type: ObjectStorage}}}}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: prometheus}
  spec: {enabled: true, settings: {retentionDays: 15, hosts: [a, b]}}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: parca}
  spec: {enabled: true, version: 2}
- apiVersion: deckhouse.io/v1alpha1
  kind: ModuleConfig
  metadata: {name: global}
  spec: {version: 2, settings: {modules: {https: {mode: Disabled}}}}
`))
	require.NoError(t, err)
	virt := d.Cluster.Modules["virtualization"].Settings
	require.NotNil(t, virt)
	assert.Equal(t, 1, virt.Version)
	assert.Equal(t, map[string]any{"storage": map[string]any{"type": "ObjectStorage"}}, virt.Values["dvcr"])
	want, err := model.NewSettings(1, map[string]any{"dvcr": map[string]any{"storage": map[string]any{"type": "ObjectStorage"}}})
	require.NoError(t, err)
	assert.Equal(t, want.Digest(), virt.Digest())

	prom := d.Cluster.Modules["prometheus"].Settings
	require.NotNil(t, prom)
	assert.Equal(t, 0, prom.Version, "no spec.version: 0")
	assert.Equal(t, map[string]any{"retentionDays": 15.0, "hosts": []any{"a", "b"}}, prom.Values, "numbers as encoding/json reads them")

	assert.Nil(t, d.Cluster.Modules["parca"].Settings, "a settings version without settings gives none")
	assert.NotContains(t, d.Cluster.Modules, "global", "global's settings are no module's")

	full, err := ParseKubectl("dump.yaml", readDump(t))
	require.NoError(t, err)
	dh := full.Cluster.Modules["deckhouse"].Settings
	require.NotNil(t, dh, "the deckhouse ModuleConfig's settings are the deckhouse module's too")
	assert.Equal(t, 1, dh.Version)
	assert.Equal(t, "Minimal", dh.Values["bundle"])
	assert.Nil(t, full.Cluster.Modules["parca"].Settings)
}

func TestParseKubectlChannels(t *testing.T) {
	for dkp, want := range map[string]string{
		"Alpha": "alpha", "Beta": "beta", "EarlyAccess": "early-access", "Stable": "stable", "RockSolid": "rock-solid",
		"rock-solid": "rock-solid", // modsolver's own spelling is read too
	} {
		d, err := ParseKubectl("mup.yaml", []byte(`
apiVersion: deckhouse.io/v1alpha2
kind: ModuleUpdatePolicy
metadata: {name: p}
spec: {releaseChannel: `+dkp+`}
---
apiVersion: deckhouse.io/v1alpha1
kind: ModuleConfig
metadata: {name: m}
spec: {enabled: true, updatePolicy: p}
`))
		require.NoError(t, err, dkp)
		assert.Equal(t, want, d.Cluster.Modules["m"].Channel, dkp)
	}
	assert.Len(t, kubeChannels, len(model.Channels), "every DKP channel has its DKP name")
	for _, ch := range kubeChannels {
		assert.True(t, model.IsChannel(ch), ch)
	}
}

func TestParseKubectlPolicySelectors(t *testing.T) {
	base := `
apiVersion: deckhouse.io/v1alpha1
kind: ModuleUpdatePolicy
metadata: {name: by-module}
spec:
  moduleReleaseSelector: {labelSelector: {matchLabels: {module: hello, source: example}}}
  releaseChannel: Beta
---
apiVersion: deckhouse.io/v1alpha1
kind: ModuleConfig
metadata: {name: hello}
spec: {enabled: true}
---
apiVersion: deckhouse.io/v1alpha1
kind: ModuleRelease
metadata:
  name: hello-v1.0.0
  labels: {module: hello, source: example}
spec: {moduleName: hello, version: v1.0.0}
status: {phase: Deployed}
`
	d, err := ParseKubectl("sel.yaml", []byte(base))
	require.NoError(t, err)
	assert.Equal(t, "beta", d.Cluster.Modules["hello"].Channel, "a v1alpha1 policy's selector matches the module and its source")
	assert.Equal(t, "1.0.0", d.Cluster.Modules["hello"].Version.String())

	d, err = ParseKubectl("sel.yaml", []byte(base+`---
apiVersion: deckhouse.io/v1alpha1
kind: ModuleUpdatePolicy
metadata: {name: by-source}
spec:
  moduleReleaseSelector: {labelSelector: {matchLabels: {source: example}}}
  releaseChannel: Alpha
`))
	require.NoError(t, err)
	assert.Empty(t, d.Cluster.Modules["hello"].Channel, "DKP does not update a module two policies select")
	require.Len(t, d.Warnings, 1)
	assert.Contains(t, d.Warnings[0], "several update policies")
}

func TestParseKubectlWarnings(t *testing.T) {
	d, err := ParseKubectl("w.yaml", []byte(`
apiVersion: deckhouse.io/v1alpha1
kind: ModuleRelease
metadata: {name: a-v1.0.0, labels: {source: elsewhere}}
spec: {moduleName: a, version: 1.0.0}
status: {phase: Deployed}
---
apiVersion: deckhouse.io/v1alpha1
kind: ModuleSource
metadata: {name: example}
---
apiVersion: deckhouse.io/v1alpha1
kind: ModuleConfig
metadata: {name: b}
spec: {enabled: true, updatePolicy: missing}
`))
	require.NoError(t, err)
	assert.False(t, d.Cluster.Modules["a"].On())
	assert.Nil(t, d.Cluster.Modules["a"].Version, "a release no ModuleConfig enables is not read as running")
	assert.Empty(t, d.Cluster.Modules["b"].Channel)
	require.Len(t, d.Warnings, 3)
	assert.Contains(t, d.Warnings[0], "no ModuleSource")
	assert.Contains(t, d.Warnings[1], "no ModuleConfig enables it")
	assert.Contains(t, d.Warnings[2], "update policy missing")
}

func TestParseKubectlSkipsOtherKinds(t *testing.T) {
	d, err := ParseKubectl("mixed.yaml", []byte(`
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: a}}
- {apiVersion: v1, kind: Pod, metadata: {name: b}}
- {apiVersion: deckhouse.io/v1alpha2, kind: Module, metadata: {name: parca}, spec: {packageVersion: v1.4.3}}
- {apiVersion: example.com/v1, kind: ModuleConfig, metadata: {name: x}, spec: {enabled: true}}
- {apiVersion: deckhouse.io/v1alpha1, kind: ModuleConfig, metadata: {name: y}, spec: {enabled: true}}
`))
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"Pod v1": 2, "Module deckhouse.io/v1alpha2": 1, "ModuleConfig example.com/v1": 1}, d.Skipped)
	assert.Equal(t, []string{"y"}, d.Cluster.ModuleNames())
	assert.Equal(t, "kubectl dump: skipped 1 Module deckhouse.io/v1alpha2 (not read by modsolver)\n"+
		"kubectl dump: skipped 1 ModuleConfig example.com/v1 (not read by modsolver)\n"+
		"kubectl dump: skipped 2 Pod v1 (not read by modsolver)", d.Summary())
}

func TestParseKubectlErrors(t *testing.T) {
	const mc = "apiVersion: deckhouse.io/v1alpha1\nkind: ModuleConfig\nmetadata: {name: m}\n"
	const rel = "apiVersion: deckhouse.io/v1alpha1\nkind: ModuleRelease\nmetadata: {name: r}\n"
	tests := []struct {
		name, text string
		line       int
		is         error
		says       string
	}{
		{"bad YAML", mc + "spec:\n  enabled: true\n\tsettings: {}\n", 6, ErrSyntax, "tab"},
		{"empty", "---\n", 0, ErrEmptyFile, "empty"},
		{"wrong type", mc + "spec:\n  enabled: maybe\n", 5, ErrSyntax, ""},
		{"version list", rel + "spec:\n  moduleName: a\n  version: [1]\nstatus: {phase: Deployed}\n", 6, ErrSyntax, "want a string"},
		{"no kind", "metadata: {name: m}\nspec: {enabled: true}\n", 1, model.ErrMissingField, "cluster-state file"},
		{"not a mapping", "apiVersion: v1\nkind: List\nitems:\n- just text\n", 4, ErrSyntax, "mapping"},
		{"no name", "apiVersion: deckhouse.io/v1alpha1\nkind: ModuleConfig\nspec: {enabled: true}\n", 1, model.ErrMissingField, "metadata.name"},
		{"bad channel", "apiVersion: deckhouse.io/v1alpha2\nkind: ModuleUpdatePolicy\nmetadata: {name: p}\nspec:\n  releaseChannel: Nightly\n", 5, model.ErrInvalidValue, "Nightly"},
		{"bad cluster channel", "apiVersion: deckhouse.io/v1alpha1\nkind: ModuleConfig\nmetadata: {name: deckhouse}\nspec:\n  settings:\n    releaseChannel: Fast\n", 6, model.ErrInvalidValue, "Fast"},
		{"bad version", rel + "spec:\n  moduleName: a\n  version: latest\nstatus: {phase: Deployed}\n", 6, model.ErrInvalidVersion, "latest"},
		{"negative settings version", mc + "spec:\n  enabled: true\n  version: -1\n  settings: {a: 1}\n", 6, model.ErrInvalidValue, "ModuleConfig m: spec.version"},
		{"fractional settings version", mc + "spec:\n  version: 1.5\n", 5, model.ErrInvalidValue, `spec.version is "1.5"`},
		{"settings version as text", mc + "spec:\n  version: \"1\"\n  settings: {a: 1}\n", 5, model.ErrInvalidValue, "ModuleConfig m: spec.version"},
		{"settings version list", mc + "spec:\n  version: [1]\n", 5, model.ErrInvalidValue, "spec.version is a list"},
		{"settings a list", mc + "spec:\n  enabled: true\n  settings: [a]\n", 6, model.ErrInvalidValue, "ModuleConfig m: spec.settings is a list"},
		{"settings text", mc + "spec:\n  settings: on\n", 5, model.ErrInvalidValue, "ModuleConfig m: spec.settings"},
		{"settings key not text", mc + "spec:\n  settings:\n    a: {1: x, 2: y}\n", 6, model.ErrInvalidValue, "spec.settings.a: key 1 is not a string"},
		{"settings not JSON", mc + "spec:\n  settings:\n    a: [.nan]\n", 6, model.ErrInvalidValue, "spec.settings.a[0]"},
		{"no module name", rel + "spec: {version: 1.0.0}\nstatus: {phase: Deployed}\n", 1, model.ErrMissingField, "moduleName"},
		{"two deployed", rel + "spec: {moduleName: a, version: 1.0.0}\nstatus: {phase: Deployed}\n---\n" + rel + "spec: {moduleName: a, version: 1.1.0}\nstatus: {phase: Deployed}\n", 7, model.ErrDuplicate, "two Deployed"},
		{"two DKP versions", "apiVersion: deckhouse.io/v1alpha1\nkind: DeckhouseRelease\nmetadata: {name: a}\nspec: {version: v1.73.0}\nstatus: {phase: Deployed}\n---\napiVersion: deckhouse.io/v1alpha1\nkind: DeckhouseRelease\nmetadata: {name: b}\nspec: {version: v1.74.0}\nstatus: {phase: Deployed}\n", 7, model.ErrDuplicate, "two Deployed DeckhouseReleases"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseKubectl("dump.yaml", []byte(tt.text))
			require.Error(t, err)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "dump.yaml", pe.File)
			assert.Equal(t, tt.line, pe.Line, err.Error())
			assert.ErrorIs(t, err, tt.is)
			assert.Contains(t, err.Error(), tt.says)
		})
	}
}

func TestIsKubectlDump(t *testing.T) {
	assert.True(t, IsKubectlDump(readDump(t)))
	assert.True(t, IsKubectlDump([]byte("---\n---\napiVersion: deckhouse.io/v1alpha1\nkind: ModuleConfig\n")))
	assert.False(t, IsKubectlDump([]byte("deckhouse: 1.73.3\nkubernetes: 1.30.0\n")))
	assert.False(t, IsKubectlDump([]byte("kind: List\n")), "a kind alone is not enough")
	assert.False(t, IsKubectlDump([]byte("{")))
	assert.False(t, IsKubectlDump(nil))
}

// names are the flags of a command, as cmd/modsolver gives them.
var flagNames = FactNames{FactDeckhouse: model.Field("--deckhouse"), FactKubernetes: model.Field("--kubernetes"), FactEdition: model.Field("--edition"), FactBundle: model.Field("--bundle")}

func TestKubectlStateMissingFacts(t *testing.T) {
	d, err := ParseKubectl("dump.yaml", []byte("apiVersion: deckhouse.io/v1alpha1\nkind: ModuleConfig\nmetadata: {name: m}\nspec: {enabled: true}\n"))
	require.NoError(t, err)
	cat := mustCatalog(t)
	_, err = d.State(cat, nil, flagNames)
	require.Error(t, err)
	var missing []Fact
	for _, e := range err.(model.InputErrors) {
		var mf *MissingFactError
		require.ErrorAs(t, e, &mf)
		assert.ErrorIs(t, e, model.ErrMissingField)
		assert.Contains(t, e.Error(), "give it with "+flagNames[mf.Fact].String())
		assert.Contains(t, e.Error(), "dump.yaml: ")
		missing = append(missing, mf.Fact)
	}
	assert.Equal(t, Facts(), missing, "every missing fact is named, at once")

	_, err = d.State(cat, &model.ClusterState{Deckhouse: model.MustParseVersion("1.73.0"), Edition: "ee", Bundle: "Default"}, flagNames)
	var mf *MissingFactError
	require.ErrorAs(t, err, &mf)
	assert.Equal(t, FactKubernetes, mf.Fact)
	assert.EqualError(t, err, "dump.yaml: invalid input: missing field: the Kubernetes version (a dump holds it as its Nodes' kubelet version) is not known; give it with --kubernetes")
}

func TestKubectlStateGivenFactsWin(t *testing.T) {
	d, err := ParseKubectl("dump.yaml", readDump(t))
	require.NoError(t, err)
	given := &model.ClusterState{Kubernetes: model.MustParseVersion("1.31.2"), Edition: "ee", Bundle: "Default",
		Platform: map[string]model.Version{"openshift": model.MustParseVersion("4.16")}, AllowExperimentalModules: true}
	c, err := d.State(mustCatalog(t), given, flagNames)
	require.NoError(t, err)
	assert.Equal(t, "1.73.3", c.Deckhouse.String(), "the dump's, as nothing else was given")
	assert.Equal(t, "1.31.2", c.Kubernetes.String())
	assert.Equal(t, "ee", c.Edition)
	assert.Equal(t, "Default", c.Bundle, "the given bundle wins over the dump's Minimal")
	assert.Equal(t, "early-access", c.ReleaseChannel)
	assert.Equal(t, "4.16.0", c.Platform["openshift"].String())
	assert.True(t, c.AllowExperimentalModules)
	assert.Equal(t, "Minimal", d.Cluster.Bundle, "the dump itself is not changed")

	given.Deckhouse, given.ReleaseChannel = model.MustParseVersion("1.74.0"), "stable"
	c, err = d.State(mustCatalog(t), given, flagNames)
	require.NoError(t, err)
	assert.Equal(t, "1.74.0", c.Deckhouse.String())
	assert.Equal(t, "stable", c.ReleaseChannel)
}

func TestKubectlStateSources(t *testing.T) {
	d, err := ParseKubectl("dump.yaml", readDump(t))
	require.NoError(t, err)
	given := &model.ClusterState{Kubernetes: model.MustParseVersion("1.31.2"), Edition: "ee"}
	single := mustCatalog(t)
	c, err := d.State(single, given, flagNames)
	require.NoError(t, err)
	assert.Empty(t, c.Modules["parca"].Source, "one catalog: no source to choose")

	merged, err := model.Merge([]model.Source{{Name: "foxtrot", Priority: 1, Catalog: single}, {Name: "other", Catalog: single}})
	require.NoError(t, err)
	c, err = d.State(merged, given, flagNames)
	require.NoError(t, err)
	assert.Equal(t, "foxtrot", c.Modules["parca"].Source)
	assert.Equal(t, "foxtrot", c.Modules["console"].Source)
	assert.Empty(t, c.Modules["dashboard"].Source, "a module that does not run has no source")
}

func TestFactsCoverEveryFact(t *testing.T) {
	for _, f := range Facts() {
		assert.NotEmpty(t, f.String())
		empty, full := &model.ClusterState{}, &model.ClusterState{Deckhouse: model.MustParseVersion("1.0.0"), Kubernetes: model.MustParseVersion("1.0.0"), Edition: "ee", Bundle: "Default"}
		assert.False(t, facts[f].has(empty), f)
		facts[f].copy(empty, full)
		assert.True(t, facts[f].has(empty), f)
	}
	assert.Len(t, Facts(), len(facts))
}

func mustCatalog(t *testing.T) *model.Catalog {
	t.Helper()
	cat, err := model.NewCatalog([]*model.Module{
		{Name: "parca", Releases: []*model.Release{{Version: model.MustParseVersion("1.4.3")}}},
		{Name: "console", Releases: []*model.Release{{Version: model.MustParseVersion("0.9.1")}}},
		{Name: "dashboard", Releases: []*model.Release{{Version: model.MustParseVersion("0.1.0")}}},
	})
	require.NoError(t, err)
	return cat
}

func TestParseKubectlJSON(t *testing.T) {
	data := []byte(`{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "deckhouse.io/v1alpha1", "kind": "ModuleConfig", "metadata": {"name": "m"}, "spec": {"enabled": true}},
  {"apiVersion": "deckhouse.io/v1alpha1", "kind": "ModuleRelease", "metadata": {"name": "m-v1.2.0"},
   "spec": {"moduleName": "m", "version": "v1.2.0"}, "status": {"phase": "Deployed"}}]}`)
	require.True(t, IsKubectlDump(data), "kubectl's -o json is read too")
	d, err := ParseKubectl("dump.json", data)
	require.NoError(t, err)
	assert.Equal(t, "1.2.0", d.Cluster.Modules["m"].Version.String())
}
