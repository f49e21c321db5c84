package randscen

import (
	"fmt"
	"math/rand/v2"

	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/settings"
)

// settingsStream salts the stream that draws settings schemas and the
// cluster's settings (R34).
const settingsStream = 0x5234_5e77

// levels are the values a drawn schema's enum takes its subsets from.
var levels = []string{"low", "mid", "high"}

// drawSettings gives some modules settings schemas and the cluster
// settings for some of those (R34), on a stream of its own. A schema
// allows a random subset of levels for .level; a release may carry the
// conversion to settings version 2, which renames .tier to .level, as a
// real module's conversions rename fields. A built-in module gets one
// schema from DKP 1.74 on and another below.
func (g *gen) drawSettings(rng *rand.Rand, cat *model.Catalog, cluster *model.ClusterState) error {
	chance := func(p float64) bool { return rng.Float64() < p }
	for _, m := range cat.Modules() {
		if !chance(0.3) {
			continue
		}
		if m.Embedded {
			from, err := model.ParseConstraint(">= 1.74")
			if err != nil {
				return err
			}
			newer, err := compiledSchema(rng, false)
			if err != nil {
				return err
			}
			older, err := compiledSchema(rng, false)
			if err != nil {
				return err
			}
			m.Settings = []model.PlatformSettings{{Deckhouse: &from, Schema: newer}, {Schema: older}}
		} else {
			for _, r := range m.Releases {
				if !chance(0.7) {
					continue
				}
				s, err := compiledSchema(rng, chance(0.25))
				if err != nil {
					return err
				}
				r.Settings = s
			}
		}
		if !chance(0.7) {
			continue
		}
		key := "level"
		version := rng.IntN(2)
		if version == 1 && chance(0.5) {
			key = "tier"
		}
		s, err := model.NewSettings(version, map[string]any{key: levels[rng.IntN(len(levels))]})
		if err != nil {
			return err
		}
		st := cluster.Modules[m.Name]
		st.Settings = s
		cluster.Modules[m.Name] = st
	}
	return nil
}

// compiledSchema draws one schema, with the renaming conversion when
// converts is set, and compiles it.
func compiledSchema(rng *rand.Rand, converts bool) (*model.SettingsSchema, error) {
	var allowed []any
	for _, l := range levels {
		if rng.Float64() < 0.6 {
			allowed = append(allowed, l)
		}
	}
	if len(allowed) == 0 {
		allowed = []any{levels[rng.IntN(len(levels))]}
	}
	s := &model.SettingsSchema{Schema: map[string]any{"type": "object", "properties": map[string]any{
		"level": map[string]any{"type": "string", "enum": allowed}}}}
	if converts {
		s.Conversions = map[int][]string{2: {".level = .tier | del(.tier)"}}
	}
	if err := settings.Compile(s); err != nil {
		return nil, fmt.Errorf("internal error: a drawn schema does not compile: %w", err)
	}
	return s, nil
}
