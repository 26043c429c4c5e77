package explore

import (
	"context"
	"slices"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/search"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/violation"
	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

// A search keeps every distinct violation it finds within its Budget
// (Options.StopAtFirst: only the first) and reports the most severe
// first (issue 82). Distinct: another invariant, object, set of fields,
// or write at fault (violationKey). Severity is a column of the
// invariants' table (judge.SeverityOf says the order). Of equal ranks,
// one whose schedule needs no fault (no crash, restart or leader change:
// its Seed has no "#") comes first, as it happens in normal operation:
// KubeRay's second head Pod, and the error loop it causes, before the
// worker Pod a new leader deletes after a stale read of its RayCluster
// (examples/realops's TestRayHeadPodDeepening). Of equal ranks still,
// one whose own violation (Invariant, Message) has the rank comes before
// one that has it from a later violation of its schedule (Also): the
// leak karpenter's NodeClaim controllers make comes before a lost write
// that ended with its NodeClaim in a schedule that also leaked
// (examples/realops4). Equal still, the order the search found them in.

// severity is a rank and its reason, and the rank of the violation's own
// invariant, which orders equal ranks (violation.Severity).
type severity = violation.Severity

// severityOf is v's rank and reason: the worst of what its schedule
// broke (violation.SeverityOf), and whether that schedule needs a fault.
func severityOf(v *Violation) severity {
	s := violation.SeverityOf(v.Invariant, v.about, v.Also, v.alsoAbout)
	s.Faulted = v.faulted
	return s
}

// ranked sets each violation's Rank and orders vs most severe first, in
// the order of every report (report.Place.Compare: a sharded search's
// merged report orders its violations as the serial search does): of
// equal severities, the order found (Schedules).
func ranked(vs []*Violation) []*Violation {
	for _, v := range vs {
		s := severityOf(v)
		v.Rank, v.RankReason = s.Rank, s.Reason
	}
	slices.SortStableFunc(vs, func(a, b *Violation) int { return placeOf(a).Compare(placeOf(b)) })
	return vs
}

// placeOf is v's place in a report's order (report.Violation.Place).
func placeOf(v *Violation) report.Place {
	return report.Place{Severity: severityOf(v).Order(), Schedule: reportSchedule(v), Invariant: v.Invariant, Replay: v.Seed}
}

// reportSchedule is the schedule a report says first found v: the
// schedules before it.
func reportSchedule(v *Violation) int { return max(v.Schedules-1, 0) }

// violationKey is what makes a violation distinct in a report: its
// invariant, the object and fields it is about, and the line of the
// write at fault (violation.Key). Not its rank: one defect found by two
// schedules, one of which also set observedGeneration back, is one
// report, at the more severe rank (moreSevere).
func violationKey(v *Violation) string { return violation.Key(v.Invariant, v.about, v.Cause) }

// foundKey is what makes a schedule's violation worth minimising during
// the search: violationKey and its rank, so that the first schedule of
// a defect at rank 2 does not hide a later one of it at rank 1 (the
// report keeps one of the two: moreSevere).
func foundKey(v *Violation) string {
	return foundKeyAt(v, severityOf(v).Rank)
}

// foundKeyAt is v's foundKey at rank.
func foundKeyAt(v *Violation, rank int) string {
	return violationKey(v) + "\x00" + string(rune('0'+rank))
}

// moreSevere adds v to vs, ranked or not: where vs holds a violation of
// the same violationKey, v replaces it if it ranks more severe
// (violation.Severity.Compare; and is dropped if not).
func moreSevere(vs []*Violation, v *Violation) []*Violation {
	k := violationKey(v)
	i := slices.IndexFunc(vs, func(w *Violation) bool { return violationKey(w) == k })
	switch {
	case i < 0:
		return append(vs, v)
	case severityOf(v).Compare(severityOf(vs[i])) < 0:
		vs[i] = v
	}
	return vs
}

// minimiseAll minimises each of fs, the schedules a search found
// failing, in order, and keeps each distinct violation once (two
// schedules may minimise to one), at its most severe, most severe first.
// A found schedule's Index counts the schedules before it.
func (ex *explorer) minimiseAll(ctx context.Context, fs []search.Found[*Violation]) ([]*Violation, error) {
	var out []*Violation
	for _, f := range fs {
		v, err := ex.minimiseFrom(ctx, f.Verdict.Of)
		if err != nil {
			return nil, err
		}
		v.FoundAfter, v.Schedules = f.At, f.Index+1
		if !ex.known[foundKey(v)] {
			out = moreSevere(out, v)
		}
	}
	return ranked(out), nil
}

// merge adds the violations of a later search to vs, each distinct one
// once, at its most severe, most severe first.
func merge(vs, later []*Violation) []*Violation {
	out := slices.Clone(vs)
	for _, v := range later {
		out = moreSevere(out, v)
	}
	return ranked(out)
}
