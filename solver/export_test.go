package solver

// WithoutStateMemo answers without the state memos, for the tests of
// package solver_test that compare.
var WithoutStateMemo = withoutStateMemo

// RenderSideBySideFrom sets the number of outcomes from which an answer's
// modules are rendered in two halves side by side (moduleResults), and of
// views from which a closure's step is filtered so (filterPending), for
// the tests of package solver_test that compare both ways, and returns a
// function that restores it.
func RenderSideBySideFrom(n int) (restore func()) {
	before, filters := parallelRender, parallelFilter
	parallelRender, parallelFilter = n, n
	return func() { parallelRender, parallelFilter = before, filters }
}
