// Package advschemefield: kubebuilder's reconciler, client.Client
// embedded beside a Scheme field (issue 80, helper T's gap 1). The field
// hides the client's Scheme method, so the reconciler is no
// client.Client; its calls are still the embedded client's. At ae27bc6
// the final merge patch (r.Status().Patch) was not seen as a write of
// the object, so the status read deciding it was taken as the deferred
// write's decision: all three writes kept. Without the field the same
// function moved whole; with it, it moves the same way (r.Client).
package advschemefield

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var tokens atomic.Int64

// R as kubebuilder scaffolds it: the client and the Scheme.
type R struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr == nil {
			return
		}
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Degraded", Status: "True", Reason: retErr.Error()})
		_ = r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if len(w.Status.Conditions) == 0 {
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Progressing", Status: "Unknown", Reason: "Reconciling"})
		if err := r.Status().Update(ctx, &w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
			return ctrl.Result{}, err
		}
	}
	base := w.DeepCopy()
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	if err := r.Status().Patch(ctx, &w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
