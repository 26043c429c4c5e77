package explore

import (
	"context"
	"math/rand/v2"
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

// faultSearch runs the fault phase: the pilot, then the random schedules.
func (ex *explorer) faultSearch(ctx context.Context, workers []*explorer, res *Result) error {
	start := time.Now()
	pilot := &faults.Plan{}
	c := &chooser{Chooser: &search.Chooser{Rng: rand.New(rand.NewPCG(faults.Seed, 0)), Index: -1}, faults: pilot}
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
	sc := &faults.Scale{Writes: pilot.Writes()}
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
