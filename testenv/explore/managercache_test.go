package explore_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// A reconciler that keeps mgr.GetCache() and reads from an informer of it
// in a reconcile what the explorer does not model (the store's items, a
// method newer client-go versions add; its resourceVersion, what Cluster
// API's consistency store reads, it models: storesync_test.go) meets what
// the explorer's manager does not have. Run fails naming the method;
// before, the reconcile dereferenced the manager's nil cache (or the nil
// informer a newer method is promoted from) and the search reported "no
// panic", rank 2, as the operator's bug (examples/realops6, Cluster API's
// MachineDeployment controller, at its first schedule).
func TestManagerCacheInAReconcileIsAnErrorOfRun(t *testing.T) {
	for method, call := range map[string]func(toolscache.SharedIndexInformer){
		"GetInformer(...).GetStore().List":      func(inf toolscache.SharedIndexInformer) { inf.GetStore().List() },
		"GetInformer(...).SetWatchErrorHandler": func(inf toolscache.SharedIndexInformer) { _ = inf.SetWatchErrorHandler(nil) },
	} {
		s := explore.Scenario{
			Setup: func(mgr ctrl.Manager) error {
				informers := mgr.GetCache()
				r := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
					inf, err := informers.GetInformer(ctx, &testv1.Widget{}, cache.BlockUntilSynced(false))
					if err != nil {
						return reconcile.Result{}, err
					}
					call(inf.(toolscache.SharedIndexInformer))
					return reconcile.Result{}, nil
				})
				return ctrl.NewControllerManagedBy(mgr).Named("consistency").For(&testv1.Widget{}).Complete(r)
			},
			Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		}
		res, err := explore.Run(t.Context(), s, serverOptions(t))
		if err == nil || !strings.Contains(err.Error(), "called mgr.GetCache()."+method+", which the explorer's manager does not have") {
			var v *explore.Violation
			if res != nil {
				v = res.Violation
			}
			t.Fatalf("want an error of Run naming mgr.GetCache().%s, got %v, violation:\n%v", method, err, v)
		}
		t.Log(err)
	}
}
