package realops3

import (
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// machineSetCrashSeed: the first reconcile creates one Machine and
// crashes (a restart); the restarted process creates the second and
// writes the replicas it listed before that create; the next reconcile
// reads the MachineSet before that status write and writes the true
// count over it.
const machineSetCrashSeed = "machineset_controller:openshift-machine-api/ms@0,0,0#1 machineset_controller:openshift-machine-api/ms@0,0,0,0 machineset_controller:openshift-machine-api/ms@1,0"

// machineSetStaleScaleSeed: the same crash; the user scales to 3; the
// restarted process reads the MachineSet before the scale-up (replicas
// 2), creates one Machine and writes the count it listed before (1);
// the next reconcile, reading the same stale MachineSet, writes the
// true count (2) over it (TestExploreMachineSet's report 2 after the
// fix of the crash: 2026-11-28, found after 58 schedules).
const machineSetStaleScaleSeed = "machineset_controller:openshift-machine-api/ms@0,0,0#1 !scale-to-3 machineset_controller:openshift-machine-api/ms@1,0,0,0 machineset_controller:openshift-machine-api/ms@2,0"

// TestMachineSetReplicasAfterACrashReplay replays stop 83's false alarm
// of TestExploreMachineSet (report 3): status.replicas, a count of the
// Machines recomputed from the list each reconcile, reported lost when
// a reconcile that read the MachineSet stale wrote the true count. The
// judgement replayed the schedule without the crash, whose steps no
// longer matched; it now keeps the crash (testenv/explore's
// TestLostWriteJudgedWithTheSameCrash) and reports nothing here. Nor
// when an earlier step's stale read (of the spec before the scale-up)
// changed what the judged step counted: the judgement keeps every fault
// but the judged step's own stale reads.
func TestMachineSetReplicasAfterACrashReplay(t *testing.T) {
	env, gate := startMachineSet(t)
	for _, seed := range []string{machineSetCrashSeed, machineSetStaleScaleSeed} {
		res, err := explore.Run(t.Context(), machineSetScenario(gate), explore.Options{Backend: explore.Server(env), Replay: seed, Versions: 8})
		if err != nil {
			t.Fatal(err)
		}
		if v := res.Violation; v != nil {
			t.Logf("rank %d (%s):\n%s", v.Rank, v.RankReason, v)
			if v.Broke(explore.InvariantLostWrite) {
				t.Errorf("%s: the true count of Machines reported lost", seed)
			}
		}
	}
}
