package demo_test

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/statuspatch/statuspatch/testenv"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/demo"
)

// The demo's load at a smaller size, two managers reconciling every object:
// the patcher variant loses nothing, completes everything, and a no-op
// reconcile sends no request; the blind MergeFrom variant writes on every
// no-op reconcile.
func TestDemoLoad(t *testing.T) {
	s := runtime.NewScheme()
	if err := demov1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithCRDDirectory("../../config/crd/bases"), testenv.WithScheme(s))
	cfg := demo.Config{Rollouts: 20, Steps: 3, Managers: 2, Workers: 4, Timeout: 30 * time.Second}

	p, err := demo.Run(context.Background(), env, cfg, demo.Patcher)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("patcher: %+v", p)
	if p.Lost() != 0 || p.Completed != cfg.Rollouts || p.PlansBuilt != cfg.Rollouts {
		t.Fatalf("patcher: %d lost, %d plans written, %d of %d completed", p.Lost(), p.PlansBuilt, p.Completed, cfg.Rollouts)
	}
	// Every conflict is attributed, and none has an avoidable cause: a
	// manager's patchers never conflict with that manager's own writes.
	var attributed int64
	for _, n := range p.Causes {
		attributed += n
	}
	if attributed != p.Conflicts || p.Causes[demo.Unknown] != 0 {
		t.Fatalf("patcher: %d conflicts, %d attributed (%v)", p.Conflicts, attributed, p.Causes)
	}
	if p.Causes[demo.OwnStaleRead] != 0 || p.Causes[demo.FleetSameManager] != 0 {
		t.Fatalf("patcher: %d conflicts with the manager's own writes, %d among its own Fleet writers; want none",
			p.Causes[demo.OwnStaleRead], p.Causes[demo.FleetSameManager])
	}
	if withOther := p.Causes[demo.OtherManager] + p.Causes[demo.FleetOtherManager]; p.SeenInCache < 0 || p.SeenInCache > withOther {
		t.Fatalf("patcher: %d conflicts counted as already in the loser's cache, of %d with the other manager", p.SeenInCache, withOther)
	}
	if p.NoopRequests != 0 || p.NoopWrites != 0 {
		t.Fatalf("patcher: a no-op reconcile sent %.2f requests, %.2f writes; want none", p.NoopRequests, p.NoopWrites)
	}

	b, err := demo.Run(context.Background(), env, cfg, demo.BlindMergeFrom)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("blind MergeFrom: %+v", b)
	if b.NoopWrites != 1 {
		t.Fatalf("blind MergeFrom: %.2f status writes per no-op reconcile, want 1 (the unconditional patch)", b.NoopWrites)
	}
}
