package judge

import "testing"

// Every row of the table ranks its violations (a row without a Severity
// would rank 0, above a value going backwards), and only a lost write of
// time-like fields ranks below an object stuck.
func TestEveryInvariantHasASeverity(t *testing.T) {
	for _, inv := range Builtins {
		if s := SeverityOf(inv.Name, Failure{}); s.Rank < 1 || s.Rank >= TimeOnly.Rank || s.Reason == "" {
			t.Errorf("%q: severity %+v, want a rank from 1 to %d and a reason", inv.Name, s, TimeOnly.Rank-1)
		}
	}
	if s := SeverityOf(NameLostWrite, Failure{TimeOnly: true}); s != TimeOnly {
		t.Errorf("a lost write of time-like fields only: %+v, want %+v", s, TimeOnly)
	}
	if s := SeverityOf(NameLostWrite, Failure{OrderOnly: true}); s != OrderOnly || s.Rank != TimeOnly.Rank {
		t.Errorf("a lost write of an atomic list's order only: %+v, want %+v, ranked with %+v", s, OrderOnly, TimeOnly)
	}
	if s := SeverityOf(NameObservedGeneration, Failure{TimeOnly: true}); s == TimeOnly {
		t.Errorf("time-like fields rank only a lost write last, not %q", NameObservedGeneration)
	}
}
