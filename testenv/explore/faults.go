package explore

import (
	"context"
	"time"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
)

// The fault phase of a default search (internal/faults has the model
// and the odds): when the depth-first search of the true defaults ends
// within faults.DFSShare fifths of the budget without a violation and with
// space left, random schedules with a crash or a leader change and a
// stale read after it (faults.Plan) take the rest.

// faultPhase reports whether a search with o ends with the fault phase:
// the true defaults with a Budget.
func faultPhase(o Options) bool {
	return deepens(o) && !o.Deepen && o.Crashes == 0 && !o.LeaderChange && !o.InFlightWrite && o.InFlightWrites <= 0
}

// faultOptions are the options of the fault phase after a search with o.
func faultOptions(o Options, budget time.Duration) Options {
	o.Seed, o.Depth, o.Versions, o.StaleReads = faults.Seed, faults.Depth, faults.Versions, 1
	o.Crashes, o.LeaderChange = 1, true
	o.Budget, o.Report = budget, ""
	return o
}

// faultSearch runs the fault phase (search.Faults): the pilot, then the
// random schedules, whose violations count the pilot's schedule and time.
func (ex *explorer) faultSearch(ctx context.Context, workers []*explorer, res *Result) error {
	got, err := search.Faults(ctx, faultRun{replayer{ex}, workers, res}, search.Fault{Seed: faults.Seed, Depth: ex.o.Depth, StopAtFirst: ex.o.StopAtFirst})
	res.Schedules += got.Schedules
	var pilot []*Violation
	if f := got.Pilot; f != nil {
		f.Verdict.Of.FoundAfter, f.Verdict.Of.Schedules = f.At, f.Index+1
		pilot = []*Violation{f.Verdict.Of}
	}
	if got.Random {
		for _, v := range res.Violations { // randomSearch counts from its start
			v.Schedules++
			v.FoundAfter += got.After
		}
	} else if err != nil {
		return err
	}
	res.Violations, res.Violation = merge(pilot, res.Violations), nil
	if len(res.Violations) > 0 {
		res.Violation = res.Violations[0]
	}
	return err
}

// faultRun is the fault phase's run on workers (search.Phase), its
// random search keeping what it finds in res.
type faultRun struct {
	replayer
	workers []*explorer
	res     *Result
}

// Pilot runs the pilot with a plan that counts the writes, and hands the
// workers' random schedules the scale it counted.
func (f faultRun) Pilot(ctx context.Context, c *search.Chooser, depth int) (*search.Verdict[*Violation], error) {
	pilot := &faults.Plan{}
	r, err := f.ex.schedule(ctx, &chooser{Chooser: c, Faults: pilot}, depth)
	if err != nil {
		return nil, err
	}
	sc := &faults.Scale{Writes: pilot.Writes()}
	for _, w := range f.workers {
		w.scale = sc
	}
	if r.Trace.Failed == nil || f.ex.known[foundKey(violationOf(r.Trace.Failed))] {
		return nil, nil
	}
	return verdictOf(f.ex.violation(r)), nil
}

func (f faultRun) Random(ctx context.Context) error { return f.ex.randomSearch(ctx, f.workers, f.res) }
