package search

import "math/rand/v2"

// A Chooser makes the choices of one schedule: a replayed prefix, then the
// first option (depth-first) or a random one (Rng set).
type Chooser struct {
	// Prefix is the choices replayed first.
	Prefix []int
	// Taken are the choices made so far, of Widths options each.
	Taken, Widths []int
	// Rng, if set, makes the choices after Prefix at random.
	Rng *rand.Rand
	// Index is a random schedule's index, for its name.
	Index int
	// Visit, in a depth-first search, is the search's record of the
	// schedule, which says where to prune it.
	Visit *Visit
}

// Fixed records the choice v of n made without the source.
func (c *Chooser) Fixed(v, n int) int {
	if n <= 1 {
		return 0
	}
	c.Taken = append(c.Taken, v)
	c.Widths = append(c.Widths, n)
	return v
}

// Choose picks one of n options.
func (c *Chooser) Choose(n int) int {
	if n <= 1 {
		return 0
	}
	v := 0
	switch i := len(c.Taken); {
	case i < len(c.Prefix):
		// A prefix comes from an earlier run; the operator's own
		// randomness may leave fewer options here now (fewer versions,
		// a shorter queue): the last one stands for the ones gone.
		v = min(max(c.Prefix[i], 0), n-1)
	case c.Rng != nil:
		v = c.Rng.IntN(n)
	}
	c.Taken = append(c.Taken, v)
	c.Widths = append(c.Widths, n)
	return v
}

// Next is the depth-first successor of the choices made, or false.
func (c *Chooser) Next() ([]int, bool) {
	for i := len(c.Taken) - 1; i >= 0; i-- {
		if c.Taken[i]+1 < c.Widths[i] {
			return append(append([]int(nil), c.Taken[:i]...), c.Taken[i]+1), true
		}
	}
	return nil, false
}
