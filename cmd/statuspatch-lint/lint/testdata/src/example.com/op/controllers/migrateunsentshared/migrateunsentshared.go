// Package migrateunsentshared: one caller hands its object to two status
// helpers, and only the calls of one of them follow a change outside the
// status (kueue's multikueue cqReconciler: removeQuotaAutomationCondition
// on one path, updateQuotaAutomationCondition after the spec's quotas are
// set on another). Both helpers take the one patcher the caller makes
// after its Get, made with patcher.WithNonStatusChangesUnsent() when any
// call through it needs it, whichever helper's call comes first. At
// 676a4e9 each helper's move made its own patcher there, one with the
// option and one without: two declarations of one name, code that does
// not compile.
package migrateunsentshared

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// The plain helper's call first, the spec change and the other's after.
func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	if w.Spec.Size == 0 {
		return r.clearReady(ctx, w)
	}
	if w.Spec.Size > 10 {
		w.Spec.Size = 10
	}
	return r.setReady(ctx, w)
}

// The other order: the helper after the spec change is called first.
func (r *Reconciler) Other(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	if w.Spec.Size > 10 {
		w.Spec.Size = 10
		return r.markSized(ctx, w)
	}
	return r.markUnsized(ctx, w)
}

func (r *Reconciler) clearReady(ctx context.Context, w *v1.Widget) error {
	if !w.Status.Ready {
		return nil
	}
	w.Status.Ready = false
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) setReady(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) markSized(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) markUnsized(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 0
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Kept beside: a caller that changes the object's identity before one of
// its two helpers' calls. That write stays, naming the change; the other
// helper, on an exclusive path, takes the caller's patcher, made without
// the option: no call through it follows a change outside the status.
func (r *Reconciler) Renamed(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	if w.Spec.Size == 0 {
		return r.markEmpty(ctx, w)
	}
	w.Name += "-copy"
	return r.markCopied(ctx, w)
}

func (r *Reconciler) markEmpty(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = false
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) markCopied(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of markCopied: its caller at line 88: w.Name is changed at line 87: that is a change of the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not: make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}
