// Package shared finds the shared acceptance folder (scenarios and real
// catalogs) that sits beside a modsolver checkout as ../shared. Tests read
// it in place and never copy it.
//
// A plain clone has no ../shared: suites that need it skip with a notice.
// Under CI (CI=true) its absence fails the test instead, so that CI never
// passes by skipping.
package shared

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvDir overrides where the shared folder is looked for.
const EnvDir = "MODSOLVER_SHARED"

// Dir returns the shared folder, or skips t (fails it under CI) when
// there is none.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := find()
	if err == nil {
		return dir
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("shared acceptance data is required under CI: %v", err)
	}
	fmt.Printf("NOTICE: %s skipped: %v\n", t.Name(), err)
	t.Skipf("shared acceptance data not found: %v", err)
	return ""
}

// Path is Dir joined with elem.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	return filepath.Join(append([]string{Dir(t)}, elem...)...)
}

// find looks for $MODSOLVER_SHARED, else ../shared beside the module root.
func find() (string, error) {
	if dir := os.Getenv(EnvDir); dir != "" {
		return checkDir(dir)
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	return checkDir(filepath.Join(root, "..", "shared"))
}

func checkDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	info, err := os.Stat(filepath.Join(abs, "scenarios"))
	if err != nil || !info.IsDir() {
		return "", fmt.Errorf("no scenarios folder in %s (set %s to point elsewhere)", abs, EnvDir)
	}
	return abs, nil
}

// moduleRoot walks up from the working directory to the folder holding
// go.mod; tests run in their package's folder.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}
