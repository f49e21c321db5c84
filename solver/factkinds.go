package solver

import (
	"strings"

	"github.com/modsolver/modsolver/model"
)

// kindInfo is what the solver does with one kind of fact (model.FactKind):
// where it stands in an explanation, how it reads, what it names, and what
// a suggestion may change. factKinds holds one per kind, and every use
// reads it rather than switching over kinds (TestFactKindsTable walks
// every kind).
type kindInfo struct {
	// rank places the fact in an explanation's chain (chainOrder).
	rank chainRank
	// message renders the fact as the sentence an operator reads (R16).
	message func(p *problem, f *fact) string
	// ecosystem renders the ecosystem's own wording of the same check
	// (model.Fact.EcosystemMessage); nil where it has none.
	ecosystem func(p *problem, f *fact) string
	// subject is what the fact names besides its module, the value of
	// model.Fact.Subject; nil when it names nothing more.
	subject func(f *fact) string
	// constraint is the text model.Fact.Constraint carries; nil for none.
	constraint func(f *fact) string
	// short names a fact of an answer in a few words, the reason a sweep
	// counts (sweep.go); "" for the request's own facts.
	short func(module string, f model.Fact) string
	// changes lists the groups of alternative changes to the inputs that a
	// suggestion may propose for the fact (suggest.go); nil for none.
	changes func(s *session, f *fact) [][]change
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
	model.FactRequestEnable:  {rank: rankRequest, message: requestEnableMessage, short: noShort},
	model.FactRequestDisable: {rank: rankRequest, message: requestDisableMessage, short: stateShort},
	model.FactRequestPin:     {rank: rankRequest, message: pinMessage, short: noShort},
	model.FactClusterEnabled: {rank: rankState, message: (*problem).clusterEnabledMessage, short: stateShort,
		changes: disableTheModule},
	model.FactClusterDisabled: {rank: rankState, message: clusterDisabledMessage, short: stateShort,
		changes: enableTheModule},
	model.FactNotEnabled: {rank: rankState, message: (*problem).notEnabledMessage, short: stateShort,
		changes: enableOrAutoEnable},
	model.FactKeepVersion: {rank: rankState, message: keepVersionMessage, short: stateShort,
		changes: updateOrDowngrade},
	model.FactNoDowngrade: {rank: rankState, message: noDowngradeMessage, short: stateShort,
		changes: pinDowngrades, belowDeployed: true},
	model.FactChannelHead: {rank: rankState, message: channelMessage, constraint: headConstraint, short: stateShort,
		changes: switchChannel, background: true},
	model.FactUpdateStep: {rank: rankState, message: (*problem).stepMessage, short: stateShort,
		changes: goDirect},
	model.FactModuleRequirement: {rank: rankRequirement, message: (*problem).requirementMessage, ecosystem: (*problem).requirementEcosystem,
		subject: requiredName, constraint: constraintText, short: requiresShort, changes: builtInUpgrades},
	model.FactDeckhouseRequirement: {rank: rankAvailability, message: (*problem).deckhouseMessage, ecosystem: (*problem).deckhouseEcosystem,
		subject: named(model.PlatformDeckhouse), constraint: constraintText, short: componentShort,
		changes: deckhouseUpgrades, platform: deckhouseVersion},
	model.FactKubernetesRequirement: {rank: rankAvailability, message: (*problem).kubernetesMessage, ecosystem: (*problem).kubernetesEcosystem,
		subject: named(model.PlatformKubernetes), constraint: constraintText, short: componentShort,
		changes: kubernetesUpgrades, platform: kubernetesVersion},
	model.FactEdition: {rank: rankAvailability, message: (*problem).editionMessage, short: stateShort,
		changes: otherEditions},
	model.FactExclusiveGroup: {rank: rankState, message: exclusiveGroupMessage,
		subject: groupName, constraint: prefixed("exclusiveGroup: ", groupName), short: groupShort},
	model.FactMissingModule: {rank: rankRequirement, message: missingModuleMessage,
		subject: requiredName, short: prefixedShort("missing module ")},
	model.FactPrerelease: {rank: rankAvailability, message: prereleaseMessage, short: stateShort,
		changes: pinPrereleases, background: true},
	model.FactPreference: {rank: rankPreference, message: preferenceMessage, short: noShort},
	model.FactPlatformRequirement: {rank: rankAvailability, message: (*problem).componentMessage, ecosystem: (*problem).componentEcosystem,
		subject: requiredName, constraint: constraintText, short: componentShort,
		changes: componentUpgrades, platform: componentVersion},
	model.FactCapabilityRequirement: {rank: rankRequirement, message: (*problem).capabilityMessage,
		subject: requiredName, constraint: prefixed("capability: ", requiredName), short: unprovidedShort,
		changes: enableAProvider},
	model.FactMissingCapability: {rank: rankRequirement, message: missingCapabilityMessage,
		subject: requiredName, constraint: prefixed("capability: ", requiredName), short: prefixedShort("missing capability ")},
	model.FactCapabilityConflict: {rank: rankState, message: capabilityConflictMessage,
		subject: groupName, constraint: prefixed("provides: ", groupName), short: groupShort,
		changes: disableAProvider},
	model.FactExperimental: {rank: rankAvailability, message: plain(experimentalMessage), short: stateShort,
		changes: allowExperimental},
	model.FactCompoundRequirement: {rank: rankRequirement, message: (*problem).compoundMessage,
		subject: compoundTarget, constraint: compoundPredicate, short: compoundShort("requires "),
		changes: compoundAlternatives},
	model.FactCompoundConflict: {rank: rankRequirement, message: (*problem).compoundMessage,
		subject: compoundTarget, constraint: compoundPredicate, short: compoundShort("conflicts with "),
		changes: compoundAlternatives},
	model.FactSource: {rank: rankState, message: plain(sourceMessage), subject: targetSource, short: stateShort},
	model.FactDependencyLoop: {rank: rankRequirement, message: loopMessage, subject: groupName, short: loopShort,
		changes: leaveTheLoop},
	model.FactSettings: {rank: rankAvailability, message: plain(settingsMessage), subject: requiredName, short: settingsShort,
		changes: changeTheSettings},
	// A platform-kubernetes fact is made before any encoding, as the
	// whole answer (platformRefusal); it never stands in a core.
	model.FactPlatformKubernetes: {rank: rankAvailability, message: (*problem).platformKubernetesMessage,
		subject: named(model.PlatformKubernetes), short: componentShort, platform: kubernetesVersion},
	// A platform-gate fact too is made before any encoding (R32).
	model.FactPlatformGate: {rank: rankAvailability, message: (*problem).platformGateMessage,
		subject: named(model.PlatformDeckhouse), short: componentShort, platform: deckhouseVersion},
	// A platform-route fact is made after the answer, from its route
	// (R33); it never stands in a core either.
	model.FactPlatformRoute: {rank: rankAvailability, message: (*problem).platformGateMessage,
		subject: named(model.PlatformDeckhouse), short: componentShort, platform: deckhouseVersion},
	model.FactPlatformRelease: {rank: rankAvailability, message: plain(platformReleaseMessage), subject: platformReleaseSubject,
		short: stateShort, changes: disableTheModule},
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

// plain makes a message that needs nothing of the problem a table entry's.
func plain(message func(*fact) string) func(*problem, *fact) string {
	return func(_ *problem, f *fact) string { return message(f) }
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
	return platformVersion{model.PlatformDeckhouse, model.Core(p.deckhouse), p.req.Platform.Deckhouse != nil}
}

func kubernetesVersion(p *problem, _ *fact) platformVersion {
	return platformVersion{model.PlatformKubernetes, p.kubernetes, p.req.Platform.Kubernetes != nil}
}

func componentVersion(p *problem, f *fact) platformVersion {
	return platformVersion{f.dep, p.components[f.dep], p.req.Platform.Components[f.dep] != nil}
}

// The short forms of each kind of fact (factKinds).

func noShort(string, model.Fact) string { return "" }

// stateShort names a fact about a module's own state by its kind, and the
// module when it is not the one the sweep installs.
func stateShort(module string, f model.Fact) string {
	if f.Module == module {
		return f.Kind.String()
	}
	return f.Kind.String() + " of " + f.Module
}

func requiresShort(_ string, f model.Fact) string {
	return "requires " + f.Subject + " " + f.Constraint
}

// componentShort names a platform requirement (R4, R22) by its component,
// an optional one (OLM's, which holds only where the component runs) in
// words rather than modsolver's "!optional" (D404).
func componentShort(_ string, f model.Fact) string {
	if r, optional := strings.CutSuffix(f.Constraint, "!optional"); optional {
		return f.Subject + " " + strings.TrimSpace(r) + " (where " + f.Subject + " runs)"
	}
	return f.Subject + " " + f.Constraint
}

func groupShort(_ string, f model.Fact) string { return f.Kind.String() + " " + f.Subject }

func unprovidedShort(_ string, f model.Fact) string {
	return "capability " + f.Subject + " not provided"
}

// prefixedShort names a fact by its subject after prefix.
func prefixedShort(prefix string) func(string, model.Fact) string {
	return func(_ string, f model.Fact) string { return prefix + f.Subject }
}
