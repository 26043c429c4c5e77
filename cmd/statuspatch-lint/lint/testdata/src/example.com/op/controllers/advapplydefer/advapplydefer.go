// Package advapplydefer: adversary s97c on G's leftover: a deferred merge
// write after an apply that stays.
package advapplydefer

import (
	"context"

	v1 "example.com/op/api/v1"
	widgetac "example.com/op/api/v1/ac"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// The apply stays (no forced ownership); the deferred blind merge patch
// runs after it stored.
func (r *R) deferredMerge(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	defer func() {
		w.Status.Ready = true
		_ = r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `not moved to the patcher: w is applied at line 30`
	}()
	return r.Status().Apply(ctx, widgetac.Widget(w.Name, w.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me")) // want `not moved to the patcher: the apply does not force ownership`
}

// A copy's spec Update between the base and the blind merge patch.
func (r *R) copyBetween(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	cp := w.DeepCopy()
	cp.Spec.Size = 5
	if err := r.Update(ctx, cp); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `not moved to the patcher`
}

// The same with the status Update of the copy.
func (r *R) copyStatusBetween(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	cp := w.DeepCopy()
	cp.Status.Size = 5
	if err := r.Status().Update(ctx, cp); err != nil { // want `not moved to the patcher`
		return err
	}
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `not moved to the patcher`
}
