package explore

import (
	"context"
	"fmt"
	"time"
)

// Iterative deepening of the bounds. A search with Options.Deepen,
// depth-first (no Seed, Replay or Schedules), that
// exhausts its space before the budget runs out, searches again at
// deeper bounds: the bounds the caller left at zero (Depth, Versions,
// StaleReads) take the values of DeepeningLevel(1), then 2, and so on;
// the bounds the caller set stay as set. Each level is a whole search,
// serial or parallel as Options.Parallel says, with what is left of the
// budget, so each level gives the verdict the same options would.

// The bounds of level 0: the defaults of Options.
const (
	defaultDepth      = 4
	defaultVersions   = 4
	defaultStaleReads = 2
	// maxLevel bounds the deepening whatever the budget.
	maxLevel = 8
)

// Bounds are the bounds a search ran at.
type Bounds struct {
	Depth, Versions, StaleReads int
	// Level is the deepening level (0: the defaults, or the bounds set;
	// Level+1 levels were searched).
	Level int
}

func (b Bounds) String() string {
	return fmt.Sprintf("Depth %d, Versions %d, StaleReads %d (deepening level %d)", b.Depth, b.Versions, b.StaleReads, b.Level)
}

// DeepeningLevel is the bounds of level k of the deepening: Depth 4+k,
// Versions 4+k and StaleReads 2·4^k (2, 8, 32, ...). Stale reads grow
// fastest: a bug that needs many stale reads usually needs them in few
// steps (KubeRay's second head Pod: 2 steps, 6 stale reads), and the
// depth-first search runs the shortest schedules of a level first, so a
// level with more stale reads finds such a bug early, while each more
// step multiplies the schedules of a level (docs/explore.md, Bounds and
// deepening).
func DeepeningLevel(k int) Bounds {
	return Bounds{Depth: defaultDepth + k, Versions: defaultVersions + k, StaleReads: defaultStaleReads << (2 * k), Level: k}
}

func (ex *explorer) bounds() Bounds {
	return Bounds{Depth: ex.o.Depth, Versions: ex.o.Versions, StaleReads: ex.o.StaleReads, Level: ex.level}
}

// ReplayOptions are the Options that replay v: its Seed, at the Versions
// of the search that found it (a replayed List's lag is bounded by them).
func (v *Violation) ReplayOptions() Options {
	return Options{Replay: v.Seed, Versions: v.Bounds.Versions}
}

// deepens reports whether a search with o deepens its bounds.
func deepens(o Options) bool {
	return o.Deepen && o.Seed == 0 && o.Replay == "" && o.Schedules == 0 &&
		(o.Depth == 0 || o.Versions == 0 || o.StaleReads == 0)
}

// atLevel is o with the bounds it leaves at zero at level k.
func atLevel(o Options, k int) Options {
	b := DeepeningLevel(k)
	if o.Depth == 0 {
		o.Depth = b.Depth
	}
	if o.Versions == 0 {
		o.Versions = b.Versions
	}
	if o.StaleReads == 0 {
		o.StaleReads = b.StaleReads
	}
	return o
}

// runHooked runs the search o asks for, deepening its bounds if it does.
func runHooked(ctx context.Context, s Scenario, o Options, h hooks) (*Result, error) {
	if !deepens(o) {
		return runLevel(ctx, s, o, h)
	}
	deadline := time.Now().Add(o.withDefaults().Budget)
	total, prev := &Result{}, 0
	for k := 0; ; k++ {
		lo := atLevel(o, k)
		lo.Budget, lo.Report = max(time.Until(deadline), time.Nanosecond), ""
		h.level = k
		res, err := runLevel(ctx, s, lo, h)
		if res == nil {
			return nil, err
		}
		before, beforeElapsed := total.Schedules, total.Elapsed
		total.Schedules += res.Schedules
		total.Pruned += res.Pruned
		total.Speculative += res.Speculative
		total.Elapsed += res.Elapsed
		total.Workers, total.Bounds, total.Exhausted = res.Workers, res.Bounds, res.Exhausted
		for _, v := range res.Violations {
			v.Schedules += before
			v.FoundAfter += beforeElapsed
		}
		total.Violation, total.Violations = res.Violation, res.Violations
		// Stop at a violation, an error, a level not exhausted, the end of
		// the budget, or a level that ran no more schedules than the one
		// before: its deeper bounds bound nothing, nor will the next's.
		if err != nil || res.Violation != nil || !res.Exhausted || time.Until(deadline) <= 0 ||
			k == maxLevel || (k > 0 && res.Schedules == prev) {
			return total, (&explorer{o: o.withDefaults()}).writeReport(total, err)
		}
		prev = res.Schedules
	}
}
