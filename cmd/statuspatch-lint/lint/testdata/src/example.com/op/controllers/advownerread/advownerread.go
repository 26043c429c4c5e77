// Package advownerread: the object handed, as an owner, to functions
// that only read it (controllerutil.SetControllerReference,
// metav1.IsControlledBy: readsObject) between a re-read and a merge
// patch's base leaves the base what the patcher holds (issue 80, the
// tutorial's shape of helper T's project A). At ae27bc6 the life model
// took &w handed to any call as a change: here the patch's decision
// stayed before a plain Flush; in project A, whose last write is a
// helper's of another package, the patch got a second patcher made at
// its base, and the helper's Flush through the first one, its base
// behind the second's, was refused as a conflict in a single
// reconcile. One patcher now, the decision in its Retry.
package advownerread

import (
	"context"

	v1 "example.com/op/api/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

type R struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(w.Status.Conditions) == 0 {
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Progressing", Status: "Unknown", Reason: "Reconciling"})
		if err := r.Status().Update(ctx, &w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
			return ctrl.Result{}, err
		}
	}
	pod := &corev1.Pod{}
	if err := controllerutil.SetControllerReference(&w, pod, r.Scheme); err != nil {
		return ctrl.Result{}, err
	}
	owned := metav1.IsControlledBy(pod, &w)
	base := w.DeepCopy()
	if w.Status.Size == 0 && owned {
		w.Status.Size = 1
	}
	if err := r.Status().Patch(ctx, &w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: "True", Reason: "Owned"})
	if err := r.Status().Update(ctx, &w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
