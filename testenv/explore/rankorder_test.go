package explore

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/steady"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/violation"
	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

// Of equal ranks, a violation whose own invariant has the rank comes
// first: karpenter's leak before a lost write of conditions that ended
// with the NodeClaim in a schedule that also leaked, rank 2 from the
// leak in its Also (examples/realops4); the same lost write where its
// values never come back replaces it, ranked by itself.
func TestEqualRanksOwnRankFirst(t *testing.T) {
	ended := &steady.Restoration{Version: 9, Step: 14, Ended: true}
	about := violation.Detail{Object: "NodeClaim default-a", Fields: []string{"status.conditions"}}
	lost := about
	lost.Restored = ended
	withLeak := &Violation{Invariant: InvariantLostWrite, Message: "status.conditions written by step 5 overwritten by step 10",
		about: lost, Also: []string{InvariantUser + ": leaked"}, alsoAbout: []violation.Detail{{}}}
	leak := &Violation{Invariant: InvariantUser, Message: "leaked"}
	got := ranked([]*Violation{withLeak, leak})
	if got[0] != leak || got[1] != withLeak || leak.Rank != 2 || withLeak.Rank != 2 ||
		!strings.Contains(withLeak.RankReason, "(user invariant)") {
		t.Errorf("want the leak first, both rank 2, the lost write's reason naming the leak; got %s (%d), %s (%d: %s)",
			got[0].Invariant, got[0].Rank, got[1].Invariant, got[1].Rank, got[1].RankReason)
	}
	persists := &Violation{Invariant: InvariantLostWrite, Message: withLeak.Message, about: about}
	if vs := moreSevere([]*Violation{withLeak}, persists); len(vs) != 1 || vs[0] != persists {
		t.Errorf("the same lost write, its values never back: want it in the place of the one that ended, got %v", vs)
	}
	if vs := moreSevere([]*Violation{persists}, withLeak); len(vs) != 1 || vs[0] != persists {
		t.Errorf("the same lost write, ended with its object: want the one whose values never came back kept, got %v", vs)
	}
}

// Of equal ranks, a violation whose schedule needs no fault comes first,
// whatever its own invariant's rank: KubeRay's head Pod bug, a stuck
// observedGeneration ranked 2 by the error loop in its Also, before the
// worker Pod a new leader deleted after a stale read of its RayCluster,
// rank 2 by itself but only after a leader change (examples/realops's
// TestRayHeadPodDeepening, whose search found the delete first).
func TestEqualRanksFaultFreeFirst(t *testing.T) {
	deleted := &Violation{Invariant: InvariantOwnDelete, Message: "Pod ray/hello-workers-worker-dglnn deleted by step 4", faulted: true}
	stuck := &Violation{Invariant: InvariantObservedGenerationStuck, Message: "RayCluster ray/hello stuck at 1",
		Also: []string{InvariantUser + ": 2 head pods"}, alsoAbout: []violation.Detail{{}}}
	got := ranked([]*Violation{deleted, stuck})
	if got[0] != stuck || deleted.Rank != 2 || stuck.Rank != 2 {
		t.Errorf("want the fault-free stuck observedGeneration first, both rank 2; got %s (%d), %s (%d)",
			got[0].Invariant, got[0].Rank, got[1].Invariant, got[1].Rank)
	}
	same := *deleted
	same.faulted = false
	if vs := moreSevere([]*Violation{deleted}, &same); len(vs) != 1 || vs[0] != &same {
		t.Errorf("the same delete found without a fault: want it in the place of the one that needed a leader change, got %v", vs)
	}
}

// The search's order is the reports' (report.Sort, which a merge of
// shards uses): the violations of a search, written to its report and
// sorted again from any order, keep the order the search ranked them in,
// the fault-free first of equal ranks, then the own invariant's rank,
// then the schedule that found each.
func TestRankedIsTheReportsOrder(t *testing.T) {
	vs := []*Violation{
		{Invariant: InvariantLostWrite, Message: "status.lastUpdateTime", about: violation.Detail{TimeOnly: true}, Seed: "e", Schedules: 2},
		{Invariant: InvariantOwnDelete, Message: "Pod ray/w deleted by step 4", faulted: true, Seed: "a#2L", Schedules: 4},
		{Invariant: InvariantLostWrite, Message: "status.x", about: violation.Detail{Restored: &steady.Restoration{Version: 9, Step: 14, Ended: true}},
			Also: []string{InvariantUser + ": leaked"}, alsoAbout: []violation.Detail{{}}, Seed: "c", Schedules: 6},
		{Invariant: InvariantUser, Message: "leaked", Seed: "d", Schedules: 10},
		{Invariant: InvariantUser, Message: "leaked again", Seed: "f", Schedules: 7},
	}
	got := ranked(slices.Clone(vs))
	path := filepath.Join(t.TempDir(), "report.json")
	if err := (Options{Report: path, Quiet: true}).writeReport(t.Context(), &Result{Violations: got}, nil); err != nil {
		t.Fatal(err)
	}
	rep, err := report.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	var searched, written []string
	for i, v := range got {
		searched = append(searched, v.Seed)
		written = append(written, rep.Violations[i].Replay)
	}
	slices.Reverse(rep.Violations)
	var sorted []string
	for _, v := range report.Sort(rep.Violations) {
		sorted = append(sorted, v.Replay)
	}
	if want := []string{"f", "d", "c", "a#2L", "e"}; !slices.Equal(searched, want) || !slices.Equal(written, want) || !slices.Equal(sorted, want) {
		t.Errorf("searched %q, written %q, sorted from the report %q; want %q", searched, written, sorted, want)
	}
}
