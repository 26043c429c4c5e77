// Package migratehelperclients: the status helpers one caller hands its
// object to take the one patcher it makes, so they must write through
// one client. Two helpers naming one client two ways (r, and r.Client
// that r embeds) take one patcher made with the first call's text; at
// s95a's 422d8dc each helper's move made its own patcher, two
// declarations of one name, code that does not compile. Two clients
// (r.Remote, r.Client) keep the writes, saying so: at 422d8dc two
// helpers again made two declarations, and one helper called with both
// wrote both calls through the first call's client.
package migratehelperclients

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
	Remote client.Client
}

// One client named two ways: both move onto one patcher.
func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	if w.Spec.Size == 0 {
		return r.setReady(ctx, w)
	}
	return r.setSized(ctx, w)
}

func (r *Reconciler) setReady(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) setSized(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return r.Client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Two helpers, two clients: both stay.
func (r *Reconciler) Clients(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	if w.Spec.Size == 0 {
		return markReadyWith(ctx, r.Remote, w)
	}
	w.Spec.Size = 10
	return markSizedWith(ctx, r.Client, w)
}

func markReadyWith(ctx context.Context, c client.Client, w *v1.Widget) error {
	w.Status.Ready = true
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of markReadyWith: its caller at line 53 also hands w to markSizedWith at line 56, whose status write goes through r.Client, not r.Remote: one patcher writes through one client\)$`
}

func markSizedWith(ctx context.Context, c client.Client, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of markSizedWith: its caller at line 56: w is passed to markReadyWith at line 53, where its status is written at line 61, a write -fix does not move with the caller's\)$`
}

// One helper called with two clients: it stays.
func (r *Reconciler) Twice(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return client.IgnoreNotFound(err)
	}
	if w.Spec.Size == 0 {
		return clearReadyWith(ctx, r.Remote, w)
	}
	return clearReadyWith(ctx, r.Client, w)
}

func clearReadyWith(ctx context.Context, c client.Client, w *v1.Widget) error {
	w.Status.Ready = false
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of clearReadyWith: its calls at line 76 and 78 write through r.Remote and r.Client: one patcher writes through one client\)$`
}
