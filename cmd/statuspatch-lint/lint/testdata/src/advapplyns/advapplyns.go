// Package advapplyns: review RB of 23d4101 (an apply configuration named
// by the object's key is its apply). A configuration of the same name in
// a namespace given as a constant may be another object's, or the
// object's (req.Namespace may be that one): Unknown, so it counts as the
// object's apply and the merge patch after it gets no lock (a lock would
// conflict whenever it is the same object); it stays a finding.
package advapplyns

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

// The request's name, another namespace.
func (r *R) keyOtherNamespace(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(req.Name, "mirror").WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `^blind: `
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^blind: .*\(no fix: the object is applied at line`
}

// The object's own name, another namespace.
func (r *R) fieldOtherNamespace(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(w.Name, "mirror").WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `^blind: `
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^blind: .*\(no fix: the object is applied at line`
}

// Twin: the request's key whole is the object's apply: no lock.
func (r *R) keySame(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := r.Status().Apply(ctx, widgetac.Widget(req.Name, req.Namespace).WithStatus(widgetac.WidgetStatus().WithSize(3)), client.FieldOwner("me"), client.ForceOwnership); err != nil { // want `^blind: `
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^blind: .*\(no fix: the object is applied at line 56`
}
