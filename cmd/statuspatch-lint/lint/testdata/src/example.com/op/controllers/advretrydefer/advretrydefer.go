// Package advretrydefer: a deferred write whose status the function
// decides from the status it read (issue 80, helper D's R4). A Flush in
// the defer, over a cached read, is refused as a conflict under a
// manager and the next reconcile decides again (a second token): the
// decision moves into the deferred write's Retry, a token handed out
// made once (sync.OnceValue); past an early return it is a Retry of its
// own at its place (advdeferplaced); where it cannot (a call given a
// local of the decision), the write stays, naming why. A decision that
// reads no status moves, Flush in the defer.
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
		if err := r.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
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
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
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

// A status read only logged, then one deciding the status: both move
// into the deferred Retry.
func (r *R) unsettled(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
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

// tracker is no client: its Update of the object settles nothing.
type tracker struct{ seen int }

func (t *tracker) Update(w *v1.Widget) { t.seen++ } // want Update:`statusOnly\[0\]`

var track tracker

// The change is followed by tracker.Update, not a client's: still the
// deferred write's to send (at 85b631d a method of any type named Update
// settled it, and the write became a plain Flush of the cached read).
func (r *R) tracked(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `\(not moved to the patcher: its status is decided from w's status read at line 149, before the deferred write: .*the call track.Update at line 151 would run again on each attempt \(Update sets t\.seen at line 134\), and it is given w, whose status a conflict reads again.*by hand`
	}()
	if !w.Status.Ready {
		w.Status.Ready = true
		track.Update(w)
	}
	return nil
}

// An early return past the defer: the decision does not run on that
// path, and in the defer it would. Kept at f276c389; moved since (issue
// 80's Ship, migrateretrydeferplaced.go): the decision a Retry at its
// place, the token made once, its error kept for the deferred write,
// which has nothing left to send: a Retry changing nothing returns it.
func (r *R) early(ctx context.Context, key client.ObjectKey, skip bool) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if skip {
		return nil
	}
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	return nil
}

type notes struct{ n []string }

func (n *notes) Note(s string) { n.n = append(n.n, s) }

var noted notes

// A call whose result is unused: made once too (sync.OnceFunc), the
// decision moving into the deferred Retry.
func (r *R) noted(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if !w.Status.Ready {
		w.Status.Ready = true
		noted.Note("ready")
	}
	return nil
}

// A call given a local of the decision: the OnceFunc, declared before
// Retry, could not name it. Kept, naming the call.
func (r *R) notedLocal(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `\(not moved to the patcher: its status is decided from w's status read at line 211, before the deferred write: .*its decision cannot move into Retry as written: the call noted.Note at line 214 would run again on each attempt \(Note sets n\.n at line 180\), and it is given msg, which the decision declares.*by hand`
	}()
	if !w.Status.Ready {
		msg := "ready"
		w.Status.Ready = true
		noted.Note(msg)
	}
	return nil
}

// A direct write whose decision hands out a token: into Retry, the
// token made once.
func (r *R) direct(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
