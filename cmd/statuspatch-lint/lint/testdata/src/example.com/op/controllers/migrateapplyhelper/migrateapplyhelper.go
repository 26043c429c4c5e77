// Package migrateapplyhelper: server-side applies of the status in
// helpers whose apply configuration names the object they are given
// (cybozu-go/accurate's reconcileNS). -fix follows the parameter to its
// callers as for a merge-mode helper: the helper takes the patcher, each
// caller makes it in apply mode after its Get, when every caller passes
// the object its Get read and only reads it before the call, and the
// helper only reads it before the write; else nothing moves, and the
// finding names the caller or the use that blocks.
package migrateapplyhelper

import (
	"context"
	"sort"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const fieldOwner client.FieldOwner = "widget-controller"

type WidgetReconciler struct {
	client.Client
	Owner string
}

// Reconcile is accurate's: the object read, handed to a finalizer that
// changes it in a branch that returns, then to the helper; moved.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.DeletionTimestamp != nil {
		if err := r.finalize(ctx, w); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, nil
	}
	if err := r.reconcileWidget(ctx, w); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

func (r *WidgetReconciler) finalize(ctx context.Context, w *v1.Widget) error {
	w.Finalizers = nil
	return r.Update(ctx, w)
}

func (r *WidgetReconciler) reconcileWidget(ctx context.Context, w *v1.Widget) error { // want reconcileWidget:`^statusOnly\[1\]$`
	ac := widgetac.Widget(w.Name, w.Namespace).
		WithStatus(widgetac.WidgetStatus().WithSize(w.Spec.Size))
	if w.Spec.Size > 0 {
		ac.Status.WithReady(true)
	}
	return r.Status().Apply(ctx, ac, fieldOwner, client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(string\(fieldOwner\)\)$`
}

// Two callers, the second passes an object it did not read: not moved.
func (r *WidgetReconciler) CallerRead(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	return r.applyTwo(ctx, w)
}

func (r *WidgetReconciler) CallerUnread(ctx context.Context, w *v1.Widget) error { // want CallerUnread:`^statusOnly\[1\]$`
	return r.applyTwo(ctx, w)
}

func (r *WidgetReconciler) applyTwo(ctx context.Context, w *v1.Widget) error { // want applyTwo:`^statusOnly\[1\]$`
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	return r.Status().Apply(ctx, ac, client.FieldOwner("widget-controller"), client.ForceOwnership) // want `\(not moved to the patcher: w is a parameter of applyTwo: its caller at line 73: w is a parameter of CallerUnread: the patcher is made where its callers read it; move the write there\) \(no fix: no Widget fetched with Get before the apply configuration is built, and w is a parameter of applyTwo: its caller at line 73 passes an object it did not fetch with Get before the call\)$`
}

// The helper changes the spec beside the apply: not moved.
func (r *WidgetReconciler) CallerOfChanged(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	return r.applyChanged(ctx, w)
}

func (r *WidgetReconciler) applyChanged(ctx context.Context, w *v1.Widget) error {
	w.Spec.Size = 1
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Spec.Size))
	return r.Status().Apply(ctx, ac, fieldOwner, client.ForceOwnership) // want `\(not moved to the patcher: w is a parameter of applyChanged: w.Spec is changed at line 91: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// The caller changes the object in a branch that goes on to the call:
// not moved.
func (r *WidgetReconciler) CallerChanges(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if w.Spec.Size < 0 {
		w.Spec.Size = 0
	}
	return r.applyAfterChange(ctx, w)
}

func (r *WidgetReconciler) applyAfterChange(ctx context.Context, w *v1.Widget) error { // want applyAfterChange:`^statusOnly\[1\]$`
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Spec.Size))
	return r.Status().Apply(ctx, ac, fieldOwner, client.ForceOwnership) // want `\(not moved to the patcher: w is a parameter of applyAfterChange: its caller at line 106: w.Spec is changed at line 104: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// The caller's branch that changes the object leaves a loop with break,
// not the function: not moved.
func (r *WidgetReconciler) CallerBreaks(ctx context.Context, req ctrl.Request, tries int) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	for i := 0; i < tries; i++ {
		if w.Spec.Size < 0 {
			w.Spec.Size = 0
			if i > 0 {
				break
			}
			return nil
		}
	}
	return r.applyAfterBreak(ctx, w)
}

func (r *WidgetReconciler) applyAfterBreak(ctx context.Context, w *v1.Widget) error { // want applyAfterBreak:`^statusOnly\[1\]$`
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Spec.Size))
	return r.Status().Apply(ctx, ac, fieldOwner, client.ForceOwnership) // want `\(not moved to the patcher: w is a parameter of applyAfterBreak: its caller at line 130: w.Spec is changed at line 123: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// The field owner is the receiver's field, which the callers do not
// name: not moved.
func (r *WidgetReconciler) CallerOfOwnerField(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	return r.applyOwnerField(ctx, w)
}

func (r *WidgetReconciler) applyOwnerField(ctx context.Context, w *v1.Widget) error { // want applyOwnerField:`^statusOnly\[1\]$`
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	return r.Status().Apply(ctx, ac, client.FieldOwner(r.Owner), client.ForceOwnership) // want `\(not moved to the patcher: w is a parameter of applyOwnerField: its field owner r.Owner is not a literal or a constant or variable of the package: the callers make the patcher with it\)$`
}

// accurate's conditionPatch: a reference into the status handed to a
// function of the package that only reads it, through
// meta.FindStatusCondition's result; moved.
func (r *WidgetReconciler) CallerOfConditions(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	return r.applyConditions(ctx, w)
}

func (r *WidgetReconciler) applyConditions(ctx context.Context, w *v1.Widget) error { // want applyConditions:`^statusOnly\[1\]$`
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(wasReady(w.Status.Conditions)))
	return r.Status().Apply(ctx, ac, fieldOwner, client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(string\(fieldOwner\)\)$`
}

func wasReady(existing []metav1.Condition) bool {
	c := meta.FindStatusCondition(existing, "Ready")
	return c != nil && c.Status == string(metav1.ConditionTrue) && c.ObservedGeneration > 0
}

// A reference into the status handed to a function that sorts it: a
// status changed in memory beside the configuration, which apply mode's
// Flush refuses; not moved.
func (r *WidgetReconciler) CallerOfSorted(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	return r.applySorted(ctx, w)
}

func (r *WidgetReconciler) applySorted(ctx context.Context, w *v1.Widget) error { // want applySorted:`^statusOnly\[1\]$`
	sortConditions(w.Status.Conditions)
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	return r.Status().Apply(ctx, ac, fieldOwner, client.ForceOwnership) // want `\(not moved to the patcher: w is a parameter of applySorted: the status may be changed at line 186: w.Status.Conditions, a reference into the object, is passed to sortConditions, where, at line 192, c, a reference into the object, is passed to sort.Slice \(Slice is of sort, whose bodies -fix does not analyse\), and apply mode applies only the configuration\)$`
}

func sortConditions(c []metav1.Condition) {
	sort.Slice(c, func(i, j int) bool { return c[i].Type < c[j].Type })
}
