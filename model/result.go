package model

// Status is the outcome of one resolution.
type Status int

const (
	StatusUnspecified Status = iota
	StatusResolved
	StatusUnsatisfiable
)

func (s Status) String() string {
	switch s {
	case StatusResolved:
		return "resolved"
	case StatusUnsatisfiable:
		return "unsatisfiable"
	}
	return "unspecified"
}

// Action is what happens to one module.
type Action int

const (
	ActionUnspecified Action = iota
	// ActionInstall: disabled before, enabled now.
	ActionInstall
	// ActionUpdate: enabled before and now, at a newer version.
	ActionUpdate
	// ActionKeep: enabled before and now, at the same version.
	ActionKeep
	// ActionDisable: enabled before, disabled now.
	ActionDisable
	// ActionDowngrade: enabled before and now, at an older, pinned version.
	ActionDowngrade
	// ActionAbsent: disabled before and now.
	ActionAbsent
)

func (a Action) String() string {
	switch a {
	case ActionInstall:
		return "install"
	case ActionUpdate:
		return "update"
	case ActionKeep:
		return "keep"
	case ActionDisable:
		return "disable"
	case ActionDowngrade:
		return "downgrade"
	case ActionAbsent:
		return "absent"
	}
	return "unspecified"
}

// Result is the answer to one resolution.
type Result struct {
	Status Status
	// Modules holds every module enabled before or after, sorted by name,
	// and modules on by default that stay off, with the reason.
	Modules []ModuleResult
	// Plan orders the steps (R18).
	Plan []PlanStep
	// Explanation is set when Status is StatusUnsatisfiable.
	Explanation *Explanation
	// Warnings list what a resolved answer should not hide, such as a
	// selected Deprecated release (R25), sorted by module, then kind.
	Warnings []Warning
	// Assumptions are the gates that need the live cluster which the
	// answer could not decide (R32), in the order of the DKP releases on
	// the way, then by key.
	Assumptions []Assumption
	// Route holds, on an answer that moves a platform minor, the steps
	// from the cluster's platform to the answer's, one minor at a time
	// (R33); none when the platform stays on its minors.
	Route []RouteStep
	Stats Stats
}

// RouteStep is one platform step of a route (R33): the platform after
// the step, the module changes made before it, and what it checked.
type RouteStep struct {
	// Deckhouse and Kubernetes are the versions the step moves to: the
	// answer's or the cluster's version where the minor is theirs, else
	// the minor alone (DKP and Kubernetes take its latest patch).
	Deckhouse, Kubernetes string
	// Modules are the changes made before the step, at the platform the
	// step leaves, so that every module admits both (update or disable).
	Modules []PlanStep
	// Requirements say what the step checked: the pair DKP runs and the
	// release requirements of a DKP step.
	Requirements []string
}

// ModuleResult is the outcome for one module.
type ModuleResult struct {
	Name        string
	Action      Action
	FromVersion string
	ToVersion   string
	// ChannelHead is the version the module would ideally reach (R10).
	ChannelHead string
	// HeldBack says what keeps the module below ChannelHead (R17), or why a
	// module on by default stays off (R8).
	HeldBack string
	// Path lists the update steps from the deployed version to the head (R11).
	Path []string
	// PathNote says what the path meets on the way: what stops it below
	// the head, and releases on it that the platform forbids (D70).
	PathNote string
	// FromSource and ToSource are the sources of the release before and
	// after, with several sources (R23); Moved says they differ.
	FromSource string
	ToSource   string
	Moved      bool
}

// PlanStep is one step of the ordered plan.
type PlanStep struct {
	Module      string
	Action      Action
	FromVersion string
	ToVersion   string
	// ConfirmationMessage and ConfirmationAnnotation are set on the
	// disable of a module whose release asks for confirmation (R26): its
	// message, and the ModuleConfig annotation DKP needs before it
	// applies the step.
	ConfirmationMessage    string
	ConfirmationAnnotation string
	// FromSource and ToSource are, with several sources (R23), those of
	// the module's result: the step installs, keeps or updates from
	// ToSource, and moves the module when they differ (D94).
	FromSource, ToSource string
	// CycleWith names, sorted, the other modules of the step's dependency
	// cycle (R18, D90): they need each other, so no order puts each after
	// the modules it requires, and they are applied together, as one unit.
	CycleWith []string
}

// Explanation says why no consistent answer exists (R16).
type Explanation struct {
	Summary string
	Facts   []Fact
	// Steps chain Facts into the reason (Derive); nil when the facts do
	// not chain.
	Steps       []Step
	Suggestions []Suggestion
}

// FactKind names the kind of input a fact comes from.
type FactKind int

const (
	FactUnspecified FactKind = iota
	// FactRequestEnable: the request enables the module.
	FactRequestEnable
	// FactRequestDisable: the request disables the module.
	FactRequestDisable
	// FactRequestPin: the request pins the module to a version.
	FactRequestPin
	// FactClusterEnabled: the cluster configures the module enabled: true.
	FactClusterEnabled
	// FactClusterDisabled: the cluster configures the module enabled: false.
	FactClusterDisabled
	// FactNotEnabled: the cluster does not configure the module, it is off by
	// default, and the request does not allow enabling it.
	FactNotEnabled
	// FactKeepVersion: the module is not in the update set, so it keeps its
	// deployed version (R9).
	FactKeepVersion
	// FactNoDowngrade: the module may update, but not below its deployed
	// version (R9).
	FactNoDowngrade
	// FactChannelHead: the module may not go above its channel's head (R10).
	FactChannelHead
	// FactUpdateStep: the sequential update rule limits the next step (R11).
	FactUpdateStep
	// FactModuleRequirement: a release requires another module (R2, R3).
	FactModuleRequirement
	// FactDeckhouseRequirement: a release requires a DKP version (R4).
	FactDeckhouseRequirement
	// FactKubernetesRequirement: a release requires a Kubernetes version (R4).
	FactKubernetesRequirement
	// FactEdition: a release is not available in the cluster's edition (R7).
	FactEdition
	// FactExclusiveGroup: at most one module of a group may be enabled (R13).
	FactExclusiveGroup
	// FactMissingModule: a release requires a module the catalog lacks.
	FactMissingModule
	// FactPrerelease: a prerelease is taken only when deployed, pinned or
	// named by the module's channel.
	FactPrerelease
	// FactPreference: a module named earlier took this version first (R14).
	FactPreference
	// FactPlatformRequirement: a release requires a version of a platform
	// component other than DKP and Kubernetes (R22).
	FactPlatformRequirement
	// FactCapabilityRequirement: a release requires a capability that an
	// enabled module must provide (R19).
	FactCapabilityRequirement
	// FactMissingCapability: a release requires a capability that no module
	// in the catalog provides (R19).
	FactMissingCapability
	// FactCapabilityConflict: two enabled modules may not provide the same
	// capability (R20).
	FactCapabilityConflict
	// FactExperimental: a release is Experimental and the cluster does not
	// allow experimental modules (R25).
	FactExperimental
	// FactCompoundRequirement: a release requires that another enabled
	// module's release satisfy a predicate (R24).
	FactCompoundRequirement
	// FactCompoundConflict: a release refuses every enabled module whose
	// release satisfies a predicate (R24, a top-level not).
	FactCompoundConflict
	// FactSource: the request moves the module to a source that does not
	// list its deployed release (R23).
	FactSource
	// FactDependencyLoop: the selected releases of enabled modules may not
	// require one another in a loop (R27).
	FactDependencyLoop
	// FactSettings: a release's settings schema refuses the module's
	// settings in the cluster (R34).
	FactSettings
	// FactPlatformKubernetes: the answer's Kubernetes is not one DKP runs
	// or moves with: its DKP release does not support the minor, or a DKP
	// release on the way requires a newer one (R31).
	FactPlatformKubernetes
	// FactPlatformGate: a requirement of a DKP release that a fact of the
	// live cluster decides, and the fact fails it (R32).
	FactPlatformGate
	// FactPlatformRelease: a requirement of a DKP release's release.yaml
	// that DKP checks before it moves to the release (R31).
	FactPlatformRelease
	// FactPlatformRoute: no route one minor at a time reaches the
	// answer's platform (R33): the step that no module set passes.
	FactPlatformRoute
)

var factKindNames = map[FactKind]string{
	FactRequestEnable:         "request-enable",
	FactRequestDisable:        "request-disable",
	FactRequestPin:            "request-pin",
	FactClusterEnabled:        "cluster-enabled",
	FactClusterDisabled:       "cluster-disabled",
	FactNotEnabled:            "not-enabled",
	FactKeepVersion:           "keep-version",
	FactNoDowngrade:           "no-downgrade",
	FactChannelHead:           "channel-head",
	FactUpdateStep:            "update-step",
	FactModuleRequirement:     "module-requirement",
	FactDeckhouseRequirement:  "deckhouse-requirement",
	FactKubernetesRequirement: "kubernetes-requirement",
	FactEdition:               "edition",
	FactExclusiveGroup:        "exclusive-group",
	FactMissingModule:         "missing-module",
	FactPrerelease:            "prerelease",
	FactPreference:            "preference",
	FactPlatformRequirement:   "platform-requirement",
	FactCapabilityRequirement: "capability-requirement",
	FactMissingCapability:     "missing-capability",
	FactCapabilityConflict:    "capability-conflict",
	FactExperimental:          "experimental",
	FactCompoundRequirement:   "compound-requirement",
	FactCompoundConflict:      "compound-conflict",
	FactSource:                "source",
	FactDependencyLoop:        "dependency-loop",
	FactSettings:              "settings",
	FactPlatformKubernetes:    "platform-kubernetes",
	FactPlatformGate:          "platform-gate",
	FactPlatformRelease:       "platform-release",
	FactPlatformRoute:         "platform-route",
}

func (k FactKind) String() string {
	if n, ok := factKindNames[k]; ok {
		return n
	}
	return "unspecified"
}

// FactKinds lists every kind, in declaration order.
func FactKinds() []FactKind {
	kinds := make([]FactKind, 0, len(factKindNames))
	for k := FactRequestEnable; k <= FactPlatformRoute; k++ {
		kinds = append(kinds, k)
	}
	return kinds
}

// Fact is one input fact of an explanation (R16).
type Fact struct {
	Kind   FactKind
	Module string
	// Version is the releases the fact concerns as a person reads them
	// ("0.1.0–0.1.3"); Versions lists each.
	Version    string
	Versions   []string
	Constraint string
	Message    string
	// Requires is what a requirement fact names: the required module,
	// capability or platform component other than DKP and Kubernetes;
	// empty for other facts.
	Requires string
	// Subject is what the fact is about besides Module, as a value of its
	// own, never a prefix of another field: what a requirement names (the
	// module, the capability, or the platform component, "deckhouse" and
	// "kubernetes" included); the exclusive group (R13); the capability
	// that several enabled modules provide (R20); the predicate of a
	// compound fact, for a conflict the one it refuses (R24); the source a
	// module moves to (R23). Empty for the facts about a module's own
	// state.
	Subject string
	// EcosystemMessage is the ecosystem's own wording of the same check,
	// DKP's for a requirement on a platform version ("requirements are
	// not satisfied: current deckhouse version is not suitable: 1.73.3 is
	// less than 1.74"), for tools that match on it; Message says it once,
	// in modsolver's words. Empty where the ecosystem has no wording of
	// its own.
	EcosystemMessage string
	// Group is the DKP v2 group a compound fact was written as (R28): its
	// bucket, name and description; nil for any other fact.
	Group *Group
	// Origin is where the fact was read from: the catalog's file and line
	// of the newest release it concerns, or the field of the cluster
	// state or the request.
	Origin Origin
}

// SuggestionKind names the change a suggestion proposes.
type SuggestionKind int

const (
	SuggestUnspecified SuggestionKind = iota
	SuggestUpgradeKubernetes
	SuggestUpgradeDeckhouse
	SuggestEnableModule
	SuggestUpdateModule
	SuggestDisableModule
	SuggestDirectStrategy
	SuggestChangeChannel
	SuggestChangeEdition
	SuggestAutoEnable
	SuggestPinModule
	SuggestUpgradePlatform
	// SuggestAllowExperimental: set allowExperimentalModules (R25).
	SuggestAllowExperimental
	// SuggestMoveSource: take the module from another source (R23).
	SuggestMoveSource
	// SuggestCombined: a set of changes made together, none of which is
	// enough alone (R16); Suggestion.Changes holds its parts.
	SuggestCombined
	// SuggestChangeSettings: change the module's settings so that the
	// release's schema accepts them (R34).
	SuggestChangeSettings
)

var suggestionKindNames = map[SuggestionKind]string{
	SuggestUpgradeKubernetes: "upgrade-kubernetes",
	SuggestUpgradeDeckhouse:  "upgrade-deckhouse",
	SuggestEnableModule:      "enable-module",
	SuggestUpdateModule:      "update-module",
	SuggestDisableModule:     "disable-module",
	SuggestDirectStrategy:    "direct-strategy",
	SuggestChangeChannel:     "change-channel",
	SuggestChangeEdition:     "change-edition",
	SuggestAutoEnable:        "auto-enable",
	SuggestPinModule:         "pin-module",
	SuggestUpgradePlatform:   "upgrade-platform",
	SuggestAllowExperimental: "allow-experimental",
	SuggestMoveSource:        "move-source",
	SuggestCombined:          "combined",
	SuggestChangeSettings:    "change-settings",
}

func (k SuggestionKind) String() string {
	if n, ok := suggestionKindNames[k]; ok {
		return n
	}
	return "unspecified"
}

// Suggestion is one change that, made alone, makes the request
// satisfiable, or, of kind SuggestCombined, a set of changes that does
// when made together and none of whose smaller subsets does (R16).
type Suggestion struct {
	Kind    SuggestionKind
	Module  string
	Version string
	Message string
	// Changes are the parts of a combined suggestion, each a single
	// change, in the order Message names them; nil for a single change.
	Changes []Suggestion
}

// Stats describe the work behind one answer.
type Stats struct {
	Variables   int
	Clauses     int
	Solves      int
	SolveMicros int64
	// MemoryBytes estimates the memory the encodings that Variables and
	// Clauses count held at the end, their largest: the solver's own
	// state, learnt clauses included, and its view of the touched modules;
	// not the catalog, which callers share. It is the figure that
	// solver.WithMemoryLimit bounds.
	MemoryBytes int64
	// Unchanged counts the kept modules an answer with ReportChanges
	// leaves out of its module list.
	Unchanged int
}

// AboutPlatform reports whether the fact is a requirement on a platform
// version (DKP, Kubernetes or another component), which a platform upgrade
// question changes.
func (f Fact) AboutPlatform() bool {
	switch f.Kind {
	case FactDeckhouseRequirement, FactKubernetesRequirement, FactPlatformRequirement, FactPlatformKubernetes, FactPlatformGate, FactPlatformRoute:
		return true
	}
	return false
}
