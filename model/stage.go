package model

import (
	"fmt"
	"strings"
)

// Stage is a release's maturity, as DKP's module.yaml declares it in
// `stage` (R25). The zero value is General Availability, which is also
// what an absent stage means.
type Stage int

const (
	// StageGeneralAvailability: a release for production use.
	StageGeneralAvailability Stage = iota
	// StagePreview: a release that may still change; selectable as GA is.
	StagePreview
	// StageExperimental: selectable only when the cluster allows
	// experimental modules (allowExperimentalModules, R25).
	StageExperimental
	// StageDeprecated: selectable, but the answer warns about it.
	StageDeprecated
)

// stageNames holds each stage's text in DKP's module.yaml, by stage.
var stageNames = [...]string{
	StageGeneralAvailability: "General Availability",
	StagePreview:             "Preview",
	StageExperimental:        "Experimental",
	StageDeprecated:          "Deprecated",
}

// Stages lists every stage, in declaration order.
func Stages() []Stage {
	out := make([]Stage, len(stageNames))
	for i := range stageNames {
		out[i] = Stage(i)
	}
	return out
}

func (s Stage) String() string {
	if s >= 0 && int(s) < len(stageNames) {
		return stageNames[s]
	}
	return "unspecified"
}

// ParseStage reads a stage as DKP writes it; an empty text is General
// Availability. Case and surrounding blanks do not matter.
func ParseStage(text string) (Stage, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return StageGeneralAvailability, nil
	}
	for _, s := range Stages() {
		if strings.EqualFold(text, s.String()) {
			return s, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown stage %q (want General Availability, Preview, Experimental or Deprecated)", ErrInvalidValue, text)
}

// Disable is what a release declares about being disabled (R26): with
// Confirmation, DKP disables the module only once its ModuleConfig
// carries AllowDisablingAnnotation, and Message says why.
type Disable struct {
	Confirmation bool
	Message      string
}

// AllowDisablingAnnotation is the ModuleConfig annotation DKP requires
// before it disables a module whose release asks for confirmation (R26).
const AllowDisablingAnnotation = "modules.deckhouse.io/allow-disabling=true"

// StageOf returns the stage of release r of m; a built-in module has no
// releases, and its own stage applies (R5).
func (m *Module) StageOf(r *Release) Stage {
	if m.Embedded || r == nil {
		return m.Stage
	}
	return r.Stage
}

// DisableOf returns what release r of m declares about being disabled; a
// built-in module's own declaration applies (R5).
func (m *Module) DisableOf(r *Release) Disable {
	if m.Embedded || r == nil {
		return m.Disable
	}
	return r.Disable
}

// WarningKind names what a warning is about (DESIGN §3).
type WarningKind int

const (
	WarningUnspecified WarningKind = iota
	// WarningDeprecated: a selected release is Deprecated (R25).
	WarningDeprecated
	// WarningUnknownVersion: a deployed version the catalog no longer lists.
	WarningUnknownVersion
	// WarningNormalisedVersion: a version normalised on import.
	WarningNormalisedVersion
	// WarningDependencyLoop: the answer keeps a dependency loop the
	// cluster already runs (R27).
	WarningDependencyLoop
	// WarningSettingsRequired: a selected release's settings schema
	// requires a field the module's settings lack; DKP's release gate
	// lets it through, and the next edit of the ModuleConfig must add it
	// (R34).
	WarningSettingsRequired
	// WarningSettingsRefused: releases newer than the selected one refuse
	// the module's settings, so it stays where it is (R34).
	WarningSettingsRefused
	// WarningKubernetesStatus: the answer runs a Kubernetes minor its DKP
	// release marks preview or end-of-life (R31).
	WarningKubernetesStatus
)

var warningKindNames = map[WarningKind]string{
	WarningDeprecated:        "deprecated",
	WarningUnknownVersion:    "unknown-version",
	WarningNormalisedVersion: "normalised-version",
	WarningDependencyLoop:    "dependency-loop",
	WarningSettingsRequired:  "settings-required",
	WarningSettingsRefused:   "settings-refused",
	WarningKubernetesStatus:  "kubernetes-status",
}

func (k WarningKind) String() string {
	if n, ok := warningKindNames[k]; ok {
		return n
	}
	return "unspecified"
}

// WarningKinds lists every kind, in declaration order.
func WarningKinds() []WarningKind {
	return []WarningKind{WarningDeprecated, WarningUnknownVersion, WarningNormalisedVersion, WarningDependencyLoop, WarningSettingsRequired, WarningSettingsRefused, WarningKubernetesStatus}
}

// Warning is something a resolved answer should not hide (DESIGN §3).
type Warning struct {
	Kind    WarningKind
	Module  string
	Version string
	Message string
}
