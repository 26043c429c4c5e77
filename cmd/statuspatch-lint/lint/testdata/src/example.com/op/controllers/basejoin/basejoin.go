// Package basejoin: a merge patch's base taken after the object's own
// write outside its status. Patched adds its finalizer with a merge patch,
// Updated with an Update, CondAdded in an if's condition whose body
// Updates first, and Deleting checks its deletion with
// GetDeletionTimestamp between (the tutorial's), then take the base: the status is what the
// read gave, so the patch's writes share the read's patcher, which the
// deferred failure write flushes too (one patcher, never a second whose
// store the first would meet as another writer's). StatusFirst changes
// the status before its Update, Unsaved changes its finalizers with no
// write after: each base keeps a patcher of its own.
package basejoin

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const finalizer = "widgets.example.com/finalizer"

type PatchedReconciler struct {
	Client client.Client
}

func (r *PatchedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr != nil {
			w.Status.Ready = false
			if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
				retErr = errors.Join(retErr, err)
			}
		}
	}()
	if !controllerutil.ContainsFinalizer(w, finalizer) {
		orig := w.DeepCopy()
		controllerutil.AddFinalizer(w, finalizer)
		if err := r.Client.Patch(ctx, w, client.MergeFrom(orig)); err != nil {
			return ctrl.Result{}, err
		}
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Client.Create(ctx, &v1.Widget{})
}

type UpdatedReconciler struct {
	Client client.Client
}

func (r *UpdatedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if w.Status.Size == 0 {
		w.Status.Size = 1
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
	}
	if !controllerutil.ContainsFinalizer(w, finalizer) {
		controllerutil.AddFinalizer(w, finalizer)
		if err := r.Client.Update(ctx, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

type StatusFirstReconciler struct {
	Client client.Client
}

func (r *StatusFirstReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 2
	controllerutil.AddFinalizer(w, finalizer)
	if err := r.Client.Update(ctx, w); err != nil {
		return ctrl.Result{}, err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

type UnsavedReconciler struct {
	Client client.Client
}

func (r *UnsavedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if w.Status.Size == 0 {
		w.Status.Size = 1
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
	}
	controllerutil.AddFinalizer(w, finalizer)
	base := w.DeepCopy()
	w.Status.Ready = true
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Client.Update(ctx, w)
}

// CondAddedReconciler adds its finalizer in an if's condition (true when
// it changed the list) and saves it first thing in the body.
type CondAddedReconciler struct {
	Client client.Client
}

func (r *CondAddedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if w.Status.Size == 0 {
		w.Status.Size = 1
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
	}
	if controllerutil.AddFinalizer(w, finalizer) {
		if err := r.Client.Update(ctx, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// DeletingReconciler is kubebuilder's deploy-image Reconcile: the
// deletion is checked with GetDeletionTimestamp, a getter the base's
// window reads only.
type DeletingReconciler struct {
	Client client.Client
}

func (r *DeletingReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if !controllerutil.ContainsFinalizer(w, finalizer) {
		controllerutil.AddFinalizer(w, finalizer)
		if err := r.Client.Update(ctx, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	isDeleted := w.GetDeletionTimestamp() != nil
	if isDeleted {
		return ctrl.Result{}, nil
	}
	defer func() {
		if retErr != nil {
			w.Status.Ready = false
			if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
				retErr = errors.Join(retErr, err)
			}
		}
	}()
	base := w.DeepCopy()
	w.Status.Ready = true
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Client.Create(ctx, &v1.Widget{})
}
