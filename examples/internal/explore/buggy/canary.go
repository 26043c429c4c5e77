package buggy

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
)

// CanaryReconciler starts a Fleet with one canary Rollout: when the Fleet's
// status records no member yet, it creates a Rollout with a new name and
// records it, under the optimistic lock. It decides from the cache, which
// may not hold its own last write yet.
type CanaryReconciler struct {
	// Client reads from the cache and writes.
	Client client.Client
	// Namespace is where canaries are created.
	Namespace string
	// NewID names canaries (a real one would use generateName).
	NewID func() string
}

// Reconcile creates the canary unless the Fleet records one.
func (r *CanaryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	f := &demov1.Fleet{}
	if err := r.Client.Get(ctx, req.NamespacedName, f); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(f.Status.Members) > 0 {
		return ctrl.Result{}, nil
	}
	id := r.NewID()
	canary := &demov1.Rollout{
		ObjectMeta: metav1.ObjectMeta{Namespace: r.Namespace, Name: f.Name + "-canary-" + id},
		Spec:       demov1.RolloutSpec{Version: "canary", Steps: 1, Fleet: f.Name},
	}
	if err := r.Client.Create(ctx, canary); err != nil {
		return ctrl.Result{}, fmt.Errorf("creating canary for fleet %s: %w", f.Name, err)
	}
	base := f.DeepCopy()
	f.Status.Members = []demov1.FleetMember{{Rollout: client.ObjectKeyFromObject(canary).String(), PlanID: id}}
	//statuspatch:allow buggy on purpose: the explorer's proof
	err := r.Client.Status().Patch(ctx, f, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
	if apierrors.IsConflict(err) {
		return ctrl.Result{Requeue: true}, nil //nolint:staticcheck // deprecated, but real reconcilers still return it: the explorer must handle it
	}
	return ctrl.Result{}, err
}
