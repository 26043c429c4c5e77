// Package tutorialhead: kubebuilder's deploy-image Reconcile (the
// newcomer route's Ferry): a condition set Unknown when the status has
// none, written and read again; a deletion branch that always returns; a
// finalizer; a deferred failure condition; then a token decided from the
// status and written with a merge patch. The reads before the decision
// cannot reach it, so the decision moves into Retry (Ferry). Gate, Carry
// and Skip read the status where it does reach the decision (a return
// after the if's write, a variable, a success return in the if): their
// decisions stay before a Flush. Case's read moves with its decision.
package tutorialhead

import (
	"context"
	"errors"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

var tokens atomic.Int64

const finalizer = "widgets.example.com/ferry-finalizer"

type FerryReconciler struct {
	Client client.Client
}

func (r *FerryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	ferry := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, ferry); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(ferry.Status.Conditions) == 0 {
		meta.SetStatusCondition(&ferry.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
		if err := r.Client.Status().Update(ctx, ferry); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Client.Get(ctx, req.NamespacedName, ferry); err != nil {
			return ctrl.Result{}, err
		}
	}
	if ferry.DeletionTimestamp != nil {
		if controllerutil.ContainsFinalizer(ferry, finalizer) {
			meta.SetStatusCondition(&ferry.Status.Conditions, metav1.Condition{Type: "Degraded", Status: "Unknown", Reason: "Finalizing"})
			if err := r.Client.Status().Update(ctx, ferry); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
				return ctrl.Result{}, err
			}
			if err := r.Client.Get(ctx, req.NamespacedName, ferry); err != nil {
				return ctrl.Result{}, err
			}
			controllerutil.RemoveFinalizer(ferry, finalizer)
			if err := r.Client.Update(ctx, ferry); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}
	if !controllerutil.ContainsFinalizer(ferry, finalizer) {
		controllerutil.AddFinalizer(ferry, finalizer)
		if err := r.Client.Update(ctx, ferry); err != nil {
			return ctrl.Result{}, err
		}
	}
	defer func() {
		if retErr == nil {
			return
		}
		meta.SetStatusCondition(&ferry.Status.Conditions, metav1.Condition{Type: "Available", Status: "False", Reason: "ReconcileFailed"})
		if err := r.Client.Status().Update(ctx, ferry); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			retErr = errors.Join(retErr, err)
		}
	}()
	base := ferry.DeepCopy()
	if ferry.Status.Size == 0 {
		ferry.Status.Size = int(tokens.Add(1))
	}
	meta.SetStatusCondition(&ferry.Status.Conditions, metav1.Condition{Type: "Available", Status: "True", Reason: "Boarding"})
	if err := r.Client.Status().Patch(ctx, ferry, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// GateReconciler returns when it wrote the Unknown condition: the
// decision runs only when the status had conditions at the first read.
type GateReconciler struct {
	Client client.Client
}

func (r *GateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if len(w.Status.Conditions) == 0 {
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		return ctrl.Result{Requeue: true}, nil
	}
	base := w.DeepCopy()
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// CarryReconciler keeps what the if read in a variable the decision uses.
type CarryReconciler struct {
	Client client.Client
}

func (r *CarryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	fresh := false
	if len(w.Status.Conditions) == 0 {
		fresh = true
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	base := w.DeepCopy()
	if fresh && w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// SkipReconciler's if returns without an error on the spec, after the
// status read in its condition: the decision runs only when it did not.
// (Its merge patch shares the read's patcher, its finalizer Update
// outside the status; the re-read in the if, on one path only, does not
// start the decision's window.)
type SkipReconciler struct {
	Client client.Client
}

func (r *SkipReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	if len(w.Status.Conditions) == 0 {
		if w.Spec.Size > 9 {
			return ctrl.Result{}, nil
		}
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Available", Status: "Unknown", Reason: "Reconciling"})
		if err := r.Client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
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
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// CaseReconciler returns in a case on the status: its body never
// reaches the decision, its expression decides that the decision runs,
// and the switch moves into Retry with it (the head over the base).
type CaseReconciler struct {
	Client client.Client
}

func (r *CaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	switch {
	case w.Status.Ready:
		return ctrl.Result{}, nil
	}
	base := w.DeepCopy()
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
