package explore

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/violation"
)

// Of equal ranks, a violation whose own invariant has the rank comes
// first: karpenter's leak before a lost write of conditions that ended
// with the NodeClaim in a schedule that also leaked, rank 2 from the
// leak in its Also (examples/realops4); the same lost write where its
// values never come back replaces it, ranked by itself.
func TestEqualRanksOwnRankFirst(t *testing.T) {
	ended := &judge.Restoration{Version: 9, Step: 14, Ended: true}
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
