package judge

import (
	"reflect"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

// The fresh schedules a suspect is judged against: for a delete of an
// own creation or an absent observedGeneration, the chosen steps with
// every read fresh, no crash and no delivery of a write in flight; for a
// lost write, the chosen steps up to the one that wrote it, each with its
// faults, that one's reads fresh but its crash kept. A delivery does not
// count in a step's place (ChosenPos), and neither script reaches into
// the drain.
func TestFreshScripts(t *testing.T) {
	a := schedule.Item{Rec: 0, Action: -1}
	b := schedule.Item{Rec: 1, Action: -1}
	deliver := schedule.Item{Rec: 0, Action: -1, Deliver: true}
	crash := schedule.Crash{At: 1, Kind: schedule.CrashInFlight}
	chosen := []schedule.Chosen{
		{It: a, Lags: []int{1}, Crash: crash},
		{It: b, Lags: []int{2}},
		{It: deliver},
		{It: a, Lags: []int{1, 0}, Crash: schedule.Crash{At: 2, Kind: schedule.CrashRestart}},
		{It: b, Lags: []int{}}, // the drain's
	}
	drain := func(i int) bool { return i == 4 }
	fresh := func(it schedule.Item) schedule.Chosen { return schedule.Chosen{It: it, Lags: []int{}} }

	if got, want := FreshScript(chosen, drain), []schedule.Chosen{fresh(a), fresh(b), fresh(a)}; !reflect.DeepEqual(got, want) {
		t.Errorf("FreshScript:\n got %+v\nwant %+v", got, want)
	}
	for _, tc := range []struct {
		pos  int
		want []schedule.Chosen
	}{
		{0, []schedule.Chosen{{It: a, Lags: []int{}, Crash: crash}}},
		{1, []schedule.Chosen{chosen[0], fresh(b)}},
		{2, []schedule.Chosen{chosen[0], chosen[1], chosen[2], {It: a, Lags: []int{}, Crash: chosen[3].Crash}}},
	} {
		if got := StepFreshScript(chosen, drain, tc.pos); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("StepFreshScript at %d:\n got %+v\nwant %+v", tc.pos, got, tc.want)
		}
	}
	if got := ChosenPos(chosen[:3]); got != 2 {
		t.Errorf("ChosenPos after a delivery: %d, want 2 (the delivery does not count)", got)
	}
}
