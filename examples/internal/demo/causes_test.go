package demo

import (
	"strings"
	"testing"
	"time"
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
// object kind and by whose write it was; a conflict with another manager's
// write counts as seen in the cache only when the loser's cache had that
// version, or a newer one, before the losing write was sent.
func TestCauses(t *testing.T) {
	l := newWriteLog()
	ro, fl := "/apis/demo/v1/namespaces/n/rollouts/a", "/apis/demo/v1/fleets/f"
	t0 := time.Now().Add(-time.Hour) // every write below was sent an hour ago
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	l.writes[ro] = []stamp{{10, 0}, {12, 1}, {14, 0}}
	l.writes[fl] = []stamp{{20, 0}, {22, 1}}
	l.arrivals[arrivalKey{0, ro}] = []arrival{{12, at(5)}}
	l.arrivals[arrivalKey{1, ro}] = []arrival{{15, at(5)}}
	l.arrivals[arrivalKey{0, fl}] = []arrival{{21, at(1)}}
	l.conflicts = []conflictRecord{
		{ro, 9, 0, at(9)},  // first after 9 is 10, manager 0's own: never counted as seen
		{ro, 11, 0, at(9)}, // 12, the other manager's, in manager 0's cache at 5: seen
		{ro, 13, 1, at(4)}, // 14, the other manager's; manager 1's cache had 15 only at 5: not seen
		{fl, 19, 0, at(9)}, // 20: same manager
		{fl, 21, 0, at(9)}, // 22: other manager; manager 0's cache had 21 only: not seen
		{fl, 30, 1, at(9)}, // none after
	}
	got, inCache := l.causes()
	want := [numCauses]int64{OwnStaleRead: 1, OtherManager: 2, FleetSameManager: 1, FleetOtherManager: 1, Unknown: 1}
	if got != want || inCache != 1 {
		t.Fatalf("causes = %v, %d seen in the cache; want %v, 1", got, inCache, want)
	}
	if s := OtherManager.String(); !strings.Contains(s, "other manager") {
		t.Fatalf("OtherManager.String() = %q", s)
	}
	l.arrived(1, ro, "14")
	if _, inCache := l.causes(); inCache != 1 {
		t.Fatalf("an arrival after the conflicting write was sent counted as seen")
	}
	l.arrivals[arrivalKey{1, ro}] = append(l.arrivals[arrivalKey{1, ro}], arrival{14, at(3)})
	if _, inCache := l.causes(); inCache != 2 {
		t.Fatalf("an arrival before the conflicting write was sent was not counted")
	}
}
