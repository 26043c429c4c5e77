package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"

	"context"
)

// replay runs script's steps, then drains, and judges its deletes of
// own creations (ownjudge.go).
func (ex *explorer) replay(ctx context.Context, script []scriptStep) (*Violation, error) {
	r, err := ex.replayRun(ctx, script)
	if err != nil {
		return nil, err
	}
	if r.err == nil {
		if err := ex.judgeByFreshSchedule(ctx, r); err != nil {
			return nil, err
		}
	}
	ex.last = r
	if r.err != nil {
		return nil, r.err
	}
	return ex.violation(r), ctx.Err()
}

// replayRun runs script's steps, then drains.
func (ex *explorer) replayRun(ctx context.Context, script []scriptStep) (*run, error) {
	r, err := ex.begin(ctx, func() string { return ex.replayName(script) })
	if err != nil {
		return nil, err
	}
	defer ex.end(r)
	r.trace.ch = &chooser{}
	for _, s := range script {
		lags := s.Lags
		if lags == nil {
			lags = []int{}
		}
		r.step(ctx, s.It, lags, s.Crash)
	}
	r.drainToSteady(ctx)
	return r, nil
}

func (ex *explorer) violation(r *run) *Violation {
	if r.trace.failed == nil {
		return nil
	}
	v := *r.trace.failed
	v.Steps, v.Bounds = r.trace.steps, ex.bounds()
	var script []scriptStep
	for i, s := range r.trace.chosen {
		if !r.trace.steps[i].Drain {
			script = append(script, s)
		}
	}
	v.Seed = ex.setup.formatSeed(script)
	s := severityOf(&v)
	v.Rank, v.RankReason = s.rank, s.reason
	return &v
}

// minimise drops chosen steps, crashes and stale reads while the same
// invariants still break, first on the same object, at a rank as severe.
func (ex *explorer) minimise(ctx context.Context, r *run) (*Violation, error) {
	best := ex.violation(r)
	script, err := ex.setup.parseSeed(best.Seed)
	if err != nil {
		return nil, err
	}
	try := func(cand []scriptStep) (bool, error) {
		v, err := ex.replay(ctx, cand)
		if err != nil || v == nil || v.Invariant != best.Invariant || v.about.object != best.about.object || v.Rank > best.Rank {
			return false, err // another object's, or less severe
		}
		for name := range best.names {
			if !v.names[name] {
				return false, nil
			}
		}
		// Go on from the schedule as it ran: a replay bounds each stale
		// read by what the cache had already served (informer.go).
		ran, err := ex.setup.parseSeed(v.Seed)
		if err != nil {
			return false, err
		}
		best, script = v, ran
		return true, nil
	}
	for changed := true; changed; {
		changed = false
		for i := range script {
			cand := append(append([]scriptStep(nil), script[:i]...), script[i+1:]...)
			if ok, err := try(cand); err != nil {
				return nil, err
			} else if ok {
				changed = true
				break
			}
		}
	}
	for i := 0; i < len(script); i++ {
		if script[i].Crash.Kind == crashNone {
			continue
		}
		// No crash; failing that, for writes in flight, a leader change
		// without them, then fewer of them. The deliveries of the writes
		// taken out go too.
		c := script[i].Crash
		cand := schedule.WithoutDeliveries(script, i, 0)
		cand[i].Crash = crashPoint{}
		ok, err := try(cand)
		if err != nil {
			return nil, err
		}
		if !ok && c.Kind == crashInFlight {
			cand = schedule.WithoutDeliveries(script, i, 0)
			cand[i].Crash = crashPoint{At: c.At, Kind: crashFailover}
			ok, err = try(cand)
			if err != nil {
				return nil, err
			}
		}
		for n := 1; !ok && c.Kind == crashInFlight && n < c.InFlight; n++ {
			cand = schedule.WithoutDeliveries(script, i, n)
			cand[i].Crash.InFlight = n
			if ok, err = try(cand); err != nil {
				return nil, err
			}
		}
	}
	// A successful try swaps in the schedule as it ran, whose steps may
	// read fewer times (a fresh read takes another branch): both bounds
	// are the script's now, not the one the loop started with.
	for i := 0; i < len(script); i++ {
		for j := 0; j < len(script[i].Lags); j++ {
			if script[i].Lags[j] == 0 {
				continue
			}
			cand := append([]scriptStep(nil), script...)
			cand[i].Lags = append([]int(nil), cand[i].Lags...)
			cand[i].Lags[j] = 0
			if _, err := try(cand); err != nil {
				return nil, err
			}
		}
	}
	return best, nil
}
