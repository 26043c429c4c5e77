package demo

import (
	"strings"
	"testing"
)

func TestResourceVersionOf(t *testing.T) {
	for body, want := range map[string]uint64{
		`{"metadata":{"resourceVersion":"12"},"status":{"phase":"x"}}`:                    12,
		`[{"op":"replace","path":"/metadata/resourceVersion","value":"34"},{"op":"add"}]`: 34,
		`{"apiVersion":"v1","kind":"X","metadata":{"name":"a","resourceVersion":"56"}}`:   56,
		`{"status":{"phase":"x"}}`: 0,
		`not json`:                 0,
	} {
		got, ok := resourceVersionOf([]byte(body))
		if got != want || ok != (want != 0) {
			t.Errorf("resourceVersionOf(%s) = %d, %v, want %d", body, got, ok, want)
		}
	}
}

// Each conflict goes to the first successful write after its base, by
// object kind and by whose write it was.
func TestCauses(t *testing.T) {
	l := newWriteLog()
	ro, fl := "/apis/demo/v1/namespaces/n/rollouts/a", "/apis/demo/v1/fleets/f"
	l.writes[ro] = []stamp{{10, 0}, {12, 1}, {14, 0}}
	l.writes[fl] = []stamp{{20, 0}, {22, 1}}
	l.conflicts = []conflictRecord{
		{ro, 9, 0},  // first after 9 is 10, manager 0's own
		{ro, 11, 0}, // 12, the other manager's
		{ro, 13, 1}, // 14, the other manager's
		{fl, 19, 0}, // 20: same manager
		{fl, 21, 0}, // 22: other manager
		{fl, 30, 1}, // none after
	}
	got := l.causes()
	want := [numCauses]int64{OwnStaleRead: 1, OtherManager: 2, FleetSameManager: 1, FleetOtherManager: 1, Unknown: 1}
	if got != want {
		t.Fatalf("causes = %v, want %v", got, want)
	}
	if s := OtherManager.String(); !strings.Contains(s, "other manager") {
		t.Fatalf("OtherManager.String() = %q", s)
	}
}
