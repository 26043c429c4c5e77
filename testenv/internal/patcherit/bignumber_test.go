package patcherit_test

import (
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// The read-back that tells a stored write from another writer's compares
// numbers exactly. Another writer stores counters.n = 2^53 just before our
// merge patch of 2^53+1 reaches the server, which answers 409: as float64
// the two are equal, and a read-back comparing floats would take the other
// writer's value for ours, report success and lose our write.
func TestLandedCheckComparesBigIntegersExactly(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	const theirs, mine = int64(1) << 53, int64(1)<<53 + 1
	ft := &faultyTransport{plan: []plannedFault{{kind: faultForeign}}}
	ft.foreign = func() error {
		w := get(t, e.Client, key)
		base := w.DeepCopy()
		w.Status.Counters = map[string]int64{"n": theirs}
		return e.Client.Status().Patch(ctx, w, client.MergeFrom(base))
	}
	p, err := patcher.Fetch(ctx, faultyClient(t, e, ft), key, &v1.Widget{}, patcher.WithMetrics(nil))
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Counters = map[string]int64{"n": mine}
	err = p.Flush(ctx)
	got := get(t, e.Client, key).Status.Counters["n"]
	if got != theirs {
		t.Fatalf("server holds %d, want the other writer's %d (our write was refused with a 409)", got, theirs)
	}
	if !apierrors.IsConflict(err) {
		t.Fatalf("Flush = %v; want a Conflict: the server holds %d, not our %d", err, got, mine)
	}
}
