package solver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/model"
)

// allFactKinds walks the kinds by their names, not by FactKinds, so that a
// kind added with a name but left out of FactKinds is walked too.
func allFactKinds(t *testing.T) []model.FactKind {
	var kinds []model.FactKind
	for k := model.FactRequestEnable; k.String() != model.FactUnspecified.String(); k++ {
		kinds = append(kinds, k)
	}
	require.Equal(t, model.FactKinds(), kinds, "FactKinds lists every named kind, in order")
	return kinds
}

// TestFactKindsTable walks every fact kind: each has a complete entry in
// factKinds, and a fact of it renders a message, a structured form whose
// subject is a value of its own, and a short form for sweeps.
func TestFactKindsTable(t *testing.T) {
	p := kindsProblem(t)
	for _, k := range allFactKinds(t) {
		t.Run(k.String(), func(t *testing.T) {
			require.Less(t, int(k), len(factKinds), "factKinds has no entry")
			info := factKinds[k]
			require.Less(t, int(k), len(factWords), "factWords has no entry")
			words := factWords[k]
			require.NotNil(t, words.message, "message")
			require.NotNil(t, words.short, "short form")
			assert.GreaterOrEqual(t, info.rank, rankRequest)
			assert.LessOrEqual(t, info.rank, rankPreference)
			assert.Equal(t, model.Fact{Kind: k}.AboutPlatform(), info.platform != nil, "platform predicate agrees with model.Fact.AboutPlatform")

			f := kindFact(p, k)
			mf := wording{p: p}.toModel(f)
			assert.Equal(t, k, mf.Kind)
			assert.NotEmpty(t, mf.Message)
			assert.NotContains(t, mf.Message, "%!", "message is fully formatted")
			assert.Equal(t, info.subject != nil, mf.Subject != "", "subject set exactly when the kind names one")
			assert.Equal(t, info.constraint != nil, mf.Constraint != "", "constraint set exactly when the kind has one")
			assert.NotContains(t, mf.Subject, ": ", "a subject carries no prefix")

			short := words.short("app", mf)
			if k == model.FactRequestEnable || k == model.FactRequestPin || k == model.FactPreference {
				assert.Empty(t, short, "what a sweep's request asks is no reason")
			} else {
				assert.NotEmpty(t, short)
			}
			if info.platform != nil {
				assert.Equal(t, mf.Subject, info.platform(p, f).name, "a platform fact's subject is its component")
			}
		})
	}
}

// TestChainOrder checks that an explanation reads as a chain: the request
// first, then requirements, what the platform allows, the state in the
// way, and preferences last, keeping the order within a rank.
func TestChainOrder(t *testing.T) {
	p := kindsProblem(t)
	facts := []*fact{
		kindFact(p, model.FactPreference),
		kindFact(p, model.FactKeepVersion),
		kindFact(p, model.FactKubernetesRequirement),
		kindFact(p, model.FactMissingModule),
		kindFact(p, model.FactModuleRequirement),
		kindFact(p, model.FactRequestEnable),
	}
	var got []model.FactKind
	for _, f := range chainOrder(facts) {
		got = append(got, f.kind)
	}
	assert.Equal(t, []model.FactKind{
		model.FactRequestEnable, model.FactMissingModule, model.FactModuleRequirement,
		model.FactKubernetesRequirement, model.FactKeepVersion, model.FactPreference,
	}, got)
}

// TestSweepReasonsReadSubjects checks the short forms that name a fact's
// subject: the group or capability, never the constraint's wording.
func TestSweepReasonsReadSubjects(t *testing.T) {
	p := kindsProblem(t)
	for k, want := range map[model.FactKind]string{
		model.FactExclusiveGroup:        "exclusive-group cni",
		model.FactCapabilityConflict:    "capability-conflict cni",
		model.FactMissingModule:         "missing module dep",
		model.FactKubernetesRequirement: "kubernetes >= 9.0",
		model.FactPlatformRequirement:   "dep >= 9.0",
		model.FactCompoundConflict:      "conflicts with dep",
		model.FactKeepVersion:           "keep-version",
	} {
		assert.Equal(t, want, reason("app", wording{p: p}.toModel(kindFact(p, k))), k.String())
	}
}

// kindsProblem is a problem with a deployed module app, on a channel, in a
// source, pinned by the request, and a module dep it may require.
func kindsProblem(t *testing.T) *problem {
	app := fixture.Module("app", fixture.Versions("1.0.0", "1.1.0", "2.0.0"), fixture.Channels("stable", "1.1.0"))
	app.Source = "main"
	cat, err := model.NewCatalog([]*model.Module{app, fixture.Module("dep", fixture.Versions("1.0.0"))})
	require.NoError(t, err)
	cluster := fixture.Cluster(map[string]model.ModuleState{"app": fixture.EnabledOnChannel("1.0.0", "stable")},
		fixture.Component("dep", "1.0.0"))
	p := newProblem(compiledFor(cat), cluster, &model.Request{Pin: fixture.Pins("app", "1.1.0")})
	require.NotNil(t, p.view("app"))
	return p
}

// kindFact is a fact of kind k about app with every field a kind may read
// set: group facts are about no module.
func kindFact(p *problem, k model.FactKind) *fact {
	app, dep := p.view("app"), p.view("dep")
	cons := model.MustParseConstraint(">= 9.0")
	target := &model.Predicate{Op: model.PredicateModule, Module: "dep"}
	compound := &model.CompoundRequirement{Predicate: target}
	if k == model.FactCompoundConflict {
		compound = &model.CompoundRequirement{Predicate: &model.Predicate{Op: model.PredicateNot, Operands: []*model.Predicate{target}}}
	}
	f := p.store.newFact(k, app)
	if k == model.FactExclusiveGroup || k == model.FactCapabilityConflict {
		f.v = nil
	}
	f.rels, f.dep, f.cons = []int{2}, "dep", &cons
	f.group, f.members, f.compound = "cni", []*view{app, dep}, compound
	if k == model.FactPreference {
		f.at = 1
	}
	if k == model.FactPlatformRelease {
		f.platform = &releaseReq{minor: model.MajorMinor{Major: 1, Minor: 74}, key: "disabledModules"}
	}
	if k == model.FactDependencyLoop {
		f.v, f.group = nil, "app, dep"
		f.loop = &loopShape{rels: [][]int{{2}, {0}}}
	}
	return f
}

// D404: an optional platform requirement, OLM's kind, reads in words.
func TestComponentShortOptional(t *testing.T) {
	assert.Equal(t, "openshift >= 4.22 (where openshift runs)", componentShort("", model.Fact{Subject: "openshift", Constraint: ">= 4.22 !optional"}))
	assert.Equal(t, "kubernetes < 1.32", componentShort("", model.Fact{Subject: "kubernetes", Constraint: "< 1.32"}))
}
