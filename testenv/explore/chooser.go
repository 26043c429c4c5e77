package explore

import "math/rand/v2"

// chooser makes the choices of one schedule: a replayed prefix, then the
// first option (depth-first) or a random one.
type chooser struct {
	prefix        []int
	taken, widths []int
	rng           *rand.Rand
	// index is a random schedule's index (Options.Seed), for its name.
	index int
	// faults, in the fault phase, are the schedule's faults (faults.go).
	faults *faultPlan
}

// fixed records the choice v of n made without the source.
func (c *chooser) fixed(v, n int) int {
	if n <= 1 {
		return 0
	}
	c.taken = append(c.taken, v)
	c.widths = append(c.widths, n)
	return v
}

// item picks which of the n queued items runs next.
func (c *chooser) item(n int) int {
	if c.faults != nil {
		return c.faults.item(c, n)
	}
	return c.choose(n)
}

func (c *chooser) choose(n int) int {
	if n <= 1 {
		return 0
	}
	v := 0
	switch i := len(c.taken); {
	case i < len(c.prefix):
		// A prefix comes from an earlier run; the operator's own
		// randomness may leave fewer options here now (fewer versions,
		// a shorter queue): the last one stands for the ones gone.
		v = min(max(c.prefix[i], 0), n-1)
	case c.rng != nil:
		v = c.rng.IntN(n)
	}
	c.taken = append(c.taken, v)
	c.widths = append(c.widths, n)
	return v
}

// next is the depth-first successor of the choices made, or false.
func (c *chooser) next() ([]int, bool) {
	for i := len(c.taken) - 1; i >= 0; i-- {
		if c.taken[i]+1 < c.widths[i] {
			return append(append([]int(nil), c.taken[:i]...), c.taken[i]+1), true
		}
	}
	return nil, false
}
