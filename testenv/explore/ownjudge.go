package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"

	"context"
)

// A schedule's suspect violations (a delete of an own creation, an
// observedGeneration absent at generation 1, a lost write over the same
// reconciler's own write) are judged after it against the same schedule
// with every read fresh (internal/judge's fresh.go says which faults it
// keeps, and when a violation is taken back); the explorer runs those
// fresh schedules here.

// judgeByFreshSchedule judges r's suspects (judge.Checks.JudgeAfter)
// against the same schedule with every read fresh, r having ended. The
// fresh schedules count in no search's schedules.
func (ex *explorer) judgeByFreshSchedule(ctx context.Context, r *run) error {
	if !r.Checks.Suspects() || ctx.Err() != nil {
		return nil
	}
	drain := func(i int) bool { return r.Trace.Steps[i].Drain }
	if err := r.Checks.JudgeCrashOnly(func() (*judge.Fresh, error) {
		return ex.freshSchedule(ctx, judge.NoCrashScript(r.Trace.Chosen, drain))
	}); err != nil {
		return err
	}
	err := r.Checks.JudgeAfter(func() (*judge.Fresh, error) {
		return ex.freshSchedule(ctx, judge.FreshScript(r.Trace.Chosen, drain))
	}, func(pos int) (*judge.Fresh, error) {
		return ex.freshSchedule(ctx, judge.StepFreshScript(r.Trace.Chosen, drain, pos))
	})
	if err != nil {
		return err
	}
	if r.Trace.Failed == nil && r.Track != nil {
		r.Track.Broke = false
	}
	return nil
}

// freshVerdict is what the judgement needs of a fresh schedule.
type freshVerdict = judge.Fresh

// maxFresh bounds the fresh schedules an explorer keeps.
const maxFresh = 4096

// freshSchedule runs script (chosen steps, every read fresh, no crash)
// and drains, or returns what it did when it ran before in this search:
// many schedules differ only in their lags and crashes, and an operator
// whose type has status.observedGeneration unused gives each of them an
// absent one to judge (twice the schedules without the memo).
func (ex *explorer) freshSchedule(ctx context.Context, script []scriptStep) (*freshVerdict, error) {
	key := ex.setup.formatSeed(script)
	if v, ok := ex.fresh[key]; ok {
		return v, nil
	}
	runs, last := ex.runs, ex.last
	fresh, err := ex.replayRun(ctx, script)
	ex.runs, ex.last = runs, last
	if err != nil {
		return nil, err
	}
	if fresh.Err != nil {
		return nil, fresh.Err
	}
	v := fresh.Checks.Fresh(judge.MadeFaults(fresh.Trace.Chosen, fresh.Held.In.Delivered, script))
	if ctx.Err() != nil {
		return v, nil
	}
	if ex.fresh == nil || len(ex.fresh) >= maxFresh {
		ex.fresh = map[string]*freshVerdict{}
	}
	ex.fresh[key] = v
	return v, nil
}
