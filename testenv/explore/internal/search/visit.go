package search

import (
	"slices"
	"sync"
)

// A Point is a point of the depth-first search in the serial order: the
// depth of its iteration, the choices made before it, and the chosen step
// (-1: a schedule's start).
type Point struct {
	Depth int
	Path  []int
	Step  int
}

// Less reports whether a comes before b in the serial order.
func (a Point) Less(b Point) bool {
	if a.Depth != b.Depth {
		return a.Depth < b.Depth
	}
	if c := slices.Compare(a.Path, b.Path); c != 0 {
		return c < 0 // a proper prefix first: an ancestor comes first
	}
	return a.Step < b.Step
}

// check is a state met at a point of the search.
type check struct {
	p Point
	h uint64
}

// seen keeps, for each state hash, the earliest point met.
type seen struct {
	mu    sync.Mutex
	first map[uint64]Point
}

// visit records h met at p and reports whether an earlier point met it.
func (t *seen) visit(h uint64, p Point) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.first[h]; ok && e.Less(p) {
		return true
	}
	t.first[h] = p
	return false
}

// pruned reports whether the serial search prunes at c: an earlier point
// met its state.
func (t *seen) pruned(c check) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.first[c.h]
	return ok && e.Less(c.p)
}

// A Visit is one schedule of the depth-first search as its Runner runs
// it (Chooser.Visit): the Runner asks it where to prune the schedule
// (Prune) and records on it what the search needs of the schedule.
type Visit struct {
	depth int
	seen  *seen
	// stop, if not -1, is the chosen step to prune at, whatever the state
	// (a schedule run again to where the serial search pruned it).
	stop   int
	checks []check
	// Broke: the schedule broke an invariant, first during chosen step
	// FailStep (its depth: the drain).
	Broke    bool
	FailStep int
	// PrunedAt is the chosen step at which it was pruned, or -1.
	PrunedAt int
	// Cut are the bounds that cut its choices, as the Runner counts them
	// in bits, first at chosen step CutAt.
	Cut   uint8
	CutAt int
}

// Prune is the state check before chosen step d, the choices taken so
// far: true when an earlier point of the search (in the serial order) met
// the state; hash gives the state's hash.
func (v *Visit) Prune(hash func() uint64, taken []int, d int) bool {
	if v.stop >= 0 {
		return d == v.stop
	}
	h := hash()
	p := Point{Depth: v.depth, Path: slices.Clone(taken), Step: d}
	v.checks = append(v.checks, check{p, h})
	return v.seen.visit(h, p)
}

// Failed notes that the schedule has broken an invariant by chosen step
// step (its depth: the drain); the first call counts.
func (v *Visit) Failed(step int) {
	if !v.Broke {
		v.Broke, v.FailStep = true, step
	}
}
