package explore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// Setup's context (explore.ContextOf) is its process's: a goroutine the
// operator starts with it at setup, as Cluster API's MachineDeployment
// controller starts its cache's expiry loop with SetupWithManager's ctx,
// ends when the explorer ends that process. When Setup runs again (the
// next schedule, a crash restart, a leader change), the context of the
// one before is done already, and when Run returns none is left. Before,
// a scenario could only pass the test's context, and each schedule and
// restart left one more goroutine running until the test ended.
func TestSetupContextEndsWithItsProcess(t *testing.T) {
	var (
		mu      sync.Mutex
		last    context.Context
		setups  int
		overlap int
		running sync.WaitGroup
	)
	s := memoScenario()
	setup := s.Setup
	s.Setup = func(mgr ctrl.Manager) error {
		ctx := explore.ContextOf(mgr)
		mu.Lock()
		setups++
		if last != nil && last.Err() == nil {
			overlap++
		}
		last = ctx
		mu.Unlock()
		running.Add(1)
		go func() { // the operator's loop, until its process ends
			defer running.Done()
			<-ctx.Done()
		}()
		return setup(mgr)
	}
	o := serverOptions(t)
	o.Crashes, o.LeaderChange = 1, true
	res, err := explore.Run(t.Context(), s, o)
	if err != nil || res.Violation != nil {
		t.Fatalf("explore: %v, %v", err, res.Violation)
	}
	ended := make(chan struct{})
	go func() { running.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(time.Minute):
		t.Fatal("Run returned with a process's context not done: its goroutine still runs")
	}
	if setups < 3 || overlap != 0 {
		t.Fatalf("Setup ran %d times (want several: schedules and restarts), %d of them with the previous process's context not done (want 0)", setups, overlap)
	}
	if ctx := explore.ContextOf(nil); ctx != context.Background() {
		t.Fatalf("ContextOf a manager the explorer did not make: %v, want context.Background()", ctx)
	}
}
