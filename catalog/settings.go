package catalog

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/settings"
)

// fileSettings is a release's settings schema in the single-file format
// (R34): `settings: {schema: …, conversions: {"2": [jq, …]}}`. A built-in
// module, which has no releases, lists them with the DKP versions each
// applies to: `settings: [{deckhouse: ">= 1.75", schema: …}]`.
type fileSettings struct {
	Deckhouse   string              `yaml:"deckhouse"`
	Schema      map[string]any      `yaml:"schema"`
	Conversions map[string][]string `yaml:"conversions"`
}

// toModel compiles the schema, once, as the catalog is read.
func (fs *fileSettings) toModel(loc place, line int) (*model.SettingsSchema, error) {
	if fs == nil {
		return nil, nil
	}
	where := "module " + loc.module
	if loc.release != "" {
		where += ": release " + loc.release
	}
	if fs.Schema == nil {
		return nil, &ParseError{File: loc.file, Line: line, Err: fmt.Errorf("%w: %s: settings: no schema", model.ErrMissingField, where)}
	}
	conv, err := conversionsByVersion(fs.Conversions)
	if err != nil {
		return nil, &ParseError{File: loc.file, Line: line, Err: fmt.Errorf("%s: settings: %w", where, err)}
	}
	return compileSettings(loc.file, line, where, fs.Schema, conv)
}

// compileSettings compiles one release's schema and conversions; an error
// is a *ParseError at file and line.
func compileSettings(file string, line int, where string, schema map[string]any, conv map[int][]string) (*model.SettingsSchema, error) {
	s := &model.SettingsSchema{Schema: schema, Conversions: conv}
	if err := settings.Compile(s); err != nil {
		return nil, &ParseError{File: file, Line: line, Err: fmt.Errorf("%s: %w", where, err)}
	}
	return s, nil
}

// conversionsByVersion reads the conversions' keys, settings versions of
// 2 or more.
func conversionsByVersion(byText map[string][]string) (map[int][]string, error) {
	if len(byText) == 0 {
		return nil, nil
	}
	out := make(map[int][]string, len(byText))
	for text, exprs := range byText {
		v, err := strconv.Atoi(text)
		if err != nil || v < 2 {
			return nil, fmt.Errorf("%w: conversions: %q: a settings version is a whole number of 2 or more", model.ErrInvalidValue, text)
		}
		out[v] = exprs
	}
	return out, nil
}

// builtInSettings reads a built-in module's list of schemas (R34), in an
// order that does not depend on the file's: the entries with a DKP
// constraint first, by constraint text, then one without. The first whose
// constraint admits the DKP version applies, so the entries should not
// overlap; where they do, the order of their texts decides.
func builtInSettings(loc place, line int, list []*fileSettings) ([]model.PlatformSettings, error) {
	list = slices.Clone(list)
	slices.SortStableFunc(list, func(a, b *fileSettings) int {
		return cmp.Or(cmp.Compare(boolInt(a.Deckhouse == ""), boolInt(b.Deckhouse == "")), cmp.Compare(a.Deckhouse, b.Deckhouse))
	})
	if len(list) > 1 && list[len(list)-2].Deckhouse == "" {
		return nil, &ParseError{File: loc.file, Line: line, Err: fmt.Errorf("%w: module %s: settings: at most one entry goes without a deckhouse constraint", model.ErrInvalidValue, loc.module)}
	}
	var out []model.PlatformSettings
	for _, fs := range list {
		ps := model.PlatformSettings{}
		if fs.Deckhouse != "" {
			c, err := loc.constraint("settings.deckhouse", fs.Deckhouse)
			if err != nil {
				return nil, err
			}
			ps.Deckhouse = &c
		}
		s, err := fs.toModel(loc, line)
		if err != nil {
			return nil, err
		}
		ps.Schema = s
		out = append(out, ps)
	}
	return out, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
