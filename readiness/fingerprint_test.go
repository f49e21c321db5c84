package readiness_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/bench"
	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/randscen"
	"github.com/modsolver/modsolver/internal/report"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/readiness"
	"github.com/modsolver/modsolver/solver"
)

// The fingerprint that made Readiness's groups before the comparison by
// structure (D190, D426), kept here, as it was, as the reference that
// comparison is held to: the answer marshalled to JSON without its
// stats, each text of the scenario's own platform versions replaced by
// its component's name where it stands as a whole version. Two answers
// shared a group when their fingerprints were equal.

func fingerprint(req *model.Request, a readiness.Answer) string {
	if a.Err != nil {
		return "error: " + a.Err.Error()
	}
	res := *a.Result
	res.Stats = model.Stats{}
	data, err := json.Marshal(&res)
	if err != nil {
		panic("internal error: a result does not marshal: " + err.Error())
	}
	text := string(data)
	vs := readiness.PlatformVersions(req)
	for _, c := range slices.Sorted(maps.Keys(vs)) {
		text = fingerprintReplace(text, model.VersionString(vs[c]), "{"+c+"}")
	}
	return text
}

func fingerprintReplace(s, old, repl string) string {
	if old == "" {
		return s
	}
	var b strings.Builder
	for {
		k := strings.Index(s, old)
		if k < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := k + len(old)
		if fingerprintPartOfVersion(s, k, end) {
			b.WriteString(s[:end])
		} else {
			b.WriteString(s[:k] + repl)
		}
		s = s[end:]
	}
}

func fingerprintPartOfVersion(s string, k, end int) bool {
	digit := func(i int) bool { return i >= 0 && i < len(s) && s[i] >= '0' && s[i] <= '9' }
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	switch {
	case digit(k-1) || (k > 0 && s[k-1] == '.'):
		return true
	case digit(end) || (end < len(s) && (s[end] == '.' || s[end] == '-' || s[end] == '+') && (digit(end+1) || end+1 < len(s) && letter(s[end+1]))):
		return true
	}
	return false
}

// fingerprintGroups groups answers as Readiness did: each in the group
// of the first earlier answer with the same fingerprint.
func fingerprintGroups(reqs []*model.Request, answers []readiness.Answer) []int {
	first := map[string]int{}
	out := make([]int, len(answers))
	for i, a := range answers {
		fp := fingerprint(reqs[i], a)
		if _, ok := first[fp]; !ok {
			first[fp] = i
		}
		out[i] = first[fp]
	}
	return out
}

// readinessGroups groups answers as Readiness does now.
func readinessGroups(cluster *model.ClusterState, reqs []*model.Request, answers []readiness.Answer) []int {
	r := readiness.New(cluster, reqs, nil)
	var out []int
	for i, a := range answers {
		for _, c := range r.Add(i, a) {
			out = append(out, c.Group)
		}
	}
	return out
}

// whatIfBatch is one batch the tests answer: a catalog, a cluster and
// its scenarios, answered with opts.
type whatIfBatch struct {
	name    string
	cat     *solver.Compiled
	cluster *model.ClusterState
	reqs    []*model.Request
	opts    []solver.Option
}

func (b whatIfBatch) answers(t *testing.T) []readiness.Answer {
	t.Helper()
	out := make([]readiness.Answer, len(b.reqs))
	err := b.cat.WhatIf(context.Background(), b.cluster, b.reqs, func(i int, a solver.Answer) error {
		out[i] = readiness.Answer{Result: a.Result, Err: a.Err}
		return nil
	}, b.opts...)
	require.NoError(t, err, b.name)
	return out
}

// tally counts what the batches held: enough cells that join an earlier
// group, and enough that join it only through their own version texts,
// say that the test compared more than answers alike in every byte.
type tally struct{ batches, cells, joined, byVersion, pairs int }

// maxAllPairs bounds the batches whose answers check compares pair by
// pair; in a larger one it compares each with the first of each group.
const maxAllPairs = 100

// check holds Readiness's groups of b's answers to the fingerprint's,
// and same, pair by pair, to equal fingerprints.
func (n *tally) check(t *testing.T, b whatIfBatch) {
	t.Helper()
	answers := b.answers(t)
	want := fingerprintGroups(b.reqs, answers)
	require.Equal(t, want, readinessGroups(b.cluster, b.reqs, answers), "%s: the groups", b.name)
	fps := make([]string, len(answers))
	raw := map[string]int{}
	for i, a := range answers {
		fps[i] = fingerprint(b.reqs[i], a)
		rawFP := fingerprint(nil, a) // no version read as a placeholder
		if _, ok := raw[rawFP]; !ok {
			raw[rawFP] = i
		}
		if want[i] != i {
			n.joined++
			if raw[rawFP] != want[i] {
				n.byVersion++
			}
		}
	}
	for i := range answers {
		for j := range i {
			if len(answers) > maxAllPairs && want[j] != j {
				continue // a large batch: each answer against each group's first
			}
			n.pairs++
			if fps[i] == fps[j] != readiness.SameAnswers(b.reqs[i], answers[i], b.reqs[j], answers[j]) {
				require.Failf(t, "same differs from the fingerprint", "%s: scenarios %d and %d: equal fingerprints %v", b.name, j, i, fps[i] == fps[j])
			}
		}
	}
	n.batches++
	n.cells += len(answers)
}

func (n *tally) log(t *testing.T) {
	t.Logf("%d batches, %d cells, %d pairs: %d cells join an earlier group, %d of them through their own platform version texts",
		n.batches, n.cells, n.pairs, n.joined, n.byVersion)
	assert.Positive(t, n.byVersion, "no cell joined a group through its own version texts: the batches test too little")
}

// heldBackOrNot answers a batch as JSON does (with held-back reasons) and
// as the table and the page do (without), whose answers differ.
var heldBackOrNot = [][]solver.Option{{solver.WithWorkers(2)}, {solver.WithWorkers(2), solver.WithoutHeldBack()}}

// TestGroupsAsFingerprintOnDemo: every demo matrix the CLI's tests ask
// for, the README's among them, each pair of a DKP list and a Kubernetes
// list they give, on update-all and on the demo request.
func TestGroupsAsFingerprintOnDemo(t *testing.T) {
	cat, err := catalog.Demo()
	require.NoError(t, err)
	compiled, err := solver.Compile(cat)
	require.NoError(t, err)
	cluster, demoReq, err := catalog.DemoState()
	require.NoError(t, err)
	require.NoError(t, cluster.Validate(cat))
	dkp := []string{"", "1.72.4", "1.72.4,1.73.0", "1.73.0,1.72.4", "1.72.4,1.73.0,1.74.0,1.75.1", "1.72.0,1.73.0,1.74.0"}
	kube := []string{"", "1.30.8", "1.31.2", "1.32.1", "1.31.2,1.32.1", "1.32.1,1.31.2", "1.29.1,1.30.8,1.31.2,1.32.1",
		"1.28.0,1.29.1,1.30.8,1.31.2,1.32.1,1.33.0", "1.29.0,1.31.0,1.32.0"}
	var n tally
	for _, d := range dkp {
		for _, k := range kube {
			m := &report.Matrix{Deckhouse: versions(d, cluster.Deckhouse), Kubernetes: versions(k, cluster.Kubernetes)}
			for _, base := range []*model.Request{{UpdateAll: true}, demoReq} {
				_, reqs := m.Requests(base)
				for _, opts := range heldBackOrNot {
					n.check(t, whatIfBatch{name: fmt.Sprintf("--deckhouse %q --kubernetes %q", d, k), cat: compiled, cluster: cluster, reqs: reqs, opts: opts})
				}
			}
		}
	}
	n.log(t)
}

// versions reads a comma-separated list, or now when it is empty, as
// `whatif` reads --deckhouse and --kubernetes.
func versions(list string, now model.Version) []model.Version {
	if list == "" {
		return []model.Version{now}
	}
	var out []model.Version
	for v := range strings.SplitSeq(list, ",") {
		out = append(out, model.MustParseVersion(v))
	}
	return out
}

// TestGroupsAsFingerprintOnScenarios: every scenario of testdata and the
// shared set, its request asked with its own platform versions and on
// versions near them and the cluster's.
func TestGroupsAsFingerprintOnScenarios(t *testing.T) {
	var n tally
	asking := 0
	for _, sc := range scenariotest.All(t, "..") {
		if platformQuestion(sc.Request) {
			asking++
		}
		compiled, err := solver.Compile(sc.Catalog)
		require.NoError(t, err, sc.File)
		reqs := append([]*model.Request{sc.Request}, nearPlatforms(sc.Cluster, sc.Request, 11, seedOf(sc.Name()))...)
		for _, opts := range heldBackOrNot {
			n.check(t, whatIfBatch{name: sc.File, cat: compiled, cluster: sc.Cluster, reqs: reqs, opts: opts})
		}
	}
	t.Logf("%d scenarios ask about a platform version", asking)
	n.log(t)
}

// TestGroupsAsFingerprintOnRandomScenarios: internal/randscen's
// scenarios over many seeds, each request on several platforms.
func TestGroupsAsFingerprintOnRandomScenarios(t *testing.T) {
	seeds := uint64(400)
	if testing.Short() {
		seeds = 50
	}
	var n tally
	for seed := range seeds {
		sc := randscen.Generate(seed)
		compiled, err := solver.Compile(sc.Catalog)
		require.NoError(t, err, "seed %d", seed)
		reqs := append([]*model.Request{sc.Request}, nearPlatforms(sc.Cluster, sc.Request, 9, seed)...)
		for _, opts := range heldBackOrNot {
			n.check(t, whatIfBatch{name: fmt.Sprintf("seed %d", seed), cat: compiled, cluster: sc.Cluster, reqs: reqs, opts: opts})
		}
	}
	n.log(t)
}

// TestGroupsAsFingerprintOnGeneratedBatch: the benchmark's what-if batch
// of 1,000 platform scenarios (bench.PlatformScenarios), on the S
// catalog, as `modsolver bench` answers it.
func TestGroupsAsFingerprintOnGeneratedBatch(t *testing.T) {
	in := bench.Generate(bench.SizeS, 1)
	compiled, err := solver.Compile(in.Catalog)
	require.NoError(t, err)
	var n tally
	n.check(t, whatIfBatch{name: "S whatif-1000", cat: compiled, cluster: in.Cluster, reqs: in.WhatIf(1000), opts: []solver.Option{solver.WithoutHeldBack()}})
	n.log(t)
}

// platformQuestion says whether req asks about a platform version.
func platformQuestion(req *model.Request) bool {
	return req.Platform.Deckhouse != nil || req.Platform.Kubernetes != nil || len(req.Platform.Components) > 0
}

// nearPlatforms makes n copies of req, each on DKP, Kubernetes and
// component versions near those req asks about or, where it asks about
// none, the cluster's; some left as req has them.
func nearPlatforms(cluster *model.ClusterState, req *model.Request, n int, seed uint64) []*model.Request {
	rng := rand.New(rand.NewPCG(seed, 11))
	near := func(asked, now model.Version) model.Version {
		base := asked
		if base == nil {
			base = now
		}
		if base == nil || rng.IntN(5) == 0 {
			return asked
		}
		minor := max(int(base.Minor())+rng.IntN(5)-2, 0)
		return model.MustParseVersion(fmt.Sprintf("%d.%d.%d", base.Major(), minor, rng.IntN(4)))
	}
	components := slices.Sorted(maps.Keys(cluster.Platform))
	for c := range req.Platform.Components {
		if !slices.Contains(components, c) {
			components = append(components, c)
		}
	}
	slices.Sort(components)
	out := make([]*model.Request, n)
	for i := range out {
		r := req.Clone()
		r.Platform.Deckhouse = near(req.Platform.Deckhouse, cluster.Deckhouse)
		r.Platform.Kubernetes = near(req.Platform.Kubernetes, cluster.Kubernetes)
		for _, c := range components {
			if v := near(req.Platform.Components[c], cluster.Platform[c]); v != nil {
				if r.Platform.Components == nil {
					r.Platform.Components = map[string]model.Version{}
				}
				r.Platform.Components[c] = v
			}
		}
		out[i] = r
	}
	return out
}

// seedOf draws a seed from a name, so that every checkout draws alike.
func seedOf(name string) uint64 {
	var h uint64 = 14695981039346656037
	for i := range len(name) {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	return h
}

// TestGroupsWhereJSONDiffered: the few texts on which the fingerprint
// read JSON rather than the text, which no batch above has. JSON writes
// "&" as \u0026, whose last digit made a version after it look like the
// tail of a longer one, so "&1.73.0" kept its text and two such answers
// stayed apart; the text has a whole version there, so they now share a
// group. JSON writes every invalid UTF-8 byte as U+FFFD, so two answers
// that differed by such bytes shared a group; they now stay apart.
func TestGroupsWhereJSONDiffered(t *testing.T) {
	reqs := []*model.Request{deckhouseReq("1.73.0"), deckhouseReq("1.74.0")}
	summary := func(text string) readiness.Answer {
		return readiness.Answer{Result: &model.Result{Status: model.StatusUnsatisfiable, Explanation: &model.Explanation{Summary: text}}}
	}
	cluster := &model.ClusterState{Deckhouse: model.MustParseVersion("1.72.0"), Kubernetes: model.MustParseVersion("1.30.0")}
	amp := []readiness.Answer{summary("requires deckhouse >=1.70&1.73.0"), summary("requires deckhouse >=1.70&1.74.0")}
	assert.Equal(t, []int{0, 1}, fingerprintGroups(reqs, amp))
	assert.Equal(t, []int{0, 0}, readinessGroups(cluster, reqs, amp))
	invalid := []readiness.Answer{summary("module \xff"), summary("module \xfe")}
	assert.Equal(t, []int{0, 0}, fingerprintGroups(reqs, invalid))
	assert.Equal(t, []int{0, 1}, readinessGroups(cluster, reqs, invalid))
	errs := []readiness.Answer{{Err: errors.New("bad 1.73.0")}, {Err: errors.New("bad 1.74.0")}}
	assert.Equal(t, fingerprintGroups(reqs, errs), readinessGroups(cluster, reqs, errs), "an error's text is read as it is")
}

func deckhouseReq(dkp string) *model.Request {
	return &model.Request{UpdateAll: true, Platform: model.Platform{Deckhouse: model.MustParseVersion(dkp)}}
}

// BenchmarkGroups times the grouping of the benchmark's what-if batch of
// 1,000 platform scenarios on the M catalog (solved once, before the
// timing), by the fingerprint and by Readiness; it checks first that
// both group alike.
func BenchmarkGroups(b *testing.B) {
	in := bench.Generate(bench.SizeM, 1)
	compiled, err := solver.Compile(in.Catalog)
	require.NoError(b, err)
	reqs := in.WhatIf(1000)
	answers := make([]readiness.Answer, len(reqs))
	require.NoError(b, compiled.WhatIf(context.Background(), in.Cluster, reqs, func(i int, a solver.Answer) error {
		answers[i] = readiness.Answer{Result: a.Result, Err: a.Err}
		return nil
	}, solver.WithoutHeldBack()))
	require.Equal(b, fingerprintGroups(reqs, answers), readinessGroups(in.Cluster, reqs, answers))
	b.Run("fingerprint", func(b *testing.B) {
		for b.Loop() {
			fingerprintGroups(reqs, answers)
		}
	})
	b.Run("readiness", func(b *testing.B) {
		for b.Loop() {
			readinessGroups(in.Cluster, reqs, answers)
		}
	})
}
