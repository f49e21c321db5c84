package catalog

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/modsolver/modsolver/model"
)

// FuzzCompound feeds arbitrary compound requirement lists (R24) to the
// single-file format: each must load or be an input error, never panic;
// a loaded one must render, evaluate and survive a round trip through the
// format unchanged.
func FuzzCompound(f *testing.F) {
	f.Add(`[{"any": [{"module": "m", "version": ">= 0.20"}, {"module": "p"}], "message": "a database operator"}]`)
	f.Add(`[{"all": [{"capability": "e.io/v1/E"}, {"module": "etcd", "version": "> 3.1.0"}]}, {"not": {"capability": "x/v1/L"}}]`)
	f.Add(`[{"any": [{"not": {"all": [{"module": "a"}, {"not": {"module": "b", "version": "<1 || >2"}}]}}]}]`)
	f.Add(`[{"any": []}, {"module": ""}, {"version": "1"}, {"not": null}]`)
	f.Add(`[{"module": "m", "version": ">= 1 !optional"}, {"all": [{"module": "a", "message": "x"}]}]`)
	f.Fuzz(func(t *testing.T, compound string) {
		cat, err := parseCompound(compound)
		if err != nil {
			if !errors.Is(err, model.ErrInvalidInput) {
				t.Fatalf("error is not an input error: %v", err)
			}
			return
		}
		got := cat.Module("a").Releases[0].Requirements.Compound
		again, err := parseCompound(writeCompound(t, got))
		if err != nil {
			t.Fatalf("a written compound requirement does not load: %v", err)
		}
		back := again.Module("a").Releases[0].Requirements.Compound
		if len(back) != len(got) {
			t.Fatalf("round trip: %d requirements, want %d", len(back), len(got))
		}
		for i, c := range got {
			if c.String() != back[i].String() {
				t.Fatalf("round trip: %s, want %s", back[i], c)
			}
			c.Target().Holds("b", model.MustParseVersion("1.0.0"), []string{"x/v1/L"}, model.ReadingDKP, false)
		}
	})
}

// parseCompound loads a catalog whose one release has compound as its
// compound requirements.
func parseCompound(compound string) (*model.Catalog, error) {
	doc := `{"modules": [{"name": "a", "releases": [{"version": "1.0.0", "requirements": {"compound": ` + compound + `}}]}]}`
	cat, _, err := ParseFormat("fuzz.yaml", []byte(doc), FormatFile)
	return cat, err
}

// writeCompound writes compound requirements in the single-file format.
func writeCompound(t *testing.T, cs []model.CompoundRequirement) string {
	var out []map[string]any
	for _, c := range cs {
		node := compoundNode(c.Predicate)
		if c.Message != "" {
			node["message"] = c.Message
		}
		out = append(out, node)
	}
	data, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func compoundNode(p *model.Predicate) map[string]any {
	switch p.Op {
	case model.PredicateModule:
		n := map[string]any{"module": p.Module}
		if p.Version != nil {
			n["version"] = p.Version.Text
		}
		return n
	case model.PredicateCapability:
		return map[string]any{"capability": p.Capability}
	case model.PredicateNot:
		return map[string]any{"not": compoundNode(p.Operands[0])}
	}
	var ops []map[string]any
	for _, o := range p.Operands {
		ops = append(ops, compoundNode(o))
	}
	return map[string]any{p.Op.String(): ops}
}

// FuzzOLMConstraint feeds arbitrary olm.constraint values to the OLM
// mapping (R24): a bundle gets a valid compound requirement, skips a cel
// constraint with a warning, or fails with a reason; never a panic.
func FuzzOLMConstraint(f *testing.F) {
	f.Add([]byte(`{"failureMessage": "m", "any": {"constraints": [{"package": {"packageName": "a", "versionRange": ">=1.0.0"}}, {"gvk": {"group": "g", "version": "v1", "kind": "K"}}]}}`))
	f.Add([]byte(`{"not": {"constraints": [{"package": {"packageName": "a"}}, {"all": {"constraints": [{"cel": {"rule": "true"}}]}}]}}`))
	f.Add([]byte(`{"all": {"constraints": []}, "any": null}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		b := &olmBundle{pkg: "p", name: "p.v1.0.0", version: "1.0.0"}
		b.constraint(raw)
		if b.bad != "" {
			return
		}
		rel := &model.Release{Version: model.MustParseVersion("1.0.0"), Requirements: model.Requirements{Compound: b.compounds}}
		if _, err := model.NewCatalog([]*model.Module{{Name: "p", Releases: []*model.Release{rel}}}); err != nil {
			if !errors.Is(err, model.ErrInvalidInput) {
				t.Fatalf("error is not an input error: %v", err)
			}
			t.Fatalf("the mapping made a compound requirement the model refuses: %v", err)
		}
	})
}
