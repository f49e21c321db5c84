package settings

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/modsolver/modsolver/model"
)

// problem is a field, as path parts below settings, and what is wrong.
type problem struct {
	path   []string
	reason string
}

func (p problem) model() model.SettingsProblem {
	return model.SettingsProblem{Path: model.SettingsPath(p.path), Reason: p.reason}
}

// Check answers whether the release accepts s, once per settings digest.
func (c *Checker) Check(s *model.Settings) model.SettingsVerdict {
	if s == nil {
		return model.SettingsVerdict{}
	}
	if v, ok := c.verdicts.Load(s.Digest()); ok {
		return v.(model.SettingsVerdict)
	}
	v := c.check(s)
	c.verdicts.Store(s.Digest(), v)
	return v
}

// check runs DKP's steps: convert, merge defaults, validate, evaluate the
// CEL rules; then it lists the required fields that are missing.
func (c *Checker) check(s *model.Settings) model.SettingsVerdict {
	refuse := func(p problem) model.SettingsVerdict {
		m := p.model()
		return model.SettingsVerdict{Refused: &m}
	}
	values, err := plain(s.Values)
	if err != nil {
		return refuse(problem{reason: fmt.Sprintf("cannot be read: %v", err)})
	}
	values, p := c.convert(s.Version, values)
	if p != nil {
		return refuse(*p)
	}
	if values, err = plain(c.root.withDefaults(values)); err != nil {
		return refuse(problem{reason: fmt.Sprintf("cannot be read: %v", err)})
	}
	if err := c.schema.Validate(values); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return refuse(problem{reason: oneLine(err)})
		}
		return refuse(describe(ve))
	}
	if p := c.root.failedRule(values, nil); p != nil {
		return refuse(*p)
	}
	var missing []problem
	c.root.missing(values, nil, &missing)
	var v model.SettingsVerdict
	for _, m := range missing {
		v.Missing = append(v.Missing, m.model())
	}
	return v
}

// convert carries values from settings version from to the version the
// release runs (0: they are written for it already).
func (c *Checker) convert(from int, values any) (any, *problem) {
	if from > c.latest {
		return nil, &problem{reason: fmt.Sprintf("are written for settings version %d, and this release knows versions up to %d", from, c.latest)}
	}
	if from == 0 {
		return values, nil
	}
	for _, step := range c.steps {
		if step.to <= from {
			continue
		}
		for i, code := range step.code {
			ctx, cancel := context.WithTimeout(context.Background(), conversionBudget)
			out, ok := code.RunWithContext(ctx, values).Next()
			cancel()
			if err, isErr := out.(error); !ok || isErr {
				reason := "gives no value"
				if isErr {
					reason = err.Error()
				}
				return nil, &problem{reason: fmt.Sprintf("cannot be converted to settings version %d: %q %s", step.to, step.exprs[i], reason)}
			}
			values = out
		}
	}
	return values, nil
}

var english = message.NewPrinter(language.English)

// conversionBudget bounds one jq expression's run: a conversion that
// loops refuses the release rather than holding the answer.
const conversionBudget = time.Second

// describe is the problem a validation error names, down to where the
// error is one field's: of several causes, one that is not a oneOf or
// anyOf, then the deepest field (the most specific: an enum of
// dvcr.storage.type before the object around it), then the first in
// instance order. A oneOf or anyOf reached with no such cause beside it
// is named as such: which branch was meant is not the validator's to say.
func describe(e *jsonschema.ValidationError) problem {
	for len(e.Causes) > 0 {
		if isAlternatives(e) {
			return problem{path: e.InstanceLocation, reason: reason(e)}
		}
		causes := slices.Clone(e.Causes)
		slices.SortStableFunc(causes, func(a, b *jsonschema.ValidationError) int {
			return cmp.Or(cmp.Compare(boolInt(isAlternatives(a)), boolInt(isAlternatives(b))),
				cmp.Compare(len(b.InstanceLocation), len(a.InstanceLocation)),
				slices.Compare(a.InstanceLocation, b.InstanceLocation))
		})
		e = causes[0]
	}
	return problem{path: e.InstanceLocation, reason: reason(e)}
}

func isAlternatives(e *jsonschema.ValidationError) bool {
	switch e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		return true
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// reason words one validation error the way the answer reads.
func reason(e *jsonschema.ValidationError) string {
	switch k := e.ErrorKind.(type) {
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		return fmt.Sprintf("must be one of [%s]", strings.Join(want, ", "))
	case *kind.Pattern:
		return fmt.Sprintf("%q does not match the pattern %s", k.Got, k.Want)
	case *kind.AdditionalProperties:
		return fmt.Sprintf("the schema does not allow %s", quoteAll(slices.Sorted(slices.Values(k.Properties))))
	case *kind.Type:
		return fmt.Sprintf("must be %s, not %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.Required:
		return fmt.Sprintf("must set %s", quoteAll(slices.Sorted(slices.Values(k.Missing))))
	case *kind.OneOf, *kind.AnyOf:
		return "matches none of the forms the schema allows"
	}
	return e.ErrorKind.LocalizedString(english)
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
