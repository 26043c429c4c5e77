// Package migratecondref: a method of the kind that returns a reference
// into its status (ConditionsRef: &w.Status.Conditions), handed to
// meta.SetStatusCondition, changes only the status: the write moves.
// One that returns a reference into the spec (SizeRef) keeps it.
package migratecondref

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct{ client.Client }

func (r *R) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	meta.SetStatusCondition(w.ConditionsRef(), metav1.Condition{Type: "Ready", Status: "True", Reason: "Seen", ObservedGeneration: w.Generation})
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *R) Resize(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	*w.SizeRef() = 3
	meta.SetStatusCondition(w.ConditionsRef(), metav1.Condition{Type: "Sized", Status: "True", Reason: "Set"})
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w\.SizeRef is called at line 32, where the address of w\.Spec\.Size is taken at types\.go:\d+`
}
