package explore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// phaseSteps reconciles a Widget one status write at a time, "" to "one"
// to "two", and records each phase it reads.
func phaseSteps(c client.Client, reads *[]string) reconcile.Reconciler {
	return reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		w := &testv1.Widget{}
		if err := c.Get(ctx, req.NamespacedName, w); err != nil {
			return reconcile.Result{}, client.IgnoreNotFound(err)
		}
		*reads = append(*reads, w.Status.Phase)
		next := map[string]string{"": "one", "one": "two"}[w.Status.Phase]
		if next == "" {
			return reconcile.Result{}, nil
		}
		base := w.DeepCopy()
		w.Status.Phase = next
		return reconcile.Result{}, c.Status().Patch(ctx, w, client.MergeFrom(base))
	})
}

// A standby manager that takes over starts the informers its controllers
// watch at the election, with a list: on one API server no older than
// what the old leader's informers were served, but on another, whose
// watch cache lags, older; a read older than the old leader's is allowed
// and marked as needing several API servers. An informer its Setup made
// for a field index has run all along on the standby's own watch, which
// may lag on one API server too: its old read is not marked. The old
// leader reads the Widget at "one" and crashes after writing "two"; the
// new leader reads 3 versions behind, the empty phase from before.
func TestStandbyReadOlderThanTheLeaderNeedsAnotherAPIServer(t *testing.T) {
	const mark = "older than the v2 the old leader's informers were served: this needs a control plane of several API servers"
	for _, indexed := range []bool{false, true} {
		var reads []string
		s := explore.Scenario{
			Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
			Setup: func(mgr ctrl.Manager) error {
				if indexed {
					if err := mgr.GetFieldIndexer().IndexField(context.Background(), &testv1.Widget{}, "phase", func(o client.Object) []string {
						return []string{o.(*testv1.Widget).Status.Phase}
					}); err != nil {
						return err
					}
				}
				return ctrl.NewControllerManagedBy(mgr).Named("phases").For(&testv1.Widget{}).Complete(phaseSteps(mgr.GetClient(), &reads))
			},
			// Never holds: the replay's schedule is reported whole.
			Invariant: func(context.Context, client.Reader) error { return errors.New("the schedule") },
		}
		o := serverOptions(t)
		o.Replay = "phases:ns/w@0 phases:ns/w@0#1L phases:ns/w@3"
		res, err := explore.Run(t.Context(), s, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(reads) < 3 || reads[0] != "" || reads[1] != "one" || reads[2] != "" {
			t.Fatalf("indexed %t: reads saw %q, want \"\", \"one\", then the new leader's \"\"", indexed, reads)
		}
		v := res.Violation
		if v == nil {
			t.Fatalf("indexed %t: want the replay reported", indexed)
		}
		if marked := strings.Count(v.String(), mark); marked != map[bool]int{false: 1, true: 0}[indexed] {
			t.Fatalf("indexed %t: %d reads marked %q, want %d:\n%s", indexed, marked, mark, map[bool]int{false: 1, true: 0}[indexed], v)
		}
	}
}
