package explore_test

import (
	"context"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// hookReader reads Widget ns/hooked, which BeginSchedule makes, on every
// reconcile, through the API reader: the book meets it, unwritten.
type hookReader struct {
	api   client.Reader
	reads *atomic.Int64
}

func (r *hookReader) Reconcile(ctx context.Context, _ ctrl.Request) (ctrl.Result, error) {
	if err := r.api.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "hooked"}, &testv1.Widget{}); err != nil {
		return ctrl.Result{}, err
	}
	r.reads.Add(1)
	return ctrl.Result{}, nil
}

// An object Scenario.BeginSchedule makes is the schedule's, not there
// before the search, though it is older than schedule 1's Objects: the
// reset deletes it, so a hook that plain-Creates it runs in every
// schedule (no AlreadyExists from schedule 2 on).
func TestResetDeletesWhatBeginScheduleMade(t *testing.T) {
	env := server(t)
	var begins, reads atomic.Int64
	t.Cleanup(func() {
		_ = env.Client.Delete(context.Background(), &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "hooked"}})
	})
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "reader", For: &testv1.Widget{},
			New: func(_ client.Client, api client.Reader) reconcile.Reconciler {
				return &hookReader{api: api, reads: &reads}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		BeginSchedule: func(ctx context.Context) error {
			begins.Add(1)
			return env.Client.Create(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "hooked"}})
		},
	}
	res, err := explore.Run(t.Context(), s, serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Schedules < 2 || begins.Load() != int64(res.Schedules) || reads.Load() == 0 {
		t.Fatalf("want every schedule to begin, no violation; got %d schedules, %d begins, %d reads of the hook's object:\n%v",
			res.Schedules, begins.Load(), reads.Load(), res.Violation)
	}
}
