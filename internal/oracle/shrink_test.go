package oracle_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/randscen"
)

// TestShrink shrinks the scenario file named by MODSOLVER_SHRINK: it
// deletes one YAML element at a time (a module, a release, a requirement,
// a request field…) and keeps each deletion after which the solver and
// the oracle still disagree in the same way, then writes the result
// beside the input as <name>.min.yaml. Its expect section is the
// oracle's. Without the variable it does nothing.
func TestShrink(t *testing.T) {
	file := os.Getenv("MODSOLVER_SHRINK")
	if file == "" {
		t.Skip("set MODSOLVER_SHRINK to a scenario file to shrink it")
	}
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var root yaml.Node
	require.NoError(t, yaml.Unmarshal(data, &root))
	tmp := filepath.Join(t.TempDir(), "probe.yaml")
	kind := func() string {
		out, err := yaml.Marshal(&root)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(tmp, out, 0o644))
		sc, err := catalog.LoadScenario(tmp)
		if err != nil || sc.Expect.Error {
			return ""
		}
		d := compare(&randscen.Scenario{Catalog: sc.Catalog, Cluster: sc.Cluster, Request: sc.Request})
		return kindOf(d.problem)
	}
	want := kind()
	require.NotEmpty(t, want, "%s: solver and oracle agree", file)
	for changed := true; changed; {
		changed = false
		for _, parent := range containers(root.Content[0]) {
			for i := 0; i < len(parent.Content); {
				step := 1
				if parent.Kind == yaml.MappingNode {
					step = 2
				}
				if isHeader(parent, root.Content[0], i) {
					i += step
					continue
				}
				saved := parent.Content
				parent.Content = append(append([]*yaml.Node{}, saved[:i]...), saved[i+step:]...)
				if kind() == want {
					changed = true
					continue
				}
				parent.Content = saved
				i += step
			}
		}
	}
	out := filepath.Join(filepath.Dir(file), strings.TrimSuffix(filepath.Base(file), ".yaml")+".min.yaml")
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	require.NoError(t, enc.Encode(&root))
	require.NoError(t, os.WriteFile(out, buf.Bytes(), 0o644))
	t.Logf("wrote %s (%s)", out, want)
}

// kindOf is a disagreement's kind: its text up to the first colon or
// parenthesis (a solver error whole), so that shrinking keeps the same failure.
func kindOf(problem string) string {
	if strings.HasPrefix(problem, "solver error") {
		return problem // the error itself, not bad input met on the way
	}
	if rest, ok := strings.CutPrefix(problem, "checker: ["); ok {
		rule, _, _ := strings.Cut(rest, " ")
		return "checker " + rule // the first rule broken
	}
	if i := strings.IndexAny(problem, ":,("); i >= 0 {
		return problem[:i]
	}
	return problem
}

// containers lists every mapping and sequence under n, deepest first.
func containers(n *yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	for _, c := range n.Content {
		out = append(out, containers(c)...)
	}
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		out = append(out, n)
	}
	return out
}

// isHeader keeps the top-level keys a scenario needs.
func isHeader(parent, top *yaml.Node, i int) bool {
	if parent != top {
		return false
	}
	switch parent.Content[i].Value {
	case "name", "description", "catalog", "cluster", "expect":
		return true
	}
	return false
}
