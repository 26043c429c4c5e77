// Package migrateapply: status writes by server-side apply of an apply
// configuration (kubebuilder's --ssa shape, after the scaffold's fetch).
// -fix moves them onto the patcher's apply mode where the configuration
// names an object fetched with Get, the options are the field owner and
// forced ownership, and the object is only read in between; the others
// stay, each with why.
package migrateapply

import (
	"context"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const owner = "widget-controller"

const typedOwner client.FieldOwner = "widget-controller"

type WidgetReconciler struct {
	client.Client
	Owner string
}

// Fetched: kubebuilder's --ssa example after its fetch; moved.
func (r *WidgetReconciler) Fetched(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var widget v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	app := widgetac.Widget(req.Name, req.Namespace).
		WithStatus(widgetac.WidgetStatus().WithReady(widget.Spec.Size > 0).WithSize(widget.Spec.Size))
	if err := r.SubResource("status").Apply(ctx, app, // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\("widget-controller"\)$`
		client.FieldOwner("widget-controller"), client.ForceOwnership); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// Pointer: a pointer read, the configuration built at the write, the
// owner a field; moved.
func (r *WidgetReconciler) Pointer(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	return r.Status().Apply(ctx, widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Spec.Size)), client.FieldOwner(r.Owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(r\.Owner\)$`
}

// NoOwner: the client's default field owner, not seen here; stays.
func (r *WidgetReconciler) NoOwner(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	return r.Status().Apply(ctx, ac, client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(<your field owner>\) \(not moved to the patcher: the apply names no client.FieldOwner: apply mode needs the field owner \(patcher.WithFieldOwner\); move it by hand\)$`
}

// NotForced: an apply that fails on other managers' fields; stays.
func (r *WidgetReconciler) NotForced(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	return r.Status().Apply(ctx, ac, client.FieldOwner(owner)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: the apply does not force ownership \(client.ForceOwnership\), and apply mode does: move it by hand if taking the fields from other managers is what you want\)$`
}

// Changed: the status also changed in memory, which apply mode refuses
// beside ApplyStatus; stays.
func (r *WidgetReconciler) Changed(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Size = w.Spec.Size
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Status.Size))
	return r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: w.Status.Size is changed at line 79: apply mode applies only the configuration\)$`
}

// NotFetched: kubebuilder's example as written, nothing read; stays.
func (r *WidgetReconciler) NotFetched(ctx context.Context, req ctrl.Request) error {
	ac := widgetac.Widget(req.Name, req.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	return r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: no Widget fetched with Get before the apply configuration is built, under the name it gives: the patcher is made from that object\) \(no fix: no Widget fetched with Get before the apply configuration is built\)$`
}

// Spread: options from a slice; stays.
func (r *WidgetReconciler) Spread(ctx context.Context, req ctrl.Request, opts []client.SubResourceApplyOption) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	return r.Status().Apply(ctx, ac, opts...) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(<your field owner>\) \(not moved to the patcher: the apply's options are spread from a slice\)$`
}

// TypedOwner: the owner a client.FieldOwner constant (cybozu-go/accurate's
// shape); moved, the owner passed as its string.
func (r *WidgetReconciler) TypedOwner(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(true))
	return r.Status().Apply(ctx, ac, typedOwner, client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(string\(typedOwner\)\)$`
}

// AliasedBefore: an alias made before the read changes the spec after it,
// which apply mode's Flush would refuse (patcher.ErrNonStatusChange); stays.
func (r *WidgetReconciler) AliasedBefore(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	a := w
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	a.Spec.Size++
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Spec.Size))
	return r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: w is aliased or handed on at line 115, before the read: a change through that reference after the read would be unseen\)$`
}

// CapturedBefore: a function literal declared before the read sets the
// status in memory when called after it, beside the configuration, which
// apply mode refuses (a merge patch would take it); stays.
func (r *WidgetReconciler) CapturedBefore(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	markReady := func() { w.Status.Ready = true }
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	markReady()
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithReady(w.Status.Ready))
	return r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: a function literal declared at line 129, before the read, captures w and may change it when called after: w.Status.Ready is changed at line 129: apply mode applies only the configuration\)$`
}

// StatusRefBefore: the status's address kept before the read, the status
// changed through it after; stays, as for a change of w.Status there.
func (r *WidgetReconciler) StatusRefBefore(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	st := &w.Status
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	st.Size = w.Spec.Size
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(w.Spec.Size))
	return r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\) \(not moved to the patcher: a reference into w is kept at line 142, before the read \(the address of w.Status is taken\): a change through it after the read would be unseen\)$`
}

// ReadBefore: before the read, a function literal that only reads the
// object, called after it; moved.
func (r *WidgetReconciler) ReadBefore(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	size := func() int { return w.Spec.Size }
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	ac := widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(size()))
	return r.Status().Apply(ctx, ac, client.FieldOwner(owner), client.ForceOwnership) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\), in apply mode: patcher.WithWriteMode\(patcher.WriteApply\) and patcher.WithFieldOwner\(owner\)$`
}
