package violation

import (
	"strings"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

// Severity is a rank and its reason (judge.Severity), Own, the rank of
// the violation's own invariant (Invariant, Message), and Faulted: its
// schedule needs a fault the explorer injects (a crash, a restart, a
// leader change). Faulted, then Own, order equal ranks.
type Severity struct {
	Rank    int
	Reason  string
	Own     int
	Faulted bool
}

// TimeOnly is the severity of a lost write of time-like fields only, or
// of an atomic list's order only (judge.TimeOnly).
var TimeOnly = Severity{judge.TimeOnly.Rank, judge.TimeOnly.Reason, judge.TimeOnly.Rank, false}

// SeverityOf is the rank and reason of the violation of invariant about
// about, with the later ones also, each about alsoAbout's entry: the
// worst of them (a lost write that also sets observedGeneration back
// ranks as going backwards).
func SeverityOf(invariant string, about Detail, also []string, alsoAbout []Detail) Severity {
	worst := severityOfOne(invariant, about)
	for i, a := range also {
		if i >= len(alsoAbout) {
			break
		}
		inv, _, _ := strings.Cut(a, ": ")
		if s := severityOfOne(inv, alsoAbout[i]); s.Rank < worst.Rank {
			worst = Severity{s.Rank, s.Reason + " (" + inv + ")", worst.Own, false}
		}
	}
	return worst
}

// severityOfOne is the rank and reason of one violation of invariant.
func severityOfOne(invariant string, d Detail) Severity {
	s := judge.SeverityOf(invariant, judge.Failure{TimeOnly: d.TimeOnly, OrderOnly: d.OrderOnly, Restored: d.Restored})
	return Severity{s.Rank, s.Reason, s.Rank, false}
}

// Compare orders two severities, the most severe first: by rank, then
// the one whose schedule needs no fault (it happens in normal
// operation), then by the rank of the violation's own invariant: the
// one order of explore's results and reports (report.Severity).
func (s Severity) Compare(o Severity) int { return s.Order().Compare(o.Order()) }

// Order is s as the reports order it.
func (s Severity) Order() report.Severity {
	return report.Severity{Rank: s.Rank, Faulted: s.Faulted, Own: s.Own}
}

// Key is what makes a violation distinct in a report: its invariant, the
// object and fields it is about, and the line of the write at fault
// (cause, if any). Not its rank: one defect found by two schedules, one
// of which also set observedGeneration back, is one report, at the more
// severe rank.
func Key(invariant string, about Detail, cause *outcome.Write) string {
	at := ""
	if cause != nil {
		at = cause.At
	}
	return strings.Join([]string{invariant, about.Object, strings.Join(about.Fields, ","), at}, "\x00")
}
