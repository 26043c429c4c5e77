// Package tutorialdefer: a fresh kubebuilder v4.15.0 project's Reconcile
// as the deploy-image tutorial writes it (s114's newcomer): the status
// set Unknown and updated, the re-Get, a finalizer, then a deferred
// closure writing a failure condition on a named error return, and a
// phase decided from the status and written with a merge patch. -fix
// panicked on it at 8b11e63b (reuseRoot with no re-read).
package tutorialdefer

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const finalizer = "example.com/finalizer"

type WidgetReconciler struct {
	client.Client
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	widget := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, err
	}

	if len(widget.Status.Conditions) == 0 {
		meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
		if err := r.Status().Update(ctx, widget); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Get(ctx, req.NamespacedName, widget); err != nil {
			return ctrl.Result{}, err
		}
	}

	if !controllerutil.ContainsFinalizer(widget, finalizer) {
		controllerutil.AddFinalizer(widget, finalizer)
		if err := r.Update(ctx, widget); err != nil {
			return ctrl.Result{}, err
		}
	}

	if widget.DeletionTimestamp != nil {
		controllerutil.RemoveFinalizer(widget, finalizer)
		if err := r.Update(ctx, widget); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, nil
	}

	defer func() {
		if retErr == nil {
			return
		}
		meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{Type: "Available",
			Status: "False", Reason: retErr.Error()})
		if err := r.Status().Update(ctx, widget); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			_ = err
		}
	}()

	base := widget.DeepCopy()
	switch widget.Status.Size {
	case 0:
		widget.Status.Size = 1
	case 1:
		if widget.Spec.Size > 100 {
			widget.Status.Size = -1
			return ctrl.Result{}, fmt.Errorf("widget %s asks for %d", widget.Name, widget.Spec.Size)
		}
		widget.Status.Size = 2
	}
	widget.Status.Ready = true
	if err := r.Status().Patch(ctx, widget, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
