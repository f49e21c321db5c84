package settings

import (
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// FuzzCheck feeds schemas, conversions and settings of any shape through
// Compile and Check: bad input is an error or a refusal, never a panic.
func FuzzCheck(f *testing.F) {
	f.Add([]byte("{type: object, properties: {a: {type: string, enum: [x]}}}"), ".a = .b", []byte("{b: x}"), 1)
	f.Add([]byte("{type: object, x-deckhouse-validations: [{expression: 'self.a > 1'}]}"), ".", []byte("{a: 2}"), 0)
	f.Add([]byte("{type: object, properties: {a: {type: array, items: {type: object, properties: {b: {default: 1}}}}}}"), "del(.c)", []byte("{a: [{}]}"), 1)
	f.Fuzz(func(t *testing.T, schema []byte, jq string, values []byte, version int) {
		var s map[string]any
		var v map[string]any
		if yaml.Unmarshal(schema, &s) != nil || yaml.Unmarshal(values, &v) != nil {
			return
		}
		ss := &model.SettingsSchema{Schema: s, Conversions: map[int][]string{2: {jq}}}
		if Compile(ss) != nil {
			return
		}
		st, err := model.NewSettings(version%4, v)
		if err != nil {
			return
		}
		ss.Check.Check(st)
	})
}
