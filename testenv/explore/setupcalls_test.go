package explore_test

import (
	"testing"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// Setup runs once when Run starts (to learn the controllers), then at the
// start of every schedule and again after every crash, restart or leader
// change: state reset in Setup is reset mid-schedule. The schedule's
// Source (explore.SourceOf(mgr.GetClient())) is new for each schedule and
// kept across its crashes: what tells one schedule from the next.
func TestSetupRunsAgainAfterEachCrash(t *testing.T) {
	for _, seed := range []string{"widget:ns/w@0,0#1", "widget:ns/w@0,0#1L"} {
		var sources []*explore.Source
		s := setupScenario(gizmoReconciler{adopt: true})
		setup := s.Setup
		s.Setup = func(mgr ctrl.Manager) error {
			sources = append(sources, explore.SourceOf(mgr.GetClient()))
			return setup(mgr)
		}
		o := serverOptions(t)
		o.Crashes, o.LeaderChange, o.Replay = 1, true, seed
		res, err := explore.Run(t.Context(), s, o)
		if err != nil || res.Violation != nil {
			t.Fatalf("%s: %v, %v", seed, err, res.Violation)
		}
		// A replay runs its schedule twice: 1 + 2 × (start, crash).
		if len(sources) != 5 {
			t.Fatalf("%s: Setup ran %d times, want 5: once at Run, and at the start and the crash of each of 2 schedules", seed, len(sources))
		}
		if sources[1] != sources[2] || sources[3] != sources[4] || sources[1] == sources[3] {
			t.Fatalf("%s: want one Source per schedule, kept across its crash", seed)
		}
	}
}
