package solver

import (
	"github.com/modsolver/modsolver/model"
)

// factChanges lists, for each kind of fact, the groups of alternative
// changes to the inputs that a suggestion may propose for a fact of it
// (suggest.go); nil for none. It is the explain phase's part of the
// fact-kind table (factkinds.go), indexed by kind as factKinds is.
var factChanges = [len(factKinds)]func(s *suggesting, f *fact) [][]change{
	model.FactClusterEnabled:        disableTheModule,
	model.FactClusterDisabled:       enableTheModule,
	model.FactNotEnabled:            enableOrAutoEnable,
	model.FactKeepVersion:           updateOrDowngrade,
	model.FactNoDowngrade:           pinDowngrades,
	model.FactChannelHead:           switchChannel,
	model.FactUpdateStep:            goDirect,
	model.FactModuleRequirement:     builtInUpgrades,
	model.FactDeckhouseRequirement:  deckhouseUpgrades,
	model.FactKubernetesRequirement: kubernetesUpgrades,
	model.FactEdition:               otherEditions,
	model.FactPrerelease:            pinPrereleases,
	model.FactPlatformRequirement:   componentUpgrades,
	model.FactCapabilityRequirement: enableAProvider,
	model.FactCapabilityConflict:    disableAProvider,
	model.FactExperimental:          allowExperimental,
	model.FactCompoundRequirement:   compoundAlternatives,
	model.FactCompoundConflict:      compoundAlternatives,
	model.FactDependencyLoop:        leaveTheLoop,
	model.FactSettings:              changeTheSettings,
	model.FactPlatformRelease:       disableTheModule,
}
