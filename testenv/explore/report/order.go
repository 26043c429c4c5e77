package report

import (
	"cmp"
	"strings"
)

// The one order of violations, most severe first: the explorer's results
// (explore.Result.Violations) and every report, a shard's, the whole
// search's and a merge of shards (Sort), are ordered by Place.Compare, so
// that a sharded search's merged report leads with the violation the
// serial search's leads with.

// Severity is what orders violations of different severities: Rank
// (1: a value goes backwards ... 5: a lost write of time-like fields or
// order only), then Faulted (of equal ranks, the violation whose
// schedule needs no fault the explorer injects, no crash, restart or
// leader change, comes first: it happens in normal operation), then Own,
// the rank of the violation's own invariant (Invariant, Message), which
// its Also may have raised to Rank.
type Severity struct {
	Rank    int
	Faulted bool
	Own     int
}

// Compare orders s before o (negative) if s is the more severe.
func (s Severity) Compare(o Severity) int {
	return cmp.Or(cmp.Compare(s.Rank, o.Rank), cmpFaulted(s.Faulted, o.Faulted), cmp.Compare(s.Own, o.Own))
}

// cmpFaulted orders a schedule that needs no fault before one that does.
func cmpFaulted(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// Place is where a violation goes in the order: its Severity, then the
// schedule that first found it (Violation.Schedule: the order the search
// found violations in), then its invariant and replay seed, so that the
// order depends on nothing but the violations.
type Place struct {
	Severity
	Schedule  int
	Invariant string
	Replay    string
}

// Compare orders p before q (negative) if p's violation comes first.
func (p Place) Compare(q Place) int {
	return cmp.Or(p.Severity.Compare(q.Severity), cmp.Compare(p.Schedule, q.Schedule),
		strings.Compare(p.Invariant, q.Invariant), strings.Compare(p.Replay, q.Replay))
}

// Place is v's place in the order.
func (v Violation) Place() Place {
	return Place{Severity: Severity{Rank: v.Rank, Faulted: v.Faulted, Own: v.Own}, Schedule: v.Schedule, Invariant: v.Invariant, Replay: v.Replay}
}
