// Package advretrydefer: a deferred write whose status the function
// decides from the status it read (issue 80, helper D's R4). A Flush in
// the defer, over a cached read, is refused as a conflict under a
// manager and the next reconcile decides again (a second token): the
// write stays, naming the read and a call a retried decision would
// repeat. A decision that reads no status moves, Flush in the defer.
package advretrydefer

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var tokens atomic.Int64

type R struct {
	client.Client
}

// A token handed out once, from the status read.
func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := w.DeepCopy()
	defer func() {
		if err := r.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `\(not moved to the patcher: its status is decided from w's status read at line 38, before the deferred write: .*; make the patcher after the read, keep the Flush in the defer, and move the decision into wPatcher.Retry's function by hand \(the call tokens.Add at line 39 runs again on each attempt there: keep its result in a variable declared before Retry, set on the first attempt only\)\) \(no fix: a lock would have the write refused whenever the cached read is behind, and the next reconcile decide again\)$`
			retErr = errors.Join(retErr, err)
		}
	}()
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	return ctrl.Result{}, nil
}

// Decided from the status, no call outside the function.
func (r *R) ready(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `\(not moved to the patcher: its status is decided from w's status read at line 53, before the deferred write: .*by hand\)$`
	}()
	w.Status.Ready = w.Status.Size > 0
	return nil
}

// Decided from the spec alone: moved, Flush in the defer.
func (r *R) size(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	w.Status.Size = len(w.Spec.Roles)
	return nil
}

// The status read only logged: it decides nothing the deferred write
// sends; moved, Flush in the defer.
func (r *R) logged(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	fmt.Println("size was", w.Status.Size)
	w.Status.Size = len(w.Spec.Roles)
	return nil
}

// A status read only logged, then one deciding the status: kept, the
// reason naming the deciding read (line 98), not the logged one.
func (r *R) unsettled(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `\(not moved to the patcher: its status is decided from w's status read at line 98, before the deferred write: .*by hand\)$`
	}()
	if w.Status.Ready {
		fmt.Println("ready")
	}
	if !w.Status.Ready {
		w.Status.Ready = true
	}
	return nil
}

// The newcomer's scaffold (hack/installroute): the deferred write of the
// error condition, and the status decided from the status read written
// by a merge patch before the function returns: that write sends it (its
// own decision moves as a direct write's), not the deferred one. Moved.
func (r *R) parts(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		if retErr == nil {
			return
		}
		w.Status.Ready = false
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	base := w.DeepCopy()
	w.Status.Size = 0
	for range w.Spec.Roles {
		w.Status.Size = w.Status.Size + 1
	}
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
