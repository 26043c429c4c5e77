package judge

import (
	"slices"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

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

// A delete after a stale read of its own step is taken back when the
// same schedule with that step's reads fresh (every other fault kept)
// deletes the same creation at that step too: trust-manager's cleanup of
// the target an earlier stale read created in a Namespace the user's
// retarget deselected, whose own read of the Bundle lagged only by the
// status its previous reconcile wrote. Not a delete of another creation
// of the name, nor one that step's fresh reads do not make, nor one made
// after a crash only (the fresh schedule without faults judges those).
func TestOwnDeleteJudgedByItsStepFresh(t *testing.T) {
	team := ownDelete{nth: 0}
	again := ownDelete{nth: 1}
	cs := &Creations{suspects: []suspectDelete{
		{ownDelete: team, at: deleteAt{pos: 3}, msg: "stale here", staleHere: true},
		{ownDelete: again, at: deleteAt{pos: 3}, msg: "another creation", staleHere: true},
		{ownDelete: team, at: deleteAt{pos: 5}, msg: "after a crash"},
		{ownDelete: team, at: deleteAt{pos: 4}, msg: "not made fresh", staleHere: true},
	}}
	if got, want := cs.StaleSteps(), []int{3, 4}; !slices.Equal(got, want) {
		t.Fatalf("StaleSteps = %v, want %v", got, want)
	}
	fresh := Deletes{team: deleteAt{pos: 3}}
	if got := cs.RetractedByStep(3, fresh); len(got) != 1 || got[0] != "stale here" {
		t.Errorf("RetractedByStep(3) = %q, want only the stale-here delete", got)
	}
	if got := cs.RetractedByStep(4, Deletes{}); len(got) != 0 {
		t.Errorf("RetractedByStep(4) without the delete fresh = %q, want none", got)
	}
}

// A delete whose only suspicion is a crash since its creation (its own
// step read fresh) is taken back when the same schedule with its stale
// reads kept and its crashes taken out deletes the same creation no
// later, and judged no more; one after a stale read of its own is left to
// the other judgements, as is one the schedule without the crash does not
// make (a process that forgot, with its memory, what it created).
func TestOwnDeleteJudgedWithoutItsCrash(t *testing.T) {
	team, forgot := ownDelete{nth: 0}, ownDelete{nth: 1}
	cs := &Creations{suspects: []suspectDelete{
		{ownDelete: team, at: deleteAt{pos: 2, drain: true}, msg: "cleanup after a restart"},
		{ownDelete: team, at: deleteAt{pos: 3}, msg: "stale here", staleHere: true, stale: true},
		{ownDelete: forgot, at: deleteAt{pos: 2, drain: true}, msg: "forgot"},
	}}
	if !cs.CrashOnly() {
		t.Fatal("CrashOnly = false, want true")
	}
	fresh := Deletes{team: deleteAt{pos: 3, drain: true}}
	if got := cs.RetractCrashOnly(fresh); !slices.Equal(got, []string{"cleanup after a restart"}) {
		t.Errorf("RetractCrashOnly = %q, want the cleanup only", got)
	}
	if len(cs.suspects) != 2 || cs.suspects[0].msg != "stale here" || cs.suspects[1].msg != "forgot" {
		t.Errorf("kept %+v, want the stale-here and the forgot deletes", cs.suspects)
	}
}

// The schedule without the crash may delete the same creation after a
// stale read of its own (trust-manager's cleanup, its read of the Bundle
// lagging by its own status apply, examples/realops5): that delete is a
// suspect there, yet it shows the crash did not make the delete judged,
// which is taken back (Deleted, not FreshDeletes, is what
// RetractCrashOnly is given).
func TestOwnDeleteJudgedWithoutItsCrashDeletedAfterAStaleRead(t *testing.T) {
	k := book.Key{GVK: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, NN: types.NamespacedName{Namespace: "team-a", Name: "corp-cas"}}
	b := book.New(nil, nil)
	acting := func(pos, crashes int, stale string, drain bool) *Acting {
		return &Acting{Step: pos, Pos: pos, Crashes: crashes, Drain: drain, Reconciler: "bundles", Object: "Bundle corp-cas",
			Request: func() string { return "the cleanup" }, Stale: func() string { return stale }, Note: func() string { return "" }}
	}
	created := func() *Creations { return &Creations{created: map[types.UID]creation{"u": {step: 2}}} }
	// Without the crash: step 3 deletes it after its stale read.
	noCrash := created()
	if _, failed := noCrash.CheckDelete(b, k, "u", 2, acting(3, 0, ", after a stale read of Bundle corp-cas", false)); !failed {
		t.Fatal("the delete after a stale read passed, want it suspect")
	}
	if len(noCrash.FreshDeletes()) != 0 || len(noCrash.Deleted()) != 1 {
		t.Fatalf("want the delete in Deleted only, got fresh %v, deleted %v", noCrash.FreshDeletes(), noCrash.Deleted())
	}
	// With it: the drain deletes it from fresh reads after the restart.
	crashed := created()
	if _, failed := crashed.CheckDelete(b, k, "u", 3, acting(4, 1, "", true)); !failed || !crashed.CrashOnly() {
		t.Fatal("the delete after a crash passed, want it suspect for the crash only")
	}
	if got := crashed.RetractCrashOnly(noCrash.Deleted()); len(got) != 1 || crashed.Suspects() != 0 {
		t.Errorf("RetractCrashOnly = %q, %d kept: want the cleanup taken back", got, crashed.Suspects())
	}
}
