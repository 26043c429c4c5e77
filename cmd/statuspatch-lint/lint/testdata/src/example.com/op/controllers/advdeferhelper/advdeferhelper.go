// Package advdeferhelper: a deferred helper call registered before the
// tutorial's re-Get. At 8182036 the helper took the patcher its caller
// made after the Get (defer r.finish(ctx, wPatcher)), and the re-Get
// stayed a Get: the deferred call held the patcher of the first read,
// whose base the re-read no longer matches when another writer wrote
// between the first write and the re-read, and its Flush conflicted
// where the handwritten Update, after the re-read, was stored. The
// arguments of a deferred call are taken when it is registered, so the
// re-Get made the patcher's Fetch would not reach it either: the writes
// stay, naming the defer and the re-read (migratedeferheld.go).
package advdeferhelper

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

func (r *R) finish(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return r.Status().Update(ctx, w) // want `not moved to the patcher: .*re-read`
}

func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer r.finish(ctx, w)
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: .*re-read`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

func (r *R) settle(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// No re-read after the defer: the deferred call takes the one patcher,
// that of the only read.
func (r *R) noReread(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer r.settle(ctx, w)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *R) close(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = w.Spec.Size
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of close: its caller at line 78 also writes .*in a function literal, the patcher made before the re-read of w with Get at line 83`
}

// The helper's call in a deferred function literal, which reads the
// patcher's variable when it runs: the re-read stays a Get (it becomes a
// Fetch assigning that variable only for the group's own writes in a
// deferred literal), so the literal would flush the patcher of the first
// read, its base older than the re-read.
func (r *R) literal(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer func() { _ = r.close(ctx, w) }()
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: the deferred call at line 78 \(r\.close writes its status at line 65\) flushes, in a function literal, the patcher made before the re-read of w with Get at line 83`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	return nil
}

// A value's deferred Update, written directly, before the re-read.
func (r *R) value(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	defer r.Status().Update(ctx, &w) // want `not moved to the patcher: the deferred call at line 95 \(its status write\) takes the patcher made before it when its defer statement runs, before the re-read of w with Get at line 96:`
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return err
	}
	w.Status.Ready = true
	return nil
}

// A deferred literal's write before a re-read in a return: the Get stays,
// so the writes stay.
func (r *R) returnGet(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	defer func() {
		w.Status.Size = 2
		_ = r.Status().Update(ctx, w) // want `not moved to the patcher: the deferred call at line 112 \(its status write\) flushes, in a function literal, the patcher made before the re-read of w with Get at line 118 \(a Get in a return`
	}()
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `not moved to the patcher: the deferred call at line 112 \(its status write\) flushes, in a function literal, the patcher made before the re-read of w with Get at line 118 \(a Get in a return`
		return err
	}
	return r.Get(ctx, req.NamespacedName, w)
}
