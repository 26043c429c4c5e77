package explore_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// A reconciler that keeps mgr.GetCache() and reads an informer from it in
// a reconcile, as Cluster API's consistency store does (util/controller,
// on by default: it waits until the informer's store has synced past the
// resourceVersion of what the controller wrote) meets what the explorer's
// manager does not have. Run fails naming the method; before, the
// reconcile dereferenced the manager's nil cache and the search reported
// "no panic", rank 2, as the operator's bug (examples/realops6, Cluster
// API's MachineDeployment controller, at its first schedule).
func TestManagerCacheInAReconcileIsAnErrorOfRun(t *testing.T) {
	s := explore.Scenario{
		Setup: func(mgr ctrl.Manager) error {
			informers := mgr.GetCache()
			r := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
				_, err := informers.GetInformer(ctx, &testv1.Widget{}, cache.BlockUntilSynced(false))
				return reconcile.Result{}, err
			})
			return ctrl.NewControllerManagedBy(mgr).Named("consistency").For(&testv1.Widget{}).Complete(r)
		},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
	res, err := explore.Run(t.Context(), s, serverOptions(t))
	if err == nil || !strings.Contains(err.Error(), "called mgr.GetCache().GetInformer, which the explorer's manager does not have") {
		var v *explore.Violation
		if res != nil {
			v = res.Violation
		}
		t.Fatalf("want an error of Run naming mgr.GetCache().GetInformer, got %v, violation:\n%v", err, v)
	}
	t.Log(err)
}
