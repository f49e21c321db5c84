package solver

// WithoutStateMemo answers without the state memos, for the tests of
// package solver_test that compare.
var WithoutStateMemo = withoutStateMemo
