package buggy

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
)

// FluxStyleReconciler marks a Rollout Ready for its generation and records
// observedGeneration. It skips a Rollout whose Ready condition already
// carries the current generation.
type FluxStyleReconciler struct {
	// Client reads from the cache and writes.
	Client client.Client
}

// Reconcile marks the Rollout observed and Ready.
func (r *FluxStyleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	ro := &demov1.Rollout{}
	if err := r.Client.Get(ctx, req.NamespacedName, ro); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if c := meta.FindStatusCondition(ro.Status.Conditions, "Ready"); c != nil && c.ObservedGeneration == ro.Generation {
		return ctrl.Result{}, nil // up to date
	}
	before := ro.DeepCopy()
	ro.Status.ObservedGeneration = ro.Generation
	meta.SetStatusCondition(&ro.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue,
		Reason: "Reconciled", ObservedGeneration: ro.Generation})
	return ctrl.Result{}, patchStatus(ctx, r.Client, before, ro)
}

// patchStatus is the helper: first the changed conditions, under the
// optimistic lock, retried once on a conflict after re-reading through the
// client (the cache); then every other status field, blind. Errors of both
// are returned together.
func patchStatus(ctx context.Context, c client.Client, before, after *demov1.Rollout) error {
	var errs []error
	changed := conditionChanges(before.Status.Conditions, after.Status.Conditions)
	cur := before.DeepCopy()
	for attempt := 0; len(changed) > 0 && attempt < 2; attempt++ {
		if attempt > 0 {
			if err := c.Get(ctx, client.ObjectKeyFromObject(cur), cur); err != nil {
				errs = append(errs, err)
				break
			}
		}
		base := cur.DeepCopy()
		for _, cond := range changed {
			meta.SetStatusCondition(&cur.Status.Conditions, cond)
		}
		//statuspatch:allow buggy on purpose: the explorer's proof
		err := c.Status().Patch(ctx, cur, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
		if err == nil || !apierrors.IsConflict(err) || attempt == 1 {
			if err != nil {
				errs = append(errs, err)
			}
			break
		}
	}
	// The other status fields, from the state this reconcile read.
	base := before.DeepCopy()
	rest := after.DeepCopy()
	rest.Status.Conditions = base.Status.Conditions
	//statuspatch:allow buggy on purpose: the explorer's proof
	if err := c.Status().Patch(ctx, rest, client.MergeFrom(base)); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func conditionChanges(before, after []metav1.Condition) []metav1.Condition {
	var out []metav1.Condition
	for _, a := range after {
		b := meta.FindStatusCondition(before, a.Type)
		if b == nil || b.Status != a.Status || b.Reason != a.Reason || b.ObservedGeneration != a.ObservedGeneration || b.Message != a.Message {
			out = append(out, a)
		}
	}
	return out
}
