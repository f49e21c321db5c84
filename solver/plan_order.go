package solver

// The plan's order (R18): the strongly connected components of the
// plan's graph (Tarjan's algorithm) and the heap that takes them in
// order.

// tarjan is the state of one run of Tarjan's algorithm over step indices;
// index is -1 for a step not visited yet.
type tarjan struct {
	after   [][]int
	index   []int
	low     []int
	visited int
	onStack []bool
	stack   []int
	comps   []*component
	compOf  []int
}

func (t *tarjan) visit(n int) {
	t.index[n], t.low[n] = t.visited, t.visited
	t.visited++
	t.stack = append(t.stack, n)
	t.onStack[n] = true
	for _, to := range t.after[n] {
		if t.index[to] < 0 {
			t.visit(to)
			t.low[n] = min(t.low[n], t.low[to])
		} else if t.onStack[to] {
			t.low[n] = min(t.low[n], t.index[to])
		}
	}
	if t.low[n] != t.index[n] {
		return
	}
	c := &component{id: len(t.comps)}
	for {
		top := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.onStack[top] = false
		t.compOf[top] = c.id
		c.members = append(c.members, top)
		if top == n {
			break
		}
	}
	t.comps = append(t.comps, c)
}

// compHeap holds the ready components, the one with the lightest step
// first: members are ascending step indices, and a lower index is a
// lighter step.
type compHeap []*component

func (h compHeap) Len() int { return len(h) }

func (h compHeap) Less(i, j int) bool { return h[i].members[0] < h[j].members[0] }

func (h compHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

func (h *compHeap) Push(x any) { *h = append(*h, x.(*component)) }

func (h *compHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
