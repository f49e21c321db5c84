package solver

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The walls inside solver/ (STYLE.md points 18, 21, 22), held as
// imports_test.go holds the walls between packages: each file belongs to
// one phase of a resolution, and a phase reads only what the phases
// before it define. A file that uses a name (a type, function, method,
// variable or constant) defined in a later phase's file runs back up the
// pipeline.

// phase is a step of the pipeline, in order.
type phase int

const (
	phaseCompile  phase = iota // the catalog's tables, once per catalog
	phaseProblem               // one request's views, facts and closure
	phaseEncode                // the clauses on gini
	phaseOptimize              // R14's levels and the model read back
	phaseExplain               // cores, held-back reasons, suggestions
	phaseRender                // the words of facts and answers
	phaseFacade                // the entry points: Solve, what-if, sweep
)

var phaseNames = [...]string{"compile", "problem", "encode", "optimize", "explain", "render", "facade"}

func (p phase) String() string { return phaseNames[p] }

// phases gives every non-test file of the package its phase. A file
// missing from the table fails the test, so that a new file gets one.
var phases = map[string]phase{
	"compiled.go":        phaseCompile,
	"compiled_tables.go": phaseCompile,
	"steps.go":           phaseCompile,
	"requirements.go":    phaseCompile,
	"loops_compile.go":   phaseCompile,
	"options.go":         phaseCompile,
	"relset.go":          phaseCompile,
	"classes.go":         phaseCompile,

	"factkinds.go": phaseProblem,
	"problem.go":   phaseProblem,
	"domain.go":    phaseProblem,
	"closure.go":   phaseProblem,
	"facts.go":     phaseProblem,
	"sink.go":      phaseProblem,
	"sources.go":   phaseProblem,
	"stages.go":    phaseProblem,
	"settings.go":  phaseProblem,
	"releases.go":  phaseProblem,
	"refused.go":   phaseProblem,
	"detach.go":    phaseProblem,
	"statememo.go": phaseProblem,

	"encode.go":              phaseEncode,
	"card.go":                phaseEncode,
	"capabilities.go":        phaseEncode,
	"guard.go":               phaseEncode,
	"sources_encode.go":      phaseEncode,
	"requirements_encode.go": phaseEncode,
	"compound.go":            phaseEncode,
	"loops.go":               phaseEncode,
	"groups.go":              phaseEncode,
	"sat.go":                 phaseEncode,
	"cone.go":                phaseEncode,
	"budget.go":              phaseEncode,
	"sources_cross.go":       phaseEncode,

	"optimize.go":         phaseOptimize,
	"session.go":          phaseOptimize,
	"sources_optimize.go": phaseOptimize,
	"result.go":           phaseOptimize,
	"stages_result.go":    phaseOptimize,
	"plan.go":             phaseOptimize,
	"plan_order.go":       phaseOptimize,

	"explain.go":           phaseExplain,
	"localcore.go":         phaseExplain,
	"localcore_sets.go":    phaseExplain,
	"heldback.go":          phaseExplain,
	"unsat.go":             phaseExplain,
	"suggest.go":           phaseExplain,
	"combine.go":           phaseExplain,
	"changeset.go":         phaseExplain,
	"sources_suggest.go":   phaseExplain,
	"sources_explain.go":   phaseExplain,
	"factkinds_suggest.go": phaseExplain,
	"route.go":             phaseExplain,
	"stages_suggest.go":    phaseExplain,
	"settings_suggest.go":  phaseExplain,
	"releases_suggest.go":  phaseExplain,
	"compound_suggest.go":  phaseExplain,
	"loops_suggest.go":     phaseExplain,

	"render.go":           phaseRender,
	"factkinds_render.go": phaseRender,
	"pathnote.go":         phaseRender,
	"rerender.go":         phaseRender,
	"origin.go":           phaseRender,
	"compound_render.go":  phaseRender,
	"result_render.go":    phaseRender,
	"loops_render.go":     phaseRender,

	"statememo_solve.go": phaseFacade,
	"solve.go":           phaseFacade,
	"doc.go":             phaseFacade,
	"whatif.go":          phaseFacade,
	"sweep.go":           phaseFacade,
}

// The ceilings: what the package holds now. Each only ever comes down: a
// change that raises one fails, and a change that lowers one lowers it
// here (the test says the new figure).
const (
	maxBackReferences   = 0 // uses of a later phase's names (goal: 0)
	maxFilesPerType     = 4 // files that hold one type's methods (goal: 4)
	maxTypesPerFile     = 3 // types whose methods one file holds (goal: 3)
	typesOverFourFiles  = 0 // types whose methods are spread over more than 4 files (goal: 0)
	filesOverThreeTypes = 0 // files that hold methods of more than 3 types (goal: 0)
)

// solverPackage type-checks the package's non-test files.
func solverPackage(t *testing.T) (*token.FileSet, []*ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	_, err = conf.Check("github.com/modsolver/modsolver/solver", fset, files, info)
	require.NoError(t, err)
	return fset, files, info
}

func TestPhases(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the package from source")
	}
	fset, files, info := solverPackage(t)
	fileOf := func(pos token.Pos) string { return filepath.Base(fset.Position(pos).Filename) }
	for _, f := range files {
		name := fileOf(f.Pos())
		_, ok := phases[name]
		assert.True(t, ok, "%s has no phase in the table", name)
	}
	for name := range phases {
		_, err := os.Stat(name)
		assert.NoError(t, err, "the table names %s, which is gone", name)
	}

	// Back-references: a use, in a file, of a package-level name or a
	// method defined in a file of a later phase.
	var back []string
	for id, obj := range info.Uses {
		if obj.Pkg() == nil || obj.Pkg().Path() != "github.com/modsolver/modsolver/solver" || !packageLevel(obj) {
			continue
		}
		from, to := fileOf(id.Pos()), fileOf(obj.Pos())
		if phases[to] > phases[from] {
			back = append(back, fmt.Sprintf("%s (%s) uses %s of %s (%s)", from, phases[from], obj.Name(), to, phases[to]))
		}
	}
	slices.Sort(back)
	back = slices.Compact(back)

	// Methods by type and by file.
	filesOf, typesOf := map[string]map[string]bool{}, map[string]map[string]bool{}
	for _, f := range files {
		name := fileOf(f.Pos())
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			typ := receiverType(fd.Recv.List[0].Type)
			if filesOf[typ] == nil {
				filesOf[typ] = map[string]bool{}
			}
			if typesOf[name] == nil {
				typesOf[name] = map[string]bool{}
			}
			filesOf[typ][name], typesOf[name][typ] = true, true
		}
	}
	spread, crowded := over(filesOf, 4), over(typesOf, 3)
	t.Logf("%d uses of a later phase's names; %d types with methods in more than 4 files (widest %d); %d files with methods of more than 3 types (most %d)",
		len(back), len(spread), widest(filesOf), len(crowded), widest(typesOf))
	for _, s := range spread {
		t.Logf("type %s", s)
	}
	for _, c := range crowded {
		t.Logf("file %s", c)
	}
	if !assert.LessOrEqual(t, len(back), maxBackReferences, "a change added uses of a later phase's names") || os.Getenv("MODSOLVER_PHASES") != "" {
		for _, b := range back {
			t.Log(b)
		}
	}
	assert.LessOrEqual(t, len(spread), typesOverFourFiles)
	assert.LessOrEqual(t, len(crowded), filesOverThreeTypes)
	assert.LessOrEqual(t, widest(filesOf), maxFilesPerType)
	assert.LessOrEqual(t, widest(typesOf), maxTypesPerFile)
	if len(back) < maxBackReferences || len(spread) < typesOverFourFiles || len(crowded) < filesOverThreeTypes {
		t.Logf("a ceiling can come down: maxBackReferences %d, typesOverFourFiles %d, filesOverThreeTypes %d", len(back), len(spread), len(crowded))
	}
}

// packageLevel reports whether obj is a name the package defines at its
// top level, or a method.
func packageLevel(obj types.Object) bool {
	if fn, ok := obj.(*types.Func); ok {
		return fn.Signature().Recv() != nil || obj.Parent() == obj.Pkg().Scope()
	}
	return obj.Parent() == obj.Pkg().Scope()
}

// receiverType is the name of a method's receiver type.
func receiverType(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiverType(x.X)
	case *ast.IndexExpr:
		return receiverType(x.X)
	case *ast.IndexListExpr:
		return receiverType(x.X)
	case *ast.Ident:
		return x.Name
	}
	return fmt.Sprint(e)
}

// over lists the keys of m with more than limit members, widest first.
func over(m map[string]map[string]bool, limit int) []string {
	var keys []string
	for k, set := range m {
		if len(set) > limit {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(m[b]), len(m[a])), cmp.Compare(a, b))
	})
	out := make([]string, len(keys))
	for i, k := range keys {
		members := make([]string, 0, len(m[k]))
		for x := range m[k] {
			members = append(members, x)
		}
		slices.Sort(members)
		out[i] = fmt.Sprintf("%s: %d (%s)", k, len(m[k]), strings.Join(members, ", "))
	}
	return out
}

func widest(m map[string]map[string]bool) int {
	n := 0
	for _, set := range m {
		n = max(n, len(set))
	}
	return n
}

// The tour of the package (doc.go) names every file, and only files
// that exist, as the phases table does.
func TestDocTourNamesEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	named := map[string]bool{}
	for _, w := range strings.FieldsFunc(string(doc), func(r rune) bool {
		return !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if name := strings.TrimRight(w, "."); strings.HasSuffix(name, ".go") {
			named[name] = true
		}
	}
	for name := range phases {
		assert.True(t, named[name] || name == "doc.go", "doc.go's tour does not name %s", name)
	}
	for name := range named {
		_, err := os.Stat(name)
		assert.NoError(t, err, "doc.go's tour names %s, which is gone", name)
	}
}
