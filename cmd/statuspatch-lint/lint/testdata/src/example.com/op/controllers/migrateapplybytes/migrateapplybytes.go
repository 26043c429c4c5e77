// Package migrateapplybytes: server-side applies of the status as the
// bytes json.Marshal makes from an apply configuration, through a
// client.Patch type of the project's own (trust-manager's
// applyBundleCondition). -fix moves them as the configuration's apply:
// its status to ApplyStatus, the write the Flush, the marshal and its
// check dropped; what keeps one is named.
package migrateapplybytes

import (
	"context"
	"encoding/json"
	"fmt"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	"example.com/op/ssautil"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// fieldOwner is a constant of the package: a helper's callers make the
// patcher with it.
const fieldOwner client.FieldOwner = "widget-controller"

type WidgetReconciler struct {
	client.Client
}

// The object read, its configuration marshalled and applied in place:
// moved.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Spec.Size))
	encodedPatch, err := json.Marshal(ac)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("failed to marshal Widget status patch: %w", err)
	}
	return ctrl.Result{}, r.Status().Patch(ctx, w, ssautil.ApplyPatch{Patch: encodedPatch}, ssautil.FieldManager, client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// trust-manager's applyBundleCondition, called by the function that
// reads the object: the helper takes the patcher, its caller makes it.
func (r *WidgetReconciler) ReconcileReady(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	return r.applyReady(ctx, w, w.Spec.Size > 0)
}

func (r *WidgetReconciler) applyReady(ctx context.Context, w *v1.Widget, ready bool) error {
	ac := widgetac.Widget(w.Name, w.Namespace).
		WithStatus(widgetac.WidgetStatus().WithReady(ready))
	encodedPatch, err := json.Marshal(ac)
	if err != nil {
		return fmt.Errorf("failed to marshal Widget status patch: %w", err)
	}
	return r.Status().Patch(ctx, w, ssautil.ApplyPatch{Patch: encodedPatch}, fieldOwner, client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// trust-manager's applyBundleCondition as it is: its field owner a
// constant of another package, which the callers would make the patcher
// with: kept, and the finding says so.
func (r *WidgetReconciler) ReconcileOwner(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	return r.applyOwner(ctx, w)
}

func (r *WidgetReconciler) applyOwner(ctx context.Context, w *v1.Widget) error {
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	encodedPatch, err := json.Marshal(ac)
	if err != nil {
		return err
	}
	return r.Status().Patch(ctx, w, ssautil.ApplyPatch{Patch: encodedPatch}, ssautil.FieldManager, client.ForceOwnership) // want `\(not moved to the patcher: w is a parameter of applyOwner: its field owner ssautil.FieldManager is not a literal or a constant or variable of the package: the callers make the patcher with it\)$`
}

// trust-manager's BundleReconciler: the helper's caller hands on its own
// parameter from the function that reads it: kept, the caller named.
func (r *WidgetReconciler) ReconcileLinked(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	return r.reconcileLinked(ctx, w)
}

func (r *WidgetReconciler) reconcileLinked(ctx context.Context, w *v1.Widget) error {
	return r.applySize(ctx, w)
}

func (r *WidgetReconciler) applySize(ctx context.Context, w *v1.Widget) error {
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Spec.Size))
	encodedPatch, err := json.Marshal(ac)
	if err != nil {
		return err
	}
	return r.Status().Patch(ctx, w, ssautil.ApplyPatch{Patch: encodedPatch}, fieldOwner, client.ForceOwnership) // want `\(not moved to the patcher: w is a parameter of applySize: its caller at line 95: w is a parameter of reconcileLinked: the patcher is made where its callers read it; move the write there\)$`
}

// Not forced: apply mode forces, so kept.
func (r *WidgetReconciler) Unforced(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	encodedPatch, err := json.Marshal(ac)
	if err != nil {
		return err
	}
	return r.Status().Patch(ctx, w, ssautil.ApplyPatch{Patch: encodedPatch}, ssautil.FieldManager) // want `\(not moved to the patcher: the apply does not force ownership \(client.ForceOwnership\), and apply mode does: move it by hand if taking the fields from other managers is what you want\)`
}

// The bytes logged too: they would go with the marshal; kept.
func (r *WidgetReconciler) Logged(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	encodedPatch, err := json.Marshal(ac)
	if err != nil {
		return err
	}
	fmt.Println(string(encodedPatch))
	return r.Status().Patch(ctx, w, ssautil.ApplyPatch{Patch: encodedPatch}, ssautil.FieldManager, client.ForceOwnership) // want `\(not moved to the patcher: the bytes encodedPatch are also used at line 132: they would go with the marshal\)`
}

// The JSON of the status alone, not of a configuration: kept.
func (r *WidgetReconciler) StatusJSON(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	encodedPatch, err := json.Marshal(w.Status)
	if err != nil {
		return err
	}
	return r.Status().Patch(ctx, w, ssautil.ApplyPatch{Patch: encodedPatch}, ssautil.FieldManager, client.ForceOwnership) // want `\(not moved to the patcher: the bytes encodedPatch are the JSON of w.Status \(line 142\), not of a WidgetApplyConfiguration\)`
}

// A patch type whose Data makes other bytes: its apply is not read; kept
// as before.
func (r *WidgetReconciler) OtherData(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	encodedPatch, err := json.Marshal(ac)
	if err != nil {
		return err
	}
	return r.Status().Patch(ctx, w, ssautil.OtherPatch{Patch: encodedPatch}, ssautil.FieldManager, client.ForceOwnership) // want `\(not moved to the patcher: the patch ssautil.OtherPatch\{…\}, of type ssautil.OtherPatch, a server-side apply of bytes -fix does not read`
}
