// Package migratepaths: a write deferred before its object's Get, by a
// defer statement's call or in a deferred literal, stays, naming the
// defer statement and the Get -fix would make the patcher at, after it.
// At cb49be1 each was "w is not read with Get in this function before the
// write", which the function does (the write runs after the read).
package migratepaths

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// A write deferred before the Get.
func (r *Reconciler) DeferFirst(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	defer r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: the defer statement at line 22 takes this write's receiver and arguments there, before w is read with Get at line 23, where -fix makes the patcher: it would name the patcher before it is made; by hand: defer its Flush\(ctx\) after that read\)$`
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return nil
}

// A deferred literal before the Get.
func (r *Reconciler) DeferLitFirst(ctx context.Context, key client.ObjectKey) (err error) {
	w := &v1.Widget{}
	defer func() {
		if err == nil {
			err = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: the function literal deferred at line 33, which holds this write, is declared there, before w is read with Get at line 38, where -fix makes the patcher: it would name the patcher before it is made; by hand: declare the patcher before the defer statement, make it there, and Flush it in the literal when it is made\)$`
		}
	}()
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return nil
}

// A helper's call deferred before the Get: the advice is the call's.
func (r *Reconciler) DeferHelper(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	defer r.markReady(ctx, w)
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	return nil
}

func (r *Reconciler) markReady(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is a parameter of markReady: its caller at line 48: the defer statement at line 48 takes the arguments of this call of markReady there, before w is read with Get at line 49, where -fix makes the patcher: it would name the patcher before it is made; by hand: make NewWidgetStatusPatcher after that read and defer the call of markReady with it\)$`
}

// The Get after the defer is in a literal the function calls: -fix makes
// no patcher there. At a52da69 the reason named it as where -fix makes
// the patcher.
func (r *Reconciler) GetInLit(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	defer r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\) \(not moved to the patcher: w is not read with Get in this function before the write: where its status changes start is not seen; make NewWidgetStatusPatcher there and call its Flush\(ctx\) here\)$`
	fetch := func() error { return r.Get(ctx, key, w) }
	return fetch()
}
