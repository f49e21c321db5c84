package catalog

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// TestLoadDirSettings (R34): a DKP folder's openapi/ gives its release,
// or its built-in module, a settings schema and conversions; a folder
// whose settings cannot be read or compiled loads without them, with a
// warning that names the file.
func TestLoadDirSettings(t *testing.T) {
	const schema = "type: object\nproperties:\n  mode: {type: string, enum: [Auto, Manual]}\n"
	root := writeTree(t, map[string]string{
		"embedded/mon/module.yaml":                              "name: mon\n",
		"embedded/mon/openapi/config-values.yaml":               schema,
		"external/csi/v0.1.0/module.yaml":                       "name: csi\n",
		"external/csi/v0.2.0/module.yaml":                       "name: csi\n",
		"external/csi/v0.2.0/openapi/config-values.yaml":        schema,
		"external/csi/v0.2.0/openapi/values.yaml":               "not: [a schema of settings\n",
		"external/csi/v0.2.0/openapi/doc-ru-config-values.yaml": "{}\n",
		"external/csi/v0.3.0/module.yaml":                       "name: csi\n",
		"external/csi/v0.3.0/openapi/config-values.yaml":        schema,
		"external/csi/v0.3.0/openapi/conversions/v2.yaml":       "version: 2\nconversions: [del(.old)]\ndescription: {en: drop old}\n",
		"external/csi/v0.3.0/openapi/conversions/v3.yaml":       "conversions: ['.mode = \"Auto\"']\n",
		"external/csi/v0.3.0/openapi/conversions/README.md":     "not a conversion\n",
		"external/csi/v0.4.0/module.yaml":                       "name: csi\n",
		"external/csi/v0.4.0/openapi/config-values.yaml":        "type: objekt\n",
		"external/csi/v0.5.0/module.yaml":                       "name: csi\n",
		"external/csi/v0.5.0/openapi/config-values.yaml":        schema,
		"external/csi/v0.5.0/openapi/conversions/v2.yaml":       "version: 3\nconversions: [del(.old)]\n",
		"external/csi/v0.6.0/module.yaml":                       "name: csi\n",
		"external/csi/v0.6.0/openapi/config-values.yaml":        "type: object\ndescription: a\ndescription: b\nproperties: {mode: {type: string}}\n",
	})
	cat, rep, err := Load(root)
	require.NoError(t, err)
	csi := cat.Module("csi")
	require.Len(t, csi.Releases, 6)
	byTag := func(tag string) *model.Release { return csi.Release(model.MustParseVersion(tag)) }

	assert.Nil(t, byTag("0.1.0").Settings, "no openapi/: no settings")
	s := byTag("0.2.0").Settings
	require.NotNil(t, s)
	assert.NotNil(t, s.Check)
	assert.Empty(t, s.Conversions)
	refused := byTag("0.2.0").CheckSettings(settingsOf(t, 0, map[string]any{"mode": "Sometimes"}))
	require.NotNil(t, refused.Refused)
	assert.Equal(t, "settings.mode: must be one of [Auto, Manual]", refused.Refused.String())

	assert.Equal(t, map[int][]string{2: {"del(.old)"}, 3: {`.mode = "Auto"`}}, byTag("0.3.0").Settings.Conversions)
	converted := byTag("0.3.0").CheckSettings(settingsOf(t, 1, map[string]any{"old": 1, "mode": "Sometimes"}))
	assert.Nil(t, converted.Refused, "settings version 1 converted to 3")

	assert.Nil(t, byTag("0.4.0").Settings, "a schema that does not compile")
	assert.Nil(t, byTag("0.5.0").Settings, "a conversion that names another version than its file")
	assert.NotNil(t, byTag("0.6.0").Settings, "a key written twice: the last one is read")

	warned := func(file, what string) {
		t.Helper()
		for _, w := range rep.Warnings {
			if strings.Contains(w, file) && strings.Contains(w, what) {
				return
			}
		}
		t.Errorf("no warning names %s with %q: %q", file, what, rep.Warnings)
	}
	warned("v0.4.0/openapi/config-values.yaml", "loaded without settings")
	warned("v0.5.0/openapi/conversions/v2.yaml", "version 3, but the file is named for version 2; loaded without settings")
	warned("v0.6.0/openapi/config-values.yaml:2", `key "description" is written again at line 3`)

	mon := cat.Module("mon")
	require.Len(t, mon.Settings, 1)
	assert.Nil(t, mon.Settings[0].Deckhouse, "a built-in module's schema holds for every DKP version")
	assert.NotNil(t, mon.Settings[0].Schema.Check)
}

// Folders that ship the same files share one compiled schema.
func TestLoadDirSettingsShared(t *testing.T) {
	const schema = "type: object\nproperties: {a: {type: string}}\n"
	root := writeTree(t, map[string]string{
		"external/csi/v0.1.0/module.yaml":                "name: csi\n",
		"external/csi/v0.1.0/openapi/config-values.yaml": schema,
		"external/csi/v0.2.0/module.yaml":                "name: csi\n",
		"external/csi/v0.2.0/openapi/config-values.yaml": schema,
		"external/csi/v0.3.0/module.yaml":                "name: csi\n",
		"external/csi/v0.3.0/openapi/config-values.yaml": schema + "required: [a]\n",
	})
	cat, _, err := Load(root)
	require.NoError(t, err)
	rels := cat.Module("csi").Releases
	assert.Same(t, rels[0].Settings, rels[1].Settings)
	assert.NotSame(t, rels[1].Settings, rels[2].Settings)
}
