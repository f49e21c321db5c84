package catalog

import "testing"

// SetBuild makes this modsolver stand for another build until t ends.
func SetBuild(t *testing.T, name string) {
	old := build
	build = name
	t.Cleanup(func() { build = old })
}
