package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/itchyny/gojq"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/modsolver/modsolver/model"
)

// ErrSchema is the category of a settings schema that cannot be compiled:
// bad input of the catalog.
var ErrSchema = fmt.Errorf("%w: settings schema", model.ErrInvalidInput)

// Checker is a compiled release schema. It is safe for concurrent use.
type Checker struct {
	schema *jsonschema.Schema
	root   *node
	// steps are the conversions in version order; latest is the settings
	// version the release runs.
	steps  []conversion
	latest int
	// verdicts remembers each answer by settings digest.
	verdicts sync.Map
}

// conversion is the jq code that carries settings to version to.
type conversion struct {
	to    int
	exprs []string
	code  []*gojq.Code
}

// Compile compiles s and sets s.Check. A schema that is not a valid
// OpenAPI v3 schema, a jq expression that does not parse or a CEL rule
// that does not compile is an error of ErrSchema.
func Compile(s *model.SettingsSchema) error {
	c, err := compile(s)
	if err != nil {
		return err
	}
	s.Check = c
	return nil
}

func compile(s *model.SettingsSchema) (*Checker, error) {
	doc, err := normalise(s.Schema)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSchema, err)
	}
	obj, _ := doc.(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	root, err := readTree(obj, nil)
	if err != nil {
		return nil, err
	}
	prepared := prepare(obj, false)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4) // OpenAPI v3.0's schema object: boolean exclusive bounds
	if err := c.AddResource("settings.json", prepared); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSchema, err)
	}
	sch, err := c.Compile("settings.json")
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrSchema, schemaError(err))
	}
	steps, latest, err := compileConversions(s.Conversions)
	if err != nil {
		return nil, err
	}
	return &Checker{schema: sch, root: root, steps: steps, latest: latest}, nil
}

// compileConversions parses every jq expression, in version order. The
// settings version a release runs is the highest its conversions give,
// or 1 when it has none.
func compileConversions(byVersion map[int][]string) ([]conversion, int, error) {
	latest := 1
	var steps []conversion
	for _, to := range sortedKeys(byVersion) {
		step := conversion{to: to, exprs: byVersion[to]}
		for _, expr := range byVersion[to] {
			q, err := gojq.Parse(expr)
			if err != nil {
				return nil, 0, fmt.Errorf("%w: conversion to version %d: %q: %v", ErrSchema, to, expr, err)
			}
			code, err := gojq.Compile(q)
			if err != nil {
				return nil, 0, fmt.Errorf("%w: conversion to version %d: %q: %v", ErrSchema, to, expr, err)
			}
			step.code = append(step.code, code)
		}
		steps = append(steps, step)
		latest = max(latest, to)
	}
	return steps, latest, nil
}

func sortedKeys(m map[int][]string) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// normalise turns YAML- or JSON-decoded values into the JSON shape the
// validator, jq and CEL all read: objects with string keys, numbers as
// json.Number read back as float64 or int64 by each library.
func normalise(v any) (any, error) {
	text, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(text))
}

// plain turns values into encoding/json's own shapes (float64 numbers),
// which gojq and cel-go take.
func plain(v any) (any, error) {
	text, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(text, &out)
}

// schemaError words a schema that is not one by the first place where it
// breaks OpenAPI's own schema; any other compile error in one line.
func schemaError(err error) string {
	var se *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if errors.As(err, &se) && errors.As(se.Err, &ve) {
		p := describe(ve)
		return fmt.Sprintf("is not a valid schema: at %s: %s", "/"+strings.Join(p.path, "/"), p.reason)
	}
	return oneLine(err)
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
