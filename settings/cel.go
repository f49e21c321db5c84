package settings

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/cel-go/cel"
)

// rule is one CEL rule of the schema, compiled: DKP's
// x-deckhouse-validations ({expression, message}) or Kubernetes'
// x-kubernetes-validations ({rule, message}), evaluated with self bound
// to the object the rule sits on.
type rule struct {
	text    string
	message string
	prg     cel.Program
}

// ruleKeys are the two places a schema writes CEL rules, with the field
// that holds the expression.
var ruleKeys = []struct{ key, field string }{
	{"x-deckhouse-validations", "expression"},
	{"x-kubernetes-validations", "rule"},
}

// celCostLimit bounds one rule's evaluation, as Kubernetes bounds its
// validation rules: a rule past it refuses with the reason.
const celCostLimit = 1_000_000

// celEnv is the environment every rule compiles in: self, of any type.
func celEnv() (*cel.Env, error) {
	return cel.NewEnv(cel.Variable("self", cel.DynType))
}

// readRules compiles the CEL rules of schema s, at path.
func readRules(s map[string]any, path []string) ([]rule, error) {
	var out []rule
	for _, k := range ruleKeys {
		for _, item := range asList(s[k.key]) {
			entry, _ := item.(map[string]any)
			text, _ := entry[k.field].(string)
			if text == "" {
				return nil, fmt.Errorf("%w: %s at %s: an entry without %s", ErrSchema, k.key, pathText(path), k.field)
			}
			env, err := celEnv()
			if err != nil {
				return nil, fmt.Errorf("internal error: CEL environment: %v", err)
			}
			ast, iss := env.Compile(text)
			if iss != nil && iss.Err() != nil {
				return nil, fmt.Errorf("%w: %s at %s: %q: %v", ErrSchema, k.key, pathText(path), text, iss.Err())
			}
			prg, err := env.Program(ast, cel.CostLimit(celCostLimit))
			if err != nil {
				return nil, fmt.Errorf("%w: %s at %s: %q: %v", ErrSchema, k.key, pathText(path), text, err)
			}
			msg, _ := entry["message"].(string)
			out = append(out, rule{text: text, message: msg, prg: prg})
		}
	}
	return out, nil
}

// failedRule returns the first rule that value breaks, walking the
// settings beside the schema in field order; nil when every rule holds.
func (n *node) failedRule(value any, path []string) *problem {
	for _, r := range n.rules {
		out, _, err := r.prg.Eval(map[string]any{"self": value})
		reason := ""
		switch {
		case err != nil:
			reason = fmt.Sprintf("rule %q cannot be evaluated: %v", r.text, err)
		case out.Value() != true:
			reason = r.message
			if reason == "" {
				reason = fmt.Sprintf("fails rule %q", r.text)
			}
		}
		if reason != "" {
			return &problem{path: slices.Clone(path), reason: reason}
		}
	}
	switch v := value.(type) {
	case map[string]any:
		for _, name := range slices.Sorted(maps.Keys(v)) {
			sub := n.props[name]
			if sub == nil {
				sub = n.additional
			}
			if sub == nil {
				continue
			}
			if p := sub.failedRule(v[name], append(path, name)); p != nil {
				return p
			}
		}
	case []any:
		if n.items != nil {
			for i, e := range v {
				if p := n.items.failedRule(e, append(path, fmt.Sprint(i))); p != nil {
					return p
				}
			}
		}
	}
	return nil
}

func pathText(path []string) string {
	if len(path) == 0 {
		return "the top"
	}
	return strings.Join(path, ".")
}
