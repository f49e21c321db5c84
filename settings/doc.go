// Package settings compiles a release's settings schema and checks a
// module's settings against it as DKP's admission does (R34).
//
// A check runs DKP's steps in DKP's order:
//
//   - convert.go: the settings, written for settingsVersion v, are carried
//     up by the release's conversions (jq, with gojq) from v+1 to the
//     highest version they give, the version DKP runs;
//   - tree.go: the schema's defaults are merged under them, and every
//     object the schema does not open is closed (additionalProperties:
//     false), as DKP's schema loader closes them;
//   - compile.go and check.go: the OpenAPI v3 validation (with
//     santhosh-tekuri/jsonschema), where an enum, pattern, bound, type or
//     closed-object error refuses the release and a required field that is
//     missing is only reported (DKP's release gate lets it through);
//   - cel.go: the x-deckhouse-validations and x-kubernetes-validations
//     rules (with google/cel-go), evaluated on each object they sit on.
//
// Compile does the work once per release; a Checker remembers its verdict
// per settings digest, so a resolution asks the same question of the same
// release once.
package settings
