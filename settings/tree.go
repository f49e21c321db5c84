package settings

import (
	"fmt"
	"maps"
	"slices"
)

// node is what the schema says of one place in the settings, beside the
// validation: its default, the fields it requires, its CEL rules, and
// the schemas of what it holds. Only the places reached through
// properties, items and additionalProperties are nodes: a branch of
// oneOf, anyOf, allOf or not is the validator's alone.
type node struct {
	props      map[string]*node
	items      *node
	additional *node
	def        any
	hasDef     bool
	required   []string
	rules      []rule
}

// readTree reads the node of schema s, at path (for the errors of its
// CEL rules).
func readTree(s map[string]any, path []string) (*node, error) {
	n := &node{}
	if d, ok := s["default"]; ok {
		n.def, n.hasDef = d, true
	}
	for _, r := range asList(s["required"]) {
		if name, ok := r.(string); ok {
			n.required = append(n.required, name)
		}
	}
	rules, err := readRules(s, path)
	if err != nil {
		return nil, err
	}
	n.rules = rules
	if props, ok := s["properties"].(map[string]any); ok {
		n.props = map[string]*node{}
		for _, name := range slices.Sorted(maps.Keys(props)) {
			sub, _ := props[name].(map[string]any)
			if sub == nil {
				continue
			}
			if n.props[name], err = readTree(sub, append(path, name)); err != nil {
				return nil, err
			}
		}
	}
	if sub, ok := s["items"].(map[string]any); ok {
		if n.items, err = readTree(sub, append(path, "*")); err != nil {
			return nil, err
		}
	}
	if sub, ok := s["additionalProperties"].(map[string]any); ok {
		if n.additional, err = readTree(sub, append(path, "*")); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// combinators are the keywords whose branches the validator alone reads.
var combinators = []string{"oneOf", "anyOf", "allOf", "not"}

// prepare returns a copy of schema s as DKP validates settings with it:
// nullable read as JSON Schema's type list; outside the branches of a
// combinator, every object that lists properties and does not open
// itself closed, and the required lists left out (a missing field does
// not refuse the release: check.go reports it from the node tree).
func prepare(s map[string]any, inBranch bool) map[string]any {
	out := make(map[string]any, len(s)+1)
	for k, v := range s {
		switch {
		case k == "properties" || k == "patternProperties":
			props, _ := v.(map[string]any)
			sub := make(map[string]any, len(props))
			for name, p := range props {
				sub[name] = prepareAny(p, inBranch)
			}
			out[k] = sub
		case k == "items" || k == "additionalProperties":
			out[k] = prepareAny(v, inBranch)
		case slices.Contains(combinators, k):
			out[k] = prepareAny(v, true)
		case k == "required" && !inBranch:
			// reported, not enforced (see check.go)
		default:
			out[k] = v
		}
	}
	if nullable, _ := s["nullable"].(bool); nullable {
		if t, ok := s["type"].(string); ok {
			out["type"] = []any{t, "null"}
		}
	}
	_, hasProps := s["properties"]
	_, hasAdditional := s["additionalProperties"]
	preserve, _ := s["x-kubernetes-preserve-unknown-fields"].(bool)
	if hasProps && !hasAdditional && !preserve && !inBranch {
		out["additionalProperties"] = false
	}
	return out
}

// prepareAny prepares a schema or a list of schemas.
func prepareAny(v any, inBranch bool) any {
	switch v := v.(type) {
	case map[string]any:
		return prepare(v, inBranch)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = prepareAny(e, inBranch)
		}
		return out
	}
	return v
}

// withDefaults merges the schema's defaults under value, in place where
// value is an object or a list the settings own (the caller passes a
// copy): a field the settings leave out takes its default, recursively.
func (n *node) withDefaults(value any) any {
	switch v := value.(type) {
	case map[string]any:
		for _, name := range slices.Sorted(maps.Keys(n.props)) {
			p := n.props[name]
			cur, ok := v[name]
			if !ok && p.hasDef {
				cur, ok = deepCopy(p.def), true
			}
			if ok {
				v[name] = p.withDefaults(cur)
			}
		}
		if n.additional != nil {
			for name, cur := range v {
				if _, listed := n.props[name]; !listed {
					v[name] = n.additional.withDefaults(cur)
				}
			}
		}
	case []any:
		if n.items != nil {
			for i := range v {
				v[i] = n.items.withDefaults(v[i])
			}
		}
	}
	return value
}

// missing lists, in path order, the required fields the settings lack
// where the object that requires them is present.
func (n *node) missing(value any, path []string, out *[]problem) {
	switch v := value.(type) {
	case map[string]any:
		for _, name := range n.required {
			if _, ok := v[name]; !ok {
				*out = append(*out, problem{path: append(slices.Clone(path), name), reason: "is required and has no default"})
			}
		}
		for _, name := range slices.Sorted(maps.Keys(n.props)) {
			if cur, ok := v[name]; ok {
				n.props[name].missing(cur, append(path, name), out)
			}
		}
	case []any:
		if n.items != nil {
			for i, e := range v {
				n.items.missing(e, append(path, fmt.Sprint(i)), out)
			}
		}
	}
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
