package catalog_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modsolver/modsolver/bench"
	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/internal/scenariotest"
	"github.com/modsolver/modsolver/internal/shared"
	"github.com/modsolver/modsolver/model"
	"github.com/modsolver/modsolver/solver"
)

// compileTo writes cat as a compiled catalog into a new file of dir and
// returns its path.
func compileTo(t *testing.T, cat *model.Catalog, rep *catalog.Report) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "catalog.bin")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, catalog.WriteCompiled(f, cat, rep))
	require.NoError(t, f.Close())
	return path
}

// roundTrip compiles cat to a file and loads it back with catalog.Load.
func roundTrip(t *testing.T, cat *model.Catalog) *model.Catalog {
	t.Helper()
	got, rep, err := catalog.Load(compileTo(t, cat, nil))
	require.NoError(t, err)
	assert.Equal(t, catalog.FormatCompiled, rep.Format)
	assert.Equal(t, cat.ReleaseCount(), rep.Releases)
	return got
}

// sameAnswers resolves each request on both catalogs and requires the
// same result, timings aside.
func sameAnswers(t *testing.T, want, got *model.Catalog, cluster *model.ClusterState, reqs ...*model.Request) {
	t.Helper()
	for i, req := range reqs {
		a, errA := solver.Solve(context.Background(), want, cluster, req)
		b, errB := solver.Solve(context.Background(), got, cluster, req)
		require.Equal(t, errA, errB, "request %d", i)
		if a == nil {
			continue
		}
		a.Stats.SolveMicros, b.Stats.SolveMicros = 0, 0
		require.Equal(t, a, b, "request %d", i)
	}
}

func TestCompiledRoundTripDemo(t *testing.T) {
	cat, err := catalog.Demo()
	require.NoError(t, err)
	got := roundTrip(t, cat)
	sameCatalog(t, cat, got)
	cluster, req, err := catalog.DemoState()
	require.NoError(t, err)
	_, unsat, err := catalog.DemoUnsatisfiable()
	require.NoError(t, err)
	sameAnswers(t, cat, got, cluster, req, unsat, &model.Request{UpdateAll: true})
}

// TestCompiledRoundTripScenarios reads every scenario's catalog back from
// a compiled file as the same modules, sources and platform data, and
// answers its request the same: the scenarios cover every field a
// catalog can carry.
func TestCompiledRoundTripScenarios(t *testing.T) {
	for _, sc := range scenariotest.All(t, "..") {
		t.Run(sc.Name(), func(t *testing.T) {
			got := roundTrip(t, sc.Catalog)
			sameCatalog(t, sc.Catalog, got)
			sameAnswers(t, sc.Catalog, got, sc.Cluster, sc.Request)
		})
	}
}

func TestCompiledRoundTripGeneratedM(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and solves the M catalog")
	}
	in := bench.Generate(bench.SizeM, 1)
	got := roundTrip(t, in.Catalog)
	sameAnswers(t, in.Catalog, got, in.Cluster, in.UpdateAll(), in.InstallOne(), in.PlatformUpgrade(), in.Unsatisfiable())
}

// TestCompiledRoundTripDKP compiles the real DKP tree of the shared
// folder, with its load report, and answers update-all on it the same.
func TestCompiledRoundTripDKP(t *testing.T) {
	cat, rep, err := catalog.Load(shared.Path(t, "data", "dkp"))
	require.NoError(t, err)
	got, gotRep, err := catalog.Load(compileTo(t, cat, rep))
	require.NoError(t, err)
	sameCatalog(t, cat, got)
	assert.Equal(t, rep.Warnings, gotRep.Warnings)
	assert.Equal(t, rep.Skipped, gotRep.Skipped)
	assert.Equal(t, rep.Releases, gotRep.Releases)
	cluster, err := bench.DKPCluster(cat)
	require.NoError(t, err)
	sameAnswers(t, cat, got, cluster, &model.Request{UpdateAll: true})
}

func TestCompiledRefusesDamage(t *testing.T) {
	cat, err := catalog.Demo()
	require.NoError(t, err)
	data, err := os.ReadFile(compileTo(t, cat, nil))
	require.NoError(t, err)
	damaged := map[string][]byte{
		"truncated header":  data[:30],
		"truncated payload": data[:len(data)-1],
		"one byte more":     append(bytes.Clone(data), 0),
		"magic alone":       data[:len("\x00modsolver compiled catalog\n")],
	}
	for _, at := range []int{40, 70, len(data) / 2, len(data) - 1} {
		flipped := bytes.Clone(data)
		flipped[at] ^= 0x40
		damaged[fmt.Sprintf("flipped byte %d", at)] = flipped
	}
	for name, bad := range damaged {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "catalog.bin")
			require.NoError(t, os.WriteFile(path, bad, 0o600))
			_, _, err := catalog.Load(path)
			require.ErrorIs(t, err, catalog.ErrCompiledDamaged)
			require.ErrorIs(t, err, model.ErrInvalidInput)
			var pe *catalog.ParseError
			require.True(t, errors.As(err, &pe))
			assert.Equal(t, path, pe.File)
		})
	}
}

func TestCompiledRefusesAnotherBuild(t *testing.T) {
	cat, err := catalog.Demo()
	require.NoError(t, err)
	catalog.SetBuild(t, "v0.9.0, revision 1111")
	path := compileTo(t, cat, nil)
	catalog.SetBuild(t, "v1.0.0, revision 2222")
	_, _, err = catalog.Load(path)
	require.ErrorIs(t, err, catalog.ErrCompiledBuild)
	require.ErrorIs(t, err, model.ErrInvalidInput)
	assert.ErrorContains(t, err, path+": ")
	assert.ErrorContains(t, err, "compiled by modsolver v0.9.0, revision 1111; this is modsolver v1.0.0, revision 2222: compile it again with `modsolver catalog compile`")
}

func TestCompiledFormatNamed(t *testing.T) {
	cat, err := catalog.Demo()
	require.NoError(t, err)
	path := compileTo(t, cat, nil)
	got, _, err := catalog.LoadFormat(path, catalog.FormatCompiled)
	require.NoError(t, err)
	assert.Equal(t, cat.Len(), got.Len())
	_, _, err = catalog.LoadFormat(path, catalog.FormatFile)
	require.ErrorIs(t, err, model.ErrInvalidInput)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	format, err := catalog.Detect(path, data)
	require.NoError(t, err)
	assert.Equal(t, catalog.FormatCompiled, format)
}

// TestNotCompiledReadAsBefore: a catalog file that is not compiled is
// read in its own format, and naming the compiled format for it says it
// is not one.
func TestNotCompiledReadAsBefore(t *testing.T) {
	path := catalog.DemoCatalogFile
	cat, rep, err := catalog.Load(path)
	require.NoError(t, err)
	assert.Equal(t, catalog.FormatFile, rep.Format)
	assert.Positive(t, cat.Len())
	_, _, err = catalog.LoadFormat(path, catalog.FormatCompiled)
	require.ErrorIs(t, err, catalog.ErrCompiledDamaged)
}

// sameCatalog requires a and b to hold the same modules, sources and
// platform data, unexported fields included. An empty list or map is the
// same as none: the payload does not tell them apart, and no rule does.
func sameCatalog(t *testing.T, a, b *model.Catalog) {
	t.Helper()
	if diff := looseDiff(reflect.ValueOf(a.Modules()), reflect.ValueOf(b.Modules()), "modules"); diff != "" {
		t.Fatalf("the catalog read back differs at %s", diff)
	}
	assert.Equal(t, a.Sources(), b.Sources())
	assert.Equal(t, a.KnownPlatform(), b.KnownPlatform())
	assert.Equal(t, a.PlatformNames(), b.PlatformNames())
}

// looseDiff returns the path of the first place where a and b differ,
// or "" when they are equal, as reflect.DeepEqual tells but with empty
// lists and maps equal to nil ones, and numbers equal by value whatever
// their type (a schema read from YAML holds ints, one read back from
// JSON float64s). A settings schema's compiled form is compared by its
// presence: reading compiles it again.
func looseDiff(a, b reflect.Value, path string) string {
	if a.Kind() != b.Kind() {
		x, isNumber := numberOf(a)
		y, alsoNumber := numberOf(b)
		return map[bool]string{true: "", false: path}[isNumber && alsoNumber && x == y]
	}
	if a.Type() == reflect.TypeFor[model.SettingsSchema]() {
		if d := looseDiff(a.FieldByName("Schema"), b.FieldByName("Schema"), path+".Schema"); d != "" {
			return d
		}
		if a.FieldByName("Check").IsNil() != b.FieldByName("Check").IsNil() {
			return path + ".Check"
		}
		return looseDiff(a.FieldByName("Conversions"), b.FieldByName("Conversions"), path+".Conversions")
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return map[bool]string{true: "", false: path}[a.IsNil() == b.IsNil()]
		}
		return looseDiff(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			if d := looseDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return path
		}
		for i := range a.Len() {
			if d := looseDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Map:
		if a.Len() != b.Len() {
			return path
		}
		for _, k := range a.MapKeys() {
			if d := looseDiff(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); d != "" {
				return d
			}
		}
	case reflect.String:
		return map[bool]string{true: "", false: path}[a.String() == b.String()]
	case reflect.Bool:
		return map[bool]string{true: "", false: path}[a.Bool() == b.Bool()]
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return map[bool]string{true: "", false: path}[a.Int() == b.Int()]
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[bool]string{true: "", false: path}[a.Uint() == b.Uint()]
	case reflect.Float32, reflect.Float64:
		return map[bool]string{true: "", false: path}[a.Float() == b.Float()]
	default:
		return path + " (" + a.Kind().String() + ": not compared)"
	}
	return ""
}

// numberOf is v's value when v is a number, to compare numbers of two
// types.
func numberOf(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	}
	return 0, false
}
