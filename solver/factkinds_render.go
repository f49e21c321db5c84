package solver

import (
	"strings"

	"github.com/modsolver/modsolver/model"
)

// kindWords is how one kind of fact reads: the render phase's part of the
// fact-kind table (factkinds.go), indexed by kind as factKinds is.
type kindWords struct {
	// message renders the fact as the sentence an operator reads (R16).
	message func(w wording, f *fact) string
	// ecosystem renders the ecosystem's own wording of the same check
	// (model.Fact.EcosystemMessage); nil where it has none.
	ecosystem func(w wording, f *fact) string
	// short names a fact of an answer in a few words, the reason a sweep
	// counts (sweep.go); "" for the request's own facts.
	short func(module string, f model.Fact) string
}

// factWords is the table of how each kind of fact reads, indexed by kind.
var factWords = [len(factKinds)]kindWords{
	model.FactRequestEnable:         {message: requestEnableMessage, short: noShort},
	model.FactRequestDisable:        {message: requestDisableMessage, short: stateShort},
	model.FactRequestPin:            {message: pinMessage, short: noShort},
	model.FactClusterEnabled:        {message: wording.clusterEnabledMessage, short: stateShort},
	model.FactClusterDisabled:       {message: clusterDisabledMessage, short: stateShort},
	model.FactNotEnabled:            {message: wording.notEnabledMessage, short: stateShort},
	model.FactKeepVersion:           {message: keepVersionMessage, short: stateShort},
	model.FactNoDowngrade:           {message: noDowngradeMessage, short: stateShort},
	model.FactChannelHead:           {message: channelMessage, short: stateShort},
	model.FactUpdateStep:            {message: wording.stepMessage, short: stateShort},
	model.FactModuleRequirement:     {message: wording.requirementMessage, ecosystem: wording.requirementEcosystem, short: requiresShort},
	model.FactDeckhouseRequirement:  {message: wording.deckhouseMessage, ecosystem: wording.deckhouseEcosystem, short: componentShort},
	model.FactKubernetesRequirement: {message: wording.kubernetesMessage, ecosystem: wording.kubernetesEcosystem, short: componentShort},
	model.FactEdition:               {message: wording.editionMessage, short: stateShort},
	model.FactExclusiveGroup:        {message: exclusiveGroupMessage, short: groupShort},
	model.FactMissingModule:         {message: missingModuleMessage, short: prefixedShort("missing module ")},
	model.FactPrerelease:            {message: prereleaseMessage, short: stateShort},
	model.FactPreference:            {message: preferenceMessage, short: noShort},
	model.FactPlatformRequirement:   {message: wording.componentMessage, ecosystem: wording.componentEcosystem, short: componentShort},
	model.FactCapabilityRequirement: {message: wording.capabilityMessage, short: unprovidedShort},
	model.FactMissingCapability:     {message: missingCapabilityMessage, short: prefixedShort("missing capability ")},
	model.FactCapabilityConflict:    {message: capabilityConflictMessage, short: groupShort},
	model.FactExperimental:          {message: plain(experimentalMessage), short: stateShort},
	model.FactCompoundRequirement:   {message: wording.compoundMessage, short: compoundShort("requires ")},
	model.FactCompoundConflict:      {message: wording.compoundMessage, short: compoundShort("conflicts with ")},
	model.FactSource:                {message: plain(sourceMessage), short: stateShort},
	model.FactDependencyLoop:        {message: loopMessage, short: loopShort},
	model.FactSettings:              {message: plain(settingsMessage), short: settingsShort},
	model.FactPlatformKubernetes:    {message: wording.platformKubernetesMessage, short: componentShort},
	model.FactPlatformGate:          {message: wording.platformGateMessage, short: componentShort},
	model.FactPlatformRoute:         {message: wording.platformGateMessage, short: componentShort},
	model.FactPlatformRelease:       {message: plain(platformReleaseMessage), short: stateShort},
}

// wordsOf is the words of f's kind.
func wordsOf(f *fact) *kindWords { return &factWords[f.kind] }

// plain makes a message that needs nothing of the problem a table entry's.
func plain(message func(*fact) string) func(wording, *fact) string {
	return func(_ wording, f *fact) string { return message(f) }
}

// The short forms of each kind of fact (factWords).

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
