package explore

import "testing"

// A fresh schedule with the faults of the one it judges is a schedule to
// compare with only where its fresh reads made each fault where the
// script has it: each step's crash the same (after the same write, of
// the same kind, as many writes left in flight), and a write delivered
// at each delivery. Otherwise the lost write's verdict is Unknown
// (ownjudge.go), and it is not reported.
func TestMadeFaults(t *testing.T) {
	rec := item{rec: 0, action: -1}
	deliver := item{rec: 0, action: -1, deliver: true}
	inFlight := crashPoint{at: 1, kind: crashInFlight, inFlight: 2}
	script := []scriptStep{{it: rec, crash: inFlight}, {it: rec}, {it: deliver}, {it: deliver}}
	for _, tc := range []struct {
		name      string
		chosen    []scriptStep
		delivered int
		want      bool
	}{
		{"every fault made", []scriptStep{{it: rec, crash: inFlight}, {it: rec}, {it: deliver}, {it: deliver}, {it: rec}}, 2, true},
		{"no crash: the step wrote less", []scriptStep{{it: rec}, {it: rec}, {it: deliver}, {it: deliver}}, 0, false},
		{"a crash after another write", []scriptStep{{it: rec, crash: crashPoint{at: 2, kind: crashInFlight, inFlight: 2}}, {it: rec}, {it: deliver}, {it: deliver}}, 2, false},
		{"one write left in flight of two", []scriptStep{{it: rec, crash: crashPoint{at: 1, kind: crashInFlight, inFlight: 1}}, {it: rec}, {it: deliver}, {it: deliver}}, 1, false},
		{"a delivery with nothing in flight", []scriptStep{{it: rec, crash: inFlight}, {it: rec}, {it: deliver}, {it: deliver}}, 1, false},
		{"cut short", []scriptStep{{it: rec, crash: inFlight}}, 0, false},
	} {
		r := &run{}
		r.trace.chosen, r.held.delivered = tc.chosen, tc.delivered
		if got := madeFaults(r, script); got != tc.want {
			t.Errorf("%s: madeFaults = %t, want %t", tc.name, got, tc.want)
		}
	}
}
