package faults

import (
	"math/rand/v2"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

// The fault phase's bounds and seed (the package doc).
const (
	// DFSShare is the share of the budget, in fifths, the depth-first
	// search gets before the fault phase.
	DFSShare = 3
	// Seed seeds the phase's schedules, as Options.Seed does.
	Seed     = 1
	Depth    = 24
	Versions = 8
	// ReadsAfter is how many cached reads with a choice after the crash
	// the stale one is drawn from.
	ReadsAfter = 3
)

// Scale is what the pilot counted: writes (crash points).
type Scale struct{ Writes int }

// Chooser makes a schedule's recorded choices: Choose one of n options
// (replayed, depth-first or random), or record the choice v of n made
// here (search.Chooser is one).
type Chooser interface {
	Choose(n int) int
	Fixed(v, n int) int
}

// Plan is the faults of one schedule of the fault phase; the root's
// chooser follows it (queue, lags, crashes). Its zero value is the
// pilot's: no crash, counting the crash points (Writes).
type Plan struct {
	// crashAt is the write after which the process crashes (0: none, the
	// pilot), crashKind how; staleAt the read with a choice after the
	// crash that is stale.
	crashAt, crashKind, staleAt int
	// writes and reads count the crash points, and the reads with a
	// choice after the crash, so far.
	writes, reads int
	crashed       bool
}

// NewPlan draws a schedule's faults from rng.
func NewPlan(rng *rand.Rand, sc Scale) *Plan {
	return &Plan{
		crashAt:   1 + rng.IntN(max(sc.Writes, 1)),
		crashKind: []int{schedule.CrashRestart, schedule.CrashFailover}[rng.IntN(2)],
		staleAt:   1 + rng.IntN(ReadsAfter),
	}
}

// Writes counts the crash points passed so far: the pilot's are the
// phase's Scale.
func (f *Plan) Writes() int { return f.writes }

// Item picks the queued item (of n) to run: the oldest before the
// crash, any after it.
func (f *Plan) Item(c Chooser, n int) int {
	if f.crashed {
		return c.Choose(n)
	}
	return c.Fixed(0, n)
}

// Crash counts a crash point and says how the process crashes here
// (schedule.CrashNone: it does not).
func (f *Plan) Crash() int {
	f.writes++
	if f.writes != f.crashAt {
		return schedule.CrashNone
	}
	f.crashed = true
	return f.crashKind
}

// Lag picks the lag of a cached read with w versions to choose from,
// drawing from the schedule's rng.
func (f *Plan) Lag(c Chooser, rng *rand.Rand, w int) int {
	if w <= 1 || !f.crashed {
		return 0
	}
	f.reads++
	if f.reads != f.staleAt {
		return c.Fixed(0, w)
	}
	return c.Fixed(1+rng.IntN(w-1), w)
}

// InWindow picks the lag of a cached read that the open window serves
// at lag stay: the window stays open (stay) or closes (0), with
// probability 1/2 each.
func (f *Plan) InWindow(c Chooser, rng *rand.Rand, stay int) int {
	if rng.IntN(2) == 0 {
		return c.Fixed(stay, 2) // a choice of two: the index stands for stay
	}
	c.Fixed(1, 2)
	return 0
}
