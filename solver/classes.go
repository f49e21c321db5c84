package solver

import (
	"cmp"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/Masterminds/semver/v3"

	"github.com/modsolver/modsolver/model"
)

// What-if by equivalence class. Two requests that differ only in their
// candidate platform versions, where each version compares the same way
// with every constraint of the catalog that is checked against it, and
// with every version such a constraint names, have the same decisions: the
// same releases forbidden by the same facts, the same selections, the same
// minimal cores and the same verified suggestions (which upgrade to the
// versions a constraint names above the current one). Only the texts that
// quote a platform version differ: a built-in module's version, which is
// the DKP version (R5), and messages about platform requirements. A batch
// then resolves one request per class and renders every other one from
// that answer (rerender.go), with the request's own versions.

// platformAxes holds, for each platform version a request may set, what
// the catalog compares it with.
type platformAxes struct {
	cluster    *model.ClusterState
	deckhouse  *axis
	kubernetes *axis
	components map[string]*axis
	// releases is DKP's release data (R31), nil when the catalog has none.
	releases model.PlatformReleases
}

// axis is one platform version's comparisons: the distinct constraints
// checked against it and, for each, the versions boundsAbove would
// suggest as upgrades when the constraint fails.
type axis struct {
	cons  []*model.Constraint
	cands [][]model.Version
	seen  map[string]bool
}

func newAxis() *axis { return &axis{seen: map[string]bool{}} }

// add records one constraint checked against the axis.
func (a *axis) add(c *model.Constraint) {
	if c == nil || a.seen[c.Text] {
		return
	}
	a.seen[c.Text] = true
	a.cons = append(a.cons, c)
	a.cands = append(a.cands, namedCandidates(c)) // what boundsAbove may name

}

// newPlatformAxes reads, from the compiled catalog, every constraint that
// a platform version is checked against (readPlatformConstraints).
func newPlatformAxes(c *Compiled, cluster *model.ClusterState) *platformAxes {
	pc := c.t.platform
	return &platformAxes{cluster: cluster, deckhouse: pc.deckhouse, kubernetes: pc.kubernetes, components: pc.components,
		releases: c.cat.PlatformReleases()}
}

// key names the class of req: requests with equal keys differ at most in
// platform versions that the catalog cannot tell apart.
func (pa *platformAxes) key(req *model.Request) string {
	var b strings.Builder
	b.WriteString(requestShape(req))
	dkp := orElse(req.Platform.Deckhouse, pa.cluster.Deckhouse)
	b.WriteString("|d")
	switch {
	case dkp != nil && pa.cluster.Deckhouse == nil: // a catalog that needs no DKP version
		b.WriteString("n")
		pa.deckhouse.write(&b, dkp)
	case dkp != nil:
		b.WriteString(strconv.Itoa(model.CompareVersions(dkp, pa.cluster.Deckhouse) + 1))
		b.WriteString(strconv.FormatBool(model.IsPrerelease(dkp)))
		pa.deckhouse.write(&b, model.Core(dkp))
		pa.deckhouse.write(&b, dkp)
	}
	if pa.releases != nil && dkp != nil { // R31: each DKP and Kubernetes minor has release data of its own
		b.WriteString("|r" + model.MinorOf(dkp).String())
		if kube := orElse(req.Platform.Kubernetes, pa.cluster.Kubernetes); kube != nil {
			b.WriteString("/" + model.MinorOf(kube).String())
		}
	}
	b.WriteString("|k")
	writeLowers(&b, pa.cluster.Kubernetes, req.Platform.Kubernetes)
	pa.kubernetes.write(&b, orElse(req.Platform.Kubernetes, pa.cluster.Kubernetes))
	for _, name := range slices.Sorted(maps.Keys(pa.components)) {
		b.WriteString("|c" + name + "=")
		cur := pa.cluster.Platform[name]
		if v, ok := req.Platform.Components[name]; ok {
			writeLowers(&b, cur, v)
			cur = v
		}
		pa.components[name].write(&b, cur)
	}
	for _, name := range slices.Sorted(maps.Keys(req.Platform.Components)) {
		if pa.components[name] == nil { // no constraint reads it, but a downgrade of it is a question of its own (D172, D438)
			b.WriteString("|l" + name + "=")
			writeLowers(&b, pa.cluster.Platform[name], req.Platform.Components[name])
		}
	}
	return b.String()
}

// write appends how v compares with the axis: each constraint allows it
// or not, and when not, which of the constraint's upgrade candidates are
// above it (the suggestions boundsAbove makes).
func (a *axis) write(b *strings.Builder, v model.Version) {
	if v == nil {
		b.WriteByte('-')
		return
	}
	for i, c := range a.cons {
		if c.Allows(v) {
			b.WriteByte('1')
			continue
		}
		b.WriteByte('0')
		for _, cand := range a.cands[i] {
			if cand.GreaterThan(v) {
				b.WriteByte('>')
			} else {
				b.WriteByte('.')
			}
		}
	}
	b.WriteByte(';')
}

// writeLowers marks a candidate below the version the cluster runs: a
// downgrade question, whose suggestions differ (D172).
func writeLowers(b *strings.Builder, running, candidate model.Version) {
	if lowers(running, candidate) {
		b.WriteByte('v')
	}
}

// requestShape writes everything of req but its platform versions, and
// which of those it sets (a candidate version is worded differently from
// the cluster's own, and asks for every blocker).
func requestShape(req *model.Request) string {
	var b strings.Builder
	list := func(tag string, names []string) {
		b.WriteString(tag)
		for _, n := range names {
			b.WriteString(strconv.Quote(n))
		}
	}
	list("e", req.Enable)
	list("d", req.Disable)
	list("u", req.Update)
	for _, name := range req.PinnedNames() {
		b.WriteString("p" + strconv.Quote(name) + "=" + model.VersionString(req.Pin[name]))
	}
	for _, name := range slices.Sorted(maps.Keys(req.Sources)) {
		b.WriteString("s" + strconv.Quote(name) + "=" + strconv.Quote(req.Sources[name])) // R23, R29: a move is another request
	}
	b.WriteString("|" + strconv.FormatBool(req.UpdateAll) + strconv.FormatBool(req.AllowDisable) + strconv.FormatBool(req.AutoEnable) + strconv.FormatBool(req.Devel))
	b.WriteString("|" + string(req.EffectiveStrategy()) + "|" + string(cmp.Or(req.Report, model.ReportAll)))
	b.WriteString("|" + strconv.FormatBool(req.Platform.Deckhouse != nil) + strconv.FormatBool(req.Platform.Kubernetes != nil))
	for _, name := range slices.Sorted(maps.Keys(req.Platform.Components)) {
		b.WriteString("|" + strconv.Quote(name))
	}
	return b.String()
}

func orElse(v, fallback model.Version) model.Version {
	if v != nil {
		return v
	}
	return fallback
}

// lowers reports whether the request's candidate for a platform
// component is below the version the cluster runs: a downgrade question
// (R12), which an upgrade of that component would not answer but
// abandon, so no upgrade of it is suggested (D172).
func lowers(running, candidate model.Version) bool {
	return running != nil && candidate != nil && model.CompareVersions(model.Core(candidate), model.Core(running)) < 0
}

var versionInText = regexp.MustCompile(`v?[0-9]+(\.[0-9]+){0,2}`)

// namedCandidates are the versions a constraint's text names, and the
// next patch of each, that satisfy it, in text order: the versions
// boundsAbove may suggest, and by which what-if classes tell platform
// versions apart (classes.go).
func namedCandidates(c *model.Constraint) []model.Version {
	var out []model.Version
	for _, text := range versionInText.FindAllString(c.Range(), -1) {
		v, err := model.ParseVersion(text)
		if err != nil {
			continue
		}
		for _, cand := range []model.Version{v, semver.New(v.Major(), v.Minor(), v.Patch()+1, "", "")} {
			if c.Allows(cand) {
				out = append(out, cand)
			}
		}
	}
	return out
}

// batch is what the requests of one what-if batch share across workers:
// the catalog's platform axes (classes.go) and the outcomes of suggestion
// checks by class. A suggestion is checked by resolving the changed
// request (D21); requests of one class resolve alike, and the changed
// requests of many scenarios fall in few classes (the same upgrade of
// Kubernetes on the same DKP, say), so each class is resolved once. An
// upgrade of the platform often leads to a class the batch answers
// itself: its status is recorded when it is resolved (answered), and a
// check that comes after it reads it.
type batch struct {
	axes     *platformAxes
	mu       sync.Mutex
	verified map[string]verified
}

type verified struct {
	res *model.Result
	err error
}

func newBatch(axes *platformAxes) *batch {
	return &batch{axes: axes, verified: map[string]verified{}}
}

// answered records the status of the class of req, which the batch
// resolved as res, for the suggestion checks that fall in it.
func (b *batch) answered(req *model.Request, res *model.Result) {
	key := b.axes.key(req)
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.verified[key]; !ok {
		b.verified[key] = verified{res: &model.Result{Status: res.Status}}
	}
}
