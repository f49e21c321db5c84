package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// kudoData is the shared KUDO data (../shared/data/kudo), read in place.
func kudoData(t *testing.T, sub string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "data", "kudo", sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the shared KUDO data is absent: %v", err)
	}
	return dir
}

// kudoRecord is one record of kudo-operators.yaml, the data's own list of
// its packages.
type kudoRecord struct {
	Name              string  `yaml:"name"`
	OperatorVersion   string  `yaml:"operatorVersion"`
	AppVersion        *string `yaml:"appVersion"`
	KudoVersion       *string `yaml:"kudoVersion"`
	KubernetesVersion *string `yaml:"kubernetesVersion"`
	Files             string  `yaml:"files"`
	Dependencies      []struct {
		Package string `yaml:"package"`
	} `yaml:"dependencies"`
}

// TestKUDOData loads the whole KUDO data folder (operators, variants and
// KUDO's fixtures) and checks it against the data's README and its list
// of packages.
func TestKUDOData(t *testing.T) {
	root := kudoData(t, "")
	cat, rep, err := Load(root)
	require.NoError(t, err)
	t.Log(rep.Summary())
	assert.Equal(t, FormatKUDO, rep.Format)

	// The README's figures: 93 packages of 25 operators; 46 use the key
	// version:, 26 have no appVersion, 25 no apiVersion, 6 no kudoVersion.
	// spark's beta1 is the one package not loaded.
	assert.Equal(t, 25, cat.Len())
	assert.Equal(t, 92, cat.ReleaseCount())
	assert.Equal(t, 46, rep.Counts[kudoOldKey])
	assert.Equal(t, 26, rep.Counts[kudoNoAppVersion])
	assert.Equal(t, 25, rep.Counts[kudoNoAPIVersion])
	assert.Equal(t, 6, rep.Counts[kudoNoKudoVersion])
	assert.Equal(t, 4, rep.Counts[versionsNormalised], "mysql's four 5.7")
	assert.Equal(t, 1, rep.Counts[kudoNotKube], "druid's 0.16.0")
	assert.Equal(t, 1, rep.Counts[kudoRaised], "flink-demo 0.1.5")
	assert.Equal(t, 1, rep.Counts[kudoNames], "CockroachDB")
	assert.Equal(t, 1, rep.Counts[kudoDupKey], "a zookeeper variant writes appVersion twice; the data lists it as 3.4.10, the last")
	assert.Equal(t, 7, rep.Counts[kudoDeps], "flink-demo 0.1.6 and 0.1.5 three each, kafka 1.4.0 one")
	assert.Zero(t, rep.Counts[kudoOutside], "every target exists in the data")

	// Skipped: spark beta1, and the four fixtures: three copies of one
	// parent (two listed twice), whose child the data does not hold, and
	// operator 2.0, whose ../dependency it does not hold either.
	reasons := map[string]int{}
	for _, s := range rep.Skipped {
		first, _, _ := strings.Cut(s.Reason, ": ")
		reasons[first]++
	}
	assert.Equal(t, map[string]int{"operatorVersion": 1, "listed twice": 2, "KudoOperator task cannot be met": 2}, reasons)
	assert.Contains(t, kudoSkipped(rep, "operators/spark/beta1"), `"beta1"`)

	kube151 := 0
	for _, m := range cat.Modules() {
		for _, r := range m.Releases {
			if k := r.Requirements.Kubernetes; k != nil && k.Text == ">= 1.5.1" {
				kube151++
			}
		}
	}
	assert.Equal(t, 6, kube151, "kubernetesVersion 1.5.1 in six files, read as written")

	t.Run("every package of the data's list", func(t *testing.T) { kudoCheckRecords(t, cat) })
	t.Run("dependencies", func(t *testing.T) {
		deps := func(name, version string) map[string]string {
			out := map[string]string{}
			for _, d := range kudoReleaseOf(t, cat, name, version).Requirements.Modules {
				out[d.Module] = d.Constraint.Text
			}
			return out
		}
		pinned := map[string]string{"kafka": "= 2.5.10301", "zookeeper": "= 3.4.14000301", "flink": "= 1.7.2000201"}
		assert.Equal(t, pinned, deps("flink-demo", "0.1.6"))
		assert.Equal(t, pinned, deps("flink-demo", "0.1.5"), "each operatorVersion it pins ships with one appVersion")
		assert.Equal(t, map[string]string{"zookeeper": "= 3.4.14000300"}, deps("kafka", "2.5.10400"))
		assert.Equal(t, ">= 0.15.0", kudoReleaseOf(t, cat, "flink-demo", "0.1.5").Requirements.Platform[kudoComponent].Text)
	})
	t.Run("latest is KUDO's", func(t *testing.T) {
		kafka := cat.Module("kafka").Releases
		assert.Equal(t, "2.5.1010302", model.VersionString(kafka[len(kafka)-1].Version),
			"operatorVersion 1.3.2 with app 2.5.1 is KUDO's latest, above 1.4.0 with app 2.5.0")
		for _, name := range []string{"rest-proxy", "confluent-rest-proxy", "elasticsearch", "elastic"} {
			assert.NotNil(t, cat.Module(name), "renamed operators are distinct modules: %s", name)
		}
	})
}

// kudoCheckRecords finds every record of kudo-operators.yaml in the
// catalog, with its kudo and Kubernetes requirements.
func kudoCheckRecords(t *testing.T, cat *model.Catalog) {
	data, err := os.ReadFile(filepath.Join(kudoData(t, ""), "kudo-operators.yaml"))
	require.NoError(t, err)
	var list struct {
		Operators []kudoRecord `yaml:"operators"`
	}
	require.NoError(t, yaml.Unmarshal(data, &list))
	require.Len(t, list.Operators, 93)
	packed := map[string]bool{}
	for _, r := range list.Operators {
		packed[r.Name] = packed[r.Name] || r.AppVersion != nil
	}
	found := 0
	for _, r := range list.Operators {
		op, err := model.ParseVersion(r.OperatorVersion)
		if err != nil {
			assert.Equal(t, "beta1", r.OperatorVersion)
			continue
		}
		var app model.Version
		if r.AppVersion != nil {
			app = model.MustParseVersion(*r.AppVersion)
		}
		v, err := kudoReleaseVersion(app, op, packed[r.Name])
		require.NoError(t, err)
		rel := kudoReleaseOf(t, cat, r.Name, model.VersionString(v))
		found++
		want := ">= 0.0.0-0"
		if r.KudoVersion != nil {
			want = ">= " + *r.KudoVersion
		}
		if len(r.Dependencies) > 0 {
			want = ">= 0.15.0"
		}
		assert.Equal(t, want, rel.Requirements.Platform[kudoComponent].Text, "%s %s", r.Name, r.Files)
		switch {
		case r.KubernetesVersion == nil || strings.HasPrefix(*r.KubernetesVersion, "0."):
			assert.Nil(t, rel.Requirements.Kubernetes, "%s %s", r.Name, r.Files)
		default:
			assert.Equal(t, ">= "+*r.KubernetesVersion, rel.Requirements.Kubernetes.Text, "%s %s", r.Name, r.Files)
		}
		assert.Len(t, rel.Requirements.Modules, len(r.Dependencies), "%s %s", r.Name, r.Files)
	}
	assert.Equal(t, 92, found)
}

// TestKUDODataIndexes loads KUDO's index files, detected by content.
func TestKUDODataIndexes(t *testing.T) {
	dir := kudoData(t, "index-format")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 4)
	for _, e := range entries {
		cat, rep, err := Load(filepath.Join(dir, e.Name()))
		require.NoError(t, err, e.Name())
		assert.Equal(t, FormatKUDO, rep.Format, e.Name())
		assert.Empty(t, rep.Skipped, e.Name())
		assert.Positive(t, cat.Len(), e.Name())
	}
	cat, _, err := Load(filepath.Join(dir, "pkg_kudoctl_cmd_testdata_index.yaml"))
	require.NoError(t, err)
	assert.Equal(t, []string{"5.7.100", "5.8.200"}, kudoVersions(cat, "mysql"), "mysql's index spells 5.7 as a string")
}
