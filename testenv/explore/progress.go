package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/progress"

	"fmt"
	"strings"
	"time"
)

// Progress. A search of minutes would otherwise say nothing until Run
// returns: every Options.ProgressEvery (default 5 s) it writes one line
// to Options.Progress (default os.Stderr) with what it searches (the
// deepening level and its bounds, the fault phase, a seeded random
// search), the schedules run and their rate, those pruned, the
// violations met so far, each distinct one once as the report keeps it
// (defectOf), with the schedules that found them, and the time left of
// the Budget; when Run ends, one summary line. Options.Quiet turns both
// off.
//
//	explore: level 1 (Depth 5, Versions 5, StaleReads 8): 1234 schedules, 9.8/s, 211 pruned, 1 violation (found by 5 schedules), 7m32s left
//	explore: done in 10m0s: 6512 schedules, 10.9/s, 1040 pruned, 1 violation (observedGeneration), at Depth 24, ...

// defaultProgressEvery is Options.ProgressEvery's default: well within
// the 10 s a reader waits before thinking the search hangs.
const defaultProgressEvery = 5 * time.Second

// newProgress is the progress of a search with o (its defaults set), or
// nil when o.Quiet (internal/progress); it writes nothing until started.
func newProgress(o Options, tick <-chan time.Time) *progress.Lines {
	if o.Quiet {
		return nil
	}
	of := 0
	if o.Schedules > 0 {
		of = o.Schedules
		if n := o.Shard.Count; n > 1 {
			of = (o.Schedules - o.Shard.Index + n - 1) / n
		}
	}
	return progress.New(o.Progress, o.ProgressEvery, tick, of)
}

// finishProgress stops p's lines and writes the summary of res (nil: the
// search failed before it ran) and err.
func finishProgress(p *progress.Lines, res *Result, err error) {
	var counts *progress.Counts
	var b strings.Builder
	if res != nil {
		counts = &progress.Counts{Schedules: res.Schedules, Pruned: res.Pruned}
	}
	if res != nil && (err == nil || res.Violation != nil) {
		if res.Violation != nil {
			vs := res.Violations
			if len(vs) == 0 { // a replay's: its Violation alone
				vs = []*Violation{res.Violation}
			}
			names := []string{}
			for _, v := range vs {
				names = append(names, v.Invariant)
			}
			fmt.Fprintf(&b, ", %s (%s)", plural(len(vs), "violation"), strings.Join(names, ", "))
		} else {
			b.WriteString(", no violation")
		}
		fmt.Fprintf(&b, ", at %s", res.Bounds)
		if res.Exhausted {
			b.WriteString(", exhausted")
		}
	}
	if err != nil {
		fmt.Fprintf(&b, ", error: %v", err)
	}
	p.Finish(counts, b.String())
}

// plural is "1 violation", "2 violations".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// defectOf is what makes r's violation distinct in the report, for the
// progress lines, or "" if r broke nothing: with Options.Schedules each
// schedule's is kept once per invariant (randomSearch), else its
// violationKey (moreSevere). Minimising may still make two one.
func (ex *explorer) defectOf(r *run) string {
	if r.trace.failed == nil {
		return ""
	}
	if ex.o.Schedules > 0 {
		v := ex.violation(r)
		return v.Invariant + "\x00" + v.Seed
	}
	return violationKey(r.trace.failed)
}

// phaseOf names the search ex runs, for the progress lines.
func (ex *explorer) phaseOf() string {
	b := ex.bounds()
	switch {
	case b.Faults:
		return fmt.Sprintf("fault phase (Depth %d, Versions %d, StaleReads %d, Crashes 1, LeaderChange)", b.Depth, b.Versions, b.StaleReads)
	case ex.o.Replay != "":
		return "replay"
	case ex.o.Seed != 0:
		return fmt.Sprintf("random schedules of Seed %d (Depth %d, Versions %d, StaleReads %d)", ex.o.Seed, b.Depth, b.Versions, b.StaleReads)
	}
	if b.Fixed {
		return fmt.Sprintf("fixed bounds (Depth %d, Versions %d, StaleReads %d)", b.Depth, b.Versions, b.StaleReads)
	}
	return fmt.Sprintf("level %d (Depth %d, Versions %d, StaleReads %d)", b.Level, b.Depth, b.Versions, b.StaleReads)
}
