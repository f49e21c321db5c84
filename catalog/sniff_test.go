package catalog

import (
	"bytes"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The scans Detect uses match where the regular expressions they
// replace match (D320).
var (
	lineStartRE = regexp.MustCompile(`(?m)^entries:`)
	keyRE       = regexp.MustCompile(`(^|[\s{,"])operatorVersion"?:`)
)

var sniffSeeds = []string{
	"", "entries:", "apiVersion: v1\nentries:\n", " entries:", "xentries:\n", "a\nentries", "\nentries:",
	"operatorVersion:", "- operatorVersion: 1", "{operatorVersion: 1}", `{"operatorVersion": 1}`, `"operatorVersion":`,
	"xoperatorVersion:", "operatorVersion :", "operatorVersion\"\":", "operatorVersionoperatorVersion:", ",operatorVersion\":",
	"\toperatorVersion:", "\voperatorVersion:", "\foperatorVersion:",
}

func TestSniffMatchesRegexps(t *testing.T) {
	for _, s := range sniffSeeds {
		assert.Equal(t, lineStartRE.MatchString(s), hasLineStart([]byte(s), "entries:"), "%q", s)
		assert.Equal(t, keyRE.MatchString(s), hasKey([]byte(s), "operatorVersion"), "%q", s)
	}
}

func FuzzSniff(f *testing.F) {
	for _, s := range sniffSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if lineStartRE.MatchString(s) != hasLineStart([]byte(s), "entries:") {
			t.Fatalf("hasLineStart(%q)", s)
		}
		if keyRE.MatchString(s) != hasKey([]byte(s), "operatorVersion") {
			t.Fatalf("hasKey(%q)", s)
		}
	})
}

var jsonSeeds = []string{
	`{}`, ` {"a": 1} `, `{"schema": "olm.package", "name": "x"}{"schema": "olm.bundle"}`,
	`{"packages": {"a": {"channels": {"s": {"entries": [{"name": "}]"}]}}}}, "bundles": [1, -2.5e3, true, null, "x\"y"]}`,
	`{"a": [}`, `{"a" 1}`, `{"a": 1,}`, `{"a": 1 "b": 2}`, `[1]`, `{"a": "unclosed}`, `{"sch\u0065ma": 1}`, `{"a": }`,
	`{"a": {"b": [1, 2}]}}`, `{"a": tru}`, `{"a": 1}x`,
}

func TestJSONTopKeys(t *testing.T) {
	for _, s := range jsonSeeds {
		checkTopKeys(t, s)
	}
}

func FuzzJSONTopKeys(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add(s)
	}
	f.Fuzz(checkTopKeys)
}

// checkTopKeys: where jsonTopKeys answers, a JSON decoder that reads the
// first value gives the same keys, or fails on a literal the skim does
// not check.
func checkTopKeys(t *testing.T, s string) {
	keys, ok := jsonTopKeys([]byte(s))
	if !ok {
		return // the caller decodes, as before
	}
	var first map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader([]byte(s))).Decode(&first); err != nil {
		var se *json.SyntaxError
		assert.ErrorAs(t, err, &se, "%q: the skim accepted a value the decoder refuses other than by a literal", s)
		return
	}
	got := slices.Sorted(slices.Values(slices.Compact(slices.Sorted(slices.Values(keys)))))
	assert.Equal(t, slices.Sorted(maps.Keys(first)), got, "%q", s)
}
