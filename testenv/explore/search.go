package explore

import (
	"context"
	"errors"
	"time"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/progress"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/reset"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
)

// explorer holds one search at fixed bounds on one world of the backend
// (a worker: parallel.go): the Options, where the search sits in the
// whole search (place), the setup it read from the Scenario once
// (setupState), what its schedules left behind, and the knobs tests
// turn (testKnobs). It runs one schedule for internal/search (replayer),
// which decides the schedules.
type explorer struct {
	o       Options
	touched []leftover
	// before is what was there before this world's search began
	// (leftovers): it stays, or is restored.
	before   reset.Before
	deadline time.Time
	runs     int
	// last is the last schedule replay ran.
	last *run
	place
	// scale is what the fault phase's pilot counted (faults.go).
	scale *faults.Scale
	// prog counts the schedules for the progress lines (progress.go).
	prog *progress.Lines
	// fresh are the fresh schedules the judgement after a schedule ran,
	// by their seed (ownjudge.go).
	fresh map[string]*freshVerdict
	// explored sums what the search's schedules explored, its workers'
	// together (notexplored.go).
	explored *explored

	setup setupState
	knobs testKnobs
}

// place is where a search at fixed bounds sits in the whole search:
// level is the deepening level of its bounds (deepen.go), faults marks
// the fault phase (faults.go); deepening: the search deepens its bounds
// and level is one of its levels; known, the violations its earlier
// levels found (foundKey), not kept again.
type place struct {
	level             int
	faults, deepening bool
	known             map[string]bool
}

// testKnobs are the tests' knobs, all in one place (export_test.go turns
// them); the zero value is the search users run.
type testKnobs struct {
	// visit, if set, sees each schedule run to its end, and the explorer
	// that ran it.
	visit func(*explorer, *run)
	// lastFirst makes the depth-first search start the latest task in
	// the serial order first (search.Options.LastFirst).
	lastFirst bool
	// oneReconcile ends each stale window with its reconcile, as at the
	// default bounds, whatever the bounds (runView.spans, run.go).
	oneReconcile bool
	// tick, if set, replaces the progress lines' ticker.
	tick <-chan time.Time
}

// Run explores s. It returns an error when the scenario is malformed or the
// backend fails, and a Result whose Violation is the first violation
// found, minimised.
func Run(ctx context.Context, s Scenario, o Options) (*Result, error) {
	return runVisiting(ctx, s, o, nil)
}

// runVisiting is Run; visit, if set (tests), sees every schedule the
// search runs to its end.
func runVisiting(ctx context.Context, s Scenario, o Options, visit func(*explorer, *run)) (*Result, error) {
	return runHooked(ctx, s, o, hooks{knobs: testKnobs{visit: visit}})
}

// hooks are what a search at fixed bounds (runLevel) is given beside its
// Options: the tests' knobs, its place in the whole search, and the
// whole search's progress (runHooked makes it).
type hooks struct {
	knobs testKnobs
	place
	progress *progress.Lines
}

// runLevel is one search at o's bounds (runHooked may deepen them).
func runLevel(ctx context.Context, s Scenario, o Options, h hooks) (*Result, error) {
	o = o.withDefaults()
	if o.Backend == nil {
		return nil, errors.New("explore: Options.Backend is nil: use explore.Server(env) or explore.Fake(scheme, ...)")
	}
	ex := &explorer{setup: setupState{s: s}, o: o, knobs: h.knobs, place: h.place, prog: h.progress, explored: &explored{}}
	if err := ex.setup.validate(o); err != nil {
		return nil, err
	}
	ex.prog.SetPhase(ex.phase(o).String())
	defer ex.cleanup()
	if o.Replay != "" {
		return ex.replayTwice(ctx)
	}
	if err := ex.o.validateShard(); err != nil {
		return nil, err
	}
	start := time.Now()
	// The budget is checked between schedules: a schedule cut short would
	// see its requests fail and could report what did not happen.
	ex.deadline = start.Add(o.Budget)
	workers := ex.workers()
	defer cleanupWorkers(workers)
	res := &Result{Workers: len(workers), Bounds: ex.bounds(ex.o)}
	if o.Seed != 0 {
		phase := ex.randomSearch
		if ex.faults {
			phase = ex.faultSearch
		}
		err := phase(ctx, workers, res)
		res.Elapsed = time.Since(start)
		res.counted(ex.explored.counts())
		return res, ex.o.writeReport(ctx, res, err)
	}
	got, err := ex.search(ctx, workers, start, res)
	fs := got.Found
	res.Elapsed = time.Since(start)
	res.counted(ex.explored.counts())
	if err != nil || len(fs) == 0 {
		return res, ex.o.writeReport(ctx, res, err)
	}
	if ex.o.StopAtFirst {
		fs[0].At, fs[0].Index = res.Elapsed, res.Schedules-1
	}
	res.Violations, err = ex.minimiseAll(ctx, fs)
	if err != nil {
		return res, err
	}
	if len(res.Violations) > 0 {
		res.Violation = res.Violations[0]
	}
	return res, ex.o.writeReport(ctx, res, nil)
}

// search runs the schedules of one search at o's bounds on workers
// (search.Run: depth-first, where one worker is the serial search
// and more run its schedules, prune where it prunes and find what it
// finds; or with Options.Seed random) within the Budget, and counts in
// res what it ran: for the depth-first search, the schedules the serial
// search runs and prunes, and apart the ones run in vain. It keeps the
// schedules of each distinct violation (foundKey) not known.
func (ex *explorer) search(ctx context.Context, workers []*explorer, start time.Time, res *Result) (search.Result[*Violation], error) {
	o := ex.o
	got, err := search.Run(ctx, replayers(workers), search.Options[*Violation]{
		Start: start, Deadline: ex.deadline, Depth: o.Depth, StopAtFirst: o.StopAtFirst, LastFirst: ex.knobs.lastFirst,
		Seed: o.Seed, Index: o.Shard.Index, Count: o.Shard.Count, Schedules: o.Schedules,
		Key: func(v *search.Verdict[*Violation]) (string, bool) {
			k := foundKey(v.Of)
			return k, !ex.known[k]
		},
		Same: func(v *search.Verdict[*Violation]) string { return sameSchedule(v.Of) },
	})
	res.Schedules += got.Schedules
	res.Pruned, res.Speculative = got.Pruned, got.Speculative
	res.cut, res.Exhausted = boundSet(got.Cut), got.Exhausted
	return got, err
}

// schedule runs one schedule of up to depth chosen steps, then drains,
// and judges its deletes of own creations (ownjudge.go).
func (ex *explorer) schedule(ctx context.Context, c *chooser, depth int) (*run, error) {
	r, err := ex.runSchedule(ctx, c, depth)
	if err != nil {
		return r, err
	}
	if err := ex.judgeByFreshSchedule(ctx, r); err != nil {
		return r, err
	}
	r.NoteFailure(depth)
	if ctx.Err() != nil {
		r.Trace.Failed = nil
	}
	ex.explored.add(r.Trace.Explored)
	ex.prog.Ran(r.Track != nil && r.Track.PrunedAt >= 0, ex.defectOf(r))
	return r, nil
}

// runSchedule runs one schedule of up to depth chosen steps, then drains.
func (ex *explorer) runSchedule(ctx context.Context, c *chooser, depth int) (*run, error) {
	r, err := ex.begin(ctx, func() string { return ex.scheduleName(c, depth) })
	if err != nil {
		return nil, err
	}
	defer ex.end(r)
	r.Trace.Ch = c
	// A schedule of the depth-first search is pruned at a state an
	// earlier one met (search.Visit), and records where its bounds cut it.
	if r.Track = c.Visit; r.Track != nil {
		defer func() { r.Track.Cut, r.Track.CutAt = uint8(r.Trace.Cut), r.Trace.CutAt }()
	}
	d := 0
	for ; d < depth && len(r.Queue.Items) > 0; d++ {
		if v := r.Track; v != nil && len(c.Taken) >= len(c.Prefix) && v.Prune(func() uint64 { return r.StateHash(depth - d) }, c.Taken, d) {
			v.PrunedAt = d
			return r, nil
		}
		r.Trace.At = d
		r.Step(ctx, r.Queue.Items[c.Item(len(r.Queue.Items))], nil, crashPoint{})
		r.NoteFailure(d)
	}
	if d == ex.o.Depth && len(r.Queue.Items) > 0 {
		r.Trace.At = d
		r.Trace.NoteCut(boundDepth) // more was queued to choose from
	}
	r.DrainToSteady(ctx)
	r.NoteFailure(depth)
	if ctx.Err() != nil {
		r.Trace.Failed = nil // cancelled: requests failed, nothing to judge
	}
	if ex.knobs.visit != nil {
		ex.knobs.visit(ex, r)
	}
	return r, r.Err
}

// cleanup deletes what the last schedule wrote, so that the next Run on
// the same server starts clean.
func (ex *explorer) cleanup() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, _ = ex.o.Backend.begin(ctx, ex.touched)
}

func (ex *explorer) end(r *run) {
	r.Proc.Stop()
	r.Pushes.Stop()
	ex.touched = append(ex.touched, leftovers(ex, r)...)
}

// replayTwice runs Options.Replay twice and says whether the two runs
// diverged. Its violation, if any, is the Result's Violation and its one
// Violations entry, as a search's, and the Report's; what its first run
// did not explore is the Result's NotExplored.
func (ex *explorer) replayTwice(ctx context.Context) (*Result, error) {
	script, err := ex.setup.parseSeed(ex.o.Replay)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res := &Result{Bounds: ex.bounds(ex.o)}
	done := func(err error) (*Result, error) {
		if res.Violation != nil {
			res.Violations = []*Violation{res.Violation}
		}
		res.Elapsed = time.Since(start)
		return res, ex.o.writeReport(ctx, res, err)
	}
	res.Violation, err = ex.replay(ctx, script)
	res.Schedules = 1
	if err != nil {
		return done(err)
	}
	first := ex.last
	// The replay's verdict is Unknown for what its schedule did not
	// explore, as a search's (notexplored.go); the second run, the same
	// schedule, only checks that it did not diverge.
	res.counted(first.Trace.Explored)
	res.Schedules = 2
	if _, err := ex.replay(ctx, script); err != nil {
		return done(err)
	}
	if d, clock := divergence(first, ex.last); clock != "" {
		res.Diverged, res.DivergedByClock = "replay diverged at "+d+faults.ClockHint(clock), true
	} else if d != "" {
		res.Diverged = "replay diverged at " + d + faults.DivergedHint
	}
	return done(nil)
}
