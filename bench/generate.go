package bench

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Size is a catalog size: how many modules, and how many releases each.
type Size struct {
	Name              string
	Modules, Releases int
}

// The sizes of DESIGN.md §8.
var (
	SizeS = Size{Name: "S", Modules: 100, Releases: 20}
	SizeM = Size{Name: "M", Modules: 2000, Releases: 30}
	SizeL = Size{Name: "L", Modules: 10000, Releases: 50}
)

// ParseSize reads "S", "M", "L", or "NxR" (N modules × R releases).
func ParseSize(s string) (Size, error) {
	for _, z := range []Size{SizeS, SizeM, SizeL} {
		if strings.EqualFold(s, z.Name) {
			return z, nil
		}
	}
	n, r, ok := strings.Cut(strings.ToLower(s), "x")
	modules, err1 := strconv.Atoi(n)
	releases, err2 := strconv.Atoi(r)
	if !ok || err1 != nil || err2 != nil || modules < 2 || releases < 1 {
		return Size{}, fmt.Errorf("%w: size %q: want S, M, L or NxR such as 500x10", model.ErrInvalidInput, s)
	}
	return Size{Name: s, Modules: modules, Releases: releases}, nil
}

// Instance is one generated problem: a catalog and a cluster state that
// runs most modules at older versions, consistently.
type Instance struct {
	Size    Size
	Seed    uint64
	Catalog *model.Catalog
	Cluster *model.ClusterState

	names    []string
	deployed map[string]int // release index deployed, per enabled module
	deps     [][]genDep     // per module: what its releases require
}

// genDep is one requirement of a generated module on a module with a
// lower index, so that the dependency graph has no cycles.
type genDep struct {
	on       int
	optional bool
	form     int // the shape of the range, see rangeText
}

// The platform the generated cluster runs, and the range that generated
// requirements span: newer releases need newer platforms.
const (
	dkpMinor     = 70 // cluster DKP 1.70.0
	kubeMinor    = 30 // cluster Kubernetes 1.30.0
	embeddedRate = 20 // one module in 20 is built in
	neighbours   = 200
)

// Generate builds the instance of size for seed; the same arguments give
// the same instance.
func Generate(size Size, seed uint64) *Instance {
	g := &generator{rng: rand.New(rand.NewPCG(seed, 0x6d6f6473)), parsed: map[string]model.Constraint{}}
	in := &Instance{Size: size, Seed: seed, deployed: map[string]int{}}
	in.names = make([]string, size.Modules)
	for i := range in.names {
		in.names[i] = fmt.Sprintf("m%05d", i)
	}
	versions := make([][]model.Version, size.Modules)
	in.deps = make([][]genDep, size.Modules)
	for i := range size.Modules {
		versions[i] = g.versions(size.Releases)
		in.deps[i] = g.deps(i)
	}
	modules := make([]*model.Module, size.Modules)
	for i := range size.Modules {
		modules[i] = g.module(in, i, versions)
	}
	cat, err := model.NewCatalog(modules)
	if err != nil {
		panic("internal error: generated catalog is invalid: " + err.Error())
	}
	in.Catalog = cat
	in.Cluster = g.cluster(in, versions)
	return in
}

type generator struct {
	rng    *rand.Rand
	parsed map[string]model.Constraint
}

// versions makes n ascending versions: mostly patches, often minors,
// rarely a major.
func (g *generator) versions(n int) []model.Version {
	out := make([]model.Version, n)
	major, minor, patch := uint64(0), uint64(1), uint64(0)
	for i := range out {
		if i > 0 {
			switch r := g.rng.IntN(100); {
			case r < 4:
				major, minor, patch = major+1, 0, 0
			case r < 40:
				minor, patch = minor+1, 0
			default:
				patch++
			}
		}
		out[i] = model.MustParseVersion(fmt.Sprintf("%d.%d.%d", major, minor, patch))
	}
	return out
}

// deps draws 0 to 4 requirements on nearby lower-index modules.
func (g *generator) deps(i int) []genDep {
	if i == 0 {
		return nil
	}
	var out []genDep
	seen := map[int]bool{}
	for range g.rng.IntN(5) {
		on := max(0, i-neighbours) + g.rng.IntN(min(i, neighbours))
		if seen[on] {
			continue
		}
		seen[on] = true
		out = append(out, genDep{on: on, optional: g.rng.IntN(4) == 0, form: g.rng.IntN(3)})
	}
	return out
}

func (g *generator) constraint(text string) model.Constraint {
	c, ok := g.parsed[text]
	if !ok {
		c = model.MustParseConstraint(text)
		g.parsed[text] = c
	}
	return c
}

// module builds module i. Release r of a module requires, of each
// dependency, at least the version at 80% of its own position, so that
// newer releases need newer dependencies; and newer platforms.
func (g *generator) module(in *Instance, i int, versions [][]model.Version) *model.Module {
	n := len(versions[i])
	m := &model.Module{Name: in.names[i], Weight: 100 + i%800}
	if i%embeddedRate == embeddedRate-1 {
		m.Embedded = true
		m.Requirements = g.requirements(in, i, 0.5, versions)
		return m
	}
	m.Channels = map[string]model.Version{
		"rock-solid":   versions[i][n*6/10],
		"stable":       versions[i][n*8/10],
		"early-access": versions[i][n*9/10],
		"beta":         versions[i][max(n*95/100, n*9/10)],
		"alpha":        versions[i][n-1],
	}
	for r, v := range versions[i] {
		rel := &model.Release{Version: v, Requirements: g.requirements(in, i, float64(r)/float64(n), versions)}
		if r > 0 && v.Minor() == 0 && v.Patch() == 0 && v.Major() > 0 && g.rng.IntN(2) == 0 {
			rel.UpdateRules = []model.UpdateRule{{From: model.MinorOf(versions[i][max(0, r-5)]), To: model.MinorOf(v)}}
		}
		m.Releases = append(m.Releases, rel)
	}
	return m
}

// requirements of a release at fraction frac of its module's history.
func (g *generator) requirements(in *Instance, i int, frac float64, versions [][]model.Version) model.Requirements {
	var req model.Requirements
	dkp := g.constraint(fmt.Sprintf(">= 1.%d", 50+int(frac*30)))
	req.Deckhouse = &dkp
	if g.rng.IntN(3) == 0 {
		kube := g.constraint(fmt.Sprintf(">= 1.%d", 26+int(frac*6)))
		if frac < 0.2 && g.rng.IntN(4) == 0 {
			kube = g.constraint(fmt.Sprintf(">= 1.26, < 1.%d", kubeMinor+1)) // old releases: not for new Kubernetes
		}
		req.Kubernetes = &kube
	}
	// Requirements change a few times in a module's history, not with
	// every release, as in the real DKP data: the floor moves in fifths.
	step := float64(int(frac*5)) / 5
	for _, d := range in.deps[i] {
		dv := versions[d.on]
		floor := dv[int(step*0.8*float64(len(dv)))]
		text := rangeText(floor, dv[len(dv)-1], d.form)
		if d.on%embeddedRate == embeddedRate-1 {
			text = fmt.Sprintf(">= 1.%d", 50+int(step*20)) // a built-in module runs at the DKP version
		}
		if d.optional {
			text += " !optional"
		}
		req.Modules = append(req.Modules, model.Dependency{Module: in.names[d.on], Constraint: g.constraint(text)})
	}
	return req
}

// rangeText writes a range with floor as its lower bound, in one of a few
// common shapes; an upper bound lies above the dependency's newest
// release, as a release can only bound what exists.
func rangeText(floor, newest model.Version, form int) string {
	switch form {
	case 1:
		return fmt.Sprintf(">= %s, < %d.0.0", floor, newest.Major()+1)
	case 2:
		return fmt.Sprintf(">=%d.%d", floor.Major(), floor.Minor())
	}
	return ">= " + floor.String()
}

// cluster enables about 70% of the modules, and every dependency of an
// enabled module, at releases around the middle of their histories, so
// that the state is consistent and update-all has work to do.
func (g *generator) cluster(in *Instance, versions [][]model.Version) *model.ClusterState {
	c := &model.ClusterState{
		Deckhouse:      model.MustParseVersion(fmt.Sprintf("1.%d.0", dkpMinor)),
		Kubernetes:     model.MustParseVersion(fmt.Sprintf("1.%d.0", kubeMinor)),
		ReleaseChannel: "stable",
		Modules:        map[string]model.ModuleState{},
	}
	on := make([]bool, len(in.names))
	for i := range on {
		on[i] = g.rng.IntN(10) < 7
	}
	for i := len(on) - 1; i >= 0; i-- { // dependencies have lower indices
		if on[i] {
			for _, d := range in.deps[i] {
				if !d.optional {
					on[d.on] = true
				}
			}
		}
	}
	yes, no := true, false
	for i, name := range in.names {
		if !on[i] {
			if g.rng.IntN(10) == 0 {
				c.Modules[name] = model.ModuleState{Enabled: &no}
			}
			continue
		}
		st := model.ModuleState{Enabled: &yes}
		if m := in.Catalog.Module(name); !m.Embedded {
			r := len(versions[i]) * 55 / 100
			st.Version = versions[i][r]
			in.deployed[name] = r
		}
		c.Modules[name] = st
	}
	return c
}

// UpdateAll lets every enabled module update.
func (in *Instance) UpdateAll() *model.Request { return &model.Request{UpdateAll: true} }

// InstallOne enables the highest-numbered module that is off, letting the
// modules it requires be enabled too.
func (in *Instance) InstallOne() *model.Request {
	for i := len(in.names) - 1; i >= 0; i-- {
		if st := in.Cluster.Modules[in.names[i]]; st.Enabled == nil {
			return &model.Request{Enable: []string{in.names[i]}, AutoEnable: true}
		}
	}
	return &model.Request{}
}

// InstallOneChanges is InstallOne with report: changes.
func (in *Instance) InstallOneChanges() *model.Request {
	r := in.InstallOne()
	r.Report = model.ReportChanges
	return r
}

// PlatformUpgrade asks for update-all on a newer DKP and Kubernetes.
func (in *Instance) PlatformUpgrade() *model.Request {
	return &model.Request{UpdateAll: true, Platform: model.Platform{
		Deckhouse:  model.MustParseVersion(fmt.Sprintf("1.%d.0", dkpMinor+5)),
		Kubernetes: model.MustParseVersion(fmt.Sprintf("1.%d.0", kubeMinor+1)),
	}}
}

// Unsatisfiable enables a module and disables a module that every
// release of it requires.
func (in *Instance) Unsatisfiable() *model.Request {
	for i := len(in.names) - 1; i >= 0; i-- {
		if st := in.Cluster.Modules[in.names[i]]; st.Enabled != nil {
			continue
		}
		for _, d := range in.deps[i] {
			if !d.optional {
				return &model.Request{Enable: []string{in.names[i]}, Disable: []string{in.names[d.on]}}
			}
		}
	}
	return &model.Request{Enable: []string{in.names[0]}, Disable: []string{in.names[0]}}
}

// UnsatisfiableCombined pins a module that is off to its stable head: the
// highest-numbered module whose head requires exactly two modules that
// the cluster runs (none built in), and no newer Kubernetes. A stable
// head needs a newer DKP than the cluster's and, as requirement floors
// move with a module's history, newer releases of what it requires than
// the cluster runs: no single change makes it installable, and the
// answer suggests a set of changes (the DKP upgrade and the updates),
// verified as a whole (R16).
func (in *Instance) UnsatisfiableCombined() *model.Request {
	kube := in.Cluster.Kubernetes
	for i := len(in.names) - 1; i >= 0; i-- {
		m := in.Catalog.Module(in.names[i])
		if in.Cluster.Modules[m.Name].Enabled != nil || !in.runsRequired(i, 2) {
			continue
		}
		head := m.Channels["stable"]
		for _, r := range m.Releases {
			if r.Version.Equal(head) && len(r.Requirements.Modules) == 2 &&
				(r.Requirements.Kubernetes == nil || r.Requirements.Kubernetes.Allows(kube)) {
				return &model.Request{Enable: []string{m.Name}, Pin: map[string]model.Version{m.Name: head}, Strategy: model.StrategyDirect}
			}
		}
	}
	return in.Unsatisfiable()
}

// runsRequired reports whether module i requires exactly n modules, none
// optional, and the cluster runs each, none built in.
func (in *Instance) runsRequired(i, n int) bool {
	if len(in.deps[i]) != n {
		return false
	}
	for _, d := range in.deps[i] {
		st := in.Cluster.Modules[in.names[d.on]]
		if d.optional || st.Enabled == nil || !*st.Enabled || d.on%embeddedRate == embeddedRate-1 {
			return false
		}
	}
	return true
}

// WhatIf makes n platform scenarios for the instance (PlatformScenarios).
func (in *Instance) WhatIf(n int) []*model.Request { return PlatformScenarios(n) }

// PlatformScenarios makes n what-if scenarios: update-all on DKP 1.70 to
// 1.79 and Kubernetes 1.28 to 1.33, at varying patch versions.
func PlatformScenarios(n int) []*model.Request {
	out := make([]*model.Request, n)
	for i := range out {
		out[i] = &model.Request{UpdateAll: true, Platform: model.Platform{
			Deckhouse:  model.MustParseVersion(fmt.Sprintf("1.%d.%d", dkpMinor+i%10, i/60)),
			Kubernetes: model.MustParseVersion(fmt.Sprintf("1.%d.%d", 28+(i/10)%6, i%7)),
		}}
	}
	return out
}
