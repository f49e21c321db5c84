package readiness

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/model"
)

// fill sets every exported field under v: each text to text, each number
// to 1, each flag to true, each list to one element and each pointer to a
// value; below depth 3 lists stay nil, which ends Suggestion.Changes.
func fill(t *testing.T, v reflect.Value, text string, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(text)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		if depth < 3 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
			fill(t, v.Index(0), text, depth+1)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), text, depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				t.Fatalf("%s.%s is unexported: JSON never compared it; say whether same should", v.Type(), v.Type().Field(i).Name)
			}
			fill(t, v.Field(i), text, depth)
		}
	default:
		t.Fatalf("a %s in %s: teach fill and same about it", v.Kind(), v.Type())
	}
}

// node is one place under a result, by its path, and the changes that
// can be made there.
type node struct {
	path  string
	value reflect.Value
}

// nodes lists every place under v, in a fixed order.
func nodes(v reflect.Value, path string) []node {
	out := []node{{path, v}}
	switch v.Kind() {
	case reflect.Slice:
		for i := range v.Len() {
			out = append(out, nodes(v.Index(i), fmt.Sprintf("%s[%d]", path, i))...)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			out = append(out, nodes(v.Elem(), path)...)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			out = append(out, nodes(v.Field(i), path+"."+v.Type().Field(i).Name)...)
		}
	}
	return out
}

// changes are the changes made at a node of each kind: another text,
// number or flag; a list nil, empty or longer; a pointer nil.
func changes(v reflect.Value) []func() {
	switch v.Kind() {
	case reflect.String:
		return []func(){func() { v.SetString(v.String() + "!") }, func() { v.SetString("") }}
	case reflect.Int, reflect.Int64:
		return []func(){func() { v.SetInt(v.Int() + 1) }}
	case reflect.Bool:
		return []func(){func() { v.SetBool(!v.Bool()) }}
	case reflect.Slice:
		return []func(){
			func() { v.Set(reflect.Zero(v.Type())) },
			func() { v.Set(reflect.MakeSlice(v.Type(), 0, 0)) },
			func() { v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem()))) },
		}
	case reflect.Pointer:
		return []func(){func() { v.Set(reflect.Zero(v.Type())) }}
	}
	return nil
}

// TestSameSeesEveryField: two full answers to scenarios on different DKP
// versions, whose texts quote each its own, are the same; a change
// anywhere makes them differ, except in the stats. A field added to
// model.Result and not to same fails here.
func TestSameSeesEveryField(t *testing.T) {
	full := func(dkp string) view {
		var res model.Result
		fill(t, reflect.ValueOf(&res).Elem(), "deckhouse "+dkp+" or 1.33.0", 0)
		return view{own: ownVersionsOf(platformVersions(platformReq(dkp, ""))), answer: Answer{Result: &res}}
	}
	x := full("1.73.0")
	require.True(t, x.same(full("1.74.0")))
	count := len(nodes(reflect.ValueOf(full("1.74.0").answer.Result).Elem(), "Result"))
	require.Greater(t, count, 100)
	for k := range count {
		for c := 0; ; c++ {
			y := full("1.74.0")
			n := nodes(reflect.ValueOf(y.answer.Result).Elem(), "Result")[k]
			cs := changes(n.value)
			if c >= len(cs) {
				break
			}
			cs[c]()
			if reflect.DeepEqual(y.answer.Result, full("1.74.0").answer.Result) {
				continue // a nil list set to nil
			}
			if strings.HasPrefix(n.path, "Result.Stats") {
				assert.True(t, x.same(y), "%s, change %d: the stats say how, not what", n.path, c)
				continue
			}
			if !assert.False(t, x.same(y), "%s, change %d", n.path, c) {
				continue
			}
			assert.False(t, y.same(x), "%s, change %d: the other way round", n.path, c)
		}
	}
}

// TestSame: a scenario's own versions read as placeholders, component by
// component in the order of their names, only where they stand as a whole
// version; another scenario's version is a text like any other; an
// error is its text.
func TestSame(t *testing.T) {
	summary := func(text string) Answer {
		return Answer{Result: &model.Result{Status: model.StatusUnsatisfiable, Explanation: &model.Explanation{Summary: text}}}
	}
	for _, tc := range []struct {
		name   string
		ra, rb *model.Request
		a, b   Answer
		same   bool
	}{
		{"own versions", platformReq("1.73.0", "1.31.0"), platformReq("1.74.0", "1.32.0"),
			summary("1.73.0 and 1.31.0"), summary("1.74.0 and 1.32.0"), true},
		{"another scenario's version", platformReq("1.73.0", ""), platformReq("1.74.0", ""),
			summary("1.74.0"), summary("1.74.0"), false},
		{"a longer version", platformReq("1.73.0", ""), platformReq("1.74.0", ""),
			summary("1.73.01"), summary("1.74.01"), false},
		{"placeholders swapped", platformReq("1.73.0", "1.31.0"), platformReq("1.74.0", "1.32.0"),
			summary("1.73.0 and 1.31.0"), summary("1.32.0 and 1.74.0"), false},
		// DKP's version goes first: once it is a placeholder, Kubernetes's
		// no longer continues a version ("1.31.0-1.73.0").
		{"in the order of the components", platformReq("1.73.0", "1.31.0"), platformReq("1.74.0", "1.32.0"),
			summary("1.31.0-1.73.0"), summary("1.32.0-1.74.0"), true},
		{"the same version for two components", platformReq("1.31.0", "1.31.0"), platformReq("1.32.0", "1.31.0"),
			summary("1.31.0"), summary("1.32.0"), true},
		{"a literal placeholder", platformReq("1.73.0", ""), platformReq("1.74.0", ""),
			summary("{deckhouse}"), summary("1.74.0"), true},
		{"nil and empty lists", nil, nil,
			Answer{Result: &model.Result{}}, Answer{Result: &model.Result{Modules: []model.ModuleResult{}}}, false},
		{"the same error", platformReq("1.73.0", ""), platformReq("1.74.0", ""),
			Answer{Err: errors.New("bad 1.73.0")}, Answer{Err: errors.New("bad 1.73.0")}, true},
		{"errors say versions as they are", platformReq("1.73.0", ""), platformReq("1.74.0", ""),
			Answer{Err: errors.New("bad 1.73.0")}, Answer{Err: errors.New("bad 1.74.0")}, false},
		{"an error and a result", nil, nil, Answer{Err: errors.New("bad")}, summary("bad"), false},
	} {
		x := view{own: ownVersionsOf(platformVersions(tc.ra)), answer: tc.a}
		y := view{own: ownVersionsOf(platformVersions(tc.rb)), answer: tc.b}
		assert.Equal(t, tc.same, x.same(y), tc.name)
		assert.Equal(t, tc.same, y.same(x), "%s, the other way round", tc.name)
		if tc.same {
			assert.Equal(t, x.key(testSeed), y.key(testSeed), "%s: the same answers have the same key", tc.name)
		}
	}
}

// TestReplaceVersionKeepsText: a text without the version is returned
// as it is, with nothing allocated.
func TestReplaceVersionKeepsText(t *testing.T) {
	s := "csi-ceph 0.4.0 requires kubernetes < 1.32 (asked about 1.32.10)"
	assert.Zero(t, testing.AllocsPerRun(10, func() { _ = replaceVersion(s, "1.32.1", "{kubernetes}") }))
	assert.Equal(t, s, replaceVersion(s, "1.32.1", "{kubernetes}"))
	assert.Equal(t, "{kubernetes}", replaceVersion("1.32.1", "1.32.1", "{kubernetes}"))
	assert.Empty(t, replaceVersion("", "", "{kubernetes}"))
}
