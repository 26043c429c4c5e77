package realops5

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// oldLeaderSeed is report 1 of the search beyond the defaults
// (examples/realops/README.md, trust-manager): the old leader's Synced
// condition, decided from the Bundle before the retarget and in flight,
// lands after it; the new leader, whose cache lags by that write, applies
// the retargeted Bundle's condition over it.
const oldLeaderSeed = "bundles:corp-cas@0,0,0#1Z !retarget ~bundles:corp-cas bundles:corp-cas@1,0,0"

// TestTrustManagerOldLeaderConditionReplay: the new leader's condition
// over the old leader's is a lost write by the invariant's letter, but
// the same schedule with the new leader's read fresh applies the same
// condition but for its lastTransitionTime (kept from the old leader's
// when the status is unchanged, util.go's setBundleCondition, and the
// fresh schedule's clock is another): ranked last, as a loss of times
// only, not 2, "a decision lost"; taken back when the two times fall in
// the same second.
func TestTrustManagerOldLeaderConditionReplay(t *testing.T) {
	env := startTrust(t)
	res, err := explore.Run(t.Context(), trustScenario(t), explore.Options{Backend: explore.Server(env),
		Crashes: 1, LeaderChange: true, InFlightWrite: true, Replay: oldLeaderSeed})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if res.Diverged != "" {
		t.Fatalf("replay of %q diverged: %s", oldLeaderSeed, res.Diverged)
	}
	if v == nil {
		t.Logf("replay of %q: no violation (the two lastTransitionTimes in the same second)", oldLeaderSeed)
		return
	}
	if v.Invariant != explore.InvariantLostWrite || v.Rank != 5 ||
		!strings.Contains(v.Message, "Bundle corp-cas: status.conditions written by step 3 (v3) overwritten by step 4 (v4), which had seen only v2") ||
		!strings.Contains(v.Message, "a fresh read would have sent the same values but for time-like fields") {
		t.Fatalf("replay of %q: want the old leader's condition lost in its time only, rank 5, or nothing, got rank %d:\n%v", oldLeaderSeed, v.Rank, v)
	}
	t.Logf("rank %d (%s):\n%s", v.Rank, v.RankReason, v)
}
