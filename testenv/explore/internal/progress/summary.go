package progress

import (
	"fmt"
	"strings"
)

// A Phase is what a search runs, as its progress lines name it: the
// fault phase, a replay, a seeded random search (Seed), a depth-first
// search at fixed bounds, or a deepening level, at its bounds.
type Phase struct {
	Faults, Replay, Fixed       bool
	Seed                        int64
	Level                       int
	Depth, Versions, StaleReads int
}

// replayPhase is a replay's Phase: its runs are of one schedule, not a
// search's schedules (Lines.counts).
const replayPhase = "replay"

func (ph Phase) String() string {
	switch {
	case ph.Faults:
		return fmt.Sprintf("fault phase (Depth %d, Versions %d, StaleReads %d, Crashes 1, LeaderChange)", ph.Depth, ph.Versions, ph.StaleReads)
	case ph.Replay:
		return replayPhase
	case ph.Seed != 0:
		return fmt.Sprintf("random schedules of Seed %d (Depth %d, Versions %d, StaleReads %d)", ph.Seed, ph.Depth, ph.Versions, ph.StaleReads)
	case ph.Fixed:
		return fmt.Sprintf("fixed bounds (Depth %d, Versions %d, StaleReads %d)", ph.Depth, ph.Versions, ph.StaleReads)
	}
	return fmt.Sprintf("level %d (Depth %d, Versions %d, StaleReads %d)", ph.Level, ph.Depth, ph.Versions, ph.StaleReads)
}

// Share is the number of schedules shard index of count runs of a search
// of schedules in all (Options.Schedules; 0: a Budget, and 0).
func Share(schedules, index, count int) int {
	if schedules > 0 && count > 1 {
		return (schedules - index + count - 1) / count
	}
	return schedules
}

// A Summary is what a search found, for its summary line: its own
// counts, the invariants of the violations it reports (a replay's: its
// one), the bounds it ran at, and whether it exhausted its space;
// NotExplored, what it ran but did not explore ("not explored: ..."),
// where its verdict is Unknown.
type Summary struct {
	Counts
	Violations  []string
	Bounds      string
	Exhausted   bool
	NotExplored []string
}

// Done stops the lines and writes the summary line of s (nil: the
// search failed before it ran) and err: what it found unless it failed
// with no violation, then the error.
func (p *Lines) Done(s *Summary, err error) {
	var counts *Counts
	var b strings.Builder
	if s != nil {
		counts = &s.Counts
	}
	if s != nil && (err == nil || len(s.Violations) > 0) {
		if len(s.Violations) > 0 {
			fmt.Fprintf(&b, ", %s (%s)", plural(len(s.Violations), "violation"), strings.Join(s.Violations, ", "))
		} else if len(s.NotExplored) == 0 {
			b.WriteString(", no violation")
		} else {
			b.WriteString(", no violation where explored")
		}
		fmt.Fprintf(&b, ", at %s", s.Bounds)
		if s.Exhausted {
			b.WriteString(", exhausted")
		}
		if len(s.NotExplored) > 0 {
			fmt.Fprintf(&b, "; Unknown: %s", strings.Join(s.NotExplored, "; "))
		}
	}
	if err != nil {
		fmt.Fprintf(&b, ", error: %v", err)
	}
	p.Finish(counts, b.String())
}
