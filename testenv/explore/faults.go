package explore

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
)

// The fault phase of a default search. A search with the true defaults
// (a Budget, and none of Depth, Versions, StaleReads, Deepen,
// FixedBounds, Crashes, LeaderChange, InFlightWrite(s), Seed, Replay and
// Schedules) deepens its bounds depth-first (deepen.go) within
// faultDFSShare fifths of the budget. If that search ends without a
// violation and with space left (its last level not exhausted, or
// exhausted with a bound still cutting it at the last level deepening
// reaches), the rest of the budget goes to the fault phase: random
// schedules with a crash or a leader change, which the depth-first
// search never tries, at depths it does not reach.
//
// The phase runs at Bounds{Depth: faultDepth, Versions: faultVersions,
// StaleReads: 1, Faults: true} with Crashes 1 and LeaderChange. Its first
// schedule, the pilot, runs the queue first in first out (the work
// queue's order) with fresh reads and no crash, and counts its W writes
// (of reconciles, in chosen steps: the points where a crash may come).
// Then random schedule i draws from a source seeded with (faultSeed, i),
// as Options.Seed's schedule i does:
//
//   - a crash after write c, c uniform in 1..W, a restart with a cold
//     cache or a leader change with probability 1/2 each; up to it the
//     queue runs first in first out with fresh reads, as the pilot did;
//   - after it, each chosen step uniformly among the queued (the new
//     process's controllers run in any order);
//   - one stale window (window.go): opened by the s-th cached read with
//     a choice after the crash, s uniform in 1..faultReadsAfter (the new
//     process's caches lag behind what the old one served), its lag
//     uniform among the stale ones within Versions; at each later read
//     through its informer that it serves stale, in its step or a later
//     one of the same process (a window spans reconciles: window.go), it
//     stays open or closes with probability 1/2 each. Every other read
//     is fresh.
//
// So a bug that a schedule shows which runs first in first out to its
// c-th write (c <= W), crashes there (of a given kind), then runs k
// chosen steps in a given order, the i-th of which, among the queue's
// q_i, reads stale at lag l (of the w-1 stale ones) in the s-th read
// with a choice after the crash (s <= faultReadsAfter), its window then
// staying open or closing as it needs at the m later reads it could
// serve stale (in that step and the later ones), is run by each schedule
// with probability at least
//
//	p = 1/W · 1/2 · 1/(q_1···q_k) · 1/faultReadsAfter · 1/(w-1) · 1/2^m,
//
// and by one of n schedules with probability 1-(1-p)^n (docs/explore.md,
// Bounds and deepening).

const (
	// faultDFSShare is the share of the budget, in fifths, the
	// depth-first search gets before the fault phase.
	faultDFSShare = 3
	faultSeed     = 1
	faultDepth    = 24
	faultVersions = 8
	// faultReadsAfter is how many cached reads with a choice after the
	// crash the stale one is drawn from.
	faultReadsAfter = 3
)

// faultPhase reports whether a search with o ends with the fault phase:
// the true defaults with a Budget.
func faultPhase(o Options) bool {
	return deepens(o) && !o.Deepen && o.Crashes == 0 && !o.LeaderChange && !o.InFlightWrite && o.InFlightWrites <= 0
}

// faultOptions are the options of the fault phase after a search with o.
func faultOptions(o Options, budget time.Duration) Options {
	o.Seed, o.Depth, o.Versions, o.StaleReads = faultSeed, faultDepth, faultVersions, 1
	o.Crashes, o.LeaderChange = 1, true
	o.Budget, o.Report = budget, ""
	return o
}

// faultScale is what the pilot counted: writes (crash points).
type faultScale struct{ writes int }

// faultPlan is the faults of one schedule of the fault phase; the
// chooser follows it (queue, lags, crashes).
type faultPlan struct {
	// crashAt is the write after which the process crashes (0: none, the
	// pilot), crashKind how; staleAt the read with a choice after the
	// crash that is stale.
	crashAt, crashKind, staleAt int
	// writes and reads count the crash points, and the reads with a
	// choice after the crash, so far.
	writes, reads int
	crashed       bool
}

// newFaultPlan draws a schedule's faults from rng.
func newFaultPlan(rng *rand.Rand, sc faultScale) *faultPlan {
	return &faultPlan{
		crashAt:   1 + rng.IntN(max(sc.writes, 1)),
		crashKind: []int{crashRestart, crashFailover}[rng.IntN(2)],
		staleAt:   1 + rng.IntN(faultReadsAfter),
	}
}

// item picks the queued item (of n) to run: the oldest before the
// crash, any after it.
func (f *faultPlan) item(c *chooser, n int) int {
	if f.crashed {
		return c.Choose(n)
	}
	return c.Fixed(0, n)
}

// crash counts a crash point and says whether the process crashes here.
func (f *faultPlan) crash() int {
	f.writes++
	if f.writes != f.crashAt {
		return crashNone
	}
	f.crashed = true
	return f.crashKind
}

// lag picks the lag of a cached read with w versions to choose from.
func (f *faultPlan) lag(c *chooser, w int) int {
	if w <= 1 || !f.crashed {
		return 0
	}
	f.reads++
	if f.reads != f.staleAt {
		return c.Fixed(0, w)
	}
	return c.Fixed(1+c.Rng.IntN(w-1), w)
}

// inWindow picks the lag of a cached read that the open window serves
// at lag stay: the window stays open (stay) or closes (0), with
// probability 1/2 each.
func (f *faultPlan) inWindow(c *chooser, stay int) int {
	if c.Rng.IntN(2) == 0 {
		return c.Fixed(stay, 2) // a choice of two: the index stands for stay
	}
	c.Fixed(1, 2)
	return 0
}

// faultSearch runs the fault phase: the pilot, then the random schedules.
func (ex *explorer) faultSearch(ctx context.Context, workers []*explorer, res *Result) error {
	start := time.Now()
	pilot := &faultPlan{}
	c := &chooser{Chooser: &search.Chooser{Rng: rand.New(rand.NewPCG(faultSeed, 0)), Index: -1}, faults: pilot}
	r, err := ex.schedule(ctx, c, ex.o.Depth)
	if err != nil {
		return err
	}
	res.Schedules++
	pilotTime := time.Since(start)
	var pilotFound []*Violation
	if r.trace.failed != nil && !ex.known[foundKey(r.trace.failed)] {
		v, err := ex.minimise(ctx, r)
		if err != nil {
			return err
		}
		v.FoundAfter, v.Schedules = pilotTime, 1
		pilotFound = ranked([]*Violation{v})
		if ex.o.StopAtFirst {
			res.Violation, res.Violations = v, pilotFound
			return nil
		}
	}
	sc := &faultScale{writes: pilot.writes}
	for _, w := range workers {
		w.scale = sc
	}
	err = ex.randomSearch(ctx, workers, res)
	for _, v := range res.Violations { // randomSearch counts from its start
		v.Schedules++
		v.FoundAfter += pilotTime
	}
	res.Violations, res.Violation = merge(pilotFound, res.Violations), nil
	if len(res.Violations) > 0 {
		res.Violation = res.Violations[0]
	}
	return err
}
