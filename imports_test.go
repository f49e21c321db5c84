package modsolver

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const modulePath = "github.com/modsolver/modsolver"

// allowed lists, for each package of this module, the packages of this
// module its non-test code may import (DESIGN.md §5). A package missing
// from the table fails the test, so that a new package gets a rule.
var allowed = map[string][]string{
	"":                      {},
	"model":                 {},
	"catalog":               {"model", "settings"},
	"settings":              {"model"},
	"solver":                {"model"},
	"readiness":             {"model"},
	"proto/modsolver/v1":    {},
	"server":                {"proto/modsolver/v1", "solver", "readiness", "model"},
	"bench":                 {"solver", "catalog", "model", "internal/checker"},
	"internal/checker":      {"model"},
	"internal/fixture":      {"model"},
	"internal/loadgen":      {"proto/modsolver/v1"},
	"internal/metrics":      {},
	"internal/testpki":      {},
	"deploy":                {},
	"client":                {"proto/modsolver/v1"},
	"internal/oracle":       {"model"},
	"internal/randscen":     {"model", "settings"},
	"internal/report":       {"model", "solver", "readiness", "catalog"},
	"internal/shared":       {},
	"internal/scenariotest": {"catalog", "internal/shared"},
	"cmd/modsolver":         {"model", "catalog", "solver", "readiness", "server", "proto/modsolver/v1", "client", "bench", "internal/report", "internal/loadgen", "internal/metrics"},
}

// onlyIn lists outside packages that only some packages may import.
var onlyIn = map[string][]string{
	"github.com/go-air/gini":                {"solver"},
	"github.com/operator-framework/deppy":   {"bench"},
	"github.com/santhosh-tekuri/jsonschema": {"settings"},
	"github.com/itchyny/gojq":               {"settings"},
	"github.com/google/cel-go":              {"settings"},
	"google.golang.org/grpc":                {"proto/modsolver/v1", "server", "internal/loadgen", "internal/metrics", "client", "cmd/modsolver"},
	"github.com/prometheus":                 {"internal/metrics"},
	// The grpc-ecosystem's metrics are the metrics package's, its retry
	// interceptor the client's, and nothing else of it is used.
	"github.com/grpc-ecosystem":                                          {"internal/metrics", "client"},
	"github.com/grpc-ecosystem/go-grpc-middleware/providers":             {"internal/metrics"},
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry": {"client"},
}

func TestImportRules(t *testing.T) {
	pkgs := packages(t)
	require.Contains(t, pkgs, "model")
	for _, rel := range pkgs {
		rules, known := allowed[rel]
		if !assert.True(t, known, "package %q has no import rule: add it to allowed", rel) {
			continue
		}
		p, err := build.ImportDir(filepath.FromSlash("./"+rel), 0)
		if err != nil {
			continue // no buildable Go files
		}
		for _, imp := range p.Imports {
			if inner, ok := strings.CutPrefix(imp, modulePath+"/"); ok {
				assert.Contains(t, rules, inner, "package %q must not import %q", rel, inner)
			}
			for prefix, owners := range onlyIn {
				if strings.HasPrefix(imp, prefix) {
					assert.Contains(t, owners, rel, "only %v may import %s; %q does", owners, prefix, rel)
				}
			}
		}
	}
}

// packages lists the folders of this module that hold Go files.
func packages(t *testing.T) []string {
	var out []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			dir := filepath.ToSlash(filepath.Dir(path))
			if dir == "." {
				dir = ""
			}
			if !slices.Contains(out, dir) {
				out = append(out, dir)
			}
		}
		return nil
	})
	require.NoError(t, err)
	return out
}
