// Package migratekb: kubebuilder's deploy-image scaffold (Memcached,
// Busybox in its testdata projects), six status writes of one object in
// one Reconcile, some after a re-read, with a finalizer added and saved,
// an owner reference and an event on the way. -fix moves all of them:
// one patcher per read, each write its Flush.
package migratekb

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const finalizer = "example.com/finalizer"

type WidgetReconciler struct {
	client.Client
	Scheme   *runtime.Scheme
	Recorder events.EventRecorder
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	widget := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, widget)
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}

	if len(widget.Status.Conditions) == 0 {
		meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
		if err = r.Status().Update(ctx, widget); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
			return ctrl.Result{}, err
		}
	}

	if !controllerutil.ContainsFinalizer(widget, finalizer) {
		controllerutil.AddFinalizer(widget, finalizer)
		if err = r.Update(ctx, widget); err != nil {
			return ctrl.Result{}, err
		}
	}

	if widget.Spec.Size < 0 {
		meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Degraded", Status: "Unknown", Reason: "Finalizing"})
		if err := r.Status().Update(ctx, widget); err != nil { // want `^handwritten status write to Widget`
			return ctrl.Result{}, err
		}
		r.finalize(widget)
		if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
			return ctrl.Result{}, err
		}
		meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Degraded", Status: "True", Reason: "Finalizing"})
		if err := r.Status().Update(ctx, widget); err != nil { // want `^handwritten status write to Widget`
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(widget, finalizer)
		if err := r.Update(ctx, widget); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, nil
	}

	if err := r.own(widget); err != nil {
		meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Available", Status: "False", Reason: "Reconciling"})
		if err := r.Status().Update(ctx, widget); err != nil { // want `^handwritten status write to Widget`
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, err
	}

	if widget.Spec.Size > 10 {
		if err := r.Get(ctx, client.ObjectKeyFromObject(widget), widget); err != nil {
			return ctrl.Result{}, err
		}
		meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Available", Status: "False", Reason: "Resizing"})
		if err := r.Status().Update(ctx, widget); err != nil { // want `^handwritten status write to Widget`
			return ctrl.Result{}, err
		}
		return ctrl.Result{Requeue: true}, nil
	}

	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Available", Status: "True", Reason: "Reconciling"})
	if err := r.Status().Update(ctx, widget); err != nil { // want `^handwritten status write to Widget`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

func (r *WidgetReconciler) finalize(w *v1.Widget) { // want finalize:`^statusOnly\[0\]$`
	r.Recorder.Eventf(w, nil, "Warning", "Deleting", "DeleteCR", "Custom Resource %s is being deleted", w.Name)
}

func (r *WidgetReconciler) own(w *v1.Widget) error { // want own:`^statusOnly\[0\]$`
	other := &v1.Widget{}
	return ctrl.SetControllerReference(w, other, r.Scheme)
}

// A finalizer added and not saved before the write: Flush would refuse
// the change outside the status, so neither write moves.
func (r *WidgetReconciler) unsaved(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: the status write of w at line 120 cannot be moved \(controllerutil.AddFinalizer changes the finalizers of w at line 119, and no later Update or Patch of w in the same block saves them\), and the writes of w in this function move together\)$`
		return err
	}
	controllerutil.AddFinalizer(w, finalizer)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: controllerutil.AddFinalizer changes the finalizers of w at line 119, and no later Update or Patch of w in the same block saves them\)$`
}
