package solver

// WithoutStateMemo answers without the state memos, for the tests of
// package solver_test that compare.
var WithoutStateMemo = withoutStateMemo

// WithSideBySideFrom sets the number of outcomes, and of a closure's
// views, from which an answer is rendered and filtered in two halves side
// by side (D330, D331), for the tests of package solver_test that compare
// both ways.
func WithSideBySideFrom(n int) Option { return func(s *settings) { s.sideBySide = n } }
