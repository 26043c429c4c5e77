package outcome

import "fmt"

// The bounds of level 0: the defaults of Options.
const (
	DefaultDepth      = 4
	DefaultVersions   = 4
	DefaultStaleReads = 2
)

// Bounds are the bounds a search ran at.
type Bounds struct {
	Depth, Versions, StaleReads int
	// Level is the deepening level (0: the defaults, or the bounds set;
	// Level+1 levels were searched).
	Level int
	// Faults marks the fault phase after deepening level Level: random
	// schedules with Crashes 1, LeaderChange and one stale window (the root's faults.go).
	Faults bool
	// Random marks a seeded random search (Options.Seed), which does not
	// deepen (Level 0); Replay a replay (Options.Replay), whose Versions
	// alone bound it.
	Random, Replay bool
	// Fixed marks a depth-first search that did not deepen (bounds set,
	// FixedBounds, or no Budget): its bounds are the ones asked for, not
	// a deepening level.
	Fixed bool
}

func (b Bounds) String() string {
	switch {
	case b.Faults:
		return fmt.Sprintf("Depth %d, Versions %d, StaleReads %d, Crashes 1, LeaderChange (the fault phase's random schedules, after deepening level %d)",
			b.Depth, b.Versions, b.StaleReads, b.Level)
	case b.Random:
		return fmt.Sprintf("Depth %d, Versions %d, StaleReads %d (random schedules of Options.Seed, not deepened)", b.Depth, b.Versions, b.StaleReads)
	case b.Replay:
		return fmt.Sprintf("Versions %d (a replay of Options.Replay)", b.Versions)
	case b.Fixed:
		return fmt.Sprintf("Depth %d, Versions %d, StaleReads %d (fixed bounds, not deepened)", b.Depth, b.Versions, b.StaleReads)
	}
	return fmt.Sprintf("Depth %d, Versions %d, StaleReads %d (deepening level %d)", b.Depth, b.Versions, b.StaleReads, b.Level)
}

// DeepeningLevel is the bounds of level k of the deepening: Depth 4+k,
// Versions 4+k and StaleReads 2·4^k (2, 8, 32, ...). Stale reads grow
// fastest: a bug that needs many stale windows usually needs them in few
// steps (KubeRay's second head Pod: 2 steps, 6 stale reads, in at most
// 2 windows), and the
// depth-first search runs the shortest schedules of a level first, so a
// level with more stale windows finds such a bug early, while each more
// step multiplies the schedules of a level (docs/explore.md, Bounds and
// deepening). Level 0 keeps each stale window within one reconcile; at
// the deeper levels, as in the fault phase, a window may span reconciles
// (the root's cacheSetup.Spans).
func DeepeningLevel(k int) Bounds {
	return Bounds{Depth: DefaultDepth + k, Versions: DefaultVersions + k, StaleReads: DefaultStaleReads << (2 * k), Level: k}
}
