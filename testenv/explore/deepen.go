package explore

import (
	"context"
	"errors"
	"time"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/violation"

	schedrun "github.com/statuspatch/statuspatch/testenv/explore/internal/run"
)

// Iterative deepening of the bounds. A depth-first search (no Seed,
// Replay or Schedules) deepens when it is given a Budget and sets none
// of Depth, Versions and StaleReads (the default), or when it asks with
// Options.Deepen, and not with Options.FixedBounds. When it exhausts its
// space before the budget runs out it searches again at deeper bounds:
// the bounds the caller left at zero take the values of
// DeepeningLevel(1), then 2, and so on; the bounds the caller set stay
// as set. Each level is a whole search, serial or parallel as
// Options.Parallel says, with what is left of the budget, so each level
// gives the verdict the same options would.

// The bounds of level 0: the defaults of Options (internal/outcome).
const (
	defaultDepth      = outcome.DefaultDepth
	defaultVersions   = outcome.DefaultVersions
	defaultStaleReads = outcome.DefaultStaleReads
	// maxLevel bounds the deepening whatever the budget.
	maxLevel = 8
)

// Bounds are the bounds a search ran at (internal/outcome): Depth,
// Versions, StaleReads; Level, the deepening level; Faults, Random,
// Replay and Fixed, which search ran at them.
type Bounds = outcome.Bounds

// DeepeningLevel is the bounds of level k of the deepening: Depth 4+k,
// Versions 4+k and StaleReads 2·4^k (2, 8, 32, ...); internal/outcome
// says why stale reads grow fastest (docs/explore.md, Bounds and
// deepening).
func DeepeningLevel(k int) Bounds { return outcome.DeepeningLevel(k) }

// bounds are the bounds a search with o runs at, at p.
func (p place) bounds(o Options) Bounds {
	return Bounds{Depth: o.Depth, Versions: o.Versions, StaleReads: o.StaleReads, Level: p.level, Faults: p.faults,
		Random: o.Seed != 0 && !p.faults && o.Replay == "", Replay: o.Replay != "",
		Fixed: !p.deepening && !p.faults && o.Seed == 0 && o.Replay == ""}
}

// ReplayOptions are the Options that replay v: its Seed, at the Versions
// of the search that found it (a replayed List's lag is bounded by them).
func (v *Violation) ReplayOptions() Options {
	return Options{Replay: v.Seed, Versions: v.Bounds.Versions}
}

// boundSet are bounds of Bounds, as bits: the ones that cut a
// schedule's choices (schedrun.Cut; the run notes them, run.Trace.NoteCut),
// or that the deepening raises.
type boundSet = schedrun.Cut

const (
	boundDepth      = schedrun.CutDepth
	boundVersions   = schedrun.CutVersions
	boundStaleReads = schedrun.CutStaleReads
)

// deepened are the bounds o leaves at zero, which deepening raises.
func deepened(o Options) boundSet {
	var b boundSet
	if o.Depth == 0 {
		b |= boundDepth
	}
	if o.Versions == 0 {
		b |= boundVersions
	}
	if o.StaleReads == 0 {
		b |= boundStaleReads
	}
	return b
}

// deepens reports whether a search with o deepens its bounds: a
// depth-first search, not FixedBounds, given a Budget and no bound, or
// with Deepen and a bound left at zero.
func deepens(o Options) bool {
	if o.FixedBounds || o.Seed != 0 || o.Replay != "" || o.Schedules != 0 {
		return false
	}
	if o.Deepen {
		return o.Depth == 0 || o.Versions == 0 || o.StaleReads == 0
	}
	return o.Budget > 0 && o.Depth == 0 && o.Versions == 0 && o.StaleReads == 0
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

// runHooked runs the search o asks for, deepening its bounds if it does,
// then, with the true defaults, the fault phase (faults.go), and says
// how it goes (progress.go).
func runHooked(ctx context.Context, s Scenario, o Options, h hooks) (*Result, error) {
	d := o.withDefaults()
	h.progress = newProgress(d, h.knobs.tick)
	h.progress.Start(d.Budget)
	res, err := runSearch(ctx, s, o, h)
	finishProgress(h.progress, res, err)
	auditResult(ctx, d, res)
	return res, err
}

// runSearch is runHooked without the progress lines.
func runSearch(ctx context.Context, s Scenario, o Options, h hooks) (*Result, error) {
	if o.Deepen && o.FixedBounds {
		return nil, errors.New("explore: Options.Deepen and Options.FixedBounds are both set")
	}
	if !deepens(o) {
		return runLevel(ctx, s, o, h)
	}
	start := time.Now()
	deadline := start.Add(o.withDefaults().Budget)
	dfsDeadline := deadline
	withFaults := faultPhase(o)
	if withFaults {
		dfsDeadline = start.Add(o.Budget * faults.DFSShare / 5)
	}
	total, more, err := deepen(ctx, s, o, h, dfsDeadline)
	if total == nil || err != nil || o.StopAtFirst && total.Violation != nil || !withFaults || !more || time.Until(deadline) <= 0 {
		return total, o.withDefaults().writeReport(ctx, total, err)
	}
	h.faults, h.level, h.known = true, total.Bounds.Level, total.known()
	res, err := runLevel(ctx, s, faultOptions(o, time.Until(deadline)), h)
	if res == nil {
		return nil, err
	}
	total.add(res)
	total.Exhausted = false
	return total, o.withDefaults().writeReport(ctx, total, err)
}

// deepen runs the levels of the deepening until deadline
// (search.Deepen). more reports that it stopped with space left: its
// last level not exhausted, or exhausted with a bound that deepens still
// cutting it at the last level.
func deepen(ctx context.Context, s Scenario, o Options, h hooks, deadline time.Time) (total *Result, more bool, err error) {
	total = &Result{}
	more, err = search.Deepen(maxLevel, func() bool { return time.Until(deadline) > 0 }, func(k int) (search.Level, error) {
		lo := atLevel(o, k)
		lo.Budget, lo.Report = max(time.Until(deadline), time.Nanosecond), ""
		h.level, h.deepening, h.known = k, true, total.known()
		res, err := runLevel(ctx, s, lo, h)
		if res == nil {
			total = nil
			return search.Level{}, err
		}
		total.add(res)
		return search.Level{Schedules: res.Schedules, Exhausted: res.Exhausted, Cut: res.cut&deepened(o) != 0,
			Stop: o.StopAtFirst && res.Violation != nil}, err
	})
	if total == nil {
		return nil, false, err
	}
	return total, more, err
}

// add adds the search res, which ran after total's, to total: its counts
// and its violations, each distinct one once, most severe first.
func (total *Result) add(res *Result) {
	before, beforeElapsed := total.Schedules, total.Elapsed
	total.Schedules += res.Schedules
	total.Pruned += res.Pruned
	total.Speculative += res.Speculative
	total.Elapsed += res.Elapsed
	total.Workers, total.Bounds, total.Exhausted = res.Workers, res.Bounds, res.Exhausted
	total.counted(sumExplored(total.explored, res.explored))
	for _, v := range res.Violations {
		v.Schedules += before
		v.FoundAfter += beforeElapsed
	}
	total.Violations = merge(total.Violations, res.Violations)
	total.Violation = nil
	if len(total.Violations) > 0 {
		total.Violation = total.Violations[0]
	}
}

// known are the keys of total's violations (foundKey), each at its
// rank and every less severe one: a later level's schedule of a defect
// known at rank 1 is not minimised again at rank 2.
func (total *Result) known() map[string]bool {
	k := map[string]bool{}
	for _, v := range total.Violations {
		for rank := severityOf(v).Rank; rank <= violation.TimeOnly.Rank; rank++ {
			k[foundKeyAt(v, rank)] = true
		}
	}
	return k
}
