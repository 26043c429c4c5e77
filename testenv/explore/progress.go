package explore

import (
	"time"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/progress"
)

// Progress. A search of minutes would otherwise say nothing until Run
// returns: every Options.ProgressEvery it writes one line to
// Options.Progress (default os.Stderr), and one summary line when Run
// ends (internal/progress); Options.Quiet turns both off.

// defaultProgressEvery is Options.ProgressEvery's default: well within
// the 10 s a reader waits before thinking the search hangs.
const defaultProgressEvery = 5 * time.Second

// newProgress is the progress of a search with o (its defaults set), or
// nil when o.Quiet; it writes nothing until started.
func newProgress(o Options, tick <-chan time.Time) *progress.Lines {
	if o.Quiet {
		return nil
	}
	return progress.New(o.Progress, o.ProgressEvery, tick, progress.Share(o.Schedules, o.Shard.Index, o.Shard.Count))
}

// finishProgress stops p's lines and writes the summary of res (nil: the
// search failed before it ran) and err.
func finishProgress(p *progress.Lines, res *Result, err error) {
	var s *progress.Summary
	if res != nil {
		s = &progress.Summary{Counts: progress.Counts{Schedules: res.Schedules, Pruned: res.Pruned}, Bounds: res.Bounds.String(), Exhausted: res.Exhausted,
			NotExplored: notExploredLines(res.NotExplored)}
		if vs := res.Violations; res.Violation != nil {
			if len(vs) == 0 { // a replay's: its Violation alone
				vs = []*Violation{res.Violation}
			}
			for _, v := range vs {
				s.Violations = append(s.Violations, v.Invariant)
			}
		}
	}
	p.Done(s, err)
}

// defectOf is what makes r's violation distinct in the report, for the
// progress lines, or "" if r broke nothing: with Options.Schedules each
// schedule's is kept once per invariant and schedule (sameSchedule),
// else its violationKey (moreSevere). Minimising may still make two one.
func (ex *explorer) defectOf(r *run) string {
	if r.Trace.Failed == nil {
		return ""
	}
	if ex.o.Schedules > 0 {
		return sameSchedule(ex.violation(r))
	}
	return violationKey(violationOf(r.Trace.Failed))
}

// phase names the search with o that runs at p, for the progress lines.
func (p place) phase(o Options) progress.Phase {
	b := p.bounds(o)
	return progress.Phase{Faults: b.Faults, Replay: b.Replay, Fixed: b.Fixed, Seed: o.Seed, Level: b.Level,
		Depth: b.Depth, Versions: b.Versions, StaleReads: b.StaleReads}
}
