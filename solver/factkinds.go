package solver

import (
	"cmp"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// kindInfo is what the solver knows of one kind of fact (model.FactKind):
// where it stands in an explanation, what it names, and whether it is
// about a platform version or background. factKinds holds one per kind,
// and every use reads it rather than switching over kinds
// (TestFactKindsTable walks every kind). The table is cut by phase, as
// the rules are: how a kind reads is factWords (factkinds_render.go), and
// what a suggestion may change for it is factChanges
// (factkinds_suggest.go), each indexed by kind too.
type kindInfo struct {
	// rank places the fact in an explanation's chain (chainOrder).
	rank chainRank
	// subject is what the fact names besides its module, the value of
	// model.Fact.Subject; nil when it names nothing more.
	subject func(f *fact) string
	// constraint is the text model.Fact.Constraint carries; nil for none.
	constraint func(f *fact) string
	// platform is set for a requirement on a platform version (R4, R22):
	// the component the fact is about, as the question puts it. A platform
	// upgrade question names every module such facts block (R12).
	platform func(p *problem, f *fact) platformVersion
	// background facts are named in a held-back reason only when nothing
	// else explains it (R17): the channel head is the very bound the
	// question is about, and the prerelease policy is the catalog's.
	background bool
	// belowDeployed facts forbid only releases below the deployed one (R9),
	// so a held-back reason, which speaks of newer releases, never narrows
	// them (D70).
	belowDeployed bool
}

// chainRank is where a fact stands in an explanation, which reads as a
// chain: what the request asks, what the releases require, what the
// platform and the catalog allow, then the state that stands in the way,
// and last the preferences an R17 question adds.
type chainRank int

const (
	rankRequest chainRank = iota
	rankRequirement
	rankAvailability
	rankState
	rankPreference
)

// platformVersion is one platform component as a question puts it: its
// name, the version the cluster runs (nil if none), and whether that
// version is the request's candidate rather than the cluster's (R12).
type platformVersion struct {
	name     string
	version  model.Version
	proposed bool
}

// factKinds is the table of fact kinds, indexed by kind.
var factKinds = [...]kindInfo{
	model.FactRequestEnable:         {rank: rankRequest},
	model.FactRequestDisable:        {rank: rankRequest},
	model.FactRequestPin:            {rank: rankRequest},
	model.FactClusterEnabled:        {rank: rankState},
	model.FactClusterDisabled:       {rank: rankState},
	model.FactNotEnabled:            {rank: rankState},
	model.FactKeepVersion:           {rank: rankState},
	model.FactNoDowngrade:           {rank: rankState, belowDeployed: true},
	model.FactChannelHead:           {rank: rankState, constraint: headConstraint, background: true},
	model.FactUpdateStep:            {rank: rankState},
	model.FactModuleRequirement:     {rank: rankRequirement, subject: requiredName, constraint: constraintText},
	model.FactDeckhouseRequirement:  {rank: rankAvailability, subject: named(model.PlatformDeckhouse), constraint: constraintText, platform: deckhouseVersion},
	model.FactKubernetesRequirement: {rank: rankAvailability, subject: named(model.PlatformKubernetes), constraint: constraintText, platform: kubernetesVersion},
	model.FactEdition:               {rank: rankAvailability},
	model.FactExclusiveGroup:        {rank: rankState, subject: groupName, constraint: prefixed("exclusiveGroup: ", groupName)},
	model.FactMissingModule:         {rank: rankRequirement, subject: requiredName},
	model.FactPrerelease:            {rank: rankAvailability, background: true},
	model.FactPreference:            {rank: rankPreference},
	model.FactPlatformRequirement:   {rank: rankAvailability, subject: requiredName, constraint: constraintText, platform: componentVersion},
	model.FactCapabilityRequirement: {rank: rankRequirement, subject: requiredName, constraint: prefixed("capability: ", requiredName)},
	model.FactMissingCapability:     {rank: rankRequirement, subject: requiredName, constraint: prefixed("capability: ", requiredName)},
	model.FactCapabilityConflict:    {rank: rankState, subject: groupName, constraint: prefixed("provides: ", groupName)},
	model.FactExperimental:          {rank: rankAvailability},
	model.FactCompoundRequirement:   {rank: rankRequirement, subject: compoundTarget, constraint: compoundPredicate},
	model.FactCompoundConflict:      {rank: rankRequirement, subject: compoundTarget, constraint: compoundPredicate},
	model.FactSource:                {rank: rankState, subject: targetSource},
	model.FactDependencyLoop:        {rank: rankRequirement, subject: groupName},
	model.FactSettings:              {rank: rankAvailability, subject: requiredName},
	// A platform-kubernetes fact is made before any encoding, as the
	// whole answer (platformRefusal); it never stands in a core.
	model.FactPlatformKubernetes: {rank: rankAvailability, subject: named(model.PlatformKubernetes), platform: kubernetesVersion},
	// A platform-gate fact too is made before any encoding (R32).
	model.FactPlatformGate: {rank: rankAvailability, subject: named(model.PlatformDeckhouse), platform: deckhouseVersion},
	// A platform-route fact is made after the answer, from its route
	// (R33); it never stands in a core either.
	model.FactPlatformRoute:   {rank: rankAvailability, subject: named(model.PlatformDeckhouse), platform: deckhouseVersion},
	model.FactPlatformRelease: {rank: rankAvailability, subject: platformReleaseSubject},
}

// kindOf is the table entry of f's kind.
func kindOf(f *fact) *kindInfo { return &factKinds[f.kind] }

// subjectOf is what f names besides its module, or "".
func subjectOf(f *fact) string {
	if s := kindOf(f).subject; s != nil {
		return s(f)
	}
	return ""
}

// ---- subjects and constraints ----

func requiredName(f *fact) string { return f.dep }
func groupName(f *fact) string    { return f.group }

// targetSource is the source a module moves to (R23).
func targetSource(f *fact) string { return f.v.src.to }

// compoundTarget is the predicate another module satisfies (R24), or, for
// a conflict, the one no enabled module may satisfy.
func compoundTarget(f *fact) string { return f.compound.Target().String() }

func compoundPredicate(f *fact) string { return f.compound.Predicate.String() }

// named makes a subject that is always name, such as the platform
// component of an R4 fact.
func named(name string) func(*fact) string {
	return func(*fact) string { return name }
}

// prefixed makes a constraint text that names part of(f) after prefix:
// the answer's wording for the facts whose constraint is no version range.
func prefixed(prefix string, part func(*fact) string) func(*fact) string {
	return func(f *fact) string { return prefix + part(f) }
}

func constraintText(f *fact) string {
	if f.cons == nil {
		return ""
	}
	return f.cons.Text
}

// headConstraint bounds the versions a channel allows (R10).
func headConstraint(f *fact) string {
	if f.v.noChannel {
		return ""
	}
	return "<= " + model.VersionString(f.v.headVersion)
}

// ---- platform components ----

func deckhouseVersion(p *problem, _ *fact) platformVersion {
	return platformVersion{model.PlatformDeckhouse, model.Core(p.in.deckhouse), p.in.req.Platform.Deckhouse != nil}
}

func kubernetesVersion(p *problem, _ *fact) platformVersion {
	return platformVersion{model.PlatformKubernetes, p.in.kubernetes, p.in.req.Platform.Kubernetes != nil}
}

func componentVersion(p *problem, f *fact) platformVersion {
	return platformVersion{f.dep, p.in.components[f.dep], p.in.req.Platform.Components[f.dep] != nil}
}

// chainOrder sorts facts so that they read as a chain (chainRank),
// keeping the order of facts of one rank.
func chainOrder(facts []*fact) []*fact {
	out := slices.Clone(facts)
	slices.SortStableFunc(out, func(a, b *fact) int { return cmp.Compare(kindOf(a).rank, kindOf(b).rank) })
	return out
}
