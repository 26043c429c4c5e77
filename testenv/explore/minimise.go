package explore

import (
	"context"
	"slices"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
)

// replay runs script's steps, then drains, and judges its deletes of
// own creations (ownjudge.go).
func (ex *explorer) replay(ctx context.Context, script []scriptStep) (*Violation, error) {
	r, err := ex.replayRun(ctx, script)
	if err != nil {
		return nil, err
	}
	if r.Err == nil {
		if err := ex.judgeByFreshSchedule(ctx, r); err != nil {
			return nil, err
		}
	}
	ex.last = r
	if r.Err != nil {
		return nil, r.Err
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
	r.Trace.Ch = &chooser{Chooser: &search.Chooser{}}
	for _, s := range script {
		lags := s.Lags
		if lags == nil {
			lags = []int{}
		}
		r.Step(ctx, s.It, lags, s.Crash)
	}
	r.DrainToSteady(ctx)
	return r, nil
}

func (ex *explorer) violation(r *run) *Violation {
	if r.Trace.Failed == nil {
		return nil
	}
	v := *violationOf(r.Trace.Failed)
	v.Steps, v.Bounds = r.Trace.Steps, ex.bounds(ex.o)
	var script []scriptStep
	for i, s := range r.Trace.Chosen {
		if !r.Trace.Steps[i].Drain {
			script = append(script, s)
		}
	}
	v.Seed = ex.setup.formatSeed(script)
	v.faulted = slices.ContainsFunc(script, func(s scriptStep) bool { return s.Crash.Kind != schedule.CrashNone })
	s := severityOf(&v)
	v.Rank, v.RankReason = s.Rank, s.Reason
	return &v
}

// minimiseFrom minimises v, a violation a schedule of ex broke: it drops
// chosen steps, crashes and stale reads while the same invariants still
// break, first on the same object, at a rank as severe (search.Minimise,
// replaying through the explorer).
func (ex *explorer) minimiseFrom(ctx context.Context, v *Violation) (*Violation, error) {
	best, err := search.Minimise(ctx, replayer{ex}, verdictOf(v))
	if err != nil {
		return nil, err
	}
	return best.Of, nil
}

// replayer runs the schedules of a search (search.Runner).
type replayer struct{ ex *explorer }

// replayers are the search's Runners, one a worker.
func replayers(workers []*explorer) []replayer {
	ws := make([]replayer, len(workers))
	for i, w := range workers {
		ws[i] = replayer{w}
	}
	return ws
}

func (p replayer) Replay(ctx context.Context, script []scriptStep) (*search.Verdict[*Violation], error) {
	v, err := p.ex.replay(ctx, script)
	if err != nil || v == nil {
		return nil, err
	}
	return verdictOf(v), nil
}

func (p replayer) Ran(v *search.Verdict[*Violation]) ([]scriptStep, error) {
	return p.ex.setup.parseSeed(v.Of.Seed)
}

// Schedule runs the schedule c chooses, with the explorer's faults drawn
// from c's source if it has one.
func (p replayer) Schedule(ctx context.Context, c *search.Chooser, depth int) (*search.Verdict[*Violation], error) {
	ch := &chooser{Chooser: c}
	if p.ex.scale != nil && c.Rng != nil {
		ch.Faults = faults.NewPlan(c.Rng, *p.ex.scale)
	}
	r, err := p.ex.schedule(ctx, ch, depth)
	if err != nil {
		return nil, err
	}
	if r.Trace.Failed == nil {
		return nil, nil
	}
	return verdictOf(p.ex.violation(r)), nil
}

// verdictOf is the search's record of v.
func verdictOf(v *Violation) *search.Verdict[*Violation] {
	return &search.Verdict[*Violation]{Of: v, Invariant: v.Invariant, Object: v.about.Object, Rank: v.Rank, Names: v.names}
}
