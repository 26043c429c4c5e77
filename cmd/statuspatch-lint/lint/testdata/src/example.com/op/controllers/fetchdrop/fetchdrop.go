// Package fetchdrop: re-reads after a moved write where, on some path, no
// write of the patcher follows. Drop keeps only the Fetch's read (the
// tutorial's deletion branch in two more forms: err assigned, and the
// error checked after the statement); Loop, Returns, Before and Falls each
// have a write that can follow, so their Fetch assigns the patcher.
package fetchdrop

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const finalizer = "widgets.example.com/finalizer"

type DropReconciler struct {
	Client client.Client
}

// Reconcile re-reads in two returning branches, with err assigned and with
// err checked after the Get; the deferred write is registered after both.
func (r *DropReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	var err error
	if err = r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.DeletionTimestamp != nil {
		w.Status.Ready = false
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err = r.Client.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(w, finalizer)
		return ctrl.Result{}, r.Client.Update(ctx, w)
	}
	if w.Spec.Size == 0 {
		w.Status.Size = 0
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		err := r.Client.Get(ctx, req.NamespacedName, w)
		if err != nil {
			return ctrl.Result{}, err
		}
		w.Labels = map[string]string{"empty": "true"}
		return ctrl.Result{}, r.Client.Update(ctx, w)
	}
	defer func() {
		if retErr != nil {
			w.Status.Ready = false
			if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
				retErr = errors.Join(retErr, err)
			}
		}
	}()
	return ctrl.Result{}, nil
}

type LoopReconciler struct {
	Client client.Client
}

// Reconcile writes and re-reads in a loop: the write of the next turn
// follows the re-read, and a deferred write flushes the patcher.
func (r *LoopReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	defer func() {
		if retErr != nil {
			w.Status.Ready = false
			if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
				retErr = errors.Join(retErr, err)
			}
		}
	}()
	for i := range 3 {
		w.Status.Size = i
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

type ReturnsReconciler struct {
	Client client.Client
}

// Reconcile's returning branch writes the status again in its return,
// after the re-read; a deferred write flushes the patcher too.
func (r *ReturnsReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if w.DeletionTimestamp != nil {
		w.Status.Ready = false
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		w.Status.Size = 0
		return ctrl.Result{}, r.Client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
	defer func() {
		if retErr != nil {
			w.Status.Ready = false
			if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
				retErr = errors.Join(retErr, err)
			}
		}
	}()
	return ctrl.Result{}, nil
}

type BeforeReconciler struct {
	Client client.Client
}

// Reconcile registers its deferred write before the returning branch's
// re-read: it flushes the patcher of the last read.
func (r *BeforeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	defer func() {
		if retErr != nil {
			w.Status.Ready = false
			if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
				retErr = errors.Join(retErr, err)
			}
		}
	}()
	if w.DeletionTimestamp != nil {
		w.Status.Ready = false
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(w, finalizer)
		return ctrl.Result{}, r.Client.Update(ctx, w)
	}
	return ctrl.Result{}, nil
}

type FallsReconciler struct {
	Client client.Client
}

// Reconcile's branch does not return: the write after it follows.
func (r *FallsReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if !w.Status.Ready {
		w.Status.Ready = true
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	defer func() {
		if retErr != nil {
			w.Status.Ready = false
			if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
				retErr = errors.Join(retErr, err)
			}
		}
	}()
	return ctrl.Result{}, nil
}
