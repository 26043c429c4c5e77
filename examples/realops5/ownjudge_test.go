package realops5

import (
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// TestTrustManagerCleanupAfterARestartReplay: step 2 reads the Bundle
// from before the retarget and creates team-a's target; step 3 reads it
// one version behind (a version that differs only by step 2's own
// status apply), starts the cleanup and crashes; after the restart a
// reconcile from fresh reads deletes the target, as the retarget asks.
// Without the crash step 3 deletes it itself, after its stale read: the
// crash did not make the delete, and "no delete of own creation" takes
// it back (it reported it at rank 2: examples/realops/README.md,
// trust-manager).
func TestTrustManagerCleanupAfterARestartReplay(t *testing.T) {
	env := startTrust(t)
	const seed = "!retarget bundles:corp-cas@1,0,0 bundles:corp-cas@1,0,0#1"
	res, err := explore.Run(t.Context(), trustScenario(t), explore.Options{Backend: explore.Server(env),
		Crashes: 1, LeaderChange: true, InFlightWrite: true, Replay: seed})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Diverged != "" {
		t.Fatalf("replay of %q: want no violation, got %v (diverged %q)", seed, res.Violation, res.Diverged)
	}
}
