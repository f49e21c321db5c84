package settings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

func schemaOf(t *testing.T, text string, conversions map[int][]string) *model.SettingsSchema {
	t.Helper()
	var s map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(text), &s))
	out := &model.SettingsSchema{Schema: s, Conversions: conversions}
	require.NoError(t, Compile(out))
	return out
}

func settingsOf(t *testing.T, version int, text string) *model.Settings {
	t.Helper()
	var v map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(text), &v))
	s, err := model.NewSettings(version, v)
	require.NoError(t, err)
	return s
}

// R34: each step of DKP's check, one case each.
func TestCheck(t *testing.T) {
	const clusters = `
x-config-version: 2
type: object
properties:
  clusters:
    type: array
    items:
      type: object
      properties:
        monitors: {type: array, items: {type: string}}
        fsid: {type: string, pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"}
`
	toV2 := map[int][]string{2: {".clusters = [{monitors: .monitors, fsid: .fsid}] | del(.monitors, .fsid)"}}
	for _, tc := range []struct {
		name, schema, settings string
		version                int
		conversions            map[int][]string
		refused, missing       string // "" for none: the problem's text
	}{
		{name: "a conversion makes old settings valid", schema: clusters, conversions: toV2, version: 1,
			settings: `{monitors: ["10.0.0.1:6789"], fsid: 0a1b2c3d-0000-4000-8000-000000000000}`},
		{name: "a pattern refuses the converted settings", schema: clusters, conversions: toV2, version: 1,
			settings: `{monitors: [], fsid: abc}`,
			refused:  `settings.clusters[0].fsid: "abc" does not match the pattern ^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`},
		{name: "without the conversion, the old fields are removed properties", schema: clusters, version: 0,
			settings: `{monitors: [], fsid: abc}`, refused: `settings: the schema does not allow "fsid", "monitors"`},
		{name: "an enum narrowed", version: 0,
			schema:   `{type: object, properties: {dvcr: {type: object, properties: {storage: {type: object, properties: {type: {type: string, enum: [PersistentVolumeClaim]}}}}}}}`,
			settings: `{dvcr: {storage: {type: ObjectStorage}}}`, refused: "settings.dvcr.storage.type: must be one of [PersistentVolumeClaim]"},
		{name: "a type changed", schema: `{type: object, properties: {replicas: {type: integer}}}`,
			settings: `{replicas: "2"}`, refused: "settings.replicas: must be integer, not string"},
		{name: "a field that became required is missing: reported, not refused",
			schema:   `{type: object, required: [cidrs], properties: {cidrs: {type: array, minItems: 1}, ha: {type: boolean}}}`,
			settings: `{ha: true}`, missing: "settings.cidrs: is required and has no default"},
		{name: "a default fills a required field",
			schema:   `{type: object, required: [mode], properties: {mode: {type: string, default: Auto, enum: [Auto, Manual]}}}`,
			settings: `{}`},
		{name: "a CEL rule that fails",
			schema: `{type: object, properties: {replicas: {type: integer}, maxReplicas: {type: integer}},
			          x-deckhouse-validations: [{expression: "self.replicas <= self.maxReplicas", message: "replicas must not exceed maxReplicas"}]}`,
			settings: `{replicas: 5, maxReplicas: 3}`, refused: "settings: replicas must not exceed maxReplicas"},
		{name: "a CEL rule that holds",
			schema: `{type: object, properties: {replicas: {type: integer}, maxReplicas: {type: integer}},
			          x-deckhouse-validations: [{expression: "self.replicas <= self.maxReplicas", message: "replicas must not exceed maxReplicas"}]}`,
			settings: `{replicas: 2, maxReplicas: 3}`},
		{name: "a Kubernetes CEL rule on a nested object",
			schema: `{type: object, properties: {https: {type: object, properties: {mode: {type: string}, secretName: {type: string}},
			          x-kubernetes-validations: [{rule: "self.mode != 'CustomCertificate' || has(self.secretName)", message: "CustomCertificate needs secretName"}]}}}`,
			settings: `{https: {mode: CustomCertificate}}`, refused: "settings.https: CustomCertificate needs secretName"},
		{name: "settings newer than the release", schema: `{type: object}`, version: 3,
			settings: `{}`, refused: "settings: are written for settings version 3, and this release knows versions up to 1"},
		{name: "an object that opens itself", schema: `{type: object, properties: {a: {type: string}}, x-kubernetes-preserve-unknown-fields: true}`,
			settings: `{b: 1}`},
		{name: "nullable", schema: `{type: object, properties: {a: {type: string, nullable: true}}}`, settings: `{a: null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := schemaOf(t, tc.schema, tc.conversions)
			v := s.Check.Check(settingsOf(t, tc.version, tc.settings))
			if tc.refused == "" {
				assert.Nil(t, v.Refused)
			} else if assert.NotNil(t, v.Refused) {
				assert.Equal(t, tc.refused, v.Refused.String())
			}
			if tc.missing == "" {
				assert.Empty(t, v.Missing)
			} else if assert.Len(t, v.Missing, 1) {
				assert.Equal(t, tc.missing, v.Missing[0].String())
			}
		})
	}
}

// A schema that is not one, a jq expression or a CEL rule that does not
// compile: bad input of the catalog.
func TestCompileErrors(t *testing.T) {
	for name, s := range map[string]*model.SettingsSchema{
		"schema":     {Schema: map[string]any{"type": "objekt"}},
		"jq":         {Schema: map[string]any{"type": "object"}, Conversions: map[int][]string{2: {".a = ("}}},
		"cel":        {Schema: map[string]any{"type": "object", "x-deckhouse-validations": []any{map[string]any{"expression": "self.a <"}}}},
		"cel, empty": {Schema: map[string]any{"type": "object", "x-deckhouse-validations": []any{map[string]any{"message": "m"}}}},
	} {
		assert.ErrorIs(t, Compile(s), ErrSchema, name)
		assert.ErrorIs(t, Compile(s), model.ErrInvalidInput, name)
	}
}

// The verdict is remembered per digest: the same settings in another
// key order are the same question.
func TestCheckRemembers(t *testing.T) {
	s := schemaOf(t, `{type: object, properties: {a: {type: integer}, b: {type: integer}}}`, nil)
	first := settingsOf(t, 0, `{a: 1, b: "x"}`)
	second := settingsOf(t, 0, `{b: "x", a: 1}`)
	assert.Equal(t, first.Digest(), second.Digest())
	assert.Equal(t, s.Check.Check(first), s.Check.Check(second))
	n := 0
	s.Check.(*Checker).verdicts.Range(func(any, any) bool { n++; return true })
	assert.Equal(t, 1, n)
}

// BenchmarkCheck is one settings question: asked anew (a digest the
// schema has not seen: conversion, defaults, validation, CEL) and asked
// again (the remembered verdict).
func BenchmarkCheck(b *testing.B) {
	var s map[string]any
	require.NoError(b, yaml.Unmarshal([]byte(`{type: object, properties: {
	  clusters: {type: array, items: {type: object, properties: {monitors: {type: array, items: {type: string}}, fsid: {type: string, pattern: "^[0-9a-f-]{36}$"}}}},
	  replicas: {type: integer, default: 2}, maxReplicas: {type: integer, default: 3}},
	  x-deckhouse-validations: [{expression: "self.replicas <= self.maxReplicas"}]}`), &s))
	schema := &model.SettingsSchema{Schema: s, Conversions: map[int][]string{2: {".clusters = [{monitors: .monitors, fsid: .fsid}] | del(.monitors, .fsid)"}}}
	require.NoError(b, Compile(schema))
	values := map[string]any{"monitors": []any{"10.0.0.1:6789"}, "fsid": "0a1b2c3d-0000-4000-8000-000000000000"}
	b.Run("new", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			st, _ := model.NewSettings(1, map[string]any{"monitors": values["monitors"], "fsid": values["fsid"], "n": i})
			schema.Check.Check(st)
		}
	})
	b.Run("remembered", func(b *testing.B) {
		st, _ := model.NewSettings(1, values)
		schema.Check.Check(st)
		for b.Loop() {
			schema.Check.Check(st)
		}
	})
}
