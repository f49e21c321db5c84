package oracle_test

import (
	"bytes"
	"fmt"
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
	min, want, _ := shrink(t, data, func(sc *catalog.Scenario) string {
		return kindOf(compare(&randscen.Scenario{Catalog: sc.Catalog, Cluster: sc.Cluster, Request: sc.Request}).problem)
	})
	out := filepath.Join(filepath.Dir(file), strings.TrimSuffix(filepath.Base(file), ".yaml")+".min.yaml")
	require.NoError(t, os.WriteFile(out, min, 0o644))
	t.Logf("wrote %s (%s)", out, want)
}

// shrink deletes one YAML element of the scenario data at a time and
// keeps each deletion after which kind still says what it said of the
// whole; it returns the smallest scenario found, that kind, and the panics
// kind raised on the way. A deletion
// that leaves bad input (a scenario that does not load, a cluster state or
// request the catalog rejects, as when a module's source no longer holds
// it) is undone: kind reads only valid scenarios, as Solve and the oracle
// do. A panic in kind is a kind of its own, so that a panic found on the
// way is never taken for the failure being shrunk.
func shrink(t *testing.T, data []byte, kind func(*catalog.Scenario) string) (min []byte, want string, panics []string) {
	t.Helper()
	var root yaml.Node
	require.NoError(t, yaml.Unmarshal(data, &root))
	tmp := filepath.Join(t.TempDir(), "probe.yaml")
	probe := func() string {
		out, err := yaml.Marshal(&root)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(tmp, out, 0o644))
		sc, err := catalog.LoadScenario(tmp)
		if err != nil || sc.Expect.Error || validate(sc) != nil {
			return ""
		}
		k := kindOrPanic(sc, kind)
		if strings.HasPrefix(k, "panic: ") {
			panics = append(panics, k)
		}
		return k
	}
	want = probe()
	require.NotEmpty(t, want, "nothing to shrink: the scenario is bad input, or kind says nothing of it")
	for changed := true; changed; {
		changed = false
		for _, parent := range containers(root.Content[0]) {
			changed = deleteEach(parent, root.Content[0], func() bool { return probe() == want }) || changed
		}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	require.NoError(t, enc.Encode(&root))
	return buf.Bytes(), want, panics
}

// deleteEach deletes each element of parent in turn (a mapping's key and
// value together), keeping a deletion when keep says so; it reports
// whether it kept any.
func deleteEach(parent, top *yaml.Node, keep func() bool) bool {
	step := 1
	if parent.Kind == yaml.MappingNode {
		step = 2
	}
	changed := false
	for i := 0; i < len(parent.Content); {
		if isHeader(parent, top, i) {
			i += step
			continue
		}
		saved := parent.Content
		parent.Content = append(append([]*yaml.Node{}, saved[:i]...), saved[i+step:]...)
		if keep() {
			changed = true
			continue
		}
		parent.Content = saved
		i += step
	}
	return changed
}

// validate checks a scenario's inputs as Solve does before it solves.
func validate(sc *catalog.Scenario) error {
	if err := sc.Cluster.Validate(sc.Catalog); err != nil {
		return err
	}
	return sc.Request.Validate(sc.Catalog, sc.Cluster)
}

// kindOrPanic is kind(sc), or the text of the panic it raised.
func kindOrPanic(sc *catalog.Scenario, kind func(*catalog.Scenario) string) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprintf("panic: %v", r)
		}
	}()
	return kind(sc)
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
	case "name", "description", "catalog", "catalogs", "cluster", "expect":
		return true
	}
	return false
}

// TestShrinkSeveralSources shrinks a scenario of two sources whose
// cluster state names a module's source, so that many deletions leave bad
// input (the module gone from that source): the shrinker must undo them
// without calling the solver or the oracle on them, and end with a
// smaller scenario of which the same holds.
func TestShrinkSeveralSources(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "scenarios", "r23-unlisted-dependency-crosses-sources-others.yaml")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	monSource := func(sc *catalog.Scenario) string {
		d := compare(&randscen.Scenario{Catalog: sc.Catalog, Cluster: sc.Cluster, Request: sc.Request})
		if d.problem != "" {
			return "disagree: " + kindOf(d.problem)
		}
		v, on := d.ans.Selected["mon"]
		if !on {
			return "mon off"
		}
		return fmt.Sprintf("mon %s from %s", v, d.ans.Sources["mon"])
	}
	min, want, panics := shrink(t, data, monSource)
	require.Equal(t, "mon 1.3.0 from main", want)
	require.Empty(t, panics)
	require.Less(t, len(min), len(data)/2, "the shrinker deletes what does not matter")
	probe := filepath.Join(t.TempDir(), "min.yaml")
	require.NoError(t, os.WriteFile(probe, min, 0o644))
	sc, err := catalog.LoadScenario(probe)
	require.NoError(t, err)
	require.NoError(t, validate(sc))
	require.Equal(t, want, monSource(sc))
}
