package migratelifevalue

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

// Issue 80: the value read again after a write is read into itself by
// FetchWidgetStatusPatcherInto, and the patcher of the first read is
// assigned again: one patcher over order all along, no copy.
func (r *OrderReconciler) reread(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return ctrl.Result{}, err
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return ctrl.Result{}, err
	}
	order.Status.Size = 2
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return ctrl.Result{}, err
	}
	order.Status.Size = 3
	return ctrl.Result{}, r.Status().Update(ctx, &order) // want `^handwritten status write to Widget`
}

// The first patcher is handed to a helper of the package before the
// re-read (-fix gives it the patcher, which it could hold): the re-read
// keeps a patcher of its own.
func (r *OrderReconciler) rereadAfterHelper(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	if err := r.markReady(ctx, &order); err != nil {
		return err
	}
	order.Status.Size = 1
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget`
}

func (r *OrderReconciler) markReady(ctx context.Context, order *v1.Widget) error {
	order.Status.Ready = true
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// The first write is deferred: defer p.Flush(ctx) would hold the first
// read's patcher past the re-read, so the writes stay (migratedeferheld.go).
func (r *OrderReconciler) rereadDeferred(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	defer r.Status().Update(ctx, &order) // want `not moved to the patcher: the deferred call at line 70 \(its status write\) takes the patcher made before it when its defer statement runs, before the re-read of order with Get at line 71:`
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, &order) // want `not moved to the patcher: the deferred call at line 70 \(its status write\) takes the patcher made before it when its defer statement runs, before the re-read of order with Get at line 71:`
}

// The first write is in a deferred function literal, which reads the
// patcher's variable when it runs: assigned again at the re-read, it
// flushes the patcher of the value's last read (the old one, its base
// older than that read, would conflict). The Fetch goes to a variable
// of its own, assigned on success: a failed one returns a nil patcher,
// which the literal, run on that error's return, would flush
// (ErrNilPatcher in place of the read's error, its write lost).
func (r *OrderReconciler) rereadDeferredLiteral(ctx context.Context, req ctrl.Request) (retErr error) {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
				retErr = err
			}
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget`
}

// The first patcher is the branch's, out of scope at the re-read.
func (r *OrderReconciler) rereadOutOfScope(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if req.Name != "" {
		if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
			return err
		}
		order.Status.Ready = true
		if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
			return err
		}
	}
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget`
}

// The re-read's error branch breaks out of the loop to a write: a Fetch
// would leave the patcher nil there, where the Get left order as it was
// and the Update wrote it. The Get stays.
func (r *OrderReconciler) rereadBreak(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget.*not moved to the patcher: order is read again with Get at line 141`
		return err
	}
	for i := 0; i < 3; i++ {
		if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
			break
		}
		order.Status.Size = i
	}
	order.Status.Ready = false
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget.*not moved to the patcher: order is read again with Get at line 141`
}

// The re-read's error branch goes to a label before a write: the Get
// stays, as above.
func (r *OrderReconciler) rereadGoto(ctx context.Context, req ctrl.Request) error {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget.*not moved to the patcher: the function has a goto at line 162`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		goto fail
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget.*not moved to the patcher: the function has a goto at line 162`
fail:
	order.Status.Ready = false
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget.*not moved to the patcher: the function has a goto at line 162`
}

// The re-read in a branch, the write after it flushing the first read's
// patcher, which a deferred literal flushes too: the Fetch goes to a
// variable of its own, assigned on success (a failed one would leave the
// literal a nil patcher).
func (r *OrderReconciler) rereadBranchDeferred(ctx context.Context, req ctrl.Request) (retErr error) {
	var order v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
		return err
	}
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
				retErr = err
			}
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, &order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if req.Name == "x" {
		if err := r.Get(ctx, req.NamespacedName, &order); err != nil {
			return err
		}
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, &order) // want `^handwritten status write to Widget`
}
