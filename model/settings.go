package model

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Settings are a module's ModuleConfig settings in the cluster (R34):
// the values the operator wrote and the settings version they were
// written for (spec.version; 0 when not given, which reads them as
// written for the version the release runs, so nothing is converted).
// Build them with NewSettings, which reads their digest once.
type Settings struct {
	Version int
	Values  map[string]any
	digest  string
}

// NewSettings makes the settings of a module from JSON-shaped values (the
// types encoding/json decodes into). It fails on values JSON cannot hold.
func NewSettings(version int, values map[string]any) (*Settings, error) {
	if version < 0 {
		return nil, fmt.Errorf("%w: settingsVersion %d: must be 1 or more", ErrInvalidInput, version)
	}
	if values == nil {
		values = map[string]any{}
	}
	text, err := json.Marshal(values) // map keys sorted: the same settings give the same text
	if err != nil {
		return nil, fmt.Errorf("%w: settings: %v", ErrInvalidInput, err)
	}
	return &Settings{Version: version, Values: values, digest: fmt.Sprintf("%d:%s", version, text)}, nil
}

// Digest identifies the settings by their content and version: equal
// settings have equal digests, whatever the key order they were read in.
// A check of a release's schema is remembered per digest.
func (s *Settings) Digest() string {
	if s == nil {
		return ""
	}
	return s.digest
}

// SettingsSchema is what a release says of its module's settings (R34):
// its OpenAPI v3 schema (openapi/config-values.yaml) and the jq
// conversions that carry settings from one settings version to the next
// (openapi/conversions/v<N>.yaml). Check is the compiled form, set by
// whoever reads the catalog; the solver, the checker and the oracle ask it.
type SettingsSchema struct {
	// Schema is the schema as written, JSON-shaped.
	Schema map[string]any
	// Conversions lists, by the settings version they convert to, the jq
	// expressions that convert settings from the version before.
	Conversions map[int][]string
	// Check is the compiled schema; nil until compiled.
	Check SettingsChecker
}

// SettingsChecker checks settings against one release's schema as DKP's
// admission does. Implementations are safe for concurrent use and
// remember their answers per settings digest.
type SettingsChecker interface {
	Check(s *Settings) SettingsVerdict
}

// SettingsVerdict is what a release's schema says of the cluster's
// settings: refused, with the first problem that refuses them, or
// accepted, perhaps with required fields that are missing (DKP's release
// gate lets those through; the next edit of the ModuleConfig must add
// them).
type SettingsVerdict struct {
	Refused *SettingsProblem
	Missing []SettingsProblem
}

// SettingsProblem is one field of the settings and what is wrong with it.
type SettingsProblem struct {
	// Path is the field, from settings: "settings.dvcr.storage.type".
	Path string
	// Reason says what the schema wants there.
	Reason string
}

func (p SettingsProblem) String() string { return p.Path + ": " + p.Reason }

// SettingsPath renders a field path as the answer names it.
func SettingsPath(parts []string) string {
	var b strings.Builder
	b.WriteString("settings")
	for _, p := range parts {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			b.WriteString("[" + p + "]")
			continue
		}
		b.WriteString("." + p)
	}
	return b.String()
}

// CheckSettings asks r's schema about s; a release without a compiled
// schema, or a module without settings, accepts.
func (r *Release) CheckSettings(s *Settings) SettingsVerdict {
	if s == nil || r.Settings == nil || r.Settings.Check == nil {
		return SettingsVerdict{}
	}
	return r.Settings.Check.Check(s)
}

// SettingsFor is built-in module m's settings schema at DKP version
// deckhouse (R34): the first of its list whose constraint admits the
// version, compared stripped as R6 reads DKP versions; nil when none does.
func (m *Module) SettingsFor(deckhouse Version) *SettingsSchema {
	for _, ps := range m.Settings {
		if ps.Deckhouse == nil || (deckhouse != nil && ps.Deckhouse.Allows(Core(deckhouse))) {
			return ps.Schema
		}
	}
	return nil
}
