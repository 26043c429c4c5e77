package explore

import (
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

// A fresh schedule with the faults of the one it judges is a schedule to
// compare with only where its fresh reads made each fault where the
// script has it: each step's crash the same (after the same write, of
// the same kind, as many writes left in flight), and a write delivered
// at each delivery. Otherwise the lost write's verdict is Unknown
// (internal/judge/fresh.go), and it is not reported.
func TestMadeFaults(t *testing.T) {
	rec := item{Rec: 0, Action: -1}
	deliver := item{Rec: 0, Action: -1, Deliver: true}
	inFlight := crashPoint{At: 1, Kind: schedule.CrashInFlight, InFlight: 2}
	script := []scriptStep{{It: rec, Crash: inFlight}, {It: rec}, {It: deliver}, {It: deliver}}
	for _, tc := range []struct {
		name      string
		chosen    []scriptStep
		delivered int
		want      bool
	}{
		{"every fault made", []scriptStep{{It: rec, Crash: inFlight}, {It: rec}, {It: deliver}, {It: deliver}, {It: rec}}, 2, true},
		{"no crash: the step wrote less", []scriptStep{{It: rec}, {It: rec}, {It: deliver}, {It: deliver}}, 0, false},
		{"a crash after another write", []scriptStep{{It: rec, Crash: crashPoint{At: 2, Kind: schedule.CrashInFlight, InFlight: 2}}, {It: rec}, {It: deliver}, {It: deliver}}, 2, false},
		{"one write left in flight of two", []scriptStep{{It: rec, Crash: crashPoint{At: 1, Kind: schedule.CrashInFlight, InFlight: 1}}, {It: rec}, {It: deliver}, {It: deliver}}, 1, false},
		{"a delivery with nothing in flight", []scriptStep{{It: rec, Crash: inFlight}, {It: rec}, {It: deliver}, {It: deliver}}, 1, false},
		{"cut short", []scriptStep{{It: rec, Crash: inFlight}}, 0, false},
	} {
		if got := judge.MadeFaults(tc.chosen, tc.delivered, script); got != tc.want {
			t.Errorf("%s: MadeFaults = %t, want %t", tc.name, got, tc.want)
		}
	}
}
