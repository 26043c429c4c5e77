package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1alpha1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
)

// getRollout only reads the rollout.
func (r *RolloutReconciler) getRollout(ctx context.Context, key client.ObjectKey) (*v1alpha1.Rollout, error) {
	ro := &v1alpha1.Rollout{}
	if err := r.Get(ctx, key, ro); err != nil {
		return nil, err
	}
	return ro, nil
}

// markReady sets the Ready condition on a copy of a fresh read and hands
// it to a helper that only writes it (spark-operator's shape).
func (r *RolloutReconciler) markReady(ctx context.Context, key client.ObjectKey) error {
	old, err := r.getRollout(ctx, key)
	if err != nil {
		return err
	}
	ro := old.DeepCopy()
	meta.SetStatusCondition(&ro.Status.Conditions, metav1.Condition{
		Type: "Ready", Status: metav1.ConditionTrue, Reason: "Completed", Message: "ready " + ro.Spec.Version,
	})
	return r.writeStatus(ctx, ro)
}

// writeStatus only writes the rollout it is given.
func (r *RolloutReconciler) writeStatus(ctx context.Context, ro *v1alpha1.Rollout) error {
	if err := r.Status().Update(ctx, ro); err != nil {
		return fmt.Errorf("writing the status of rollout %s: %w", ro.Name, err)
	}
	return nil
}
