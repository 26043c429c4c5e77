package judge

import "testing"

// A delete of an own creation after a crash is taken back when the fresh
// schedule deletes the same object no later: at the same chosen step or
// an earlier one, or, in both, in the drain, whose steps a crash shifts
// (Katib's Trial Job, deleted in the drain at step 25 after the crash and
// at step 26 without it: examples/realops
// TestKatibExperimentFalseAlarmOwnDelete). A delete the fresh schedule
// makes at a later chosen step, or only in its drain, stands.
func TestOwnDeleteInBothDrains(t *testing.T) {
	for _, tc := range []struct {
		fresh, suspect deleteAt
		noLater        bool
	}{
		{deleteAt{26, true}, deleteAt{25, true}, true},
		{deleteAt{25, true}, deleteAt{26, true}, true},
		{deleteAt{3, false}, deleteAt{5, false}, true},
		{deleteAt{5, false}, deleteAt{5, false}, true},
		{deleteAt{4, false}, deleteAt{25, true}, true},
		{deleteAt{6, false}, deleteAt{5, false}, false},
		{deleteAt{26, true}, deleteAt{5, false}, false},
	} {
		if got := tc.fresh.noLater(tc.suspect); got != tc.noLater {
			t.Errorf("fresh delete at %+v, suspect at %+v: no later %t, want %t", tc.fresh, tc.suspect, got, tc.noLater)
		}
	}
}
